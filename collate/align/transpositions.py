"""Transpositions: passages a witness has in another order than the base.

The anchor chain keeps one order of the two texts. A unique k-gram match that the chain left
out disagrees with that order (had it agreed, the longest chain would have taken it). Where
such matches form a passage of at least ``min_len`` tokens, neither side of it is aligned by
the chain, and neither side has a near copy at the other text's corresponding place (which a
repeated phrase with a variant in one of its occurrences would have), the witness has that
passage of the base somewhere else: a transposition, not an omission plus an addition. Of a
passage and the stretch it jumped over, the chain keeps the longer one, so the shorter one is
the one reported.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from collate.align.anchors import Match, runs

Move = tuple[int, int, int, int]  # base [start, end) is read by the witness at [start, end)

# Variants inside a moved passage cut its k-gram matches into pieces, on one diagonal (a
# substitution) or on neighbouring ones (an addition, an omission); a variant next to a
# repeated k-gram cuts a wider hole. Pieces at most this many tokens apart on both sides,
# with nothing the chain aligned between them, are one passage.
_JOIN_GAP = 12


@dataclass(frozen=True, slots=True)
class Moved:
    """A transposed passage and its token pairs (-1: no token on that side)."""

    move: Move
    pairs: tuple[Match, ...]


def find_moves(
    a: str,
    b: str,
    matches: Sequence[Match],
    chained: Sequence[Match],
    pairs: Sequence[Match],
    k: int,
    min_len: int,
) -> list[Moved]:
    """Passages of ``a`` found in ``b`` out of the order of ``chained``, sorted by base start.

    ``matches`` are the unique k-gram matches, ``chained`` the ones kept in order and
    ``pairs`` the token pairs they align. Moves overlap neither each other nor ``pairs``.
    """
    # Each base position starts at most one unique k-gram, so positions identify matches.
    in_chain = bytearray(len(a))
    for i, _ in chained:
        in_chain[i] = 1
    off = [m for m in matches if not in_chain[m[0]]]
    del in_chain
    if not off or not pairs:
        return []
    used_a = bytearray(len(a))
    used_b = bytearray(len(b))
    for i, j in pairs:
        used_a[i] = 1
        used_b[j] = 1
    candidates = _candidates(a, b, runs(off, k), pairs, used_a, used_b, min_len)
    chain_a, chain_b = bytes(used_a), bytes(used_b)
    joined = _joined(_taken(candidates, used_a, used_b), chain_a, chain_b)
    return [Moved((p[0][0], p[-1][0] + p[-1][2], p[0][1], p[-1][1] + p[-1][2]), _pairs(a, b, p)) for p in joined]


def _candidates(
    a: str,
    b: str,
    found: Sequence[tuple[int, int, int]],
    pairs: Sequence[Match],
    used_a: bytearray,
    used_b: bytearray,
    min_len: int,
) -> list[list[list[int]]]:
    """The passages the runs ``found`` off the chain make, trimmed and widened, that are long
    enough and have no near copy at the other text's place; longest first."""
    near: _Neighbourhood | None = None
    candidates: list[list[list[int]]] = []
    for pieces in _passages(found):
        pieces = _trim(pieces, used_a, used_b)
        if not pieces:
            continue
        _widen(a, b, pieces, used_a, used_b)
        first, last = pieces[0], pieces[-1]
        bs, be, ws, we = first[0], last[0] + last[2], first[1], last[1] + last[2]
        if be - bs < min_len:
            continue
        near = near or _Neighbourhood(a, b, pairs)
        if near.has_copy(bs, be, ws, we):
            continue
        candidates.append(pieces)
    # Longest first, so that a passage wins over a fragment of it that overlaps.
    candidates.sort(key=lambda p: (p[0][0] - p[-1][0] - p[-1][2], p[0][0], p[0][1]))
    return candidates


def _widen(a: str, b: str, pieces: list[list[int]], used_a: bytearray, used_b: bytearray) -> None:
    """Widen the passage's first and last pieces, in place, by equal tokens the chain did not
    use: k-grams stop short of a variant at the passage's edges."""
    first, last = pieces[0], pieces[-1]
    while (
        first[0] > 0
        and first[1] > 0
        and a[first[0] - 1] == b[first[1] - 1]
        and not used_a[first[0] - 1]
        and not used_b[first[1] - 1]
    ):
        first[0] -= 1
        first[1] -= 1
        first[2] += 1
    while (
        last[0] + last[2] < len(a)
        and last[1] + last[2] < len(b)
        and a[last[0] + last[2]] == b[last[1] + last[2]]
        and not used_a[last[0] + last[2]]
        and not used_b[last[1] + last[2]]
    ):
        last[2] += 1


def _taken(candidates: Sequence[list[list[int]]], used_a: bytearray, used_b: bytearray) -> list[list[list[int]]]:
    """The candidates that overlap neither the chain nor one taken before, marked as used; by base start."""
    taken: list[list[list[int]]] = []
    for pieces in candidates:
        bs, ws = pieces[0][0], pieces[0][1]
        be, we = pieces[-1][0] + pieces[-1][2], pieces[-1][1] + pieces[-1][2]
        if 1 in used_a[bs:be] or 1 in used_b[ws:we]:
            continue
        used_a[bs:be] = b"\x01" * (be - bs)
        used_b[ws:we] = b"\x01" * (we - ws)
        taken.append(pieces)
    taken.sort()
    return taken


