"""Where everything of the base and of each collated layer is written.

The base's spans in file order make blocks (one ``<seg>``, ``<note>`` or ``<head>`` each);
each collated layer's columns are assigned to the block of the base token they belong to
and cut into pieces: plain columns, parts of a locus, entries at a point between columns,
passages a witness has elsewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from collate.apparatus import LayerResult, Locus
from collate.model import Layer, Position, Role, Span, Token, Witness

# --- the base witness's blocks ----------------------------------------------------------


@dataclass(slots=True)
class Block:
    """One unit of the base in file order: consecutive spans of one (layer, unit)."""

    layer: Layer
    unit: int
    start: int
    end: int
    spans: list[Span] = field(default_factory=list)
    id: str = ""
    index: int = 0


def base_blocks(base: Witness) -> list[Block]:
    """The base's text in file order as blocks, numbered per layer (``jing.1``, ``zhu.1`` …)."""
    blocks: list[Block] = []
    for span in base.spans:
        if span.layer in (Layer.MARKUP, Layer.BOILERPLATE) or span.role in (Role.MARKER, Role.LAYOUT):
            continue  # layout and printed layer markers are not text (the note's subtype says 注/疏)
        last = blocks[-1] if blocks else None
        if last is not None and (last.layer, last.unit) == (span.layer, span.unit):
            last.spans.append(span)
            last.end = span.end
        else:
            blocks.append(Block(span.layer, span.unit, span.start, span.end, [span]))
    counters: dict[Layer, int] = {}
    for i, block in enumerate(blocks):
        block.index = i
        counters[block.layer] = counters.get(block.layer, 0) + 1
        block.id = f"{block.layer.value}.{counters[block.layer]}"
    return blocks


# --- one collated layer -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Move:
    """A passage a witness has elsewhere (a transposition): its tokens, written at its own place.

    The alignment puts them at the base's place (``base_start``); the writer leaves an empty
    reading there and writes them before column ``column``, where the witness's order has them.
    """

    siglum: str
    tokens: tuple[Token, ...]
    column: int
    base_start: int
    id: str


@dataclass(slots=True)
class Piece:
    """Part of a layer's columns written in one block: plain columns, a locus (part), a point entry."""

    start: int
    end: int
    locus: Locus | None = None
    first: bool = True
    point: bool = False
    part: int = 0
    move: Move | None = None
    plain: bool = False


# A piece with its place in the layer's order (column, runs after point entries, witness order)
# and the block it is written in (-1: none, an orphan).
_Placed = tuple[tuple[int, int, int], int, Piece]


