"""One layer's alignment indexed once for the locus builder: each witness's extent and token
columns, the transpositions, and the readings and places read off them."""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from collate.align.alignment import LayerAlignment
from collate.align.pairwise import SHORTEST_MOVE
from collate.apparatus.compare import _classify
from collate.apparatus.headings import inline_headings
from collate.apparatus.records import Coverage, SparsePlacement, WitnessReading
from collate.model import ReadingClass, SourceLocation, Token, Witness

if TYPE_CHECKING:
    from collate.apparatus.intervals import Interval
    from collate.normalize import Normalizer


def simplified_sigla(alignment: LayerAlignment, witnesses: Mapping[str, Witness]) -> frozenset[str]:
    """The witnesses written in simplified characters: judged on the whole text of each as read,
    else (a witness not in ``witnesses``) on its characters in this layer."""
    from collate.normalize.script import is_simplified_text

    found = set()
    for siglum in {*alignment.sigla, *witnesses}:
        w = witnesses.get(siglum)
        if w is not None:
            text = w.text
        elif siglum in alignment.sigla:
            j = alignment.sigla.index(siglum)
            text = "".join(tok.t for col in alignment.columns if (tok := col[j]) is not None)
        else:
            continue
        if is_simplified_text(text):
            found.add(siglum)
    return frozenset(found)


