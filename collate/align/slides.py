"""Omissions that can slide: the same witness read the same way with its gap a few columns over.

Where the base's words round an omission repeat (所以[致敬也言主君]致敬於聘君, 倅七内反[治直吏反]),
the witness reads the same whether its gap stands before or after the repeated words: the
aligner takes one place, and the apparatus would say the witness lacks 「也言主君致敬」 where
the print lost 「致敬也言主君」 at the end of a damaged line. :func:`room` says how far a gap can
slide (each column it enters holds a witness token equal to the base's there, and the base's
token in the column it leaves is the same), :func:`move` slides it. Where to is a stage's
evidence: the witness's own lacuna mark (:func:`gaps_to_marks`), or a gloss's end
(:mod:`collate.align.glosses`).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import replace

from collate.align.alignment import Extent, LayerAlignment
from collate.model import Token

Cells = list[Token | None]


def room(columns: Sequence[Cells], j: int, start: int, end: int, way: int, extent: Extent) -> int:
    """How many columns witness ``j``'s omission over [start, end) can slide ``way`` (1: right, -1: left)."""
    slid = 0
    lo, hi = start, end
    while True:
        enter, leave = (hi, lo) if way > 0 else (lo - 1, hi - 1)
        if not 0 <= enter < len(columns) or not extent.covers(enter):
            return slid
        base_in, base_out, token = columns[enter][0], columns[leave][0], columns[enter][j]
        if base_in is None or base_out is None or token is None or token.n != base_in.n or base_in.n != base_out.n:
            return slid
        slid += 1
        lo, hi = lo + way, hi + way


def move(columns: Sequence[Cells], j: int, start: int, end: int, shift: int) -> None:
    """Slide witness ``j``'s omission over [start, end) by ``shift`` columns (within its :func:`room`)."""
    step = 1 if shift > 0 else -1
    lo, hi = start, end
    for _ in range(abs(shift)):
        enter, leave = (hi, lo) if step > 0 else (lo - 1, hi - 1)
        columns[leave][j], columns[enter][j] = columns[enter][j], None
        lo, hi = lo + step, hi + step


def omission_at(columns: Sequence[Cells], j: int, c: int) -> tuple[int, int]:
    """The run of columns from ``c`` where witness ``j`` has no token and the base has one."""
    end = c
    while end < len(columns) and columns[end][j] is None and columns[end][0] is not None:
        end += 1
    return c, end


def omission_before(columns: Sequence[Cells], j: int, c: int) -> int:
    """Where the run of columns up to ``c`` (not included) in which witness ``j`` has no token and
    the base has one begins: ``c`` itself where there is none."""
    start = c
    while start > 0 and columns[start - 1][j] is None and columns[start - 1][0] is not None:
        start -= 1
    return start


# How far from a lacuna mark an omission is looked for: a few repeated words, no more.
_REACH = 12


def gaps_to_marks(
    alignment: LayerAlignment, lacunae: Mapping[str, Sequence[int | tuple[int, int | None]]]
) -> LayerAlignment:
    """The alignment with each witness's omission slid to its lacuna mark where it can be.

    A print that lost glyphs at a line's end lost them there; an omission the aligner set a few
    columns off, where the base's words repeat, is slid to the mark, so that the lacuna is told
    (:func:`~collate.align.alignment.with_lacunae`) and no omission. Only a witness's own marks;
    the base's tokens never move.
    """
    columns = [list(col) for col in alignment.columns]
    changed = False
    for j, siglum in enumerate(alignment.sigla[1:], 1):
        marks = lacunae.get(siglum, ())
        extent = alignment.extent(siglum)
        if not marks or extent.first is None:
            continue
        placed = _Placed(columns, j)
        for mark in marks:
            offset, width = mark if isinstance(mark, tuple) else (mark, None)
            window = _to_mark(columns, j, placed.around(offset), width, extent)
            if window is not None:
                placed.update(columns, *window)
                changed = True
    return replace(alignment, columns=tuple(tuple(col) for col in columns)) if changed else alignment


