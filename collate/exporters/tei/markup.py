"""TEI names, the element maker, and characters as TEI (PUA glyphs, what XML cannot hold, script)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any

from lxml.builder import ElementMaker

from collate.model.chars import GETA as GETA  # the content of a gaiji ``<g>`` not resolved

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_ID = f"{{{XML_NS}}}id"
XML_LANG = f"{{{XML_NS}}}lang"
NS = {"tei": TEI_NS}

Item = str | Any  # text or an lxml element (lxml ships no type stubs)
Items = list[Any]  # an element's content taken apart: strings and elements, in order


def coalesce(items: Iterable[Any]) -> Items:
    """``items`` with each run of adjacent strings joined into one.

    lxml adds a string child by concatenating it to the text or tail before it, so handing it a
    block of 100,000 one-character strings is quadratic (minutes for a long base block); joined
    first, it is one assignment.
    """
    out: Items = []
    run: list[str] = []
    for item in items:
        if isinstance(item, str):
            run.append(item)
            continue
        if run:
            out.append("".join(run))
            run = []
        out.append(item)
    if run:
        out.append("".join(run))
    return out


class _Maker(ElementMaker):  # type: ignore[misc]
    """lxml's element maker, with adjacent string children joined first (see :func:`coalesce`)."""

    def __call__(self, tag: str, *children: Any, **attrib: str) -> Any:
        return super().__call__(tag, *coalesce(children), **attrib)


E = _Maker(namespace=TEI_NS, nsmap={None: TEI_NS})

# Where a witness starts or stops being extant; only allowed inside <lem>/<rdg>.
MILESTONES = ("witStart", "witEnd", "lacunaStart", "lacunaEnd")
RESUMES = ("witStart", "lacunaEnd")

# Apparatus entry types that are not variants (see the package docstring).
SCRIPT = "script"
# Where Kanripo keeps the picture of each of its gaiji (kanripo/KR-Gaiji, ``images/KRnnnn.png``).
KANRIPO_GAIJI_IMAGE = "https://raw.githubusercontent.com/kanripo/KR-Gaiji/master/images/{code}.png"
EXTENT = "extent"
# A witness runs into its text a heading the base sets apart (記), or the other way: the same words.
LAYOUT = "layout"


def xml_char(char: str) -> bool:
    """True if XML 1.0 allows ``char`` (no C0 controls but tab/LF/CR, no surrogates, no U+FFFE/F)."""
    cp = ord(char)
    return cp in (0x9, 0xA, 0xD) or 0x20 <= cp <= 0xD7FF or 0xE000 <= cp <= 0xFFFD or 0x10000 <= cp <= 0x10FFFF


def is_pua(char: str) -> bool:
    """A Private Use Area code point: a glyph outside Unicode, declared in ``charDecl``."""
    cp = ord(char)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD


def control_gap(char: str) -> Any:
    """A character XML cannot hold, as ``<gap reason="control-character">`` naming its code point.

    A gap rather than a ``<g>``: ``<g>`` would have to contain the character (or a mapping
    holding it), which is exactly what XML forbids. The ``desc`` keeps it recoverable.
    """
    return E.gap(E.desc(f"U+{ord(char):04X}"), reason="control-character", quantity="1", unit="char")


def safe_attr(text: str) -> str:
    """An attribute value: characters XML cannot hold become U+FFFD (labels only, never text)."""
    return "".join(c if xml_char(c) else "\ufffd" for c in text)


def ncname(text: str) -> str:
    """``text`` made a valid ``xml:id`` (an NCName): other characters become ``_``."""
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", text)
    return name if name[:1].isalpha() or name[:1] == "_" else f"_{name}"


def name_part(text: str) -> str:
    """``text`` as the part of an ``xml:id`` after a prefix: letters and digits of any script kept.

    XML names allow CJK letters, so an editor 王 is ``ed-王`` rather than an opaque number;
    other characters (spaces, punctuation, marks) become ``_``. Letters below U+00C0 other
    than ASCII (ª, µ, º) are not name characters in XML and are replaced too.
    """

    def keep(ch: str) -> bool:
        if ch.isascii():
            return ch.isalnum() or ch in "_-."
        return ord(ch) >= 0xC0 and (unicodedata.category(ch)[0] == "L" or unicodedata.category(ch) == "Nd")

    return "".join(ch if keep(ch) else "_" for ch in text.strip()) or "_"


def script_of(text: str) -> str:
    """``Hans`` or ``Hant``: which script ``text`` is mostly in (by OpenCC's conversions).

    Asks the normalizer's script module (the one place OpenCC is loaded), character by
    character; only to label the text (``xml:lang``), never to change it.
    """
    from collate.normalize.script import script_counts

    traditional, simplified = script_counts(text)
    return "Hans" if simplified > traditional else "Hant"


# --- moving content between elements (lxml keeps text in .text and .tail) ---------------------


def detach(container: Any) -> Items:
    """Take ``container``'s content out of it, its text and each child's tail as strings of their own."""
    items: Items = []
    if container.text:
        items.append(container.text)
    container.text = None
    for child in list(container):
        tail, child.tail = child.tail, None
        container.remove(child)
        items.append(child)
        if tail:
            items.append(tail)
    return items


def attach(container: Any, items: Items) -> None:
    """Append ``items`` (strings and elements) to ``container``'s content."""
    last = container[-1] if len(container) else None
    for item in coalesce(items):
        if isinstance(item, str):
            if last is None:
                container.text = (container.text or "") + item
            else:
                last.tail = (last.tail or "") + item
        else:
            container.append(item)
            last = item


def splice(element: Any, items: Items) -> None:
    """Put ``items`` where ``element`` stands in its parent, in its place (its tail kept after them).

    Sibling by sibling (``addprevious``), never by position: finding an element's index is a scan
    of its siblings, and a block can have thousands.
    """
    parent = element.getparent()

    def text_before(text: str) -> None:
        before = element.getprevious()
        if before is None:
            parent.text = (parent.text or "") + text
        else:
            before.tail = (before.tail or "") + text

    for item in coalesce(items):
        if isinstance(item, str):
            text_before(item)
        else:
            element.addprevious(item)
    tail, element.tail = element.tail, None
    if tail:
        text_before(tail)
    parent.remove(element)
