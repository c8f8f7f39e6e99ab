"""One witness aligned to the base: anchors first, CollateX between them.

1. Unique k-grams of the whole texts, chained in order (``anchors``), align the long
   agreements; off-chain runs are transpositions (``transpositions``).
2. Each stretch between two anchors is first narrowed by the equal tokens next to the
   anchors, then aligned:

   * one side empty: the other side's tokens stand alone;
   * two sides of some length with little in common (different passages: one the base
     quotes from elsewhere, one it skips): each side's tokens stand alone, never read
     against the other's (``_unrelated``);
   * the two sides share no token: CollateX's answer is known without asking (it pairs them
     left to right, the first token of each side in one column, and so on), so we give it;
   * one side many times longer than the other (a base that quotes in pieces skips a
     passage; a witness lacks one): the short side is aligned at its best window in the long
     one (rapidfuzz's partial alignment), the rest stands alone (``_lopsided``);
   * both sides at most ``direct`` tokens: CollateX;
   * larger: anchors again inside the stretch, unique relative to it, with the k-gram
     lengths of ``gap_ks`` in turn, and the pieces between them aligned the same way; a
     stretch no anchor cuts goes to CollateX if it has at most ``chunk`` tokens a side, and
     otherwise (texts with little in common) to a fallback: an LCS alignment (rapidfuzz,
     bit-parallel, in C) whose unmatched tokens are paired left to right as CollateX pairs
     them, cut into pieces along the diagonal if it would need more than ``fallback_cells``
     cells.

3. The text before the first and after the last anchor is aligned against the other side's
   text next to that anchor only: a witness that begins later or ends earlier than the base
   (a fragment) then has no tokens out there, nor the base where the witness goes on beyond
   it (a fragmentary base, a quotation), which :mod:`collate.align.extents` turns into extents.
   Unless shorter anchors say the two edges still begin (end) together, the shorter with less
   in it (a print that gives fewer glosses): then they are aligned as any stretch is.

Every level is linear in the length of its stretch and there are at most ``len(gap_ks)``
levels below the first, so the cost is near-linear; CollateX, quadratic, only ever sees
``chunk`` tokens per side.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from collate.align.anchors import Match, chain, expand, unique_matches
from collate.align.collatex_adapter import collatex_columns
from collate.align.far_moves import far_moves
from collate.align.stretches import headed, lopsided_window, placed_well, together, unrelated
from collate.align.transpositions import Move, Moved, find_moves

Positions = Sequence[int]
# The shortest passage told as moved, by default (AlignOptions.min_transposition).
SHORTEST_MOVE = 6


@dataclass(frozen=True, slots=True)
class AlignOptions:
    """How the engine aligns; the defaults suit texts from a few hundred to millions of tokens.

    ``chunk``: most tokens per witness in one CollateX call. ``direct``: stretches between
    anchors with at most this many tokens a side go to CollateX as they are; larger ones are
    first cut by anchors. ``k``: k-gram length of the anchors over the whole texts.
    ``gap_ks``: k-gram lengths tried, in turn, in a stretch larger than ``direct``.
    ``min_transposition``: shortest passage reported as a transposition (``None``: never
    report one; a passage in another order is then an omission plus an addition, as plain
    CollateX has it); if shorter than ``k``, the anchors use it as their k. ``edge_slack``:
    how much more base text than witness text before the first or after the last anchor is
    still aligned as the witness's own (beyond it the witness begins later or ends earlier
    than the base). ``fallback_cells``: largest LCS table of the fallback.
    """

    chunk: int = 200
    direct: int = 32
    k: int = 6
    gap_ks: tuple[int, ...] = (6, 4, 3, 2)
    min_transposition: int | None = SHORTEST_MOVE
    edge_slack: int = 20
    fallback_cells: int = 4_000_000


@dataclass(frozen=True, slots=True)
class PairAlignment:
    """The base and one witness aligned: ``base[p]``/``witness[p]`` are the positions in
    column ``p`` (-1: none). Base positions increase; witness positions increase except inside
    ``moves``, whose witness tokens stand at the base's place of the passage."""

    base: array[int]
    witness: array[int]
    moves: tuple[Move, ...]
    fallbacks: int = 0  # stretches aligned by the LCS fallback rather than CollateX


def align_pair(a: str, b: str, options: AlignOptions) -> PairAlignment:
    """Align witness symbols ``b`` to base symbols ``a`` (one character per token)."""
    return _Pairer(a, b, options).run()


