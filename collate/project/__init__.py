"""The project file (``collate.toml``): what is collated, against which base, and how.

Reading it is a pipeline of its own, one module a step:

* :mod:`~collate.project.tables`: the file as written, one record per table (the witnesses, the
  settings, ``[normalize]``, ``[notes]``, ``[review]``, ``[limits]``), each key typed;
* :mod:`~collate.project.convert`: msgspec makes those records of the parsed TOML, strictly
  (a string is no number, a key no stage reads is refused), and a refusal is said at its line;
* :mod:`~collate.project.witnesses` and :mod:`~collate.project.checks`: what a type cannot say
  (sigla, encodings, layers, files that must exist), checked on the records;
* :mod:`~collate.project.records`: the :class:`Project` the stages read.

:mod:`~collate.project.positions` finds the line of any key of the text, for every message.
The records are msgspec's rather than cattrs' or pydantic's: msgspec already writes and reads the
saved run (:mod:`collate.runs.saved`), so one library types both files, and its errors name the
path of what they refuse (``$.witness[1].label``), which is all a line needs.
"""

from __future__ import annotations

from collate.project.load import load_project, project_from_mapping
from collate.project.records import (
    DEFAULT_LAYERS,
    PROJECT_FILE,
    STEM_RULE,
    Project,
    WitnessConfig,
    is_file_stem,
    is_siglum,
)
from collate.project.tables import SECTION_KEYS, SETTINGS, WITNESS_KEYS

__all__ = [
    "DEFAULT_LAYERS",
    "PROJECT_FILE",
    "SECTION_KEYS",
    "SETTINGS",
    "STEM_RULE",
    "WITNESS_KEYS",
    "Project",
    "WitnessConfig",
    "is_file_stem",
    "is_siglum",
    "load_project",
    "project_from_mapping",
]
