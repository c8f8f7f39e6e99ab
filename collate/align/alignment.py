"""The alignment of one layer across witnesses: what the aligner hands the apparatus.

A column holds, for each witness (base first), the token it has there or None. Columns
are in base order; a column whose base cell is None is text the base lacks. Every token
of every witness appears in exactly one column, in that witness's own order, except
tokens inside a reported transposition, which stand at the base's place of the passage.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from collate.model import Layer, Token
from collate.model.memo import Memo

if TYPE_CHECKING:
    from collate.normalize import Normalizer


@dataclass(frozen=True, slots=True)
class Transposition:
    """A passage a witness has in another order: base tokens [base_start, base_end) are read
    by ``siglum`` at its tokens [wit_start, wit_end), elsewhere in its sequence."""

    siglum: str
    base_start: int
    base_end: int
    wit_start: int
    wit_end: int


@dataclass(frozen=True, slots=True)
class Extent:
    """Where a witness is extant in a layer: columns [first, last] (inclusive).

    Outside it the witness does not contain the text (a fragmentary or sparse witness; text of
    a witness beyond a fragmentary base), nor in its ``lacunae`` (pages its print has lost) or
    its ``absent`` stretches (a passage a base that quotes in pieces does not quote; a passage
    such a base quotes from another chapter, which the witness does not contain): none is ever
    an omission or an addition. ``None`` bounds: nothing extant.
    """

    siglum: str
    first: int | None
    last: int | None
    # Column ranges [start, end) inside the extent where the print has lost pages (a lacuna).
    lacunae: tuple[tuple[int, int], ...] = ()
    # Column ranges [start, end) inside the extent where the witness does not contain the text.
    absent: tuple[tuple[int, int], ...] = ()

    def covers(self, column: int) -> bool:
        """True if the witness is extant at ``column``."""
        if self.first is None or self.last is None or not self.first <= column <= self.last:
            return False
        # Asked for every witness at every column of a book's pages: most extents have neither.
        if self.lacunae and any(a <= column < b for a, b in self.lacunae):
            return False
        return not (self.absent and any(a <= column < b for a, b in self.absent))


@dataclass(frozen=True, slots=True)
class TokenIndex:
    """One witness's tokens in a layer, indexed once: column ↔ token ↔ raw offset.

    ``tokens`` are the witness's tokens in column order, ``columns[k]`` the column holding
    ``tokens[k]``. For the base (:attr:`LayerAlignment.base`) column order is its token
    stream: ``tokens[k].index`` is the position a locus's ``base_start`` counts. Every stage
    that walks loci asks this index instead of scanning the columns again, which would make
    the stage quadratic in the length of the layer.
    """

    tokens: tuple[Token, ...]
    columns: tuple[int, ...]
    by_index: Mapping[int, Token]
    column_of: Mapping[int, int]

    def within(self, start: int, end: int) -> tuple[Token, ...]:
        """The tokens in columns [start, end), in column order."""
        return self.tokens[bisect.bisect_left(self.columns, start) : bisect.bisect_left(self.columns, end)]

    def before(self, column: int, n: int = 1) -> tuple[Token, ...]:
        """The last ``n`` tokens (at most) in columns before ``column``."""
        k = bisect.bisect_left(self.columns, column)
        return self.tokens[max(0, k - n) : k]

    def after(self, column: int, n: int = 1) -> tuple[Token, ...]:
        """The first ``n`` tokens (at most) in ``column`` or after it."""
        k = bisect.bisect_left(self.columns, column)
        return self.tokens[k : k + n]

    def positions(self) -> dict[str, list[int]]:
        """Each character (original or key) -> the positions in ``tokens`` of the tokens having it."""
        out: dict[str, list[int]] = {}
        for k, tok in enumerate(self.tokens):
            out.setdefault(tok.t, []).append(k)
            if tok.n != tok.t:
                out.setdefault(tok.n, []).append(k)
        return out


def index_tokens(columns: Sequence[Sequence[Token | None]], j: int) -> TokenIndex:
    """Index witness ``j``'s cell of every column (built once per layer by :meth:`LayerAlignment.index`)."""
    tokens: list[Token] = []
    cols: list[int] = []
    for c, col in enumerate(columns):
        tok = col[j]
        if tok is not None:
            tokens.append(tok)
            cols.append(c)
    return TokenIndex(
        tokens=tuple(tokens),
        columns=tuple(cols),
        by_index={tok.index: tok for tok in tokens},
        column_of={tok.index: c for tok, c in zip(tokens, cols, strict=True)},
    )


