"""The document both TEI flavours are made from, and its serialization.

:func:`document` writes the collation once: header, ``standOff``, the body in the base's order
and each witness's own text. The lossless file (:func:`collate.exporters.tei.build_tei`) and the
publication form (:mod:`.edition`) are both made from it, so the two never disagree on a reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lxml import etree

from collate.exporters.tei.body import body as write_body
from collate.exporters.tei.context import Context
from collate.exporters.tei.header import header as write_header
from collate.exporters.tei.header import stand_off as write_stand_off
from collate.exporters.tei.markup import XML_LANG, E
from collate.exporters.tei.own import own_texts

if TYPE_CHECKING:
    from collate.results import ExportInput


def document(data: ExportInput, regularize: bool = False) -> tuple[Any, Context]:
    """The collation as a TEI P5 document (an lxml ``ElementTree``), and the context it was written with.

    ``data.witnesses`` are the witnesses as read (the base's spans give the order of 經/注/疏
    and its marks the pages); ``data.bibl`` gives each witness's bibliographic data.
    ``regularize``: the base's own variant forms are given with their regular form
    (``<choice><orig>筭</orig><reg>算</reg></choice>``), for an edition that regularizes them.
    """
    ctx = Context(data, regularize)
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
    return etree.ElementTree(tei), ctx


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
