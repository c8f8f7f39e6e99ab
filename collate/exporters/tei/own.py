"""Text a witness has that the collation does not carry, written as that witness's own.

The apparatus holds each witness's text only in the layers collated for it. The rest of a
witness (its 釋文 where the base has none, a 集說本's commentary, its 考證 and 【案】, its
headings, a passage of another work) would be lost, so the end of the body gets, per witness,
``<div type="witness" corresp="#ZS">`` with one ``<div type="LAYER">`` per layer and, in it, each
unit as the base's blocks are written (``<seg type="jing">``, ``<seg type="commentary">``,
``<note type="editorial">``, ``<head>``), all with ``@source`` pointing at the witness: "text of
this witness only", as the base's own uncollated blocks carry ``source="#SK"``. Characters,
punctuation (``<pc>``), attributions (``<label>``) and the witness's page and line breaks
(``@edRef``) are written as in the body; each unit opens with the page and line it begins on
whenever a break of the witness came since the unit before, so every unit can be cited.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from collate.exporters.tei.context import Context, Event
from collate.exporters.tei.markup import XML_LANG, E, Item, script_of
from collate.exporters.tei.plan import base_blocks
from collate.model import Layer, Mark, MarkKind, Role, Span, Token, Witness


@dataclass(frozen=True, slots=True)
class Unit:
    """One block of a witness that the collation does not carry: where it lies, its spans, its tokens."""

    layer: Layer
    start: int
    end: int
    spans: tuple[Span, ...]
    tokens: tuple[Token, ...]


def plain_text(ctx: Context, tokens: Iterable[Token], events: Iterable[Event]) -> list[Item]:
    """Text that is not collated: each token's characters with the punctuation printed around it.

    Written as the collated text is (``<pc>``, ``<g>``, ``<unclear>``), so the characters read
    back are the tokens' own; ``events`` (breaks, attributions) come at their offsets, before
    a token at the same offset.
    """
    out = [*events, *(Event(t.start, 2, t) for t in tokens)]
    out.sort(key=lambda e: (e.offset, e.order))
    items: list[Item] = []
    for e in out:
        items.extend(ctx.base_token(e.item) if isinstance(e.item, Token) else [e.item])
    return items


def own_texts(ctx: Context) -> list[Any]:
    """One ``<div type="witness">`` per full witness other than the base with text not collated."""
    out = []
    for info in ctx.collation.witnesses:
        witness = ctx.witnesses.get(info.siglum)
        if info.siglum == ctx.collation.base or witness is None or witness.sparse:
            continue
        div = _witness_div(ctx, witness)
        if div is not None:
            out.append(div)
    return out


def uncollated_units(ctx: Context, witness: Witness) -> list[Unit]:
    """The witness's blocks in file order, each with its tokens the collation does not carry.

    A block whose every token is collated is left out; a block partly collated (a passage of
    another work inside a collated unit) keeps only its other tokens, and the range between them.
    """
    aligned = _aligned(ctx, witness.siglum)
    # A layer whose every token the run made is in the alignment has nothing here: not tokenized again.
    sizes = ctx.layer_sizes.get(witness.siglum, {})
    complete = {layer for layer, held in aligned.items() if sizes.get(layer) == len(held)}
    units = []
    for block in base_blocks(witness):
        if block.layer in complete:
            continue
        tokens = ctx.tokens_in(witness.siglum, block.layer, block.start, block.end)
        held = aligned.get(block.layer, frozenset())
        own = tuple(t for t in tokens if t.start not in held)
        if not own:
            continue
        whole = len(own) == len(tokens)
        start, end = (block.start, block.end) if whole else (own[0].start, own[-1].end)
        spans = tuple(s for s in block.spans if s.start < end and s.end > start)
        units.append(Unit(block.layer, start, end, spans, own))
    return units


def _aligned(ctx: Context, siglum: str) -> dict[Layer, frozenset[int]]:
    """Per collated layer, the raw offsets of the witness's tokens in the alignment."""
    out: dict[Layer, frozenset[int]] = {}
    for layer, lay in ctx.layers.items():
        j = lay.index.get(siglum)
        if j is not None:
            out[layer] = frozenset(tok.start for col in lay.columns if (tok := col[j]) is not None)
    return out


