"""Omissions that can slide, slid to where the witness's own evidence puts them: its lacuna marks."""

from __future__ import annotations

from builders import align_rows

from collate.align.alignment import LayerAlignment
from collate.align.slides import gaps_to_marks, placeholders_to_rare


def row(alignment: LayerAlignment, j: int) -> str:
    """Witness ``j``'s cells as a string, '-' for an empty one."""
    return "".join("-" if (tok := col[j]) is None else tok.t for col in alignment.columns)


def mark_before(alignment: LayerAlignment, j: int, n: int) -> int:
    """The raw offset of witness ``j``'s ``n``-th token: a mark there stands just before it."""
    tokens = sorted((tok for col in alignment.columns if (tok := col[j]) is not None), key=lambda t: t.index)
    return tokens[n].start


def test_an_omission_where_the_base_repeats_is_slid_to_the_line_the_print_lost() -> None:
    # 所以[致敬也言主君]致敬於聘君: the print's line ends short after 所以; the aligner read the
    # print's 致敬 as the first one and the print as lacking 也言主君致敬.
    aligned, _ = align_rows({"B": "所以致敬也言主君致敬於聘君", "D": "所以致敬------於聘君"})
    slid = gaps_to_marks(aligned, {"D": [(mark_before(aligned, 1, 2), 8)]})
    assert row(slid, 1) == "所以------致敬於聘君"
    # Without a mark, or with one where the gap is already, nothing moves.
    assert gaps_to_marks(aligned, {}) is aligned
    there = gaps_to_marks(aligned, {"D": [(mark_before(aligned, 1, 4), 8)]})
    assert there is aligned


def test_a_reading_next_to_the_mark_is_set_past_the_lost_words() -> None:
    # 一爲之設食⏎歡燕與: a line short of 再爲之設饗其, and 歡 for 觀, read by the aligner against 再.
    aligned, _ = align_rows({"B": "設食再爲之設饗其觀燕與", "D": "設食歡------燕與"})
    slid = gaps_to_marks(aligned, {"D": [(mark_before(aligned, 1, 2), 8)]})
    assert row(slid, 1) == "設食------歡燕與"
    # A blank of one cell is no place for six lost words.
    assert gaps_to_marks(aligned, {"D": [(mark_before(aligned, 1, 2), 1)]}) is aligned


def test_a_lone_placeholder_among_omitted_words_is_read_against_one_the_witness_never_writes() -> None:
    # 難乃多反〓 against 難乃多反注同敺: the print writes 注 and 同 elsewhere (注同), never 敺:
    # its unresolved glyph stands for 敺, and the print lacks 注同, not 同敺.
    aligned, _ = align_rows({"W": "難乃多反注同敺注同", "S": "難乃多反〓--注同"})
    assert row(placeholders_to_rare(aligned), 1) == "難乃多反--〓注同"
    # Where the base's words there are all written by the witness elsewhere, it stays.
    plain, _ = align_rows({"W": "難乃多反注同注同", "S": "難乃多反〓-注同"})
    assert placeholders_to_rare(plain) is plain
