"""The project as the stages read it: its witnesses, its base, its settings, and its names' rules."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from collate.errors import ProjectError

PROJECT_FILE = "collate.toml"
# Layers collated by default: the classic and its commentaries, each with its own kind.
DEFAULT_LAYERS = ("jing", "zhu", "shu", "shiwen")
_SIGLUM = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
# The outputs are named `{name}.tei.xml` …: the name must stay one file in the output folder.
# \w is Unicode-aware (letters and digits of every script, CJK included, and _); a leading `.`
# would hide the files (and `.`/`..` name folders); separators would leave the folder.
_STEM = re.compile(r"(?!\.)[\w.-]+")
STEM_RULE = "letters, digits, CJK characters, - _ and . (not first); no / or \\"


def is_siglum(name: str) -> bool:
    """True if ``name`` can be a siglum: an ASCII identifier (so never a path: no ``.`` or ``/``)."""
    return bool(_SIGLUM.fullmatch(name))


def is_file_stem(name: str) -> bool:
    """True if ``name`` can name output files: one plain file name in the output folder, not hidden."""
    return bool(_STEM.fullmatch(name))


@dataclass(frozen=True, slots=True)
class WitnessConfig:
    """One witness as the project file declares it."""

    siglum: str
    label: str
    path: Path
    layout: str = "auto"
    container: str = "auto"
    encoding: str | None = None
    notes: str = ""
    bibl: str = ""
    artifacts: tuple[str, ...] = ()
    layers: tuple[str, ...] | None = None
    # The witness quotes the base's work in pieces (a compilation, a 集說): collated only where it quotes.
    quotes: bool = False
    # Where the pictures of its pages are: a URL pattern (collate.model.facsimile), or "".
    facs: str = ""

    @property
    def display_path(self) -> str:
        """The path as the user wrote it, for messages."""
        return str(self.path)


@dataclass(frozen=True, slots=True)
class Project:
    """A collation project: witnesses, base, and the settings of each stage.

    ``root`` is the folder paths are relative to. ``sections`` keeps the other tables of
    the project file (``[normalize]``, ``[notes]`` …) for the stage that owns each.
    """

    title: str
    name: str
    base: str
    witnesses: tuple[WitnessConfig, ...]
    root: Path
    source: Path | None = None
    gaiji_table: Path | None = None
    layers: tuple[str, ...] = DEFAULT_LAYERS
    # The work(s) of a compilation base to collate, as its run-in titles print them; None: every one.
    work: str | tuple[str, ...] | None = None
    sections: Mapping[str, Any] = field(default_factory=dict)
    # Folders of edition files (a shelf): the files holding passages the base quotes join as witnesses.
    shelf: tuple[Path, ...] = ()

    @property
    def works(self) -> tuple[str, ...]:
        """The works named by ``work`` (none: every work a compilation base quotes)."""
        if self.work is None:
            return ()
        return (self.work,) if isinstance(self.work, str) else self.work

    def witness(self, siglum: str) -> WitnessConfig:
        """The witness with this siglum."""
        for w in self.witnesses:
            if w.siglum == siglum:
                return w
        raise ProjectError(f"no witness {siglum!r} in the project", where=str(self.source or self.root))

    def resolve(self, path: Path) -> Path:
        """A path from the project file, made absolute against the project's folder."""
        return path if path.is_absolute() else self.root / path


__all__ = ["DEFAULT_LAYERS", "PROJECT_FILE", "STEM_RULE", "Project", "WitnessConfig", "is_file_stem", "is_siglum"]
