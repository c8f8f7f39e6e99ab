"""Transpositions: passages a witness has in another order than the base.

The anchor chain keeps one order of the two texts. A unique k-gram match that the chain left
out disagrees with that order (had it agreed, the longest chain would have taken it). Where
such matches form a run of at least ``min_len`` tokens and neither side of the run is
aligned by the chain, the witness has that passage of the base somewhere else: a
transposition, not an omission plus an addition. Of a passage and the stretch it jumped over,
the chain keeps the longer one, so the shorter one is the one reported.
"""

from __future__ import annotations

from collections.abc import Sequence

from collate.align.anchors import Match, runs

Move = tuple[int, int, int, int]  # base [start, end) is read by the witness at [start, end)

# A substitution inside a moved passage breaks its run of k-gram matches in two; runs on one
# diagonal separated by at most this many tokens on both sides are one passage.
_MERGE_GAP = 3


def find_moves(
    a: str,
    b: str,
    matches: Sequence[Match],
    chained: Sequence[Match],
    pairs: Sequence[Match],
    k: int,
    min_len: int,
) -> list[Move]:
    """Passages of ``a`` found in ``b`` out of the order of ``chained``, sorted by base start.

    ``matches`` are the unique k-gram matches, ``chained`` the ones kept in order and
    ``pairs`` the token pairs they align. Moves do not overlap each other or ``pairs``.
    """
    kept = set(chained)
    off = [m for m in matches if m not in kept]
    if not off:
        return []
    used_a = bytearray(len(a))
    used_b = bytearray(len(b))
    for i, j in pairs:
        used_a[i] = 1
        used_b[j] = 1
    candidates: list[Move] = []
    for i, j, length in _merge(runs(off, k)):
        # A token at the edge of the passage may also fit the chain (the passage's first
        # character is the one that follows it in the witness): the chain keeps it.
        while length and (used_a[i] or used_b[j]):
            i, j, length = i + 1, j + 1, length - 1
        while length and (used_a[i + length - 1] or used_b[j + length - 1]):
            length -= 1
        if not length or 1 in used_a[i : i + length] or 1 in used_b[j : j + length]:
            continue
        # Widen by equal tokens the chain did not use: k-grams stop short of a variant at
        # the passage's edges.
        while i > 0 and j > 0 and a[i - 1] == b[j - 1] and not used_a[i - 1] and not used_b[j - 1]:
            i, j, length = i - 1, j - 1, length + 1
        while (
            i + length < len(a)
            and j + length < len(b)
            and a[i + length] == b[j + length]
            and not used_a[i + length]
            and not used_b[j + length]
        ):
            length += 1
        if length >= min_len:
            candidates.append((i, i + length, j, j + length))
    # Longest first, so that a passage wins over a fragment of it that overlaps.
    candidates.sort(key=lambda m: (m[0] - m[1], m[0], m[2]))
    taken: list[Move] = []
    for move in candidates:
        bs, be, ws, we = move
        if 1 in used_a[bs:be] or 1 in used_b[ws:we]:
            continue
        used_a[bs:be] = b"\x01" * (be - bs)
        used_b[ws:we] = b"\x01" * (we - ws)
        taken.append(move)
    taken.sort()
    return taken


def _merge(found: Sequence[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """Join runs of one diagonal that a few tokens (a variant inside the passage) separate."""
    out: list[tuple[int, int, int]] = []
    for i, j, length in sorted(found, key=lambda r: (r[1] - r[0], r[0])):
        if out:
            ri, rj, rlen = out[-1]
            if i - ri == j - rj and i - (ri + rlen) <= _MERGE_GAP:
                out[-1] = (ri, rj, i + length - ri)
                continue
        out.append((i, j, length))
    out.sort()
    return out
