"""All witnesses of one layer aligned into the columns the apparatus reads.

Each witness is aligned to the base on its own (``pairwise``), so the result does not depend
on the order in which the other witnesses come, and the columns are then merged around the
base: for every base token one column, and before it the columns of the text the base lacks
there. Where several witnesses add text at the same place, their additions are aligned with
each other (CollateX, or left to right when they share no token) in the order of their sigla.

How the columns look:

* ``columns[c][0]`` is the base's token or ``None`` (text the base lacks); base tokens stand
  in their order, one per column.
* A witness's token stands in the column of the base token it agrees with (same search key,
  below) or stands against (a different one: a variant), or in a column whose base cell is None
  (an addition). A witness's ``None`` inside its extent is an omission; outside it the witness is
  not extant there (a fragment, a lacuna), which is never an omission.
* A transposed passage (``transpositions``): the witness's tokens ``wit_start …`` stand in
  the columns of the base's tokens ``base_start …`` (position by position where the passage
  has the same words; aligned within the passage where it was moved and worded differently,
  :mod:`collate.align.far_moves`), although the witness has them elsewhere; at the witness's
  own place of the passage there are no columns for them. These are the only tokens that do
  not stand in their witness's own order.

Tokens match on their *search keys* (``loosen``: the comparison keys ``n`` with the characters
simplification merged merged again), not on ``n``. A simplified witness writes 于 for both 於 and
于: were its 于 no match for a traditional 於, the aligner would have a difference to place there,
and would break the run of an omission or of a match around it. Whether two tokens of a column
read alike is the apparatus's question, asked of ``n`` (後/后 between two traditional witnesses
is a reading; a simplified 后 against 後 is script).

Token positions (in transpositions and everywhere here) are indexes into the streams passed in.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from collate.align.alignment import Extent, LayerAlignment, Transposition
from collate.align.collatex_adapter import collatex_columns
from collate.align.extents import layer_extents, merged
from collate.align.pairwise import AlignOptions, PairAlignment, align_pair
from collate.model import Layer, Token

Progress = Callable[[str], None]
Column = tuple[Token | None, ...]

# Symbols stand for search keys, one character each. Placeholders (unknown glyphs)
# match nothing: the base's and the witnesses' get different symbols, which no key maps to.
_BASE_PLACEHOLDER = "\x00"
_WITNESS_PLACEHOLDER = "\x01"
_FIRST_SYMBOL = 0x100
_SURROGATES = range(0xD800, 0xE000)


def align_layer(
    layer: Layer,
    streams: Mapping[str, Sequence[Token]],
    base: str,
    progress: Progress | None = None,
    options: AlignOptions | None = None,
    *,
    quoting: frozenset[str] = frozenset(),
    masks: Mapping[str, Sequence[tuple[int, int]]] | None = None,
    loosen: Callable[[str], str] | None = None,
) -> LayerAlignment:
    """Align the token streams of one layer, one per witness, against the base witness.

    ``sigla`` of the result are the base, then the other witnesses in the order of
    ``streams``. The same input gives the same output, whatever the order of the other
    witnesses. See the module docstring for how columns, extents and transpositions look;
    ``quoting``: the witnesses that quote the layer in pieces (:mod:`collate.align.extents`);
    ``masks``: per witness, the positions [start, end) of the base's stream it is not to be
    aligned with (the articles of a compilation it does not hold, :mod:`collate.align.holdings`):
    it is aligned with the rest alone, and is not extant there; ``loosen``: comparison keys made
    search keys (:meth:`collate.normalize.Normalizer.loosen`), which tokens match on (None: on ``n``).
    """
    if base not in streams:
        raise ValueError(f"the base witness {base!r} has no token stream")
    opt = options or AlignOptions()
    sigla = (base, *(s for s in streams if s != base))
    table = _Symbols(loosen)
    a = table.of(streams[base], _BASE_PLACEHOLDER)
    pairings: dict[str, PairAlignment] = {}
    keys: dict[str, str] = {}
    for siglum in sorted(sigla[1:]):
        if progress:
            progress(f"{layer.value}: aligning {siglum} with {base}")
        keys[siglum] = table.of(streams[siglum], _WITNESS_PLACEHOLDER)
        mask = (masks or {}).get(siglum, ())
        if mask:
            kept = _unmasked(len(a), mask)
            pairings[siglum] = _remapped(align_pair("".join(map(a.__getitem__, kept)), keys[siglum], opt), kept)
        else:
            pairings[siglum] = align_pair(a, keys[siglum], opt)
        if progress and pairings[siglum].fallbacks:
            progress(
                f"{layer.value}: {siglum}: {pairings[siglum].fallbacks} stretch(es) with little in common "
                f"and over {opt.chunk} tokens aligned by longest common subsequence, not CollateX"
            )
    columns = _merge(streams, sigla, pairings, keys, opt)
    extents = layer_extents(columns, sigla, opt.edge_slack, quoting, symbols=table.of_key)
    if masks:
        extents = _masked_extents(columns, sigla, extents, masks)
    # A quoter quotes a passage where it pleases (a 集說 its 注 before or after its own words): the
    # passage stands at the base's place in the columns, and its place is no reading of it. A
    # compilation's own order is told (the 校勘記 says where the edition has the passage).
    transpositions = tuple(
        Transposition(s, bs, be, ws, we) for s in sigla[1:] if s not in quoting for bs, be, ws, we in pairings[s].moves
    )
    if masks:
        transpositions = _placeable(columns, sigla, extents, transpositions)
    return LayerAlignment(layer, sigla, tuple(columns), extents, transpositions)


def _placeable(
    columns: Sequence[Column], sigla: Sequence[str], extents: Sequence[Extent], moves: Sequence[Transposition]
) -> tuple[Transposition, ...]:
    """The moves whose own place in the witness is where the witness is extant.

    Aligned with a compilation's articles alone, a witness is not extant between them; a passage
    it has right where it stops (the 論語 that 射義 quotes, after 反求諸己而已矣) has its own place
    in no column the witness reads: that the compilation quotes it elsewhere says nothing.
    """
    column_of: dict[tuple[int, int], int] = {}
    for c, col in enumerate(columns):
        for r, tok in enumerate(col[1:], 1):
            if tok is not None:
                column_of[(r, tok.index)] = c
    kept = []
    for t in moves:
        r = sigla.index(t.siglum)
        # The witness's token just before the passage (a token's index is its place in the stream).
        at = column_of.get((r, t.wit_start - 1))
        if at is None or (at + 1 < len(columns) and extents[r].covers(at + 1)):
            kept.append(t)
    return tuple(kept)


def _unmasked(length: int, mask: Sequence[tuple[int, int]]) -> array[int]:
    """The base positions outside ``mask``, in order."""
    out = array("q")
    at = 0
    for start, end in sorted(mask):
        out.extend(range(at, max(at, start)))
        at = max(at, end)
    out.extend(range(at, length))
    return out


def _remapped(pair: PairAlignment, kept: array[int]) -> PairAlignment:
    """A pairing with a part of the base (positions ``kept``) in terms of the whole base."""
    base = array("q", (kept[p] if p >= 0 else -1 for p in pair.base))
    moves = tuple((kept[bs], kept[be - 1] + 1, ws, we) for bs, be, ws, we in pair.moves)
    return PairAlignment(base, pair.witness, moves, pair.fallbacks)


def _masked_extents(
    columns: Sequence[Column],
    sigla: Sequence[str],
    extents: Sequence[Extent],
    masks: Mapping[str, Sequence[tuple[int, int]]],
) -> tuple[Extent, ...]:
    """Each witness not extant at the columns of the base positions masked for it."""
    column_of = [c for c, col in enumerate(columns) if col[0] is not None]
    out = [extents[0]]
    for r, siglum in enumerate(sigla[1:], 1):
        extent = extents[r]
        spans = [(column_of[s], column_of[e - 1] + 1) for s, e in masks.get(siglum, ()) if e > s]
        if spans:
            extent = replace(extent, absent=tuple(merged(sorted({*extent.absent, *spans}))))
        out.append(extent)
    return tuple(out)


class _Symbols:
    """One character per search key; each comparison key met is given its search key's.

    Built once per layer and grown as the streams are read: a key is loosened the first time it
    is met, never per token or per comparison (a book's layer has millions of tokens and a few
    thousand keys).
    """

    def __init__(self, loosen: Callable[[str], str] | None) -> None:
        self._loosen = loosen
        # Comparison key -> symbol: equal symbols for keys with one search key (於 and 于).
        self.of_key: dict[str, str] = {}
        self._of_search: dict[str, str] = {}

    def of(self, tokens: Sequence[Token], placeholder: str) -> str:
        """One character per token, equal where the tokens' search keys are equal."""
        out = []
        of_key = self.of_key
        for tok in tokens:
            if tok.changes and tok.is_placeholder:
                out.append(placeholder)
                continue
            sym = of_key.get(tok.n)
            if sym is None:
                sym = of_key[tok.n] = self._new(tok.n)
            out.append(sym)
        return "".join(out)

    def _new(self, key: str) -> str:
        search = self._loosen(key) if self._loosen is not None else key
        sym = self._of_search.get(search)
        if sym is None:
            code = _FIRST_SYMBOL + len(self._of_search)
            if code >= _SURROGATES.start:
                code += len(_SURROGATES)
            if code > 0x10FFFF:
                raise ValueError("more distinct tokens than one layer can align")
            sym = self._of_search[search] = chr(code)
        return sym


