"""Anchors on symbol strings (no tokens, no CollateX): unique k-grams, the longest chain, runs."""

from __future__ import annotations

import random
from itertools import pairwise

from collate.align.anchors import chain, expand, runs, unique_matches


def test_unique_matches_skip_repeated_kgrams() -> None:
    a = "投壶之礼主人奉矢投壶之礼"
    b = "主人奉矢投壶之礼"
    # 投壶之礼 occurs twice in a: its k-grams match nothing, the others match once.
    assert unique_matches(a, b, 2) == [(4, 0), (5, 1), (6, 2), (7, 3)]
    assert unique_matches(a, b, 4) == [(4, 0), (5, 1), (6, 2), (7, 3)]
    assert unique_matches(a, b, 5) == [(4, 0), (5, 1), (6, 2), (7, 3)]
    assert unique_matches(a + "投壶之礼", b, 2) == [(4, 0), (5, 1), (6, 2), (7, 3)]
    # 主人 is now twice in b; 礼主 (a: 3) now occurs in b too.
    assert unique_matches(a, b + "主人", 2) == [(3, 7), (5, 1), (6, 2), (7, 3)]


def test_unique_matches_short_inputs() -> None:
    assert unique_matches("ab", "abc", 3) == []
    assert unique_matches("", "", 1) == []


def test_chain_keeps_the_longest_order() -> None:
    matches = [(0, 5), (1, 0), (2, 1), (3, 2), (4, 6), (5, 3)]
    assert chain(matches) == [(1, 0), (2, 1), (3, 2), (5, 3)]
    assert chain([]) == []


def test_chain_is_longest_on_random_input() -> None:
    rng = random.Random(7)
    for _ in range(50):
        js = rng.sample(range(40), 25)
        found = chain(list(enumerate(js)))
        assert all(p[0] < q[0] and p[1] < q[1] for p, q in pairwise(found))
        # Longest increasing subsequence by the quadratic recurrence.
        best = [1] * len(js)
        for i in range(len(js)):
            for h in range(i):
                if js[h] < js[i]:
                    best[i] = max(best[i], best[h] + 1)
        assert len(found) == max(best)


def test_expand_merges_one_diagonal_and_resolves_overlaps() -> None:
    assert expand([(0, 0), (1, 1)], 3) == [(0, 0), (1, 1), (2, 2), (3, 3)]
    # The second k-gram's diagonal overlaps the first's tokens: the first keeps them.
    assert expand([(0, 0), (2, 4)], 3) == [(0, 0), (1, 1), (2, 2), (3, 5), (4, 6)]


def test_runs_group_diagonals() -> None:
    found = runs([(0, 10), (1, 11), (2, 12), (5, 0), (6, 1), (9, 20)], 3)
    assert found == [(0, 10, 5), (5, 0, 4), (9, 20, 3)]
