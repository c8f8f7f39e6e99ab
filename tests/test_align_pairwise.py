"""One witness aligned to the base on symbol strings (one character a token): pairs, moves, fallback."""

from __future__ import annotations

import random

import pytest

from collate.align.pairwise import AlignOptions, PairAlignment, align_pair


def text(seed: int, size: int) -> str:
    """``size`` distinct-looking CJK symbols, the same for a seed."""
    rng = random.Random(seed)
    return "".join(chr(0x4E00 + rng.randrange(2000)) for _ in range(size))


def columns(a: str, b: str) -> list[tuple[int, int]]:
    """The alignment's columns as (base position, witness position), -1 for none; invariants checked."""
    got = align_pair(a, b, AlignOptions())
    check(got, a, b)
    return list(zip(got.base, got.witness, strict=True))


def check(got: PairAlignment, a: str, b: str) -> None:
    """Every token in one column; base positions increase; so do the witness's, outside its moves."""
    base = [i for i in got.base if i >= 0]
    wit = [j for j in got.witness if j >= 0]
    assert base == list(range(len(a)))
    assert sorted(wit) == list(range(len(b)))
    moved = {j for _, _, ws, we in got.moves for j in range(ws, we)}
    assert [j for j in wit if j not in moved] == sorted(j for j in wit if j not in moved)
    assert all(i >= 0 or j >= 0 for i, j in zip(got.base, got.witness, strict=True))


def test_the_same_text_pairs_every_token_with_itself() -> None:
    a = text(1, 80)
    assert columns(a, a) == [(i, i) for i in range(80)]


def test_a_substitution_stands_in_its_column_and_an_omission_leaves_the_base_alone() -> None:
    a = text(3, 120)
    b = a[:10] + "丁" + a[11:60] + a[70:]
    got = dict(columns(a, b))
    assert got[10] == 10  # the witness's 丁 is read against the base's character there
    assert [got[i] for i in range(60, 70)] == [-1] * 10
    assert got[70] == 60


def test_a_witness_that_ends_early_has_no_tokens_after_its_end() -> None:
    a = text(3, 120)
    got = columns(a, a[:50])
    assert got[:50] == [(i, i) for i in range(50)]
    assert got[50:] == [(i, -1) for i in range(50, 120)]


def test_a_passage_out_of_order_is_a_move_read_at_the_base_place() -> None:
    a = text(3, 120)
    b = a[:30] + a[40:100] + a[30:40] + a[100:]
    got = align_pair(a, b, AlignOptions())
    check(got, a, b)
    assert got.moves == ((30, 40, 90, 100),)
    pairs = dict(zip(got.base, got.witness, strict=True))
    assert [pairs[i] for i in range(30, 40)] == list(range(90, 100))
    assert pairs[40] == 30
    # Without transpositions the same passage is an omission and an addition.
    plain = align_pair(a, b, AlignOptions(min_transposition=None))
    check(plain, a, b)
    assert plain.moves == ()
    assert dict(zip(plain.base, plain.witness, strict=True))[30] == -1


@pytest.mark.parametrize("seed", range(4))
def test_stretches_no_anchor_cuts_fall_back_and_keep_the_invariants(seed: int) -> None:
    a = text(seed, 150)
    rng = random.Random(seed)
    b = "".join(c if rng.random() > 0.3 else "丁" for c in a)
    got = align_pair(a, b, AlignOptions(chunk=8, direct=8, gap_ks=(), fallback_cells=400, k=40, min_transposition=None))
    check(got, a, b)
    assert got.fallbacks > 0


def test_a_witness_that_begins_long_before_the_base_leaves_its_text_alone() -> None:
    # A fragmentary base (or a quotation): the witness has 200 tokens of its own first.
    a = text(21, 100)
    b = text(22, 200) + a
    got = columns(a, b)
    first = next(p for p, (i, _) in enumerate(got) if i >= 0)
    assert all(i == -1 for i, _ in got[:first])
    assert got[first:] == [(i, 200 + i) for i in range(100)]


def test_a_quotation_headed_by_the_words_its_passage_begins_with_reads_them_there() -> None:
    # 射人以射法治射儀…: the base names the office whose article (射人掌國之…, 70 words before the
    # sentence quoted) it quotes from the middle; the name is read where the article has it, not
    # against the words just before the sentence.
    head = "射人"
    article = head + text(31, 68)
    sentence = text(32, 60)
    got = columns(head + sentence, article + sentence)
    assert got[:2] == [(0, 0), (1, 1)]
    assert all(i == -1 for i, _ in got[2:70])
    assert got[70:] == [(2 + i, 70 + i) for i in range(60)]
    # One word alike at the head is no sign: it stands next to the anchor, as before.
    one = columns("甲" + sentence, "甲" + text(33, 69) + sentence)
    assert (0, 0) not in one


