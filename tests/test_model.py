"""The shared records: a witness's places (file line and column, printed page and line), spans, marks.

Every record names its place through :meth:`Witness.locate`, so an off-by-one there would put
every apparatus entry and every diagnostic on the wrong character.
"""

from __future__ import annotations

import pytest

from collate.model import (
    Change,
    ChangeClass,
    Layer,
    Mark,
    MarkKind,
    Position,
    ReadingClass,
    Role,
    SourceLocation,
    Span,
    SparseReading,
    Token,
    Witness,
)

# 甲 乙 \r\n 丙 \r 丁 \n 戊: three kinds of line end; offsets 0 1 (2 3) 4 (5) 6 (7) 8.
TEXT = "甲乙\r\n丙\r丁\n戊"


def witness(marks: tuple[Mark, ...] = ()) -> Witness:
    spans = (
        Span(0, 2, Layer.JING),
        Span(2, 4, Layer.MARKUP, 0, "layout"),
        Span(4, 5, Layer.ZHU, 1),
        Span(5, 6, Layer.MARKUP, 0, "layout"),
        Span(6, 7, Layer.JING, 2),
        Span(7, 8, Layer.MARKUP, 0, "layout"),
        Span(8, 9, Layer.HEADING, 3, "text", "title"),
    )
    return Witness("SK", "四庫本", "sk.txt", TEXT, "plain", spans=spans, marks=marks, metadata=(("juan", "5"),))


@pytest.mark.parametrize(("offset", "line", "column"), [(0, 1, 1), (1, 1, 2), (4, 2, 1), (6, 3, 1), (8, 4, 1)])
def test_file_lines_end_at_any_line_end(offset: int, line: int, column: int) -> None:
    assert witness().line_col(offset) == (line, column)


def test_the_printed_page_and_its_line() -> None:
    lines = tuple(Mark(at, MarkKind.LINE, "") for at in (0, 4, 6, 8))
    w = witness((Mark(0, "page", "1a"), Mark(6, "page", "1b"), *lines))
    assert w.page_at(5) == ("1a", 2)
    assert w.page_at(8) == ("1b", 2)  # its page's second printed line, not the file's fourth
    assert w.locate(8) == SourceLocation("sk.txt", 4, 1, "1b", 2)
    # Without printed lines the page is still known; before the first page, nothing is.
    assert witness((Mark(4, "page", "7b"),)).page_at(6) == ("7b", None)
    assert witness((Mark(4, "page", "7b"),)).page_at(1) == (None, None)


def test_an_excerpt_that_begins_inside_a_page_begins_on_the_page_before_its_first_marker() -> None:
    # Pages of two printed lines (3a: the lines at 4 and 6); the line at 0 stands before the first
    # marker: the last line of page 2b.
    lines = tuple(Mark(at, MarkKind.LINE, "") for at in (0, 4, 6, 8))
    w = witness((Mark(4, "page", "3a"), Mark(8, "page", "3b"), *lines))
    assert w.page_at(2) == ("2b", 2)
    # More lines before the marker than a page has: the page is not known.
    many = tuple(Mark(at, MarkKind.LINE, "") for at in (0, 2, 4, 6, 8))
    assert witness((Mark(6, "page", "3a"), Mark(8, "page", "3b"), *many)).page_at(0) == (None, None)


def test_a_location_reads_as_editors_cite_it() -> None:
    assert str(SourceLocation("sk.txt", 2, 4)) == "sk.txt:2:4"
    assert str(SourceLocation("sk.txt", 2, 4, "1a")) == "sk.txt:2:4 (p. 1a)"
    assert str(SourceLocation("sk.txt", 2, 4, "012-8b", 3)) == "sk.txt:2:4 (p. 012-8b, l. 3)"


