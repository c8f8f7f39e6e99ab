"""The collation as a TEI P5 critical apparatus: parallel segmentation, inline.

The body follows the base witness's spans in file order: 經 in ``<seg type="jing">``,
small-print layers in ``<note place="inline" type="commentary" subtype="zhu|shu|…">``,
editorial notes (蕙田案, 【案】) at their place in ``<note type="editorial">``, headings in
``<head>``/``<trailer>``. Every column of every collated layer is written exactly once, so
each witness's text can be read back out of the tree (:func:`witness_text_from_tei`):
shared text, plus that witness's ``<lem>``/``<rdg>`` in each ``<app>``, skipping what lies
between its ``witEnd``/``lacunaStart`` and ``witStart``/``lacunaEnd``.

Apparatus entries (``<app>``) come from the collation's loci. Three more kinds exist only so
that the file is lossless, and are typed so viewers can hide them: ``type="script"`` where
a witness differs from the base only by script (宾/賓: not a variant, but the witness's own
characters are kept), ``type="layout"`` where it runs into its text a heading the base sets
apart (記) or the other way (:mod:`collate.apparatus.headings`), and ``type="extent"`` where a
milestone must sit inside a reading or a stretch is not every witness's (:mod:`.synopsis`). The tree is built with
:class:`lxml.builder.ElementMaker` and serialized once.

The modules follow the document: :mod:`.plan` (where each column is written), :mod:`.context`
(what all parts share), :mod:`.header`, :mod:`.body`, :mod:`.apparatus` (with the editor's
decisions in :mod:`.decisions`), :mod:`.own` (each witness's text the collation does not carry,
at the end of the body), :mod:`.document` (all of it, once), :mod:`.synopsis` (whose text each
stretch is), and :mod:`.readback`. :mod:`.edition` makes the publication form from the same
document: script differences (and, if the editor says so, orthographic ones) are no entries.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from collate.exporters.tei.context import NOTE_LABELS
from collate.exporters.tei.document import document, tei_bytes
from collate.exporters.tei.edition import EDITION, REGULARIZED, Policy, build_edition
from collate.exporters.tei.markup import (
    EXTENT,
    MILESTONES,
    NS,
    SCRIPT,
    TEI_NS,
    XML_ID,
    XML_LANG,
    XML_NS,
    E,
    Item,
    control_gap,
    is_pua,
    safe_attr,
    script_of,
    xml_char,
)
from collate.exporters.tei.readback import witness_text_from_tei
from collate.exporters.tei.synopsis import synoptic
from collate.files import write_atomic

if TYPE_CHECKING:
    from collate.results import ExportInput


def build_tei(data: ExportInput) -> Any:
    """The collation as a lossless TEI P5 document (an lxml ``ElementTree``).

    ``data.witnesses`` are the witnesses as read (the base's spans give the order of 經/注/疏
    and its marks the pages); ``data.bibl`` gives each witness's bibliographic data. Every
    stretch not every witness has is marked as its witnesses' (:mod:`.synopsis`), so a viewer
    with a column per witness shows each witness's text and nothing else.
    """
    tree, _ = document(data)
    synoptic(tree.getroot())
    return tree


def write_tei(data: ExportInput, out: Path) -> Path:
    """Write ``<out>/<name>.tei.xml`` atomically; return its path."""
    path = out / f"{data.collation.name}{TeiExporter.suffix}"
    write_atomic(path, tei_bytes(build_tei(data)))
    return path


class TeiExporter:
    """The registry's handle on this format: needs the witnesses as read, not only the collation."""

    name = "tei"
    suffix = ".tei.xml"
    description = "TEI P5 critical apparatus (parallel segmentation, inline), valid against tei_all"

    def write(self, data: ExportInput, path: Path) -> None:
        """Write the TEI to ``path`` atomically."""
        write_atomic(path, tei_bytes(build_tei(data)))


EXPORTER = TeiExporter()

__all__ = [
    "EDITION",
    "EXPORTER",
    "EXTENT",
    "MILESTONES",
    "NOTE_LABELS",
    "NS",
    "REGULARIZED",
    "SCRIPT",
    "TEI_NS",
    "XML_ID",
    "XML_LANG",
    "XML_NS",
    "E",
    "Item",
    "Policy",
    "TeiExporter",
    "build_edition",
    "build_tei",
    "control_gap",
    "is_pua",
    "safe_attr",
    "script_of",
    "tei_bytes",
    "witness_text_from_tei",
    "write_tei",
    "xml_char",
]