def _text(s: str, idx: Positions) -> str:
    if isinstance(idx, range) and idx.step == 1:
        return s[idx.start : idx.stop]
    return "".join(map(s.__getitem__, idx))


class _Pairer:
    """The state of one pairwise alignment: the symbols and the pairs emitted so far."""

    def __init__(self, a: str, b: str, options: AlignOptions) -> None:
        self.a = a
        self.b = b
        self.opt = options
        self.ob: array[int] = array("q")
        self.ow: array[int] = array("q")
        self.fallbacks = 0

    def emit(self, i: int, j: int) -> None:
        self.ob.append(i)
        self.ow.append(j)

    def run(self) -> PairAlignment:
        a, b, opt = self.a, self.b, self.opt
        k = opt.k if opt.min_transposition is None else min(opt.k, opt.min_transposition)
        matches = unique_matches(a, b, k)
        chained = chain(matches)
        pairs = expand(chained, k)
        moves: list[Moved] = []
        if opt.min_transposition is not None:
            moves = find_moves(a, b, matches, chained, pairs, k, opt.min_transposition)
        del matches, chained
        self._walk_top(pairs, [m.move for m in moves])
        if opt.min_transposition is not None:
            # Passages moved far and worded differently show only now, as long lone stretches.
            far = far_moves(a, b, self.ob, self.ow, moves)
            if far:
                moves = sorted([*moves, *far], key=lambda m: m.move)
                self.ob, self.ow = array("q"), array("q")
                self._walk_top(pairs, [m.move for m in moves])
        if not moves:
            return PairAlignment(self.ob, self.ow, (), self.fallbacks)
        ob, ow = _place_moves(self.ob, self.ow, moves)
        return PairAlignment(ob, ow, tuple(m.move for m in moves), self.fallbacks)

    # -- the whole texts -------------------------------------------------------------------

    def _walk_top(self, pairs: Sequence[Match], moves: Sequence[Move]) -> None:
        a, b = self.a, self.b
        moved_a = bytearray(len(a))
        moved_b = bytearray(len(b))
        for bs, be, ws, we in moves:
            moved_a[bs:be] = b"\x01" * (be - bs)
            moved_b[ws:we] = b"\x01" * (we - ws)

        def span(moved: bytearray, lo: int, hi: int) -> Positions:
            # Tokens of a moved passage are aligned at the base's place of the passage.
            if 1 not in moved[lo:hi]:
                return range(lo, hi)
            return [x for x in range(lo, hi) if not moved[x]]

        if not pairs:
            self._gap(span(moved_a, 0, len(a)), span(moved_b, 0, len(b)), 0, False, False)
            return
        i0, j0 = pairs[0]
        self._lead(span(moved_a, 0, i0), span(moved_b, 0, j0))
        self.emit(i0, j0)
        for (pi, pj), (i, j) in pairwise(pairs):
            if i > pi + 1 or j > pj + 1:
                self._gap(span(moved_a, pi + 1, i), span(moved_b, pj + 1, j), 0, True, True)
            self.emit(i, j)
        il, jl = pairs[-1]
        self._trail(span(moved_a, il + 1, len(a)), span(moved_b, jl + 1, len(b)))

    def _lead(self, ia: Positions, ib: Positions) -> None:
        """Text before the first anchor; a much longer side means the other begins later.

        A witness that begins later than the base (a fragment) leaves the base's text before it
        alone; a base that begins later (a fragmentary base, a quotation) leaves the witness's.
        Either way the shorter side is aligned with the text next to the anchor only, unless the
        longer side begins with it: a quotation from the middle of a passage headed by the words
        the passage begins with (五禮通考's 射人以射法治射儀, the office 射人 whose article, 射人掌國之…,
        it quotes from the middle) reads them where the passage has them, not as the words just
        before the sentence quoted (掌其治達).
        """
        slack = self.opt.edge_slack
        sa, sb = _text(self.a, ia), _text(self.b, ib)
        if ia and ib and len(ia) != len(ib) and headed(sa, sb, slack):
            short = min(len(ia), len(ib))
            for x, y in zip(ia[:short], ib[:short], strict=True):
                self.emit(x, y)
            for x in ia[short:]:
                self.emit(x, -1)
            for y in ib[short:]:
                self.emit(-1, y)
            return
        if abs(len(ia) - len(ib)) > slack and together(sa, sb, slack, head=True):
            # They begin together: one passage, their equal first words together as next to an anchor.
            self._gap(ia, ib, 0, True, True, related=True)
            return
        if len(ia) > len(ib) + slack:
            keep = len(ib) + slack
            for x in ia[: len(ia) - keep]:
                self.emit(x, -1)
            ia = ia[len(ia) - keep :]
        elif len(ib) > len(ia) + slack:
            keep = len(ia) + slack
            for y in ib[: len(ib) - keep]:
                self.emit(-1, y)
            ib = ib[len(ib) - keep :]
        else:
            self._gap(ia, ib, 0, False, True)
            return
        # Aligned backwards, so that the shorter side's tokens stand next to the anchor.
        sub = _Pairer(self.a, self.b, self.opt)
        sub._gap(ia[::-1], ib[::-1], 0, True, False)
        self.ob.extend(reversed(sub.ob))
        self.ow.extend(reversed(sub.ow))
        self.fallbacks += sub.fallbacks

    def _trail(self, ia: Positions, ib: Positions) -> None:
        """Text after the last anchor; a much longer side means the other ends earlier (unless
        the two still end together, :func:`~collate.align.stretches.together`)."""
        slack = self.opt.edge_slack
        if abs(len(ia) - len(ib)) > slack and together(_text(self.a, ia), _text(self.b, ib), slack, head=False):
            # They end together: one passage, their equal last words together as next to an anchor.
            self._gap(ia, ib, 0, True, True, related=True)
            return
        if len(ia) > len(ib) + slack:
            keep = len(ib) + slack
            self._gap(ia[:keep], ib, 0, True, False)
            for x in ia[keep:]:
                self.emit(x, -1)
        elif len(ib) > len(ia) + slack:
            keep = len(ia) + slack
            self._gap(ia, ib[:keep], 0, True, False)
            for y in ib[keep:]:
                self.emit(-1, y)
        else:
            self._gap(ia, ib, 0, True, False)

    # -- a stretch between anchors -------------------------------------------------------

    def _gap(self, ia: Positions, ib: Positions, level: int, left: bool, right: bool, related: bool = False) -> None:
        """Align a stretch; ``left``/``right``: an anchor borders it there, so equal tokens
        next to that anchor extend it."""
        a, b = self.a, self.b
        n = min(len(ia), len(ib))
        head = 0
        if left:
            while head < n and a[ia[head]] == b[ib[head]]:
                self.emit(ia[head], ib[head])
                head += 1
        tail = 0
        if right:
            while tail < n - head and a[ia[-1 - tail]] == b[ib[-1 - tail]]:
                tail += 1
        self._solve(ia[head : len(ia) - tail], ib[head : len(ib) - tail], level, left, right, related)
        for t in range(tail, 0, -1):
            self.emit(ia[-t], ib[-t])

    def _solve(self, ia: Positions, ib: Positions, level: int, left: bool, right: bool, related: bool = False) -> None:
        """Align a stretch (see the module docstring); ``related``: its two sides are known to be one
        passage (two edges that begin or end together), never two passages side by side."""
        if not ia or not ib:
            for x in ia:
                self.emit(x, -1)
            for y in ib:
                self.emit(-1, y)
            return
        sa, sb = _text(self.a, ia), _text(self.b, ib)
        opt = self.opt
        if not related and self._unrelated(ia, ib, sa, sb):
            return
        if set(sa).isdisjoint(sb):
            self._left_justify(ia, ib)
            return
        if self._lopsided(ia, ib, sa, sb):
            return
        if len(ia) <= opt.direct and len(ib) <= opt.direct:
            self._collatex(ia, ib, sa, sb)
            return
        while level < len(opt.gap_ks):
            k = opt.gap_ks[level]
            level += 1
            local = expand(chain(unique_matches(sa, sb, k)), k)
            if local:
                self._walk(ia, ib, local, level, left, right)
                return
        if len(ia) <= opt.chunk and len(ib) <= opt.chunk:
            self._collatex(ia, ib, sa, sb)
        else:
            self._fallback(ia, ib, sa, sb)

    def _lopsided(self, ia: Positions, ib: Positions, sa: str, sb: str) -> bool:
        """A stretch where one side is many times longer: the shorter side placed where it matches
        (:func:`~collate.align.stretches.lopsided_window`), the rest of the long side alone.

        Returns False where the stretch is not lopsided, or the short side too long to place this way.
        """
        window = lopsided_window(sa, sb, self.opt.edge_slack, self.opt.chunk)
        if window is None:
            return False
        lo, hi = window
        base_short = len(ia) <= len(ib)
        long_side = ib if base_short else ia

        def alone(positions: Positions) -> None:
            for t in positions:
                if base_short:
                    self.emit(-1, t)
                else:
                    self.emit(t, -1)

        alone(long_side[:lo])
        if base_short:
            self._solve(ia, ib[lo:hi], 0, False, False)
        else:
            self._solve(ia[lo:hi], ib, 0, False, False)
        alone(long_side[hi:])
        return True

    def _unrelated(self, ia: Positions, ib: Positions, sa: str, sb: str) -> bool:
        """Two sides of a stretch with little in common (:func:`~collate.align.stretches.unrelated`):
        each stands alone, the base's side text the witness lacks there and the witness's side
        text the base lacks."""
        if not unrelated(sa, sb, self.opt.fallback_cells):
            return False
        if placed_well(sa, sb, self.opt.edge_slack, self.opt.chunk):
            return False  # one passage, the witness lacking much of it: placed (_lopsided)
        for x in ia:
            self.emit(x, -1)
        for y in ib:
            self.emit(-1, y)
        return True

    def _walk(self, ia: Positions, ib: Positions, local: Sequence[Match], level: int, left: bool, right: bool) -> None:
        pi = pj = -1
        for i, j in local:
            if i > pi + 1 or j > pj + 1:
                # Only the first piece borders what bordered the whole stretch on the left.
                self._gap(ia[pi + 1 : i], ib[pj + 1 : j], level, left if pi < 0 else True, True)
            self.emit(ia[i], ib[j])
            pi, pj = i, j
        self._gap(ia[pi + 1 :], ib[pj + 1 :], level, True, right)

    def _collatex(self, ia: Positions, ib: Positions, sa: str, sb: str) -> None:
        for x, y in collatex_columns([list(sa), list(sb)]):
            self.emit(-1 if x is None else ia[x], -1 if y is None else ib[y])

    def _left_justify(self, ia: Positions, ib: Positions) -> None:
        """Pair unmatched tokens left to right, as CollateX's ranking places them."""
        for t in range(max(len(ia), len(ib))):
            self.emit(ia[t] if t < len(ia) else -1, ib[t] if t < len(ib) else -1)

    def _fallback(self, ia: Positions, ib: Positions, sa: str, sb: str) -> None:
        """A stretch too large for CollateX that anchors could not cut: LCS alignment."""
        self.fallbacks += 1
        self._lcs(ia, ib, sa, sb)

    def _lcs(self, ia: Positions, ib: Positions, sa: str, sb: str) -> None:
        from rapidfuzz.distance import Indel

        if len(ia) * len(ib) > self.opt.fallback_cells:
            side = max(1, int(self.opt.fallback_cells**0.5))
            pieces = -(-max(len(ia), len(ib)) // side)
            for p in range(pieces):
                pa = ia[p * len(ia) // pieces : (p + 1) * len(ia) // pieces]
                pb = ib[p * len(ib) // pieces : (p + 1) * len(ib) // pieces]
                self._lcs(pa, pb, _text(self.a, pa), _text(self.b, pb))
            return
        da = db = 0  # start of the stretch not yet emitted on each side
        for op in Indel.opcodes(sa, sb):
            if op.tag != "equal":
                continue
            a0, a1, b0 = op.src_start, op.src_end, op.dest_start
            self._left_justify(ia[da:a0], ib[db:b0])
            for t in range(a1 - a0):
                self.emit(ia[a0 + t], ib[b0 + t])
            da, db = a1, op.dest_end
        self._left_justify(ia[da:], ib[db:])


def _place_moves(ob: array[int], ow: array[int], moves: Sequence[Moved]) -> tuple[array[int], array[int]]:
    """Insert each moved passage's pairs at the base's place of the passage."""
    nb: array[int] = array("q")
    nw: array[int] = array("q")
    m = 0
    for i, j in zip(ob, ow, strict=True):
        while m < len(moves) and i > moves[m].move[0]:
            nb.extend(p for p, _ in moves[m].pairs)
            nw.extend(q for _, q in moves[m].pairs)
            m += 1
        nb.append(i)
        nw.append(j)
    for moved in moves[m:]:
        nb.extend(p for p, _ in moved.pairs)
        nw.extend(q for _, q in moved.pairs)
    return nb, nw