def _joined(taken: Sequence[list[list[int]]], chain_a: bytes, chain_b: bytes) -> list[list[list[int]]]:
    """Widening can bring two parts of one passage next to each other: join them again
    (at most :data:`_JOIN_GAP` tokens apart, with nothing the chain aligned between)."""
    joined: list[list[list[int]]] = []
    for pieces in taken:
        if joined:
            last = joined[-1][-1]
            ea, eb = last[0] + last[2], last[1] + last[2]
            i, j = pieces[0][0], pieces[0][1]
            if (
                0 <= i - ea <= _JOIN_GAP
                and 0 <= j - eb <= _JOIN_GAP
                and 1 not in chain_a[ea:i]
                and 1 not in chain_b[eb:j]
            ):
                joined[-1] += pieces
                continue
        joined.append(pieces)
    return joined


def _passages(found: Sequence[tuple[int, int, int]]) -> list[list[list[int]]]:
    """Runs (sorted by base start) joined into passages of pieces ``[i, j, length]``."""
    out: list[list[list[int]]] = []
    for i, j, length in found:
        if out:
            pi, pj, plen = out[-1][-1]
            if 0 <= i - (pi + plen) <= _JOIN_GAP and 0 <= j - (pj + plen) <= _JOIN_GAP:
                out[-1].append([i, j, length])
                continue
        out.append([[i, j, length]])
    return out


def _trim(pieces: list[list[int]], used_a: bytearray, used_b: bytearray) -> list[list[int]]:
    """Drop tokens the chain aligned from the passage's edges; nothing if any remain inside.

    A token at the edge of a passage may also fit the chain (the passage's first character
    is the one that follows it in the witness): the chain keeps it.
    """
    while pieces and (used_a[pieces[0][0]] or used_b[pieces[0][1]]):
        pieces[0] = [pieces[0][0] + 1, pieces[0][1] + 1, pieces[0][2] - 1]
        if not pieces[0][2]:
            pieces = pieces[1:]
    while pieces and (used_a[pieces[-1][0] + pieces[-1][2] - 1] or used_b[pieces[-1][1] + pieces[-1][2] - 1]):
        pieces[-1] = [pieces[-1][0], pieces[-1][1], pieces[-1][2] - 1]
        if not pieces[-1][2]:
            pieces = pieces[:-1]
    if not pieces:
        return []
    bs, be = pieces[0][0], pieces[-1][0] + pieces[-1][2]
    ws, we = pieces[0][1], pieces[-1][1] + pieces[-1][2]
    if 1 in used_a[bs:be] or 1 in used_b[ws:we]:
        return []
    return pieces


def _pairs(a: str, b: str, pieces: Sequence[Sequence[int]]) -> tuple[Match, ...]:
    """Token pairs of a passage: its pieces on their diagonals, the few tokens between two
    pieces aligned by their longest common subsequence, the rest paired left to right."""
    from rapidfuzz.distance import Indel

    out: list[Match] = []
    for n, (i, j, length) in enumerate(pieces):
        if n:
            pi, pj, plen = pieces[n - 1]
            ga, gb = range(pi + plen, i), range(pj + plen, j)
            da = db = 0
            for op in [*Indel.opcodes(a[ga.start : ga.stop], b[gb.start : gb.stop]), None]:
                if op is not None and op.tag != "equal":
                    continue
                a0, b0 = (op.src_start, op.dest_start) if op else (len(ga), len(gb))
                for t in range(max(a0 - da, b0 - db)):
                    out.append((ga[da + t] if da + t < a0 else -1, gb[db + t] if db + t < b0 else -1))
                if op:
                    out.extend((ga[a0 + t], gb[b0 + t]) for t in range(op.src_end - a0))
                    da, db = op.src_end, op.dest_end
        out.extend((i + t, j + t) for t in range(length))
    return tuple(out)


class _Neighbourhood:
    """What each text has at the other's place, by the anchor chain."""

    def __init__(self, a: str, b: str, pairs: Sequence[Match]) -> None:
        self.a, self.b = a, b
        self.pa = [i for i, _ in pairs]
        self.pb = [j for _, j in pairs]

    def has_copy(self, bs: int, be: int, ws: int, we: int) -> bool:
        """True if the base at the witness passage's place, or the witness at the base
        passage's place, holds a near copy of it: then the off-chain match is a repeated
        phrase that a variant made unique, not a passage out of order."""
        lo, hi = self._around(self.pb, self.pa, ws, we, len(self.a))
        if _near_copy(self.b[ws:we], self.a[lo:hi]):
            return True
        lo, hi = self._around(self.pa, self.pb, bs, be, len(self.b))
        return _near_copy(self.a[bs:be], self.b[lo:hi])

    @staticmethod
    def _around(mine: list[int], theirs: list[int], start: int, end: int, length: int) -> tuple[int, int]:
        """The other text's stretch between the anchors around ``[start, end)``."""
        h = bisect_left(mine, start)
        lo = theirs[h - 1] + 1 if h else 0
        h = bisect_left(mine, end)
        hi = theirs[h] if h < len(theirs) else length
        return lo, max(lo, hi)


def _near_copy(passage: str, stretch: str) -> bool:
    """True if some part of ``stretch`` has at least half of ``passage`` in order."""
    from rapidfuzz.distance import Indel

    need = (len(passage) + 1) // 2
    if len(stretch) < need:
        return False
    width, step = 2 * len(passage), len(passage)
    for s in range(0, max(1, len(stretch) - width + step), step):
        piece = stretch[s : s + width]
        if len(passage) + len(piece) - Indel.distance(passage, piece) >= 2 * need:
            return True
    return False