def test_an_edge_with_fewer_glosses_still_begins_and_ends_with_the_base() -> None:
    # 音義 glosses a print gives fewer of (見賢遍反不與音預 against 見君賢遍反下同不與音預鄉許亮反…): the
    # witness's head is much shorter than the base's, but its glosses are the base's first ones,
    # read against them, not as text beginning later next to the first anchor. The same at the tail.
    p1, p2, p3 = text(41, 5), text(42, 5), text(43, 5)
    base_edge = p1 + text(44, 15) + p2 + text(45, 15) + p3 + text(46, 10)
    witness_edge = p1 + p2 + p3 + text(47, 3)
    sentence = text(48, 60)
    got = dict(columns(base_edge + sentence, witness_edge + sentence))
    assert [got[i] for i in range(5)] == list(range(5))
    assert [got[20 + i] for i in range(5)] == [5 + i for i in range(5)]
    assert [got[40 + i] for i in range(5)] == [10 + i for i in range(5)]
    tail = dict(columns(sentence + base_edge, sentence + text(47, 3) + p1 + p2 + p3))
    assert [tail[60 + i] for i in range(5)] == [63 + i for i in range(5)]
    assert [tail[100 + i] for i in range(5)] == [73 + i for i in range(5)]
    # A fragment that begins later, with a few words of the base's head by chance, still does.
    late = columns(base_edge + sentence, p3 + text(49, 12) + sentence)
    assert all(i == -1 or i >= 40 for i, j in late if j >= 0)


def test_a_few_base_tokens_between_anchors_stand_where_they_match_not_scattered() -> None:
    # The base quotes two stretches of the witness and skips 300 tokens between them; it keeps
    # 6 tokens of the skipped text (a variant in them), which stand together against their place.
    w = text(23, 700)
    kept = w[400:403] + "丁" + w[404:406]
    a = w[:100] + kept + w[500:600]
    got = dict(columns(a, w))
    assert [got[100 + t] for t in range(6)] == [400, 401, 402, 403, 404, 405]
    assert all(got[i] == i for i in range(100))
    assert all(got[106 + t] == 500 + t for t in range(100))


def test_two_different_passages_between_anchors_each_stand_alone() -> None:
    # Between two agreeing stretches the base and the witness each have 30 tokens of another passage.
    shared_a, shared_b = text(24, 80), text(25, 80)
    a = shared_a + text(26, 30) + shared_b
    b = shared_a + text(27, 30) + shared_b
    got = columns(a, b)
    middle = [(i, j) for i, j in got if (80 <= i < 110) or (80 <= j < 110)]
    assert all(i == -1 or j == -1 for i, j in middle)  # none of the 30 is read against the other passage


def test_a_fragment_that_begins_mid_sentence_with_a_variant_stands_against_its_own_place() -> None:
    # A 殘卷 whose first surviving characters differ from the base's: they stand against the base's
    # characters at that place, the base before them alone (not one long substitution).
    a = text(28, 400)
    b = "丁乙" + a[152:]
    got = columns(a, b)
    first = next(p for p, (_, j) in enumerate(got) if j >= 0)
    assert all(j == -1 for _, j in got[:first])
    assert got[first : first + 3] == [(150, 0), (151, 1), (152, 2)]


def test_the_words_after_a_lost_leaf_stand_against_their_own_place_with_their_variants() -> None:
    # 儀禮·士相見禮, 鄭注本: the leaf after 凡言非 is lost, and the print goes on 若父則遊目母上於面母下於帶
    # where the base reads …衆皆若是若父則遊目毋上於面毋下於帶: ten words, two read otherwise,
    # against the 94 of the base between the anchors. They stand against their place, not as an
    # addition after it with the base's ten lost with the leaf.
    head, tail, lost = text(40, 60), text(41, 60), text(42, 84)
    place = "若父則遊目毋上於面毋"
    a = head + lost + place + tail
    b = head + "若父則遊目母上於面母" + tail
    got = dict(columns(a, b))
    start = len(head) + len(lost)
    assert [got[start + t] for t in range(10)] == [len(head) + t for t in range(10)]
    assert all(got[len(head) + t] == -1 for t in range(84))


def test_a_short_passage_between_anchors_unlike_the_long_one_still_stands_alone() -> None:
    # Ten words of another passage against 94: placed nowhere, whatever the shapes.
    head, tail = text(43, 60), text(44, 60)
    a = head + text(45, 94) + tail
    b = head + text(46, 10) + tail
    got = columns(a, b)
    assert all(i == -1 or j == -1 for i, j in got if 60 <= i < 154 or 60 <= j < 70)


def test_edges_that_begin_together_keep_their_equal_first_words_and_place_the_rest() -> None:
    # 禮記·儒行, 纂圖互註 音義: 服与音餘 then a lost leaf, then 慢音慢易以… where the base reads 服與音餘,
    # 134 glosses, then 慢音僈易以…: the first words stand together, the three after the leaf at
    # their own place (the tail of the base's edge), not paired with the first lost glosses.
    head, lost, rest = text(50, 4), text(51, 134), text(52, 60)
    a = head + lost + "慢音僈" + rest
    b = head + "慢音慢" + rest
    got = dict(columns(a, b))
    assert [got[t] for t in range(4)] == [0, 1, 2, 3]
    assert [got[4 + 134 + t] for t in range(3)] == [4, 5, 6]
    assert all(got[4 + t] == -1 for t in range(134))
