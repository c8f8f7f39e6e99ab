"""The ``<body>``: the base's blocks in file order, with the collated layers' columns inside.

經 in ``<seg type="jing">``, commentary layers in ``<seg type="commentary" subtype="zhu|shu|…">``,
editorial notes at their place in ``<note type="editorial">``, headings in ``<head>`` (a run of
them opens a ``<div>``) and closing lines in ``<trailer>``. Within a collated block, plain
columns are text and everything else is an ``<app>`` (see :mod:`.apparatus`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from collate.compilation import work_title
from collate.exporters.tei.apparatus import app, moved_app
from collate.exporters.tei.context import Context, Event
from collate.exporters.tei.markup import TEI_NS, XML_ID, E, Item
from collate.exporters.tei.own import plain_text
from collate.exporters.tei.plan import Block, CollatedLayer, Piece
from collate.model import HeadingKind, Layer, Mark, Role


def body(ctx: Context) -> Any:
    """The ``<body>``: a ``<div>`` a section, paragraphs of blocks, unplaced columns at the end."""
    out = _Sections()
    marks = ctx.base_marks
    k = 0
    for block in ctx.blocks:
        while k < len(marks) and marks[k].offset <= block.start:
            _append(out.container(), ctx.milestone(marks[k], ctx.collation.base))
            k += 1
        inner: list[Mark] = []
        while k < len(marks) and marks[k].offset < block.end:
            inner.append(marks[k])
            k += 1
        element = _block(ctx, block, inner)
        if block.layer is not Layer.HEADING:
            out.text(element)
        elif _is_trailer(block, ctx.base.text):
            out.trailer(element)
        else:
            out.open_heading()
            work = next((s.work for s in block.spans if s.work), None)
            if work:
                # A passage a compilation quotes under a run-in title: its source, the work and
                # chapter it names, is a <bibl> in standOff.
                out.div.set("source", ctx.source(work_title(work)))
            out.div.append(element)
    while k < len(marks):
        _append(out.container(), ctx.milestone(marks[k], ctx.collation.base))
        k += 1
    orphans = [(lay, piece) for lay in ctx.layers.values() for piece in lay.orphans]
    if orphans:
        # Columns of a layer the base does not have at all: kept, at the end, so nothing is lost.
        tail = E.div(type="unplaced")
        for lay, piece in orphans:
            tail.append(E.p(ctx.commentary(lay.layer, (), _pieces(ctx, lay, [piece], [], 0), {})))
        out.body.append(tail)
    return out.body


class _Sections:
    """The ``<body>`` as it grows: its open division, the division's open paragraph, and where in
    the division the blocks are (``top``: its headings; ``body``: its paragraphs; ``bottom``: its
    closing lines)."""

    def __init__(self) -> None:
        self.body = E.body()
        self.div: Any = None
        self.p: Any = None
        self.phase = "top"
        self.new_div()

    def container(self) -> Any:
        """Where a milestone between blocks goes: the open paragraph, else the division."""
        return self.p if self.p is not None else self.div

    def new_div(self) -> None:
        """A new division, its headings to come."""
        self.div = E.div(type="section")
        self.body.append(self.div)
        self.p, self.phase = None, "top"

    def open_heading(self) -> None:
        """A heading after the division's text opens a new division."""
        if self.phase != "top":
            self.new_div()

    def trailer(self, element: Any) -> None:
        """A closing line, which ends the division's text."""
        element.tag = f"{{{TEI_NS}}}trailer"
        if self.phase == "top":
            # TEI allows a closing line only after some content: a section without any
            # (a heading, then at once its closing line) gets an empty paragraph.
            self.div.append(E.p())
        # A closing line after another (右投壺, then 右射禮) stays in the same division.
        self.div.append(element)
        self.p, self.phase = None, "bottom"

    def text(self, element: Any) -> None:
        """A block of text, in the division's paragraph (a new division after a closing line)."""
        if self.phase == "bottom":
            self.new_div()
        if self.p is None:
            self.p = E.p()
            self.div.append(self.p)
            self.phase = "body"
        _append(self.p, element)


def _append(parent: Any, element: Any) -> None:
    # A newline after each block keeps the file readable; whitespace between blocks is no text.
    element.tail = "\n"
    parent.append(element)


