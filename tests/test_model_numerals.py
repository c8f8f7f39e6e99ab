"""Chinese numerals: the prints' juan, chapter and tally numbers read, the 校勘記's counts written."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from collate.model.numerals import NUMERAL, chinese, number

# Numerals as the witnesses print them: juan and chapter numbers, a print's own tallies.
PRINTED = [
    ("六", 6),  # 儀禮卷六
    ("十二", 12),  # 卷第十二
    ("三十", 30),  # 周禮注疏巻三十考證
    ("四十六", 46),  # 射義第四十六
    ("六十二", 62),  # 禮記注疏卷六十二
    ("六十九", 69),  # 禮記正義卷第六十九
    ("七十八", 78),  # 投壺第七十八
    ("一百六十三", 163),  # 五禮通考卷一百六十三
    ("一百六十五", 165),
    ("三千二百二十三", 3223),  # (經三千二百二十三字/注四千六百二十字)
    ("四千六百二十", 4620),
    ("三千五百五十四", 3554),  # 凡三千五百五十四字
]


@pytest.mark.parametrize(("numeral", "value"), PRINTED)
def test_the_prints_numbers_round_trip(numeral: str, value: int) -> None:
    assert number(numeral) == value
    assert chinese(value) == numeral
    assert re.fullmatch(f"{NUMERAL}+", numeral)


@pytest.mark.parametrize(
    ("n", "numeral"),
    [
        (0, "〇"),
        (2, "二"),
        (10, "十"),
        (13, "十三"),
        (20, "二十"),
        (105, "一百〇五"),
        (113, "一百一十三"),
        (312, "三百一十二"),
        (1_001, "一千〇一"),
        # A whole book's addition or lacuna: counted in 萬 and 億, never 十千.
        (10_000, "一萬"),
        (10_010, "一萬〇一十"),
        (11_000, "一萬一千"),
        (12_000, "一萬二千"),
        (12_345, "一萬二千三百四十五"),
        (100_000, "十萬"),
        (110_000, "十一萬"),
        (1_234_567, "一百二十三萬四千五百六十七"),
        (100_000_000, "一億"),
        (100_010_000, "一億〇一萬"),
        # The 萬 group between is empty: the zero stays (cn2an alone would write 一亿一千).
        (100_001_000, "一億〇一千"),
        (120_000_000, "一億二千萬"),
        (1_000_000_000_000, "一萬億"),
    ],
)
def test_counts_are_written_as_a_jiaokanji_prints_them(n: int, numeral: str) -> None:
    assert chinese(n) == numeral


@pytest.mark.parametrize(
    ("numeral", "value"),
    [
        ("一百零五", 105),  # 零 as well as 〇
        ("廿", 20),
        ("廿一", 21),
        ("卅", 30),
        ("卅一", 31),
        ("卌", 40),
        ("百", 100),  # 此百字: 百 with no digit is one hundred, as 十 is ten
        ("千", 1000),
        ("一〇五", 105),  # digit by digit
        ("〇", 0),
        ("一萬〇五十", 10_050),
        ("一万零五十", 10_050),
    ],
)
def test_what_else_a_print_writes_is_read(numeral: str, value: int) -> None:
    assert number(numeral) == value


@pytest.mark.parametrize("text", ["", "卷六", "第四十六", "十十", "十十一", "6"])
def test_anything_else_is_no_numeral(text: str) -> None:
    with pytest.raises(ValueError, match=r"不符合格式|not a Chinese numeral"):
        number(text)


def test_a_count_is_never_negative() -> None:
    with pytest.raises(ValueError, match="not a count"):
        chinese(-1)


@given(st.integers(min_value=0, max_value=10**16 - 1))
def test_every_count_reads_back(n: int) -> None:
    assert number(chinese(n)) == n


def test_cn2an_is_imported_by_a_conversion_alone() -> None:
    # Its package builds its converters on import (a tenth of a second): a reader that only
    # matches the alphabet, and a run that converts no numeral, never pay for it.
    code = (
        "import sys\n"
        "from collate.model.numerals import NUMERAL, chinese\n"
        "print('cn2an' in sys.modules)\n"
        "chinese(13)\n"
        "print('cn2an' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
