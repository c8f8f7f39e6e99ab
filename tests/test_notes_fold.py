"""The notes' searchable text: a witness's token keys, each mapped back to its own raw offsets."""

from __future__ import annotations

from collate.model import Layer, Span, Substitution, Witness
from collate.notes.fold import UNKNOWN, FoldedText, fold, folded_text, merged

# 甲 &KR0002; 乙 ( 丙 □ ) 丁: 經 around a 注 run; the entity reads 若, □ is a placeholder.
TEXT = "甲&KR0002;乙(丙□)丁"


def witness() -> Witness:
    spans = (
        Span(0, 10, Layer.JING),
        Span(10, 11, Layer.MARKUP, 0, "layout"),
        Span(11, 13, Layer.ZHU, 1),
        Span(13, 14, Layer.MARKUP, 0, "layout"),
        Span(14, 15, Layer.JING, 2),
    )
    subs = (Substitution(1, 9, "若", "gaiji KR0002"),)
    return Witness("SK", "SK", "sk.txt", TEXT, "plain", spans=spans, substitutions=subs)


def test_a_notes_words_fold_character_by_character() -> None:
    assert fold("禮記投壺") == "礼记投壶"
    # In a note's words an ASCII ? is a lost glyph: unknown, like the text's placeholders.
    assert fold("案?今注疏本") == "案" + UNKNOWN + "今注疏本"
    assert all(len(fold(t)) == len(t) for t in ("賔", "𫠦□", "案?"))


def test_each_key_maps_back_to_its_raw_characters() -> None:
    jing = folded_text(witness(), [Layer.JING])
    assert jing.text == "甲若乙丁"
    assert (jing.starts, jing.ends) == ((0, 1, 9, 14), (1, 9, 10, 15))
    assert jing.shown(0, 3) == "甲若乙"
    assert jing.raw_span(1, 2) == (1, 9)  # the whole entity for its one key
    assert jing.raw_span(0, 4) == (0, 15)
    # An empty range is an insertion point: before the key it stands at, or at the end.
    assert jing.raw_span(2, 2) == (9, 9)
    assert jing.raw_span(4, 4) == (15, 15)
    assert FoldedText("", (), (), (), (), ()).raw_span(0, 0) == (0, 0)


def test_the_key_at_a_raw_offset_is_the_first_at_or_after_it() -> None:
    jing = folded_text(witness(), [Layer.JING])
    assert [jing.index_at(offset) for offset in (0, 1, 5, 9, 10, 14, 15)] == [0, 1, 2, 2, 3, 3, 4]


def test_a_placeholder_is_unknown_in_the_searched_text() -> None:
    zhu = folded_text(witness(), [Layer.ZHU])
    assert zhu.text == "丙" + UNKNOWN and zhu.original == ("丙", "□")
    assert zhu.layers == (Layer.ZHU, Layer.ZHU) and zhu.units == (1, 1)


def test_layers_merged_read_in_file_order_as_if_folded_together() -> None:
    w = witness()
    jing, zhu = folded_text(w, [Layer.JING]), folded_text(w, [Layer.ZHU])
    both = merged([jing, zhu])
    assert both.text == "甲若乙丙" + UNKNOWN + "丁"
    assert both.layers == (Layer.JING,) * 3 + (Layer.ZHU,) * 2 + (Layer.JING,)
    assert both == folded_text(w, [Layer.JING, Layer.ZHU])
    assert merged([jing]) is jing
    assert merged([]).text == "" and merged([folded_text(w, [Layer.SHU])]).text == ""
