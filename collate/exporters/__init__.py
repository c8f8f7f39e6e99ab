"""Exporters, one module a format, registered in one visible place.

Each module holds an ``EXPORTER`` (see :class:`Exporter`). Modules are imported on first
use, so ``collate --help`` does not pay for lxml or the TEI schema.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from collate.errors import ExportError
from collate.registry import load

if TYPE_CHECKING:
    from collate.pipeline import RunResult

# name -> module holding an ``EXPORTER``.
EXPORTERS: dict[str, str] = {
    "json": "collate.exporters.json",
    "tei": "collate.exporters.tei",
    "jiaokanji": "collate.exporters.jiaokanji",
    "html": "collate.exporters.html",
    "notes": "collate.exporters.notes",
}


class Exporter(Protocol):
    """An output format: what it is called, its file suffix, and how to write a run.

    ``write`` takes the whole run (:class:`~collate.pipeline.RunResult`: the witnesses as read,
    their tokens, the collation and its notes), because some formats need more than the
    collation: the TEI and the HTML lay out the base witness's own text and pages.
    """

    name: str
    suffix: str
    description: str

    def write(self, run: RunResult, path: Path) -> None:
        """Write ``run`` to ``path`` (atomically: a reader never sees half a file)."""
        ...


def get_exporter(name: str) -> Exporter:
    """The exporter registered as ``name``, or a :class:`ProjectError` listing the known ones."""
    exporter: Exporter = load(EXPORTERS, name, "EXPORTER", "output format", "formats")
    return exporter


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename.

    ``os.replace`` within one folder is atomic, so a reader (or an interrupted run) sees the
    old file or the new one, never half of one. Text is written as UTF-8.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    try:
        if hasattr(os, "fchmod"):
            # mkstemp makes the file private (0600); an output should get the usual permissions.
            os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as out:
            out.write(payload)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    except BaseException:
        # Interrupted (Ctrl-C): leave no temporary file behind, then let it propagate.
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["EXPORTERS", "Exporter", "get_exporter", "write_atomic"]