@dataclass(frozen=True, slots=True)
class LayerAlignment:
    """One layer aligned: ``columns[i][j]`` is witness ``sigla[j]``'s token in column ``i``."""

    layer: Layer
    sigla: tuple[str, ...]
    columns: tuple[tuple[Token | None, ...], ...]
    extents: tuple[Extent, ...] = ()
    transpositions: tuple[Transposition, ...] = ()
    # Each witness's token index, built on first use; the alignment is frozen, so it never goes stale.
    _indexes: Memo[int, TokenIndex] = field(default_factory=Memo, init=False, repr=False, compare=False)

    def index(self, j: int) -> TokenIndex:
        """Witness ``sigla[j]``'s tokens of this layer, indexed (built once, on first use)."""
        found = self._indexes.table.get(j)
        if found is None:
            found = self._indexes.table[j] = index_tokens(self.columns, j)
        return found

    @property
    def base(self) -> TokenIndex:
        """The base's tokens of this layer, indexed (the base is the first witness)."""
        return self.index(0)

    # A saved run (collate.runs.manifest) keeps the alignment, not its indexes: rebuilt on first use.
    def __getstate__(self) -> list[object]:
        return [self.layer, self.sigla, self.columns, self.extents, self.transpositions]

    def __setstate__(self, state: list[object]) -> None:
        names = ("layer", "sigla", "columns", "extents", "transpositions")
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_indexes", Memo())

    def extent(self, siglum: str) -> Extent:
        """The extent of one witness (everything, if the aligner recorded none)."""
        for e in self.extents:
            if e.siglum == siglum:
                return e
        return Extent(siglum, 0, len(self.columns) - 1) if self.columns else Extent(siglum, None, None)


def with_lacunae(
    alignment: LayerAlignment,
    lacunae: Mapping[str, Sequence[int | tuple[int, int | None]]],
    texts: Mapping[str, tuple[int, int]] | None = None,
    blocks: Mapping[str, Sequence[int]] | None = None,
) -> LayerAlignment:
    """The alignment with each witness's lost pages and glyphs (raw offsets of its lacuna marks) in its extent.

    A print that has lost pages has nothing there: between its last token before the mark
    and its first after it, the columns where it has no token are a lacuna, not an omission
    (nor, where the base has lost them, are the other witnesses' text there additions). A
    mark may come with a width (a blank in the line a cell wide): then the columns between are
    a lacuna only if they are no more than that many (or one more): a blank where the others
    read a whole phrase sets off a phrase the print does not have. A mark of lost pages before
    the witness's first token in the layer, or after its last, is outside its extent, unless
    the witness's text (``texts``: the raw offsets of its first and last words, any layer) goes
    on beyond the mark: a print that lost the leaf after its title lost the layer's first words
    there, and the base's words before the witness's first are a lacuna, not outside it.

    ``blocks``: per witness, the sorted raw offsets where its blocks of words begin, any layer; a
    block closed on a page that survives keeps its words out of the lacuna (:func:`_surviving_ends`).
    """
    extents = []
    changed = False
    for j, siglum in enumerate(alignment.sigla):
        extent = alignment.extent(siglum)
        offsets = lacunae.get(siglum, ())
        if not offsets or extent.first is None or extent.last is None:
            extents.append(extent)
            continue
        own = alignment.index(j)
        ordered = sorted(own.tokens, key=lambda t: t.index)
        starts = [t.start for t in ordered]
        holes = []
        first, last = extent.first, extent.last
        span = (texts or {}).get(siglum)
        for mark in offsets:
            offset, width = mark if isinstance(mark, tuple) else (mark, None)
            k = bisect.bisect_left(starts, offset)
            if 0 < k < len(ordered):
                around = (ordered[k - 1], ordered[k])
                hole = _hole(alignment.columns, own, around, (offset, width), (blocks or {}).get(siglum, ()))
                holes.extend([hole] if hole else [])
            elif width is None and span is not None and ordered:
                head, tail = own.column_of[ordered[0].index], own.column_of[ordered[-1].index]
                end = len(alignment.columns)
                if k == 0 and span[0] < offset and head > 0:
                    first = 0
                    holes.append((0, head))
                elif k == len(ordered) and offset < span[1] and tail < end - 1:
                    last = end - 1
                    holes.append((tail + 1, end))
        if holes:
            changed = True
            extent = replace(extent, first=first, last=last, lacunae=tuple(sorted(holes)))
        extents.append(extent)
    return replace(alignment, extents=tuple(extents)) if changed else alignment


def _hole(
    columns: Sequence[Sequence[Token | None]],
    own: TokenIndex,
    around: tuple[Token, Token],
    mark: tuple[int, int | None],
    block_starts: Sequence[int],
) -> tuple[int, int] | None:
    """The lost columns between a witness's tokens ``around`` a lacuna ``mark`` (its raw offset and
    width), where the witness has none (:func:`with_lacunae`); None where nothing is lost there."""
    offset, width = mark
    before, after = own.column_of[around[0].index], own.column_of[around[1].index]
    if after <= before + 1 or (width is not None and after - before - 1 > width + 1):
        return None
    lo, hi = before + 1, after
    if width is None and block_starts:
        lo, hi = _surviving_ends(columns, (before, after), around, offset, block_starts)
    return (lo, hi) if hi > lo else None