def _merge(
    streams: Mapping[str, Sequence[Token]],
    sigla: tuple[str, ...],
    pairings: Mapping[str, PairAlignment],
    keys: Mapping[str, str],
    opt: AlignOptions,
) -> list[Column]:
    base = streams[sigla[0]]
    others = sigla[1:]
    at: dict[str, array[int]] = {}
    added: dict[str, dict[int, list[int]]] = {}
    for s in others:
        row = at[s] = array("q", [-1]) * len(base)
        slots: dict[int, list[int]] = {}
        slot = 0
        pairing = pairings[s]
        for i, j in zip(pairing.base, pairing.witness, strict=True):
            if i >= 0:
                row[i] = j
                slot = i + 1
            else:
                slots.setdefault(slot, []).append(j)
        added[s] = slots
    places = sorted({g for s in others for g in added[s]})
    columns: list[Column] = []
    rows = [(streams[s], at[s]) for s in others]
    p = 0
    for g in range(len(base) + 1):
        if p < len(places) and places[p] == g:
            columns += _additions(g, streams, sigla, added, keys, opt)
            p += 1
        if g < len(base):
            columns.append((base[g], *(toks[r[g]] if r[g] >= 0 else None for toks, r in rows)))
    return columns


def _additions(
    g: int,
    streams: Mapping[str, Sequence[Token]],
    sigla: tuple[str, ...],
    added: Mapping[str, Mapping[int, list[int]]],
    keys: Mapping[str, str],
    opt: AlignOptions,
) -> list[Column]:
    """Columns for the text that witnesses have before base token ``g`` and the base lacks."""
    present = sorted(s for s in sigla[1:] if g in added[s])
    seqs = [added[s][g] for s in present]
    longest = max(map(len, seqs))
    cells: list[tuple[int | None, ...]]
    if len(present) == 1:
        cells = [(t,) for t in range(longest)]
    else:
        text = [
            [None if keys[s][j] == _WITNESS_PLACEHOLDER else keys[s][j] for j in seq]
            for s, seq in zip(present, seqs, strict=True)
        ]
        if longest <= opt.chunk and _share(text):
            cells = collatex_columns(text)
        else:
            # CollateX's own answer when nothing is shared: left to right, one column each.
            cells = [tuple(t if t < len(seq) else None for seq in seqs) for t in range(longest)]
    row = {s: r for r, s in enumerate(present)}
    out: list[Column] = []
    for cell in cells:
        col: list[Token | None] = [None]
        for s in sigla[1:]:
            r = row.get(s)
            t = None if r is None else cell[r]
            col.append(None if r is None or t is None else streams[s][seqs[r][t]])
        out.append(tuple(col))
    return out


def _share(text: Sequence[Sequence[str | None]]) -> bool:
    """True if some key occurs in two of the sequences."""
    seen: set[str] = set()
    for seq in text:
        mine = {key for key in seq if key is not None}
        if not seen.isdisjoint(mine):
            return True
        seen |= mine
    return False
