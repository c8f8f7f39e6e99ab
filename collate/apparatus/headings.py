"""Headings one print sets apart and another runs into its text: the same words, laid out otherwise.

The 注疏本 of the 儀禮 sets 記 — the word that opens a chapter's 記 — on a line of its own, a
heading; the 四部叢刊本 runs it into the 經 (``猶謙不必辭也)記燕朝服於寢``). Collated layer with
layer, the second print seems to add 記 to the 經 and the first to lack it, though both print the
same word at the same place. Whether a print sets a word as a heading is its layout, not its text.

The evidence is in the collation itself: where a witness has tokens the base lacks (an addition)
and the base, between the two tokens that enclose that place, has a heading whose characters are
among those tokens (the whole heading, one after another, compared by their keys), the witness
reads the base's heading in its text; and the other way, where the witness lacks base tokens that
it prints, between its own enclosing tokens, as a heading. Those cells agree with the base; any
other tokens of the addition stay an addition. Nothing else is matched: only a heading at that
very place, and only the whole heading.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from collate.align.alignment import LayerAlignment
from collate.model import Layer, Token, Witness

if TYPE_CHECKING:
    from collate.normalize import Normalizer

# A heading longer than this is a title or a closing line, not a word a print may run in.
MAX_HEADING = 8


class _Headings:
    """One witness's headings, by offset, each with the comparison keys of its tokens.

    Tokenized as every text is (:func:`~collate.normalize.tokenize.tokenize`): an entity or a
    placeholder in a heading is a token of its own, whose key matches nothing, so such a heading
    is never taken for the characters around it.
    """

    def __init__(self, witness: Witness, normalizer: Normalizer) -> None:
        from collate.normalize.tokenize import tokenize

        units: dict[int, list[Token]] = {}
        for token in tokenize(witness, Layer.HEADING, normalizer):
            units.setdefault(token.unit, []).append(token)
        heads = sorted(units.values(), key=lambda tokens: tokens[0].start)
        self.starts = [tokens[0].start for tokens in heads]
        self.ends = [tokens[-1].end for tokens in heads]
        self.keys = ["".join(t.n for t in tokens) for tokens in heads]

    def between(self, start: int, end: int) -> Iterator[str]:
        """The keys of the headings that lie wholly within ``[start, end)``."""
        k = bisect.bisect_left(self.starts, start)
        while k < len(self.starts) and self.starts[k] < end:
            if self.ends[k] <= end and 0 < len(self.keys[k]) <= MAX_HEADING:
                yield self.keys[k]
            k += 1


def inline_headings(
    alignment: LayerAlignment, witnesses: Mapping[str, Witness], normalizer: Normalizer
) -> frozenset[tuple[int, int]]:
    """The cells ``(column, witness row)`` where a witness and the base differ only in setting a heading.

    Row 0 is the base. A witness not read (none in ``witnesses``) has no headings to compare.
    """
    columns = alignment.columns
    sigla = alignment.sigla
    found: set[tuple[int, int]] = set()
    headings: dict[int, _Headings] = {}

    def of(j: int) -> _Headings | None:
        if j not in headings:
            w = witnesses.get(sigla[j])
            if w is None or w.sparse:
                return None
            headings[j] = _Headings(w, normalizer)
        return headings[j]

    base = of(0)
    for j in range(1, len(sigla)):
        if base is not None:
            # The witness runs in a heading of the base: tokens where the base has none.
            found.update(_matched(columns, j, 0, base, j))
        own = of(j)
        if own is not None:
            # The witness sets apart what the base runs in: base tokens where the witness has none.
            found.update(_matched(columns, 0, j, own, j))
    return frozenset(found)


def _matched(
    columns: Sequence[Sequence[Token | None]], row: int, gap_row: int, apart: _Headings, witness: int
) -> Iterator[tuple[int, int]]:
    """The columns of ``row``'s tokens, in a run where ``gap_row`` has none, that spell a heading
    ``gap_row`` prints between its two tokens enclosing the run; as cells of the row ``witness``."""
    previous: Token | None = None
    k = 0
    while k < len(columns):
        if columns[k][gap_row] is not None:
            previous = columns[k][gap_row]
            k += 1
            continue
        end = k
        while end < len(columns) and columns[end][gap_row] is None:
            end += 1
        following = columns[end][gap_row] if end < len(columns) else None
        if previous is not None and following is not None:
            cells = [(c, tok) for c in range(k, end) if (tok := columns[c][row]) is not None]
            yield from _spelled(cells, apart.between(previous.end, following.start), witness)
        k = end


def _spelled(cells: list[tuple[int, Token]], keys: Iterator[str], witness: int) -> Iterator[tuple[int, int]]:
    """The columns of the first stretch of ``cells`` whose keys spell one of ``keys``, as cells of ``witness``."""
    if not cells:
        return
    text = "".join(tok.n for _, tok in cells)
    for key in keys:
        at = text.find(key)
        if at < 0:
            continue
        # Keys are one character a token here (a token's key is its character's); map back by count.
        lengths = [len(tok.n) for _, tok in cells]
        offset = 0
        for (column, _), size in zip(cells, lengths, strict=True):
            if at <= offset and offset + size <= at + len(key):
                yield (column, witness)
            offset += size
        return
