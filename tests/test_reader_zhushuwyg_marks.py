"""The words of a WYG 注疏 print: which heading a line is, and a word found across the e-text's markup."""

from __future__ import annotations

import pytest

from collate.readers.base import iter_lines
from collate.readers.layouts.zhushuwyg.marks import INSIDE_WORD, heading_label, match_word


def label_of(line: str, kaozheng: bool = False) -> str | None:
    (only,) = list(iter_lines(line))
    return heading_label(line, only, kaozheng)


@pytest.mark.parametrize(
    ("line", "label"),
    [
        ("欽定四庫全書", "collection"),
        ("\u3000禮記注疏卷六十二", "juan title"),
        ("\u3000周禮注疏巻三十考證", "juan title"),
        ("\u3000\u3000漢鄭氏注\u3000唐陸徳明音義\u3000孔穎達疏", "commentators"),
        ("\u3000射義", "chapter title"),  # indented, no small print: a title
        ("射義", None),  # flush left: text
        ("\u3000(疏曰/此節)", None),  # indented small print goes on with the text
        ("\u3000", None),
    ],
)
def test_a_line_is_a_heading_by_its_words_and_indent(line: str, label: str | None) -> None:
    assert label_of(line) == label


def test_in_the_kaozheng_only_the_collection_and_juan_titles_are_headings() -> None:
    assert label_of("\u3000禮記注疏卷六十二考證", kaozheng=True) == "juan title"
    assert label_of("欽定四庫全書", kaozheng=True) == "collection"
    assert label_of("\u3000射義", kaozheng=True) is None  # an indented line goes on with a note


def test_a_word_is_found_with_markup_between_its_characters() -> None:
    text = "經文正義\n曰此"
    assert match_word(text, 2, len(text), "正義曰") == [(2, 4), (5, 6)]
    assert match_word(text, 2, len(text), "正義") == [(2, 4)]
    assert match_word("正(義/)曰", 0, 6, "正義曰", INSIDE_WORD) == [(0, 1), (2, 3), (5, 6)]
    # Not there, not at that place, or cut off by ``end``.
    assert match_word(text, 2, len(text), "正義云") is None
    assert match_word(text, 0, len(text), "正義") is None
    assert match_word(text, 2, 4, "正義曰") is None
