"""The last run, kept in the output folder so exports need not collate again.

The run is stored with :mod:`pickle` beside the outputs it produced (``.collate/last-run.pickle``),
tagged with the package version: a file from another version is refused rather than
misread. It is a cache of the project's own run, never a file to exchange.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path

from collate import __version__
from collate.errors import ExportError
from collate.files import write_atomic_with
from collate.pipeline import RunResult

STATE = Path(".collate") / "last-run.pickle"


@dataclass(frozen=True, slots=True)
class _Saved:
    version: str
    run: RunResult


def save_run(run: RunResult, out: Path) -> Path:
    """Keep ``run`` in ``out`` for later exports; written atomically."""
    path = out / STATE
    saved = _Saved(__version__, run)
    # Pickled straight into the file: a book's run is hundreds of megabytes, not held twice.
    write_atomic_with(path, lambda out: pickle.dump(saved, out, protocol=pickle.HIGHEST_PROTOCOL))
    return path


def load_run(out: Path) -> RunResult:
    """The run last saved in ``out``, or an :class:`ExportError` saying to run first."""
    path = out / STATE
    try:
        saved = pickle.loads(path.read_bytes())
    except FileNotFoundError:
        raise ExportError(
            "no collation has been run here yet", where=str(out), hint="run `collate run` first"
        ) from None
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError):
        raise ExportError("the saved run cannot be read", where=str(path), hint="run `collate run` again") from None
    if not isinstance(saved, _Saved) or saved.version != __version__:
        raise ExportError(
            "the saved run is from another version of collate", where=str(path), hint="run `collate run` again"
        )
    return saved.run
