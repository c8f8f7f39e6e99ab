"""Transpositions on symbol strings: passages a witness has out of the anchor chain's order."""

from __future__ import annotations

import random

from collate.align.anchors import chain, expand, unique_matches
from collate.align.transpositions import find_moves


def test_find_moves_reports_the_passage_out_of_order() -> None:
    rng = random.Random(3)
    a = "".join(chr(0x4E00 + rng.randrange(2000)) for _ in range(120))
    block = a[30:40]
    b = a[:30] + a[40:100] + block + a[100:]
    matches = unique_matches(a, b, 6)
    chained = chain(matches)
    pairs = expand(chained, 6)
    (found,) = find_moves(a, b, matches, chained, pairs, 6, 6)
    assert found.move == (30, 40, 90, 100)
    assert found.pairs == tuple((30 + t, 90 + t) for t in range(10))
    # Passages shorter than asked are not moves.
    assert find_moves(a, b, matches, chained, pairs, 6, 11) == []


def test_find_moves_ignores_a_repeat_of_aligned_text() -> None:
    rng = random.Random(4)
    a = "".join(chr(0x4E00 + rng.randrange(2000)) for _ in range(80))
    # The witness repeats a passage it also has in place: an addition, not a move.
    b = a[:60] + a[10:20] + a[60:]
    matches = unique_matches(a, b, 6)
    chained = chain(matches)
    assert find_moves(a, b, matches, chained, expand(chained, 6), 6, 6) == []


def moves_of(a: str, b: str, k: int = 6) -> list[tuple[tuple[int, int, int, int], tuple[tuple[int, int], ...]]]:
    matches = unique_matches(a, b, k)
    chained = chain(matches)
    return [(m.move, m.pairs) for m in find_moves(a, b, matches, chained, expand(chained, k), k, k)]


def test_of_a_passage_and_the_stretch_it_jumped_over_the_shorter_is_the_move() -> None:
    rng = random.Random(3)
    a = "".join(chr(0x4E00 + rng.randrange(2000)) for _ in range(140))
    # 90–100 comes forward over the sixty tokens 30–90: the chain keeps those, 90–100 moved.
    ((move, pairs),) = moves_of(a, a[:30] + a[90:100] + a[30:90] + a[100:])
    assert move == (90, 100, 30, 40)
    assert pairs == tuple((90 + t, 30 + t) for t in range(10))


def test_a_variant_inside_a_moved_passage_leaves_it_one_move() -> None:
    rng = random.Random(3)
    a = "".join(chr(0x4E00 + rng.randrange(2000)) for _ in range(140))
    moved = a[30:40] + "丁" + a[41:50]  # the passage 30–50, its 40 read otherwise
    ((move, pairs),) = moves_of(a, a[:30] + a[50:110] + moved + a[110:])
    assert move == (30, 50, 90, 110)
    # The variant stands on the passage's diagonal, paired with the base token it replaces.
    assert pairs == tuple((30 + t, 90 + t) for t in range(20))
