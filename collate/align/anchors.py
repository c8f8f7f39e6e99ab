"""Anchors: long agreements between two token sequences, found in near-linear time.

Sequences arrive as strings of symbols, one character per token (see ``engine``), so that
k-grams are plain slices and counting them runs at C speed. An anchor is a k-gram that
occurs exactly once in each sequence; the anchors that are in the same order in both
are chained with a longest increasing subsequence (patience sorting), the way ``diff
--patience`` and MUMmer find the backbone of two texts. Unique k-grams make the chain
safe against repeated phrases; the chain makes it safe against a passage found elsewhere.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence

Match = tuple[int, int]


def unique_matches(a: str, b: str, k: int) -> list[Match]:
    """Start positions ``(i, j)`` of the k-grams that occur exactly once in ``a`` and once in
    ``b`` and are equal there, sorted by ``i``."""
    if k <= 0 or len(a) < k or len(b) < k:
        return []
    grams_a = list(map(a.__getitem__, map(slice, range(len(a) - k + 1), range(k, len(a) + 1))))
    count_a = Counter(grams_a)
    # For a k-gram seen once, the last position zip records is its only position.
    where_a = dict(zip(grams_a, range(len(grams_a)), strict=True))
    del grams_a
    grams_b = list(map(b.__getitem__, map(slice, range(len(b) - k + 1), range(k, len(b) + 1))))
    count_b = Counter(grams_b)
    matches = [(where_a[g], j) for j, g in enumerate(grams_b) if count_b[g] == 1 and count_a.get(g) == 1]
    matches.sort()
    return matches


def chain(matches: Sequence[Match]) -> list[Match]:
    """The longest subsequence of ``matches`` (sorted by ``i``, each ``i`` once) whose ``j``
    increase too: the anchors that agree on one order of the two texts.

    Patience sorting, O(m log m). Ties are broken by position, so the result is the same
    for the same input.
    """
    tails: list[int] = []  # tails[h]: smallest j ending an increasing run of length h + 1
    tail_at: list[int] = []  # index into matches of that run's last element
    back = [-1] * len(matches)
    for m, (_, j) in enumerate(matches):
        h = bisect_left(tails, j)
        if h == len(tails):
            tails.append(j)
            tail_at.append(m)
        else:
            tails[h] = j
            tail_at[h] = m
        back[m] = tail_at[h - 1] if h else -1
    out: list[Match] = []
    m = tail_at[-1] if tail_at else -1
    while m >= 0:
        out.append(matches[m])
        m = back[m]
    out.reverse()
    return out


def expand(chained: Sequence[Match], k: int) -> list[Match]:
    """Token pairs covered by chained k-gram matches, strictly increasing on both sides.

    Overlapping k-grams of one diagonal merge into a run; where two diagonals overlap the
    earlier match keeps the tokens they would share.
    """
    pairs: list[Match] = []
    last_i = last_j = -1
    for i, j in chained:
        for t in range(max(0, last_i - i + 1, last_j - j + 1), k):
            pairs.append((i + t, j + t))
        if pairs:
            last_i, last_j = pairs[-1]
    return pairs


def runs(matches: Sequence[Match], k: int) -> list[tuple[int, int, int]]:
    """Group k-gram matches into diagonal runs ``(i, j, length in tokens)``, sorted by ``i``.

    Matches on one diagonal whose k-grams touch or overlap form one run.
    """
    out: list[tuple[int, int, int]] = []
    for i, j in sorted(matches, key=lambda m: (m[1] - m[0], m[0])):
        if out:
            ri, rj, length = out[-1]
            if i - ri == j - rj and i <= ri + length:
                out[-1] = (ri, rj, max(length, i - ri + k))
                continue
        out.append((i, j, k))
    out.sort()
    return out
