"""What the layout readers share: lines with their indentation apart, spans joined, glyph and bracket checks."""

from __future__ import annotations

from collate.model import Layer, Role, Severity, Span
from collate.readers.base import SpanList, bracket_diagnostics, glyph_diagnostics, iter_lines, text_glyph_diagnostics


def test_a_line_is_indentation_body_and_line_end() -> None:
    text = "\u3000\u3000射義 \r\n\n古者\u3000\r末"
    lines = [(ln.start, ln.body_start, ln.body_end, ln.end) for ln in iter_lines(text)]
    assert lines == [(0, 2, 4, 7), (7, 7, 7, 8), (8, 8, 10, 12), (12, 12, 13, 13)]
    assert [text[a:b] for _, a, b, _ in lines] == ["射義", "", "古者", "末"]


def test_alike_neighbours_join_but_markers_never_do() -> None:
    spans = SpanList()
    spans.add(0, 2, Layer.JING, 1)
    spans.add(2, 4, Layer.JING, 1)  # joined: same layer, unit and role, touching
    spans.add(4, 4, Layer.JING, 1)  # empty: dropped
    spans.add(4, 5, Layer.JING, 2)  # another unit
    spans.add(5, 6, Layer.MARKUP, 2, Role.MARKER, marker="(")
    spans.add(6, 7, Layer.MARKUP, 2, Role.MARKER, marker="(")  # two markers stay two
    assert [(s.start, s.end, s.unit) for s in spans.freeze()] == [(0, 4, 1), (4, 5, 2), (5, 6, 2), (6, 7, 2)]


def test_words_set_spaces_apart_and_a_slash_is_a_column_break() -> None:
    text = "枉哨/不正 貌"
    spans = SpanList()
    spans.words(text, 0, len(text), Layer.ZHU, 3)
    got = [(text[s.start : s.end], s.layer, s.role) for s in spans.freeze()]
    assert got == [
        ("枉哨", Layer.ZHU, Role.TEXT),
        ("/", Layer.MARKUP, Role.MARKER),
        ("不正", Layer.ZHU, Role.TEXT),
        (" ", Layer.MARKUP, Role.LAYOUT),
        ("貌", Layer.ZHU, Role.TEXT),
    ]


def test_placeholders_and_private_use_glyphs_are_reported_where_they_stand() -> None:
    text = "主?人\ue123□，？"
    found = [(d.code, d.start, d.severity) for d in glyph_diagnostics(text)]
    # The full-width ？ is punctuation, not a lost glyph.
    assert found == [
        ("placeholder", 1, Severity.WARNING),
        ("pua", 3, Severity.INFO),
        ("placeholder", 4, Severity.WARNING),
    ]
    assert [d.start for d in glyph_diagnostics(text, 2, 4)] == [3]
    # Only inside text layers when the spans are given.
    spans = [Span(0, 2, Layer.JING), Span(2, 7, Layer.MARKUP, 0, "layout")]
    assert [d.start for d in text_glyph_diagnostics(text, spans)] == [1]


def test_one_missing_bracket_is_one_diagnostic() -> None:
    pairs = {"(": ")", "【": "】"}
    text = "甲(乙【丙)丁】戊)"
    found = [(d.start, d.message) for d in bracket_diagnostics(text, 0, len(text), pairs)]
    # ) closes the ( below the unclosed 【; the 】 and the last ) close nothing.
    assert found == [(3, "【 is not closed"), (7, "】 closes nothing"), (9, ") closes nothing")]
    assert bracket_diagnostics("(甲)", 0, 3, pairs) == []