class _Placed:
    """Witness ``j``'s tokens in text order and the column each stands in, kept as omissions slide."""

    def __init__(self, columns: Sequence[Cells], j: int) -> None:
        self.j = j
        found = sorted(((tok.start, tok.index, c) for c, col in enumerate(columns) if (tok := col[j]) is not None))
        self.starts = [start for start, _, _ in found]
        self.order = [index for _, index, _ in found]
        self.column = {index: c for _, index, c in found}

    def around(self, offset: int) -> tuple[int, int] | None:
        """The columns of the tokens just before and after raw ``offset`` (None at the text's ends)."""
        k = bisect.bisect_left(self.starts, offset)
        if not 0 < k < len(self.order):
            return None
        return self.column[self.order[k - 1]], self.column[self.order[k]]

    def update(self, columns: Sequence[Cells], lo: int, hi: int) -> None:
        """Read again the columns of the tokens in columns [lo, hi)."""
        for c in range(lo, hi):
            if (tok := columns[c][self.j]) is not None:
                self.column[tok.index] = c


def _to_mark(
    columns: list[Cells], j: int, at: tuple[int, int] | None, width: int | None, extent: Extent
) -> tuple[int, int] | None:
    """Slide the omission nearest to a mark between the columns ``at`` next to it, if it can be;
    the columns whose tokens moved (None: nothing moved)."""
    if at is None or at[1] != at[0] + 1:
        return None  # a gap at the mark already, or the witness's text runs on elsewhere
    before, after = at
    for c in range(after, min(len(columns), after + _REACH)):
        if columns[c][j] is None and columns[c][0] is not None:
            start, end = omission_at(columns, j, c)
            if _fits(end - start, width) and room(columns, j, start, end, -1, extent) >= start - after:
                move(columns, j, start, end, after - start)
                return after, end
            break
    for c in range(before, max(-1, before - _REACH), -1):
        if columns[c][j] is None and columns[c][0] is not None:
            start = omission_before(columns, j, c)
            if _fits(c + 1 - start, width) and room(columns, j, start, c + 1, 1, extent) >= before - c:
                move(columns, j, start, c + 1, before - c)
                return start, before + 1
            break
    return _past_reading(columns, j, before, after, width, extent)


def _past_reading(
    columns: list[Cells], j: int, before: int, after: int, width: int | None, extent: Extent
) -> tuple[int, int] | None:
    """A reading next to the mark with an omission beyond it: the reading set past the omission.

    …一爲之設食⏎歡燕與 (a line short of 再爲之設饗其, and 歡 for 觀): the aligner read 歡 against 再 and
    the print as lacking 爲之設饗其觀; the mark says the lost words stand before 歡, which is read
    against the last of them.
    """
    token = columns[after][j]
    base = columns[after][0]
    if token is not None and base is not None and token.n != base.n:
        start, end = omission_at(columns, j, after + 1)
        if end > start and _fits(end - start, width) and all(map(extent.covers, range(after, end))):
            columns[end - 1][j], columns[after][j] = token, None
            return after, end
    token = columns[before][j]
    base = columns[before][0]
    if token is not None and base is not None and token.n != base.n:
        start = omission_before(columns, j, before)
        if start < before and _fits(before - start, width) and all(map(extent.covers, range(start, before + 1))):
            columns[start][j], columns[before][j] = token, None
            return start, before + 1
    return None


def _fits(size: int, width: int | None) -> bool:
    """Whether an omission of ``size`` columns fits the mark's width (a lost page: any)."""
    return width is None or size <= width + 1


def placeholders_to_rare(alignment: LayerAlignment) -> LayerAlignment:
    """The alignment with a witness's lone placeholder among omitted words read against the one it can stand for.

    A placeholder (an entity the e-text could not resolve) stands for a glyph it could not write;
    alone in a stretch where the witness lacks the base's other words (難乃多反⟨?⟩ against
    難乃多反注同敺), the aligner sets it against the first of them (注), and the apparatus says the
    witness lacks 同敺. It is read against a base character the witness never writes in the layer
    (敺), if one stands there and the one it was set against is not such: a glyph it writes
    elsewhere it could have written here.
    """
    columns = [list(col) for col in alignment.columns]
    changed = False
    for j, siglum in enumerate(alignment.sigla[1:], 1):
        extent = alignment.extent(siglum)
        written = {tok.n for col in columns if (tok := col[j]) is not None and not tok.is_placeholder}
        for c, col in enumerate(columns):
            token, base = col[j], col[0]
            if token is None or not token.is_placeholder or base is None or base.n not in written:
                continue
            lo, hi = omission_before(columns, j, c), omission_at(columns, j, c + 1)[1]
            rare = [k for k in range(lo, hi) if (b := columns[k][0]) is not None and b.n not in written]
            if rare and all(map(extent.covers, range(lo, hi))):
                target = min(rare, key=lambda k: abs(k - c))
                columns[target][j], columns[c][j] = token, None
                changed = True
    return replace(alignment, columns=tuple(tuple(col) for col in columns)) if changed else alignment