def _surviving_ends(
    columns: Sequence[Sequence[Token | None]],
    around: tuple[int, int],
    tokens: tuple[Token, Token],
    mark: int,
    block_starts: Sequence[int],
) -> tuple[int, int]:
    """The lost columns ``[lo, hi)`` between ``around`` (the columns of the witness's ``tokens``
    either side of a mark of lost pages at raw offset ``mark``).

    ``block_starts`` are the raw offsets where the witness's blocks of words begin (a 經 passage,
    a 注 run; any layer). Where another block begins between the witness's token before the mark
    and the mark, that token's block was closed on a page that survives: the base's words of the
    same block after it are an omission there, not lost (燕禮: the 注 that ends before the
    surviving 經 司正降… lacks its 也). So too, after the mark, the words of the block of the
    witness's first token after it, where another block's words stand between the mark and it.
    A block that begins at the page after the lost ones tells nothing: the loss may have cut it.
    """
    before, after = around
    lo, hi = before + 1, after
    k = bisect.bisect_left(block_starts, tokens[0].end)
    if k < len(block_starts) and block_starts[k] < mark and (here := columns[before][0]) is not None:
        while lo < hi and ((tok := columns[lo][0]) is None or tok.unit == here.unit):
            lo += 1
    # The block of the first token after the mark, where another block's words come before it.
    own = bisect.bisect_right(block_starts, tokens[1].start) - 1
    if bisect.bisect_right(block_starts, mark) < own and (here := columns[after][0]) is not None:
        while hi > lo and ((tok := columns[hi - 1][0]) is None or tok.unit == here.unit):
            hi -= 1
    return lo, hi


def column_runs(columns: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted column numbers as ranges [start, end) of consecutive columns."""
    runs: list[tuple[int, int]] = []
    for c in columns:
        if runs and runs[-1][1] == c:
            runs[-1] = (runs[-1][0], c + 1)
        else:
            runs.append((c, c + 1))
    return runs


def with_doubts(alignment: LayerAlignment, doubts: Mapping[str, Sequence[tuple[int, int]]]) -> LayerAlignment:
    """The alignment with each witness's words of doubtful layer (raw offset ranges) never a variant.

    Where a print leaves a layer boundary unmarked and no witness settles it
    (:mod:`collate.align.boundaries`), its words may belong to this layer or the next. A base
    word in doubt that a witness lacks is no omission (the witness is absent there); a
    witness's word in doubt that the base lacks is no addition (the base is absent there).
    """
    if not any(doubts.values()):
        return alignment
    absent: dict[int, list[int]] = {}
    for j, siglum in enumerate(alignment.sigla):
        ranges = sorted(doubts.get(siglum, ()))
        if not ranges:
            continue
        starts = [a for a, _ in ranges]
        for c, col in enumerate(alignment.columns):
            token = col[j]
            if token is None:
                continue
            k = bisect.bisect_right(starts, token.start) - 1
            if k < 0 or token.start >= ranges[k][1]:
                continue
            for i, cell in enumerate(col):
                if cell is None and i != j and (i == 0 or j == 0):
                    absent.setdefault(i, []).append(c)
    if not absent:
        return alignment
    extents = [alignment.extent(s) for s in alignment.sigla]
    for i, columns in absent.items():
        extent = alignment.extent(alignment.sigla[i])
        extents[i] = replace(extent, absent=tuple(sorted({*extent.absent, *column_runs(sorted(set(columns)))})))
    return replace(alignment, extents=tuple(extents))


def with_everyday_forms(
    alignment: LayerAlignment, everyday: Mapping[str, Mapping[int, str]], normalizer: Normalizer
) -> LayerAlignment:
    """The alignment with a gaiji glyph read as its everyday character where another witness reads that.

    A Kanripo gaiji table gives, for many glyphs, the form Unicode has and the everyday character
    (``&KR0050;``: 𤓰, everyday 瓜). Where another witness reads the everyday character in the
    glyph's column, the two are one word in two graphs (a variant, on the table's word); where
    none does, the glyph stays as its form: the table's everyday column is no reading the
    collation shows (its KR0880 is printed 七 with 匙 for everyday, where the others read 七).
    ``everyday``: per witness, the raw offset of each entity token and its everyday character.
    """
    if not any(everyday.values()):
        return alignment
    columns = list(alignment.columns)
    changed = False
    for j, siglum in enumerate(alignment.sigla):
        table = everyday.get(siglum)
        if not table:
            continue
        for c, col in enumerate(columns):
            token = col[j]
            char = table.get(token.start) if token is not None else None
            if token is None or char is None:
                continue
            read = normalizer.as_everyday(token.t, char)
            if read is None or not any(k != j and cell is not None and cell.n == read[0] for k, cell in enumerate(col)):
                continue
            cells = list(col)
            cells[j] = replace(token, n=read[0], changes=read[1])
            columns[c] = tuple(cells)
            changed = True
    return replace(alignment, columns=tuple(columns)) if changed else alignment
