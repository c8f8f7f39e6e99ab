"""Rebuilding the table of chapter titles from Kanripo files (a made-up excerpt in their format)."""

from __future__ import annotations

from pathlib import Path

from collate.readers.build_titles import SOURCES, headings, rows

YUANMU = (
    "#+TITLE: 禮記注疏\n"
    "<pb:KR1d0053_WYG_000-23b>¶\n"
    "禮記注疏原目¶\n"
    "曲禮上第一音義(鄭氏云曲禮者/以其記五禮之事)疏(正義曰/)¶\n"
    "　此於别録屬制度¶\n"
    "曲禮下第二¶\n"
    "曲禮上第一考證¶\n"
)
JUAN_HEAD = "大戴禮記卷第一¶\n主言第三十九　哀公問五義第四十　哀公問於孔子第四十一¶\n"
YILI = "喪服第十一○子夏𫝊¶\n"


def test_a_heading_is_a_name_and_its_number_at_the_start_of_a_line_or_piece() -> None:
    assert list(headings(YUANMU)) == [("曲禮上", "曲禮上第一"), ("曲禮下", "曲禮下第二"), ("曲禮上", "曲禮上第一")]
    assert [name for name, _ in headings(JUAN_HEAD)] == ["主言", "哀公問五義", "哀公問於孔子"]
    assert list(headings(YILI)) == [("喪服", "喪服第十一")]  # the title after ○ is not the chapter's


def test_rows_read_each_book_from_its_files_first_occurrence_first(tmp_path: Path) -> None:
    texts = {"KR1d0053": YUANMU, "KR1d0028": YILI, "KR1d0003": "天官冢宰第一¶\n", "KR1d0076": JUAN_HEAD}
    for _, repository, files in SOURCES:
        (tmp_path / repository).mkdir()
        for k, name in enumerate(files):
            (tmp_path / repository / name).write_text(texts[repository] if k == 0 else "", encoding="utf-8")
    found = list(rows(tmp_path))
    assert [r[1] for r in found if r[0] == "禮記"] == ["曲禮上", "曲禮下"]
    assert ("儀禮", "喪服", "喪服第十一", "KR1d0028/KR1d0028_000.txt") in found
    assert [r[1] for r in found if r[0] == "大戴禮記"] == ["主言", "哀公問五義", "哀公問於孔子"]