class CollatedLayer:
    """A collated layer with the indexes the writer needs: extents, loci by column, owners."""

    def __init__(self, result: LayerResult) -> None:
        self.result = result
        self.layer = result.layer
        self.columns = result.alignment.columns
        self.sigla = result.alignment.sigla
        self.n = len(self.columns)
        self.index = {s: j for j, s in enumerate(self.sigla)}
        self.extents: dict[str, tuple[int, int]] = {}
        # Per witness, the column ranges [start, end) of the pages its print has lost, and of
        # the passages it does not contain (skipped by a witness that quotes in pieces).
        self.lacunae: dict[str, tuple[tuple[int, int], ...]] = {}
        self.absent: dict[str, tuple[tuple[int, int], ...]] = {}
        for s in self.sigla:
            e = next((x for x in result.extents if x.siglum == s), None) or result.alignment.extent(s)
            if e.first is not None and e.last is not None:
                self.extents[s] = (e.first, e.last)
            if e.lacunae:
                self.lacunae[s] = e.lacunae
            if e.absent:
                self.absent[s] = e.absent
        # Cells where a witness sets a heading otherwise than the base (no variant), by column and siglum.
        self.headings = frozenset((c, self.sigla[j]) for c, j in result.headings)
        self.pieces: dict[int, list[Piece]] = {}
        self.orphans: list[Piece] = []
        self.moves = self._moves()
        self.moved = {s: frozenset(t.index for m in self.moves if m.siglum == s for t in m.tokens) for s in self.sigla}
        # Moves whose own place falls inside a locus join the witness's reading there.
        self.inside: dict[str, list[Move]] = {}
        # Locus id -> the ids of the entries holding passages moved out of it (linked by @exclude).
        self.excludes: dict[str, list[str]] = {}
        self.origins: dict[str, str] = {}

    def _moves(self) -> list[Move]:
        moves = []
        passages = self.result.alignment.transpositions
        # Per witness, its moved passages by their last and by their first token index.
        by_last: dict[tuple[str, int], int] = {(t.siglum, t.wit_end - 1): t.wit_start for t in passages}
        by_first: dict[tuple[str, int], int] = {(t.siglum, t.wit_start): t.wit_end for t in passages}
        for k, t in enumerate(passages, 1):
            if t.siglum not in self.index or t.siglum == self.sigla[0]:
                continue
            # The witness's tokens by index, built once per layer (not a scan of every column per move).
            own = self.result.alignment.index(self.index[t.siglum])
            tokens = [own.by_index[i] for i in range(t.wit_start, t.wit_end) if i in own.by_index]
            if not tokens:
                continue
            # A passage next to another moved passage in the witness stands beside that one,
            # not where its tokens were aligned: step over the chain of moved passages to the
            # witness's nearest token that is in its place.
            i, j = t.wit_start - 1, t.wit_end
            while (t.siglum, i) in by_last:
                i = by_last[(t.siglum, i)] - 1
            while (t.siglum, j) in by_first:
                j = by_first[(t.siglum, j)]
            before, after = own.column_of.get(i), own.column_of.get(j)
            column = before + 1 if before is not None else (after if after is not None else 0)
            moves.append(Move(t.siglum, tuple(tokens), column, t.base_start, f"{self.layer.value}-moved-{k}"))
        return moves

    @property
    def readers(self) -> tuple[str, ...]:
        """The aligned witnesses other than the base."""
        return self.sigla[1:]

    def extant(self, siglum: str, column: int) -> bool:
        """The witness has text (or an omission) at this column: it lies within its extent."""
        e = self.extents.get(siglum)
        return e is not None and e[0] <= column <= e[1]

    def lost(self, siglum: str, columns: Sequence[int]) -> bool:
        """Every one of ``columns`` lies in a lacuna of the witness (pages its print has lost)."""
        holes = self.lacunae.get(siglum, ())
        return bool(columns) and bool(holes) and all(any(a <= c < b for a, b in holes) for c in columns)

    def missing(self, siglum: str, columns: Sequence[int]) -> bool:
        """Every one of ``columns`` lies in a passage the witness does not contain (``Extent.absent``)."""
        holes = self.absent.get(siglum, ())
        return bool(columns) and bool(holes) and all(any(a <= c < b for a, b in holes) for c in columns)

    def token(self, siglum: str, column: int) -> Token | None:
        """The witness's token at this column, if any."""
        return self.columns[column][self.index[siglum]]

    def starts_at(self, siglum: str, column: int) -> bool:
        """The witness begins here, after the layer's start: a ``witStart``."""
        e = self.extents.get(siglum)
        return e is not None and e[0] == column > 0

    def ends_at(self, siglum: str, column: int) -> bool:
        """The witness stops here, before the layer's end: a ``witEnd``."""
        e = self.extents.get(siglum)
        return e is not None and e[1] == column < self.n - 1

    def _exclude(self, entry: str, other: str) -> None:
        """Entry ``entry`` excludes ``other`` (``@exclude``), once."""
        listed = self.excludes.setdefault(entry, [])
        if other not in listed:
            listed.append(other)

    def plan(self, block_of: Callable[[int], int | None]) -> None:
        """Assign every column to a base block and cut it into pieces (loci split at block edges)."""
        owner, locus_at, points = self._owners(block_of)
        filled = _fill(owner)
        # Entries at a point between columns (a reported addition, a passage moved to the
        # witness's own place) come first: the runs of columns are cut where they stand.
        pieces = [*self._point_pieces(points, filled), *self._move_pieces(locus_at, filled)]
        cuts = {key[0] for key, _, _ in pieces}
        pieces.extend(self._run_pieces(filled, locus_at, cuts))
        for _, home, piece in sorted(pieces, key=lambda x: x[0]):
            if home < 0:
                self.orphans.append(piece)
            else:
                self.pieces.setdefault(home, []).append(piece)

    def _owners(
        self, block_of: Callable[[int], int | None]
    ) -> tuple[list[int | None], list[Locus | None], list[Locus]]:
        """Each column's base block (None: no base token, nor a locus to take one from), each
        column's locus, and the loci at a point between columns."""
        owner: list[int | None] = [block_of(col[0].start) if col[0] is not None else None for col in self.columns]
        locus_at: list[Locus | None] = [None] * self.n
        points: list[Locus] = []
        for locus in self.result.loci:
            if locus.col_start == locus.col_end:
                points.append(locus)
                continue
            cols = range(locus.col_start, locus.col_end)
            for c in cols:
                locus_at[c] = locus
            # Text the base lacks goes with the base text of its own locus first.
            known = [owner[c] for c in cols if owner[c] is not None]
            seen = known[0] if known else None
            for c in cols:
                if owner[c] is None:
                    owner[c] = seen
                else:
                    seen = owner[c]
        return owner, locus_at, points

    def _point_pieces(self, points: Sequence[Locus], filled: Sequence[int]) -> list[_Placed]:
        """The loci at a point, each in the block before it (reported after a phrase) or after."""
        pieces: list[_Placed] = []
        for locus in points:
            p = locus.col_start
            after = any(
                pl.base_start == pl.base_end == locus.base_start and pl.entry.position is Position.AFTER
                for pl in self.result.placements
            )
            where = p - 1 if (after and p > 0) or p >= self.n else p
            home = filled[where] if 0 <= where < self.n else -1
            pieces.append(((p, 0, -1), home, Piece(p, p, locus, True, point=True)))
        return pieces

    def _move_pieces(self, locus_at: Sequence[Locus | None], filled: Sequence[int]) -> list[_Placed]:
        """The moved passages at their own places, but those read inside a locus; each entry
        linked (``@exclude``) with the one at the passage's place in the base."""
        pieces: list[_Placed] = []
        base_col = self.result.alignment.base.column_of
        for move in self.moves:
            p = move.column
            host = locus_at[p] if 0 < p < self.n and locus_at[p - 1] is locus_at[p] else None
            if host is not None:
                self.inside.setdefault(host.id, []).append(move)
            else:
                home = filled[p - 1] if p > 0 else (filled[0] if self.n else -1)
                # Passages moved to one place come in the witness's order.
                pieces.append(((p, 0, move.tokens[0].index), home, Piece(p, p, None, True, point=True, move=move)))
            origin = locus_at[base_col[move.base_start]] if move.base_start in base_col else None
            if origin is None:
                continue
            if host is None:
                self._exclude(origin.id, move.id)
                self.origins[move.id] = origin.id
            elif host is not origin:
                # The moved passage is read inside another entry: the two entries exclude each other.
                self._exclude(origin.id, host.id)
                self._exclude(host.id, origin.id)
        return pieces

    def _run_pieces(self, filled: Sequence[int], locus_at: Sequence[Locus | None], cuts: set[int]) -> list[_Placed]:
        """The runs of columns of one block and one locus (or none), cut where a point entry stands;
        a locus over several blocks in numbered parts."""

        def run_key(c: int) -> tuple[int, int | None]:
            return filled[c], id(locus_at[c]) if locus_at[c] is not None else None

        pieces: list[_Placed] = []
        parts: dict[str, int] = {}
        c = 0
        while c < self.n:
            end = c + 1
            while end < self.n and run_key(end) == run_key(c) and end not in cuts:
                end += 1
            here = locus_at[c]
            part = 0
            if here is not None:
                part = parts.get(here.id, 0)
                parts[here.id] = part + 1
            pieces.append(((c, 1, 0), filled[c], Piece(c, end, here, part == 0, part=part)))
            c = end
        return pieces


def _fill(owner: Sequence[int | None]) -> list[int]:
    """Columns without a base token take the block before them (else after; else -1: orphans)."""
    out: list[int] = []
    last: int | None = None
    for o in owner:
        last = o if o is not None else last
        out.append(last if last is not None else -1)
    first = next((o for o in owner if o is not None), -1)
    return [first if o == -1 else o for o in out]
