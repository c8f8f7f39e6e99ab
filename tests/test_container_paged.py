"""The paged container: blank lines are page breaks only where the pages are regular."""

from __future__ import annotations

from collate.readers.base import ReadOptions
from collate.readers.containers import detect_container, get_container


def test_pages_are_pages_only_when_they_are_regular() -> None:
    page = "".join(f"射者仁之道也{i}\n" for i in range(8))
    assert detect_container((page + "\n") * 4)[0] == "paged"
    paragraphs = "射者仁之道也\n\n" + "故射者進退周還必中禮\n" * 12 + "\n其節天子以騶虞爲節\n" * 3
    assert detect_container(paragraphs)[0] == "plain"


def test_the_paged_body_has_no_blank_lines_and_a_page_after_each_break() -> None:
    raw = "甲\n乙\n丙\n丁\n\n戊\n己\n庚\n辛\n\n\n壬\n"
    got = get_container("paged").read(raw, ReadOptions())
    assert got.text == "甲\n乙\n丙\n丁\n戊\n己\n庚\n辛\n壬\n"
    assert [m.label for m in got.marks if m.kind == "page"] == ["1a", "1b", "2a"]
