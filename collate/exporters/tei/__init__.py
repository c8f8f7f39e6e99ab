"""The collation as a TEI P5 critical apparatus: parallel segmentation, inline.

The body follows the base witness's spans in file order: 經 in ``<seg type="jing">``,
small-print layers in ``<note place="inline" type="commentary" subtype="zhu|shu|…">``,
editorial notes (蕙田案, 【案】) at their place in ``<note type="editorial">``, headings in
``<head>``/``<trailer>``. Every column of every collated layer is written exactly once, so
each witness's text can be read back out of the tree (:func:`witness_text_from_tei`):
shared text, plus that witness's ``<lem>``/``<rdg>`` in each ``<app>``, skipping what lies
between its ``witEnd``/``lacunaStart`` and ``witStart``/``lacunaEnd``.

Apparatus entries (``<app>``) come from the collation's loci. Two more kinds exist only so
that the file is lossless, and are typed so viewers can hide them: ``type="script"`` where
a witness differs from the base only by script (宾/賓: not a variant, but the witness's own
characters are kept), and ``type="extent"`` where a milestone must sit inside a reading.
The tree is built with :class:`lxml.builder.ElementMaker` and serialized once.

The modules follow the document: :mod:`.plan` (where each column is written), :mod:`.context`
(what all parts share), :mod:`.header`, :mod:`.body`, :mod:`.apparatus` (with the editor's
decisions in :mod:`.decisions`), :mod:`.own` (each witness's text the collation does not carry,
at the end of the body), and :mod:`.readback`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from collate.exporters.tei.body import body as write_body
from collate.exporters.tei.context import NOTE_LABELS, Context
from collate.exporters.tei.header import header as write_header
from collate.exporters.tei.header import stand_off as write_stand_off
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
from collate.exporters.tei.own import own_texts
from collate.exporters.tei.readback import witness_text_from_tei
from collate.files import write_atomic

if TYPE_CHECKING:
    from collate.exporters import ExportInput


def build_tei(data: ExportInput) -> Any:
    """The collation as a TEI P5 document (an lxml ``ElementTree``).

    ``data.witnesses`` are the witnesses as read (the base's spans give the order of 經/注/疏
    and its marks the pages); ``data.bibl`` gives each witness's bibliographic data.
    """
    ctx = Context(data)
    # The body first: it registers the glyphs, people and sources the header and standOff declare.
    body = write_body(ctx)
    # Then each witness's text the collation does not carry, so that nothing of a witness is lost.
    body.extend(own_texts(ctx))
    header = write_header(ctx)
    children = [header]
    stand_off = write_stand_off(ctx)
    if stand_off is not None:
        children.append(stand_off)
    children.append(E.text(body))
    tei = E.TEI(*children, {XML_LANG: f"lzh-{ctx.script}"})
    etree.indent(header, level=1)
    if stand_off is not None:
        etree.indent(stand_off, level=1)
    return etree.ElementTree(tei)


def tei_bytes(tree: Any) -> bytes:
    """The document serialized once: UTF-8 with an XML declaration and the schema's address."""
    pi = etree.ProcessingInstruction(
        "xml-model",
        'href="https://www.tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng" '
        'type="application/xml" schematypens="http://relaxng.org/ns/structure/1.0"',
    )
    root = tree.getroot()
    if root.getprevious() is None:
        root.addprevious(pi)
    out: bytes = etree.tostring(tree, xml_declaration=True, encoding="UTF-8")
    return out + b"\n"


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
    "EXPORTER",
    "EXTENT",
    "MILESTONES",
    "NOTE_LABELS",
    "NS",
    "SCRIPT",
    "TEI_NS",
    "XML_ID",
    "XML_LANG",
    "XML_NS",
    "E",
    "Item",
    "TeiExporter",
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
