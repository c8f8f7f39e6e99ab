"""Exporters, one module a format, registered in one visible place.

Each module holds an ``EXPORTER`` (see :class:`Exporter`). Modules are imported on first
use, so ``collate --help`` does not pay for lxml or the TEI schema. Every exporter writes
from one :class:`ExportInput`, made once from a run.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from collate.registry import load

if TYPE_CHECKING:
    from collate.apparatus import Collation
    from collate.model import Witness
    from collate.notes import NotesResult
    from collate.pipeline import RunResult

# name -> module holding an ``EXPORTER``.
EXPORTERS: dict[str, str] = {
    "json": "collate.exporters.json",
    "tei": "collate.exporters.tei",
    "jiaokanji": "collate.exporters.jiaokanji",
    "html": "collate.exporters.html",
    "notes": "collate.exporters.notes",
}


@dataclass(frozen=True, slots=True)
class WitnessBibl:
    """What the project file says of a witness for its description: a citation and a note."""

    bibl: str = ""
    notes: str = ""


@dataclass(frozen=True, slots=True)
class ExportInput:
    """What the exporters write: the collation, the witnesses as read, the project's metadata, the notes.

    The collation carries the project's title, name and base; ``witnesses`` are the files as
    read, by siglum (the TEI and the HTML lay out the base's own text and pages, the JSON gives
    each witness's line starts); ``bibl`` what the project file says of each witness, by siglum
    (a witness it does not declare has none); ``notes`` the notes stage's result, if it ran.
    """

    collation: Collation
    witnesses: Mapping[str, Witness]
    bibl: Mapping[str, WitnessBibl] = field(default_factory=dict)
    notes: NotesResult | None = None

    @property
    def base(self) -> Witness:
        """The base witness as read."""
        return self.witnesses[self.collation.base]

    @classmethod
    def of(cls, run: RunResult) -> ExportInput:
        """The input of every exporter, from a whole run."""
        project = run.read.project
        return cls(
            collation=run.collation,
            witnesses=run.read.by_siglum(),
            bibl={w.siglum: WitnessBibl(w.bibl, w.notes) for w in project.witnesses},
            notes=run.notes,
        )


class Exporter(Protocol):
    """An output format: what it is called, its file suffix, and how to write an :class:`ExportInput`."""

    name: str
    suffix: str
    description: str

    def write(self, data: ExportInput, path: Path) -> None:
        """Write ``data`` to ``path`` (atomically: a reader never sees half a file)."""
        ...


def get_exporter(name: str) -> Exporter:
    """The exporter registered as ``name``, or a :class:`ProjectError` listing the known ones."""
    exporter: Exporter = load(EXPORTERS, name, "EXPORTER", "output format", "formats")
    return exporter


__all__ = ["EXPORTERS", "ExportInput", "Exporter", "WitnessBibl", "get_exporter"]
