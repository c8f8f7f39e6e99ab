"""The JSON writer: the same data as ``json.dumps``, short containers on one line, long ones indented."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from collate.exporters._jsontext import INDENT, WIDTH, dumps

SCALARS = st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.text(max_size=30)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=60,
)


@settings(max_examples=100, deadline=None)
@given(VALUES)
def test_the_text_is_the_data_json_dumps_would_give(value: Any) -> None:
    text = dumps(value)
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert json.loads(text) == value


def test_short_records_stand_on_one_line_as_compact_json_dumps_writes_them() -> None:
    token = {"t": "主", "start": 0, "changes": [0, 3]}
    assert dumps(token) == json.dumps(token, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert dumps({"a": [1, {"b": [2]}]}) == '{"a":[1,{"b":[2]}]}\n'  # deeper, still on one line
    assert dumps([]) == "[]\n" and dumps({}) == "{}\n"
    assert "\\u" not in dumps({"t": "𫠦 者"})  # characters as they are


def test_a_record_too_wide_for_its_line_is_indented_one_member_a_line() -> None:
    record = {"text": "主" * (WIDTH - 8), "start": 0}
    lines = dumps(record).splitlines()
    pad = " " * INDENT
    assert lines == ["{", pad + '"text": "' + "主" * (WIDTH - 8) + '",', pad + '"start": 0', "}"]


def filled(offsets: list[int]) -> list[str]:
    """The lines of the numbers of ``{"lines": offsets}``, written one level deep."""
    lines = dumps({"lines": offsets}).splitlines()
    assert lines[0] == "{" and lines[1] == ' "lines": [' and lines[-2:] == [" ]", "}"]
    return lines[2:-2]


def test_scalars_fill_their_lines() -> None:
    offsets = list(range(0, 40_000, 97))
    rows = filled(offsets)
    assert len(rows) > 2 and all(row.startswith("  ") for row in rows)
    # Each full line had no room for the next number (and its comma) within the width.
    for row, following in pairwise(rows):
        first_next = following.strip().split(",")[0]
        assert len(row) + 1 + len(first_next) + 1 > WIDTH
    assert json.loads("[" + "".join(rows) + "]") == offsets


def test_no_line_of_filled_scalars_is_wider_than_the_width() -> None:
    assert max(len(row) for row in filled(list(range(0, 40_000, 97)))) <= WIDTH


def test_a_long_table_has_one_cell_a_line() -> None:
    row = [[{"t": "者", "start": 2623 + k}] if k % 3 else None for k in range(60)]
    lines = dumps([row]).splitlines()
    cells = [line.strip().rstrip(",") for line in lines[2:-2]]
    assert cells == [json.dumps(cell, ensure_ascii=False, separators=(",", ":")) for cell in row]
    assert all(len(line) <= WIDTH for line in lines)


def test_no_line_is_wider_than_the_width_however_deep() -> None:
    # Containers too deep for the fast inline path are joined on one line by the writer itself,
    # right up to the width (a scalar longer than a line is the only thing that may overrun it).
    for size in range(WIDTH - 40, WIDTH - 10):
        for value in ([{"x": {"y": "a" * size}}], {"key": {"x": {"y": "a" * size}}}):
            assert max(len(line) for line in dumps(value).splitlines()) <= WIDTH, (size, value)