def _witness_div(ctx: Context, witness: Witness) -> Any | None:
    units = uncollated_units(ctx, witness)
    if not units:
        return None
    breaks = _Breaks(sorted(witness.marks, key=lambda m: m.offset))
    by_layer: dict[Layer, list[Unit]] = {}
    for unit in units:
        by_layer.setdefault(unit.layer, []).append(unit)
    layers = [_layer_div(ctx, witness, layer, by_layer[layer], breaks) for layer in Layer if layer in by_layer]
    attrs = {"type": "witness", "corresp": f"#{witness.siglum}"}
    script = script_of("".join(t.t for u in units for t in u.tokens))
    if script != ctx.script:
        # A witness in the other script than the base's (the header declares both).
        attrs[XML_LANG] = f"lzh-{script}"
    div = E.div(*layers, attrs)
    div.tail = "\n"
    return div


def _layer_div(ctx: Context, witness: Witness, layer: Layer, units: Sequence[Unit], breaks: _Breaks) -> Any:
    """The witness's units of one layer, each with the page and line it begins on."""
    div = E.div(type=layer.value)
    div.text = "\n"
    last: int | None = None
    for unit in units:
        opening = [ctx.milestone(m, witness.siglum) for m in breaks.opening(last, unit.start)]
        element = _element(ctx, witness, unit, breaks.inside(unit.start, unit.end))
        if layer is Layer.HEADING:
            # Headings stand in the division itself (TEI has no heading inside a paragraph).
            for item in [*opening, element]:
                div.append(item)
            element.tail = "\n"
        else:
            p = E.p(*opening, element)
            p.tail = "\n"
            div.append(p)
        last = unit.end
    return div


def _element(ctx: Context, witness: Witness, unit: Unit, marks: Iterable[Mark]) -> Any:
    """The unit as the base's block of its layer is written, marked as the witness's text only."""
    events = [Event(m.offset, 0, ctx.milestone(m, witness.siglum)) for m in marks]
    events.extend(
        Event(s.start, 1, E.label(*ctx.text(witness.text[s.start : s.end]), type="attribution"))
        for s in unit.spans
        if s.role is Role.ATTRIBUTION
    )
    content = plain_text(ctx, unit.tokens, events)
    source = {"source": f"#{witness.siglum}"}
    layer = unit.layer
    if layer is Layer.JING:
        return E.seg(*content, source, type="jing", ana="#jing")
    if layer is Layer.HEADING:
        return E.head(*content, source)
    if layer is Layer.NOTE:
        resp = ctx.note_resp(witness.text, unit.spans, unit.start)
        attrs = {**source, "resp": resp} if resp else source
        return E.note(*content, attrs, type="editorial", subtype="an", ana="#note", n=layer.chinese)
    return ctx.commentary(layer, unit.spans, content, source)


class _Breaks:
    """A witness's page and line breaks by offset: those inside a unit, and those it opens with."""

    def __init__(self, marks: list[Mark]) -> None:
        self.marks = marks
        self.offsets = [m.offset for m in marks]
        self.pages = [m for m in marks if m.kind is MarkKind.PAGE]
        self.lines = [m for m in marks if m.kind is MarkKind.LINE]
        self.page_offsets = [m.offset for m in self.pages]
        self.line_offsets = [m.offset for m in self.lines]

    def inside(self, start: int, end: int) -> list[Mark]:
        """The breaks within ``[start, end)``; a page or line at ``start`` is in :meth:`opening`."""
        lo, hi = bisect.bisect_left(self.offsets, start), bisect.bisect_left(self.offsets, end)
        return [m for m in self.marks[lo:hi] if m.offset > start or m.kind not in (MarkKind.PAGE, MarkKind.LINE)]

    def opening(self, last: int | None, start: int) -> list[Mark]:
        """The page and line in force at ``start`` that changed since ``last``, the previous unit's end.

        A break between two units of the division was written elsewhere (with the text it
        stands before) or nowhere: without it here the reader would cite the wrong page.
        The first unit (``last`` None) opens with both.
        """
        k = bisect.bisect_right(self.page_offsets, start) - 1
        page = self.pages[k] if k >= 0 else None
        k = bisect.bisect_right(self.line_offsets, start) - 1
        # A line number counts on its page: one from an earlier page would be wrong here.
        line = self.lines[k] if k >= 0 and (page is None or self.lines[k].offset >= page.offset) else None
        new_page = page is not None and (last is None or page.offset >= last)
        new_line = line is not None and (last is None or line.offset >= last or new_page)
        return [m for m, new in ((page, new_page), (line, new_line)) if m is not None and new]
