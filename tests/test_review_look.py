"""How the review writes a text into so many cells: a CJK character takes two, a control its escape."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from collate.review.look import Look, OneLine, head, tail
from collate.review.texts import Words

THIRTY = "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕"


@pytest.mark.parametrize(
    ("text", "cells", "end", "start"),
    [
        ("投壺之禮", 4, "之禮", "投壺"),
        ("投壺之禮", 5, "之禮", "投壺"),  # never half a character
        ("ab投壺", 3, "壺", "ab"),
        ("投壺\x1b", 6, "壺\\x1b", "投壺"),  # the escape is shown, and counted, whole
        ("投壺\x1b", 3, "", "投"),
        ("", 8, "", ""),
    ],
)
def test_a_text_is_cut_to_its_cells_at_either_end(text: str, cells: int, end: str, start: str) -> None:
    assert tail(text, cells) == end and head(text, cells) == start
    assert cell_len(tail(text, cells)) <= cells and cell_len(head(text, cells)) <= cells


def test_a_reading_is_fitted_with_its_length_said_never_with_a_bare_ellipsis() -> None:
    look = Look(Words())
    assert look.fit(THIRTY, 59) != THIRTY and look.fit(THIRTY, 60) == THIRTY
    for room in (59, 40, 24):
        cut = look.fit(THIRTY, room)
        assert cell_len(cut) <= room and cut.endswith("…（共30字，e 展開）") and THIRTY.startswith(cut.split("…")[0])
    # As short as it can be: one character of it, and its length still said (never ∅, an omission).
    assert look.fit(THIRTY, 4) == "天…（共30字，e 展開）"
    assert Look(Words(), full=True).fit(THIRTY, 10) == THIRTY


@pytest.mark.parametrize("width", [80, 100, 200])
def test_a_passage_takes_one_line_of_the_width_it_is_drawn_at(width: int) -> None:
    out = io.StringIO()
    passage = THIRTY * 3
    Console(file=out, width=width, color_system=None).print(OneLine(Look(Words()), Text("所釋經文 1a.1："), passage))
    (line,) = out.getvalue().splitlines()
    assert line.startswith("所釋經文 1a.1：天地玄黄") and "（共90字，e 展開）" in line and cell_len(line) <= width