def _block(ctx: Context, block: Block, marks: list[Mark]) -> Any:
    """The element for one base block: its text (collated or not) with the base's marks inside."""
    events = [Event(m.offset, 0, ctx.milestone(m, ctx.collation.base)) for m in marks]
    events.extend(
        Event(s.start, 1, E.label(*ctx.text(ctx.base.text[s.start : s.end]), type="attribution"))
        for s in block.spans
        if s.role is Role.ATTRIBUTION
    )
    events.sort(key=lambda e: (e.offset, e.order))
    lay = ctx.layers.get(block.layer)
    if lay is not None and block.index in lay.pieces:
        content = _pieces(ctx, lay, lay.pieces[block.index], events, block.start)
        return _wrap(ctx, block, content)
    base = ctx.collation.base
    element = _wrap(ctx, block, plain_text(ctx, ctx.tokens_in(base, block.layer, block.start, block.end), events))
    # Text of the base that was not collated (a layer left out, a passage of another work, a heading).
    element.set("source", f"#{base}")
    return element


def _wrap(ctx: Context, block: Block, content: list[Item]) -> Any:
    layer = block.layer
    attrs: dict[str, str] = {XML_ID: block.id}
    if layer is Layer.JING:
        ctx.last_of[layer] = block.id
        return E.seg(*content, attrs, type="jing", ana="#jing")
    if layer is Layer.HEADING:
        return E.head(*content, attrs)
    if layer is Layer.NOTE:
        resp = ctx.note_resp(ctx.base.text, block.spans, block.start)
        if resp:
            attrs["resp"] = resp
        apps = sorted(ctx.block_apps.get(block.id, ()))
        if apps:
            attrs["target"] = " ".join(apps)
        return E.note(*content, attrs, type="editorial", subtype="an", ana="#note", n=layer.chinese)
    glossed = ctx.last_of.get(Layer.ZHU if layer is Layer.SHU else Layer.JING)
    if layer is Layer.ZHU:
        ctx.last_of[layer] = block.id
    if glossed:
        attrs["corresp"] = f"#{glossed}"
    return ctx.commentary(layer, block.spans, content, attrs)


def _pieces(ctx: Context, lay: CollatedLayer, pieces: list[Piece], events: list[Event], cursor: int) -> list[Item]:
    """A collated block: plain columns as text, loci and script/extent differences as ``<app>``.

    ``cursor`` is the block's start: text the base lacks sits at the offset of the base
    text before it.
    """
    items: list[Item] = []
    ev = 0
    for piece in pieces:
        for unit in _units(ctx, lay, piece):
            start, end = unit.start, unit.end
            bases = [tok for c in range(start, end) if (tok := lay.columns[c][0]) is not None]
            s = bases[0].start if bases else cursor
            e = bases[-1].end if bases else cursor
            while ev < len(events) and events[ev].offset <= s:
                items.append(events[ev].item)
                ev += 1
            inner: list[Event] = []
            while ev < len(events) and events[ev].offset < e:
                inner.append(events[ev])
                ev += 1
            if unit.plain:
                items.extend(ctx.witness_marks(lay, start, lay.readers))
                items.extend(ctx.base_token(bases[0]))
            elif unit.move is not None:
                items.append(moved_app(ctx, lay, unit.move))
            else:
                items.append(app(ctx, lay, unit, inner))
            cursor = e
    items.extend(e.item for e in events[ev:])
    return items


def _plain(lay: CollatedLayer, c: int) -> bool:
    """Every extant witness has the base's very character here, and none starts or stops."""
    base = lay.columns[c][0]
    if base is None:
        return False
    for w in lay.readers:
        if lay.starts_at(w, c) or lay.ends_at(w, c):
            return False
        if lay.extant(w, c):
            tok = lay.token(w, c)
            if tok is None or tok.t != base.t or tok.index in lay.moved[w]:
                return False
    return True


def _units(ctx: Context, lay: CollatedLayer, piece: Piece) -> Iterable[Piece]:
    """The entries of a piece: plain columns one by one, runs of other columns outside loci as one."""
    if piece.locus is not None or piece.move is not None:
        yield piece
        return
    c = piece.start
    while c < piece.end:
        if _plain(lay, c):
            yield Piece(c, c + 1, plain=True)
            c += 1
            continue
        end = c + 1
        while end < piece.end and not _plain(lay, end):
            end += 1
        yield Piece(c, end)
        c = end


def _is_trailer(block: Block, text: str) -> bool:
    """A section-closing line (右投壺: "the above is 投壺"), which ends a division.

    Its reader named it a section end, or its words are 右 and a name.
    """
    words = "".join(text[s.start : s.end] for s in block.spans).strip()
    return any(s.heading == HeadingKind.SECTION_END for s in block.spans) or bool(re.fullmatch(r"右\S{1,12}", words))
