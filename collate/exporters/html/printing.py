"""The page printed: the base text with its loci numbered, then a 校勘記, an entry a locus.

On screen none of this shows. Printed (the stylesheet's ``@media print``), the page is a title
with the witnesses, the text as the 讀本 sets it, each marked locus followed by its number, and
the 校勘記: the same numbers, each entry giving the base's printed place and what the witnesses
have there in the words of a 校勘記 (「哨」，大戴禮作「峭」。). What the filters hide is left
out of both, so the numbers still meet: the 異體 box starts unticked, and 異體字不出校 (the count
is said). The numbers are CSS counters: the text's counter steps on the last piece of each mark
(:func:`number_marks` marks it), the 校勘記's on each entry, in the same order. The 直排 box sets
the print in vertical lines (``writing-mode: vertical-rl``), as a 校勘記 is printed in a book.
"""

from __future__ import annotations

from collections.abc import Iterable

from collate.apparatus import LayerResult, Locus, Reading, ReadingClass
from collate.exporters.html.common import (
    CLASS_LABELS,
    LAYER_LABELS,
    LOOKALIKE_CSS,
    Element,
    css,
    display_class,
    el,
    lookalike,
    place,
    shown_readings,
    witnesses_shown,
)
from collate.exporters.html.context import Context, base_tokens
from collate.model import Cause, Layer

# The classes a 校勘記 names after an entry; a substantive reading, an omission or an addition is said by its words.
_NAMED = frozenset(ReadingClass) - {ReadingClass.SUBSTANTIVE, ReadingClass.OMISSION, ReadingClass.ADDITION}


def number_marks(blocks: Iterable[Element]) -> list[tuple[str, str]]:
    """Mark the last piece of each locus the text draws (class ``n``: the print numbers it there),
    and give the loci in the order of those pieces, each with the class of the quoted work its
    paragraph is of (``w-3``, or ""), so that the 校勘記 hides with the text a work's box hides.

    A locus is drawn in pieces where a page break or other small print falls inside it; its
    number goes after its last character.
    """
    last: dict[str, tuple[int, Element, str]] = {}
    k = 0
    for block in blocks:
        work = next((c for c in (block.get("class") or "").split() if c.startswith("w-")), "")
        for node in block.iter("span"):
            locus = node.get("data-locus")
            if locus is not None and "v" in (node.get("class") or "").split():
                last[locus] = (k, node, work)
                k += 1
    for _, node, _ in last.values():
        node.set("class", f"{node.get('class')} n")
    return [(locus, work) for locus, (_, _, work) in sorted(last.items(), key=lambda x: x[1][0])]


def print_head(ctx: Context) -> Element:
    """The title and the witnesses, printed above the text (the bar is not printed)."""
    base = ctx.collation.base
    others = "、".join(f"{ctx.label(w.siglum)}（{w.siglum}）" for w in ctx.collation.witnesses if w.siglum != base)
    wits = f"底本：{ctx.label(base)}（{base}）。" + (f"校本：{others}。" if others else "")
    return el("header", {"class": "print-head"}, el("h1", None, f"{ctx.collation.title} 校勘記"), el("p", None, wits))


def apparatus(ctx: Context, order: list[tuple[str, str]], folded: int) -> Element:
    """The 校勘記: an entry for each marked locus, in the order the text numbers them; ``folded``
    is how many loci the page opens unmarked (said while they stay so)."""
    by_id = {locus.id: (result, locus) for result, locus in ctx.shown}
    entries = el("ol", {"class": "entries"})
    for locus_id, work in order:
        if locus_id in by_id:
            entries.append(_entry(ctx, *by_id[locus_id], work, numbered=True))
    drawn = {locus_id for locus_id, _ in order}
    # A locus the text could not place (no base character to hang it on) is listed after, unnumbered.
    entries.extend(_entry(ctx, r, locus, "", numbered=False) for r, locus in ctx.shown if locus.id not in drawn)
    section = el("section", {"id": "jkj", "class": "jkj", "aria-label": "校勘記"}, el("h2", None, "校勘記"))
    if folded:
        names = "、".join(CLASS_LABELS[c][0] for c in (ReadingClass.ORTHOGRAPHIC,))
        section.append(el("p", {"class": "fold-note"}, f"{names}字不出校（凡 {folded} 處）。"))
    section.append(entries)
    return section


def _entry(ctx: Context, result: LayerResult, locus: Locus, work: str, *, numbered: bool) -> Element:
    c = display_class(locus)
    names = " ".join(
        n for n in ("e", css(c), f"l-{locus.layer.value}", LOOKALIKE_CSS if lookalike(locus) else "", work) if n
    )
    names += "" if numbered else " x"
    layer = "" if locus.layer is Layer.JING else f"〔{LAYER_LABELS.get(locus.layer, locus.layer.value)}〕"
    attrs = {"class": names, "data-locus": locus.id, "data-wits": witnesses_shown(locus)}
    where = el("span", {"class": "at"}, place(locus.lemma.location))
    return el("li", attrs, where, "　", layer, entry_words(ctx, result, locus))


def entry_words(ctx: Context, result: LayerResult, locus: Locus) -> str:
    """What the witnesses have at ``locus``, as a 校勘記 says it: 「哨」，大戴禮作「峭」。

    Witnesses printing the same characters share a clause (並); an omission is 無「…」, text
    the base lacks 「X」下有「…」 (X the base's character before it); a class other than a reading,
    an omission or an addition is named after its clause (異體, 通假, 形近 …); then the editor's decision.
    """
    lemma = locus.lemma.text
    clauses: list[str] = []
    replaced = False
    for reading in shown_readings(locus):
        for text, who in _by_text(ctx, reading).items():
            both = "並" if len(who) > 1 else ""
            if not text:
                words = f"無「{lemma}」"
            elif not lemma:
                words = f"{_before(result, locus)}有「{text}」"
            else:
                words, replaced = f"作「{text}」", True
            clauses.append(f"{'、'.join(who)}{both}{words}{_named(reading)}")
    head = f"「{lemma}」，" if replaced else ""
    return head + "；".join(clauses) + "。" + _decided(ctx, locus)


def _by_text(ctx: Context, reading: Reading) -> dict[str, list[str]]:
    """The reading's witnesses by the characters each prints (賔 and 賓 are one reading, two glyphs),
    named in the collation's order of witnesses."""
    rank = {siglum: k for k, siglum in enumerate(ctx.order)}
    out: dict[str, list[str]] = {}
    for w in sorted(reading.witnesses, key=lambda w: rank.get(w.siglum, len(rank))):
        out.setdefault(w.text, []).append(ctx.label(w.siglum))
    return out


def _before(result: LayerResult, locus: Locus) -> str:
    """「X」下, X the base's character before an addition (none at the start of the layer)."""
    tok = base_tokens(result).get(locus.base_start - 1)
    return f"「{tok.t}」下" if tok is not None else ""


def _named(reading: Reading) -> str:
    if reading.cause == Cause.LOOKALIKE:
        return "（形近）"
    return f"（{CLASS_LABELS[reading.cls][0]}）" if reading.cls in _NAMED else ""


def _decided(ctx: Context, locus: Locus) -> str:
    d = ctx.decisions.get(locus.id)
    if d is None:
        return ""
    if d.doubtful:
        words = "存疑。"
    elif d.adopted is not None and d.siglum:
        words = f"今從{ctx.label(d.siglum)}。"
    else:
        words = "今仍底本。"
    return words + (f"（{d.comment}）" if d.comment else "")
