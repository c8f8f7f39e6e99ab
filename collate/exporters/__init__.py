"""Exporters, one module a format, registered in one visible place.

Each module holds an ``EXPORTER`` (see :class:`Exporter`). Modules are imported on first
use, so ``collate --help`` does not pay for lxml or the TEI schema. Every exporter writes
from one :class:`~collate.results.ExportInput`, made once from a run.
"""

from __future__ import annotations

import re
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


# A format may write its output in parts beside its main file: the HTML of a book too large for
# one page is an index, with a page and a search script a part, and the stylesheet and scripts the
# pages share written once, as part 0. A part is named after the output's stem and its number
# (touhu.part-001.html, touhu.part-001.js, touhu.part-000.css), so that the output set knows the
# parts without asking the format: it writes them with the set, hashes them in its manifest, and
# removes those a later set no longer has.
IN_PARTS: frozenset[str] = frozenset({"html"})
_PART = re.compile(r"(?P<stem>.+)\.part-[0-9]{3,}\.(?:html|js|css)")


def part_name(stem: str, number: int, suffix: str) -> str:
    """The file of part ``number`` (from 1; 0 for what the parts share) of an output named after ``stem``:
    ``touhu.part-001.html``."""
    return f"{stem}.part-{number:03d}{suffix}"


def part_stem(name: str) -> str | None:
    """The stem of the output whose part the file ``name`` is (:func:`part_name`); None if it is no part."""
    found = _PART.fullmatch(name)
    return found.group("stem") if found is not None else None


def is_part(name: str, stem: str | None = None) -> bool:
    """Whether the file ``name`` is a part of an output (:func:`part_name`), of ``stem``'s if given."""
    found = part_stem(name)
    return found is not None and (stem is None or found == stem)


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

    def write(self, data: ExportInput, path: Path) -> Sequence[Path] | None:
        """Write ``data`` to ``path`` (atomically: a reader never sees half a file).

        A format of :data:`IN_PARTS` may write its output in parts beside ``path``
        (:func:`part_name`) and returns their paths; one written as one file returns None.
        """
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
    "IN_PARTS",
    "ON_REQUEST",
    "TEI_FLAVOURS",
    "Exporter",
    "get_exporter",
    "is_part",
    "part_name",
    "part_stem",
    "tei_formats",
]
