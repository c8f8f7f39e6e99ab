"""What every part of the HTML page shares: labels, safe elements, which loci and readings are shown.

Elements are made with :func:`el`, which makes every string XML-safe: witness text is always
element text or an attribute value, never markup.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from lxml.html import html_parser

from collate.apparatus import LayerResult, Locus, Reading, ReadingClass, is_script_only, strongest
from collate.model import Cause, Layer, SourceLocation, Witness
from collate.model.annotations import DecisionAction, NoteClaim
from collate.model.chars import as_printed
from collate.model.citation import HTML

Element = Any  # lxml's element type (lxml ships no type information)

# Each class's Chinese name, with the English gloss beside it (ReadingClass.chinese, .gloss).
CLASS_LABELS: dict[ReadingClass, tuple[str, str]] = {c: (c.chinese, c.gloss) for c in ReadingClass}
# By cause (Cause.chinese), for the causes the page names in Chinese after a reading's class; the others,
# and a cause an editor named (haplography), are shown as written.
CAUSE_LABELS: dict[Cause | str, str] = {
    c: c.chinese for c in (Cause.TABOO, Cause.VARIANT, Cause.SEMANTIC, Cause.ARTIFACT, Cause.SCRIPT)
}
# The text layers' names in the edition (經 … 諸家說, 案語), in the layers' order.
LAYER_LABELS: dict[Layer, str] = {layer: layer.edition_name for layer in Layer if layer.is_text}
ACTION_LABELS: dict[DecisionAction, str] = {
    DecisionAction.KEEP: "從底本",
    DecisionAction.ADOPT: "改從",
    DecisionAction.RECLASSIFY: "改類",
    DecisionAction.DOUBT: "存疑",
}
# Drawn where the base lacks text another witness has.
CARET = "+"
# Characters XML (and so lxml) cannot hold: shown as U+FFFD rather than failing the page.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class ClaimNote(Protocol):
    """The note a claim comes from: where its words start in the base's raw text."""

    @property
    def start(self) -> int: ...


class Claim(Protocol):
    """A note's claim about a witness (:class:`collate.notes.Claim` fits), placed in the base's raw
    text (or not placed: None). ``kind`` is read by value (``emend`` …); the claim's words come
    from its fields as a locus carries them (:meth:`record`)."""

    @property
    def note(self) -> ClaimNote: ...
    @property
    def base_start(self) -> int | None: ...
    @property
    def base_end(self) -> int | None: ...
    @property
    def witness(self) -> str: ...
    @property
    def siglum(self) -> str | None: ...
    @property
    def kind(self) -> Enum: ...
    @property
    def via(self) -> str | None: ...
    def record(self) -> NoteClaim: ...


class ClaimCheck(Protocol):
    """A note's claim checked against a witness (:class:`collate.notes.Check` fits): ``witness`` is
    the siglum checked against (None if none was), ``actual`` what it has there, at ``location``."""

    @property
    def claim(self) -> Claim: ...
    @property
    def verdict(self) -> Enum: ...
    @property
    def witness(self) -> str | None: ...
    @property
    def actual(self) -> str: ...
    @property
    def location(self) -> SourceLocation | None: ...


# --- Elements ----------------------------------------------------------------------------------


def safe(text: str) -> str:
    """``text`` with the characters XML cannot hold (controls, lone surrogates) shown as U+FFFD.

    And as printed for a reader: a gaiji entity no table resolved (``&KR1249;``, which the
    witness's text and its tokens keep) is the printer's 〓 (:func:`~collate.model.chars.as_printed`).
    """
    if len(text) <= 2:
        # Most strings of a page are one character of the text: each is checked once.
        known = _SAFE_SHORT.get(text)
        if known is None:
            known = _SAFE_SHORT[text] = _NOT_XML.sub("\ufffd", text)
        return known
    return _NOT_XML.sub("\ufffd", as_printed(text))


_SAFE_SHORT: dict[str, str] = {}
_MAKE = html_parser.makeelement