def test_layers_their_text_and_metadata() -> None:
    w = witness()
    assert w.layer_text(Layer.JING) == "甲乙丁"  # its spans joined in file order
    assert w.layer_text(Layer.MARKUP) == "\r\n\r\n"
    assert w.layers() == [Layer.JING, Layer.ZHU, Layer.HEADING, Layer.MARKUP]  # in the enum's order
    assert (w.meta("juan"), w.meta("title")) == ("5", None)
    assert not w.sparse and Witness("DD", "", "dd.toml", "", "readings", sparse=True).sparse


@pytest.mark.parametrize(
    ("span", "field"),
    [
        (Span(0, 1, Layer.MARKUP, 0, "layout", "("), "marker"),
        (Span(0, 1, Layer.ZHU, 1, "marker", "注"), "marker"),
        (Span(0, 1, Layer.HEADING, 1, "text", "juan title"), "heading"),
        (Span(0, 1, Layer.NOTE, 1, "attribution", "蕙田案"), "speaker"),
        (Span(0, 1, Layer.COMMENTARY, 1, "text", "方氏悫曰"), "speaker"),
        (Span(0, 1, Layer.JING, 1, "text", "礼记投壶"), "work"),
        (Span(0, 1, Layer.BOILERPLATE, 0, "text", "web page"), "passage"),
    ],
)
def test_a_bare_label_goes_to_the_field_its_layer_and_role_imply(span: Span, field: str) -> None:
    names = {f: getattr(span, f) for f in ("work", "speaker", "marker", "heading", "passage")}
    assert {f for f, v in names.items() if v is not None} == {field}
    assert span.label == names[field]


def test_spans_alike_are_one_span_over_another_stretch() -> None:
    span = Span(3, 5, Layer.NOTE, 2, "text", speaker="蕙田")
    assert span.role is Role.TEXT  # given as its value, stored as the member
    assert span.over(5, 9) == Span(5, 9, Layer.NOTE, 2, Role.TEXT, speaker="蕙田")
    assert span.alike(span.over(5, 9))
    assert not span.alike(Span(5, 9, Layer.NOTE, 3, "text", speaker="蕙田"))  # another unit
    assert not span.alike(Span(5, 9, Layer.NOTE, 2, "text", speaker="方氏"))


def test_values_given_as_text_become_members() -> None:
    assert Mark(0, "lacuna", "006-14a, 2 pages").kind is MarkKind.LACUNA
    reading = SparseReading(0, 9, "枉矢哨壺", "哨", "峭", "", Layer.JING, "蕙田案")
    assert reading.position is Position.AT


@pytest.mark.parametrize(
    ("base", "reading", "kind"), [("哨", "峭", "substitution"), ("", "算", "addition"), ("固", "", "omission")]
)
def test_a_sparse_reading_kind(base: str, reading: str, kind: str) -> None:
    assert SparseReading(0, 9, "敢固辞", base, reading, "after", Layer.JING, "").kind == kind


def test_a_substantive_reading_is_the_strongest_class() -> None:
    ranks = [c.rank for c in ReadingClass]
    assert ranks == sorted(ranks, reverse=True) and len(set(ranks)) == len(ranks)
    assert ReadingClass.SUBSTANTIVE.rank > ReadingClass.ORTHOGRAPHIC.rank > ReadingClass.NOT_EXTANT.rank


def test_a_token_is_a_placeholder_by_its_changes() -> None:
    hole = Token(
        "SK", Layer.JING, 0, 0, 1, "□", "\0SK0", changes=(Change("placeholder", "□", "", ChangeClass.PLACEHOLDER),)
    )
    word = Token(
        "SK", Layer.JING, 1, 1, 2, "賓", "宾", changes=(Change("script", "賓", "宾", ChangeClass.ORTHOGRAPHIC),)
    )
    assert hole.is_placeholder and not word.is_placeholder


def test_an_unresolved_gaiji_entity_is_printed_as_the_geta() -> None:
    from collate.model.chars import GETA, as_printed

    assert as_printed("古者弦木爲&KR1249;剡木爲矢") == f"古者弦木爲{GETA}剡木爲矢"
    assert as_printed("A & B; 若") == "A & B; 若"  # an ampersand that names no gaiji stays
