"""Anchoring: every note of seed 000 (蕙田案) and seed 002 (【案…】) attached to what it judges."""

from __future__ import annotations

import pytest
from conftest import SEED_000, SEED_002

from collate.model import Witness
from collate.notes import AnchorMethod, notes_for_witnesses
from collate.readers import read_witness

# Note (file line where it starts) → how it is anchored, the file line and the base words
# it judges, read off the seed: the phrase it quotes, else the passage (節) just before it.
EXPECTED_000 = {
    6: (AnchorMethod.CHAPTER, None, ""),  # on 投壺 as a whole, before any text
    39: (AnchorMethod.QUOTE, 32, "枉矢哨"),  # 王肃云枉不直哨不正: the glossed words in 經
    103: (AnchorMethod.QUOTE, 93, "请宾曰顺投为入比投不释胜饮不胜者正爵既行请为胜者立马一马从二马"),
    151: (AnchorMethod.QUOTE, 141, "遂以奇算告曰某贤于某若于纯"),  # quoted as 若干纯
    176: (AnchorMethod.QUOTE, 166, "命酌曰请行觞酌者曰诺"),
    213: (AnchorMethod.PRECEDING, 199, "正爵既行请立马马各直其算一马从二马以庆庆礼曰三马既备请庆多马宾主皆曰诺"),
    218: (AnchorMethod.PRECEDING, 217, "正爵既行请彻马"),
    269: (AnchorMethod.QUOTE, 280, "司射庭长"),  # names the 节 that follows it
    289: (AnchorMethod.PRECEDING, 280, "司射庭长及冠士立者皆属宾党乐人及使者童子皆属主党"),
    305: (AnchorMethod.PRECEDING, 301, "鲁鼓"),  # the chapter's last 節 (drum notation)
    356: (AnchorMethod.PRECEDING, 354, "侍投则拥矢胜则洗而以请客亦如之不角不擢马"),
    366: (AnchorMethod.PRECEDING, 358, "晋侯以齐侯宴中行穆子相投壶"),
}


@pytest.fixture(scope="module")
def siku() -> Witness:
    return read_witness(SEED_000, siglum="SK", layout="siku-wltk")


@pytest.fixture(scope="module")
def yili() -> Witness:
    return read_witness(SEED_002, siglum="YL", layout="yili-inline")


def test_every_huitian_note_is_anchored_to_what_it_judges(siku: Witness) -> None:
    result = notes_for_witnesses([siku])
    assert [n.location.line for n in result.notes] == list(EXPECTED_000)
    assert all(n.resp == "秦蕙田" and n.label == "蕙田案" for n in result.notes)
    for note in result.notes:
        method, line, words = EXPECTED_000[note.location.line]
        anchor = result.anchor_of(note)
        assert anchor is not None
        assert anchor.method is method, note.text
        if line is not None:
            assert anchor.location.line == line, note.text
            assert anchor.text.startswith(words), (note.text, anchor.text)
            assert anchor.start < anchor.end
    assert [n.location.line for n in result.unanchored] == [6]


def test_claims_point_at_the_base_words_they_concern(siku: Witness) -> None:
    result = notes_for_witnesses([siku])
    placed = {
        (c.summary(), siku.text[c.base_start : c.base_end], siku.line_col(c.base_start)[0])
        for c in result.claims
        if c.base_start is not None and c.base_end is not None
    }
    assert ("今本大戴礼 reads 峭 for 哨", "哨", 32) in placed
    assert ("大戴礼 adds 算 after 比投不释", "", 93) in placed
    assert ("大戴礼 lacks 一马从二马", "一马从二马", 94) in placed  # the first, not 一马从二马以庆
    assert ("大戴礼 adds 终则复始 at the end of the section", "", 217) in placed
    assert not result.unplaced


def test_an_insertion_point_after_a_phrase_is_its_end(siku: Witness) -> None:
    result = notes_for_witnesses([siku])
    claim = next(c for c in result.claims if c.reading == "奏投壶之令")
    assert claim.base_start == claim.base_end
    assert claim.base_start is not None
    assert siku.text[claim.base_start - 3 : claim.base_start] == "请宾曰"


def test_yili_notes_are_anchored_in_their_own_layer(yili: Witness) -> None:
    result = notes_for_witnesses([yili])
    assert len(result.notes) == 17
    assert all(n.resp == "四庫館臣" for n in result.notes)
    by_text = {n.text: result.anchor_of(n) for n in result.notes}
    shi = by_text["事今注疏本讹作也据宋本改正疏内举注文亦作事"]
    assert shi is not None and shi.method is AnchorMethod.QUOTE and shi.text == "事"
    assert yili.text[shi.start - 2 : shi.end] == "竝行事"  # the 事 just before the note, in 注
    wuyou = by_text["物右今注疏本讹作右物据宋本改正"]
    assert wuyou is not None and wuyou.text == "物右"
    songbai = next(c for c in result.claims if c.reading == "拜送之")
    assert songbai.base == "送拜之"  # the same-length stretch just before the note


def test_a_part_of_a_quotation_places_a_note_only_where_it_stands_once() -> None:
    """A note at the end of the chapter quoting words the base does not have: its last words,
    found twice, place it nowhere; found once, there."""
    from builders import layered

    from collate.model import Layer, SourceLocation
    from collate.notes.anchor import BaseIndex, find_phrase
    from collate.notes.records import Note

    base = layered("ZS", [(Layer.JING, "諸侯卿大夫射於澤卿大夫以下射于射宮"), (Layer.NOTE, "監本某某某卿")])
    note_start = base.text.index("監本")
    note = Note(
        "n1",
        "ZS",
        2,
        note_start,
        len(base.text),
        "案",
        "",
        "監本某某某卿",
        ((note_start, len(base.text)),),
        SourceLocation("ZS.txt", 1, 1),
    )
    index = BaseIndex(base)
    assert find_phrase(index, "君使卿大夫", note, None, suffixes=True) is None  # 卿大夫 twice
    found = find_phrase(index, "君命于射宮", note, None, suffixes=True)
    assert found is not None and found[1] == "于射宮"