class LayerColumns:
    """One layer's alignment with the indexes the locus builder needs."""

    def __init__(self, alignment: LayerAlignment, witnesses: Mapping[str, Witness], normalizer: Normalizer) -> None:
        self.alignment = alignment
        self.normalizer = normalizer
        self.witnesses = witnesses
        # A simplified witness's 后 agrees with the 後 or the 后 of a traditional one (compare.py).
        self.simplified = simplified_sigla(alignment, witnesses)
        self.columns = alignment.columns
        self.sigla = alignment.sigla
        self.extents = tuple(alignment.extent(s) for s in self.sigla)
        self.base_col = alignment.base.column_of
        # Per witness: the columns holding its tokens, to find the place of an empty reading.
        self.token_cols: list[list[int]] = [
            [i for i, col in enumerate(self.columns) if col[j] is not None] for j in range(len(self.sigla))
        ]
        # Cells where a witness differs from the base only in setting a heading apart (記): agreeing.
        self.heading_cells = inline_headings(alignment, witnesses, normalizer)
        # Transpositions count positions in the base's token stream, which are its columns in order.
        base_cols = self.token_cols[0]
        self.transposed: list[tuple[int, int, int]] = [
            (j, a, b)
            for t in alignment.transpositions
            if t.siglum in self.sigla and 0 <= t.base_start < t.base_end <= len(base_cols)
            for j in (self.sigla.index(t.siglum),)
            for a, b in self._told(j, base_cols[t.base_start], base_cols[t.base_end - 1] + 1)
        ]

    def _told(self, j: int, start: int, end: int) -> list[tuple[int, int]]:
        """The pieces of a move over columns [start, end) that witness ``j`` reads, each told as moved.

        A move the witness's absences cut (aligned with a compilation's articles alone, it is not
        extant at another work's passage between two it has in one run) is told piece by piece; a
        piece of fewer base words than the shortest move the engine tells is a word or two that
        stood next to the passage (the 也 ending the base's sentence before the other work's
        passage), no move: it is compared where it stands.
        """
        extent = self.extents[j]
        pieces: list[tuple[int, int]] = []
        at = None
        for i in range(start, end + 1):
            if i < end and extent.covers(i):
                at = i if at is None else at
                continue
            if at is not None:
                pieces.append((at, i))
                at = None
        if len(pieces) < 2:
            return [(start, end)]
        words = [sum(1 for i in range(a, b) if self.columns[i][0] is not None) for a, b in pieces]
        return [piece for piece, n in zip(pieces, words, strict=True) if n >= SHORTEST_MOVE]

    def locate(self, siglum: str, offset: int) -> SourceLocation | None:
        """Where ``offset`` of witness ``siglum``'s text is (None for a witness not read)."""
        w = self.witnesses.get(siglum)
        return w.locate(offset) if w is not None else None

    def extant(self, j: int, start: int, end: int) -> list[int]:
        """The columns of [start, end) where witness ``j`` is extant."""
        return [i for i in range(start, end) if self.extents[j].covers(i)]

    def extant_at(self, j: int, point: int) -> bool:
        """Whether witness ``j`` is extant on both sides of the point before column ``point``."""
        return all(self.extents[j].covers(i) for i in (point - 1, point) if 0 <= i < len(self.columns))

    def kind(self, base: Token | None, other: Token | None) -> ReadingClass | None:
        """How the witness's cell differs from the base's: None where it agrees.

        A gap (omission, addition) is of a kind with a different character (substantive), so
        "AB" read "C" stays one entry; a difference in form only (orthographic, loan,
        placeholder) is a kind of its own.
        """
        if base is None or other is None:
            return None if base is other else ReadingClass.SUBSTANTIVE
        verdict = _classify(base, other, self.normalizer, self.simplified)
        return None if verdict is None else verdict[0]

    def coverage(self) -> tuple[Coverage, ...]:
        """Each witness's extent: the places of its first and last extant token, and their count."""
        out = []
        for j, siglum in enumerate(self.sigla):
            extent = self.extents[j]
            cols = self.token_cols[j]
            if extent.first is None or extent.last is None:
                out.append(Coverage(siglum, None, None, 0))
                continue
            inside = cols[bisect.bisect_left(cols, extent.first) : bisect.bisect_right(cols, extent.last)]
            tokens = [tok for i in inside if (tok := self.columns[i][j]) is not None]
            if not tokens:
                out.append(Coverage(siglum, None, None, 0))
                continue
            first, last = min(tokens, key=lambda t: t.index), max(tokens, key=lambda t: t.index)
            out.append(Coverage(siglum, self.locate(siglum, first.start), self.locate(siglum, last.start), len(tokens)))
        return tuple(out)

    def place_span(self, p: SparsePlacement) -> tuple[int, int]:
        """The column range of a placement: its base tokens, or an empty range at its point."""
        if p.base_end > p.base_start:
            return self.base_col[p.base_start], self.base_col[p.base_end - 1] + 1
        return self.base_col.get(p.base_start, len(self.columns)), self.base_col.get(p.base_start, len(self.columns))

    def place_of(self, j: int, start: int, end: int) -> SourceLocation | None:
        """Where an empty reading of witness ``j`` stands: after its previous token, or before its next."""
        cols = self.token_cols[j]
        k = bisect.bisect_left(cols, start)
        siglum = self.sigla[j]
        if k > 0:
            prev = self.columns[cols[k - 1]][j]
            return self.locate(siglum, prev.end) if prev is not None else None
        k = bisect.bisect_left(cols, end)
        if k < len(cols):
            nxt = self.columns[cols[k]][j]
            return self.locate(siglum, nxt.start) if nxt is not None else None
        return None

    def reading_of(self, j: int, columns: Sequence[int], start: int, end: int) -> WitnessReading:
        """Witness ``j``'s reading in ``columns`` of the interval [start, end), and its place."""
        # In the witness's own order: a transposed passage stands at the base's place in the columns.
        tokens = tuple(sorted((tok for i in columns if (tok := self.columns[i][j]) is not None), key=lambda t: t.index))
        siglum = self.sigla[j]
        location = self.locate(siglum, tokens[0].start) if tokens else self.place_of(j, start, end)
        return WitnessReading(siglum, "".join(t.t for t in tokens), tokens, location)

    def base_range(self, lemma: Sequence[Token], end: int) -> tuple[int, int]:
        """The base token range of a locus; for text the base lacks, the next base token's index."""
        if lemma:
            return lemma[0].index, lemma[-1].index + 1
        cols = self.token_cols[0]
        k = bisect.bisect_left(cols, end)
        if k < len(cols):
            point = self._base_token(cols[k]).index
        else:
            point = self._base_token(cols[-1]).index + 1 if cols else 0
        return point, point

    def _base_token(self, column: int) -> Token:
        tok = self.columns[column][0]
        assert tok is not None, "token_cols[0] lists only columns holding a base token"
        return tok

    def base_absent(self, iv: Interval) -> bool:
        """The base is extant at none of the interval's columns (an empty interval: not at its point)."""
        if iv.start == iv.end:
            return not self.extant_at(0, iv.start)
        return not any(self.extents[0].covers(i) for i in range(iv.start, iv.end))