def el(tag: str, attrs: Mapping[str, str] | None = None, *children: str | Element | None) -> Element:
    """An element; every string (text or attribute) made XML-safe, ``None`` children skipped.

    As ``lxml.html.builder.E`` builds it (text before the first child, a child's tail after
    it), without its per-call dispatch on types: a page has a million elements.
    """
    node: Element = _MAKE(tag, {k: safe(v) for k, v in attrs.items()} if attrs else None)
    last: Element | None = None
    run: list[str] = []

    def flush() -> None:
        # A run of strings is joined once: adding them one by one to .text is quadratic.
        text = safe("".join(run))
        run.clear()
        if last is None:
            node.text = text
        else:
            last.tail = text

    for child in children:
        if child is None:
            continue
        if isinstance(child, str):
            run.append(child)
            continue
        if run:
            flush()
        node.append(child)
        last = child
    if run:
        flush()
    return node


def append_text(parent: Element, text: str) -> None:
    """Append text at the end of ``parent`` (its text, or its last child's tail)."""
    if not text:
        return
    text = safe(text)
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def css(c: ReadingClass) -> str:
    """The CSS class of a reading class (``c-substantive``): colour and line style."""
    return f"c-{c.value}"


def class_label(c: ReadingClass) -> str:
    """``異文 substantive``."""
    zh, en = CLASS_LABELS[c]
    return f"{zh} {en}"


def badge(c: ReadingClass) -> Element:
    """A reading class as a small coloured label."""
    zh, en = CLASS_LABELS[c]
    return el("span", {"class": f"badge {css(c)}", "title": en}, zh)


def place(loc: SourceLocation | None) -> str:
    """A place as editors cite it: ``頁3a 行5`` if the file has printed pages, else the file's
    line and column (``行7 列120``)."""
    return HTML.cite(loc)


def full_place(loc: SourceLocation | None) -> str:
    """A place with its file, for a tooltip: ``000_….txt:23:4 (p. 3a, l. 5)``."""
    return "" if loc is None else str(loc).replace(loc.path, Path(loc.path).name, 1)


# --- What is shown -------------------------------------------------------------------------------


def shown_readings(locus: Locus) -> tuple[Reading, ...]:
    """The readings of a locus shown as variants: not 'not extant', not script-only."""
    return tuple(r for r in locus.variants() if not is_script_only(r))


def shown_loci(result: LayerResult) -> tuple[Locus, ...]:
    """The loci of a layer that are marked: those with at least one reading shown."""
    return tuple(x for x in result.loci if shown_readings(x))


def witnesses_shown(locus: Locus) -> str:
    """The sigla of the witnesses whose readings of a locus are shown, space-separated."""
    return " ".join(dict.fromkeys(s for r in shown_readings(locus) for s in r.sigla))


def quoted_works(base: Witness) -> tuple[str, ...]:
    """The works a compilation base quotes, as citations name them (禮記·射義; 夏官 and 周禮夏官 are
    one), in the order it first quotes them."""
    from collate.compilation import work_title

    titled = (s.work for s in base.spans if s.work and (s.layer.is_text or s.layer is Layer.HEADING))
    # Each work as written once (a book's spans name a few works thousands of times), then its title.
    return tuple(dict.fromkeys(work_title(work) for work in dict.fromkeys(titled)))


def work_css(works: Sequence[str], work: str) -> str:
    """The CSS class of the passages of a run-in title (``w-3``): a filter shows or hides them."""
    from collate.compilation import work_title

    return f"w-{works.index(work_title(work))}"


# A locus whose readings are all graphic confusions (形近: 己/已, 曰/日) is marked so too: a filter of its own.
LOOKALIKE_CSS = "k-look-alike"


def lookalike(locus: Locus) -> bool:
    """Every reading of the locus's strongest class that is shown is a look-alike (形近)."""
    cls = display_class(locus)
    mine = [r for r in shown_readings(locus) if r.cls is cls]
    return bool(mine) and all(r.cause == Cause.LOOKALIKE for r in mine)


def display_class(locus: Locus) -> ReadingClass:
    """The class a locus is marked with: the strongest among its shown readings."""
    return strongest(shown_readings(locus))
