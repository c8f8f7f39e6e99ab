"""Exporters, one module a format, registered in one visible place.

Each module holds an ``EXPORTER`` (see :class:`Exporter`). Modules are imported on first
use, so ``collate --help`` does not pay for lxml or the TEI schema. Every exporter writes
from one :class:`~collate.results.ExportInput`, made once from a run.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from collate.registry import load

if TYPE_CHECKING:
    from collate.results import ExportInput

# name -> module holding an ``EXPORTER``.
EXPORTERS: dict[str, str] = {
    "json": "collate.exporters.json",
    "tei": "collate.exporters.tei",
    "jiaokanji": "collate.exporters.jiaokanji",
    "html": "collate.exporters.html",
    "notes": "collate.exporters.notes",
}


# Formats written only when asked for, never as part of a run's set: name -> (module, attribute).
ON_REQUEST: dict[str, tuple[str, str]] = {
    "tei-edition": ("collate.exporters.tei.edition", "EXPORTER"),
    "tei-edition-regularized": ("collate.exporters.tei.edition", "REGULARIZED_EXPORTER"),
}
# The TEI flavours `collate export --tei` chooses among, and the format each is written by: the
# lossless file (every witness's own characters), or a publication form (an entry per variant).
TEI_FLAVOURS: dict[str, str] = {
    "lossless": "tei",
    "edition": "tei-edition",
    "edition-regularized": "tei-edition-regularized",
}


def tei_formats(formats: Sequence[str], flavours: Sequence[str]) -> tuple[str, ...]:
    """``formats`` (none: all) with the TEI written in each of ``flavours`` (none: as it is).

    A flavour names the TEI to write, so asking for one writes the TEI even if ``formats`` leave it out.
    """
    if not flavours:
        return tuple(formats)
    chosen = [TEI_FLAVOURS[f] for f in dict.fromkeys(flavours)]
    return (*(f for f in formats or EXPORTERS if f != "tei"), *chosen)


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
    if name in ON_REQUEST:
        module, attribute = ON_REQUEST[name]
        on_request: Exporter = getattr(import_module(module), attribute)
        return on_request
    exporter: Exporter = load(EXPORTERS, name, "EXPORTER", "output format", "formats")
    return exporter


__all__ = [
    "EXPORTERS",
    "ON_REQUEST",
    "TEI_FLAVOURS",
    "Exporter",
    "get_exporter",
    "tei_formats",
]
