"""How each output cites a place: printed page and line, a page whose lines are not counted, the file's line."""

from __future__ import annotations

import pytest

from collate.model import SourceLocation
from collate.model.citation import (
    HTML,
    JIAOKANJI,
    LISTING,
    MESSAGE,
    NOTES,
    SUMMARY,
    TEI,
    TERMINAL,
    Style,
    half_folio,
    page_before,
    page_order,
    pages_between,
)

LINED = SourceLocation("000_sk.txt", 23, 4, "3a", 5)  # a page of a print whose lines are counted
KANRIPO = SourceLocation("KR1d0076_012.txt", 40, 1, "012-7a", 8)
UNLINED = SourceLocation("000_sk.txt", 23, 4, "3a")
FILE_ONLY = SourceLocation("plain.txt", 23, 4)


@pytest.mark.parametrize(
    ("style", "lined", "unlined", "file_only", "missing"),
    [
        (MESSAGE, "000_sk.txt:23:4 (p. 3a, l. 5)", "000_sk.txt:23:4 (p. 3a)", "plain.txt:23:4", ""),
        (TERMINAL, "3a.5", "3a", "23:4", "-"),
        (SUMMARY, "p. 3a l. 5", "p. 3a (23:4)", "23:4", "-"),
        (NOTES, "p.3a l.5", "p.3a", "23:4", ""),
        (LISTING, "23:4 p.3a l.5", "23:4 p.3a", "23:4", ""),
        (HTML, "頁3a 行5", "頁3a", "行23 列4", ""),
        (JIAOKANJI, "頁3a行5", "頁3a", "第23行", "（無頁行）"),
        (TEI, "頁3a行5", "頁3a", "第23行", ""),
    ],
    ids=["message", "terminal", "summary", "notes", "listing", "html", "jiaokanji", "tei"],
)
def test_each_output_cites_a_place_its_own_way(
    style: Style, lined: str, unlined: str, file_only: str, missing: str
) -> None:
    assert style.cite(LINED) == lined
    assert style.cite(UNLINED) == unlined
    assert style.cite(FILE_ONLY) == file_only
    assert style.cite(None) == missing


def test_a_kanripo_page_is_cited_with_its_juan() -> None:
    assert JIAOKANJI.cite(KANRIPO) == "頁012-7a行8"
    assert HTML.cite(KANRIPO) == "頁012-7a 行8"
    assert TERMINAL.cite(KANRIPO) == "012-7a.8"


def test_a_message_is_str_of_the_location() -> None:
    assert str(LINED) == MESSAGE.cite(LINED)
    assert str(FILE_ONLY) == "plain.txt:23:4"


def test_a_page_is_named_alone() -> None:
    assert HTML.page_alone("012-7a") == "頁012-7a"
    assert JIAOKANJI.page_alone("006-14a") == "頁006-14a"
    assert TERMINAL.page_alone("3a") == "3a"


def test_a_terminal_shows_a_page_label_inert() -> None:
    # A page's label is the file's own: a control character in it is shown as its escape.
    odd = SourceLocation("f.txt", 1, 1, "3a\x1b[2J", 2)
    assert TERMINAL.cite(odd) == "3a\\x1b[2J.2"
    assert SUMMARY.cite(odd) == "p. 3a\\x1b[2J l. 2"
    assert NOTES.cite(odd) == "p.3a\\x1b[2J l.2"
    assert HTML.cite(odd) == "頁3a\x1b[2J 行2"  # lxml escapes what the page holds


@pytest.mark.parametrize(("index", "label"), [(0, "1a"), (1, "1b"), (2, "2a"), (3, "2b"), (25, "13b")])
def test_pages_are_half_folios_from_the_first(index: int, label: str) -> None:
    assert half_folio(index) == label


@pytest.mark.parametrize(
    ("first", "after", "count"),
    [
        ("006-14a", "006-14b", 1),
        ("006-14a", "006-15a", 2),
        ("006-14b", "006-16a", 3),
        ("3a", "4b", 3),
        ("006-14a", "007-1a", 0),  # another juan: unknown
        ("006-14a", None, 0),
        ("第三頁", "第四頁", 0),
    ],
)
def test_pages_between_two_labels_of_a_juan(first: str, after: str | None, count: int) -> None:
    assert pages_between(first, after) == count


@pytest.mark.parametrize(
    ("label", "order"),
    [("12", (12, "")), ("3a", (3, "a")), ("012-7b", (7, "b")), ("7a2", None), ("a7", None), ("", None)],
)
def test_a_page_label_sorts_by_its_leaf_and_side(label: str, order: tuple[int, str] | None) -> None:
    assert page_order(label) == order


@pytest.mark.parametrize(
    ("label", "before"),
    [("008-4a", "008-3b"), ("008-4b", "008-4a"), ("030-10a", "030-9b"), ("3b", "3a"), ("07a", "06b"), ("1a", None)],
)
def test_the_page_before_a_half_folio(label: str, before: str | None) -> None:
    assert page_before(label) == before
    assert page_before("第三頁") is None
