"""What a container hands a layout (:class:`Body`), and the layout's reading merged back to raw offsets."""

from __future__ import annotations

import pytest

from collate.errors import LayoutError
from collate.model import Diagnostic, Layer, Mark, MarkKind, Role, Span, Substitution
from collate.readers import read_raw
from collate.readers.base import Parsed
from collate.readers.body import UNRESOLVED, Body, BodyBuilder, identity, merge

MANDOKU = "#+TITLE: 儀禮\n#+PROPERTY: JUAN 5\n"


def test_merge_cuts_a_layout_span_where_the_container_took_a_marker_out() -> None:
    raw = MANDOKU + "<pb:KR1_SBCK_001-1a>\n射者仁<pb:KR1_SBCK_001-1b>之道也\n"
    reading = read_raw(raw, container="mandoku", layout="plain")
    jing = [raw[s.start : s.end] for s in reading.parsed.spans if s.layer is Layer.JING]
    assert jing == ["射者仁", "之道也"]
    pb = [s for s in reading.parsed.spans if s.label == "pb"]
    assert len(pb) == 2 and all(s.layer is Layer.MARKUP for s in pb)


# raw:  <pb:1a>  甲乙  &KR0002;  丙\n   — a page marker the container takes out, an entity it resolves.
RAW = "<pb:1a>甲乙&KR0002;丙\n"


def built_body() -> Body:
    b = BodyBuilder(RAW)
    b.drop(0, 7, role=Role.MARKER, marker="pb")
    b.marks.append(Mark(0, MarkKind.PAGE, "1a"))
    b.keep(7, 9)
    b.entity(9, 17, "若", "gaiji KR0002")
    b.keep(17, 19)
    return b.build("test", "a test container")


def test_the_body_holds_one_character_an_entity_and_none_of_the_markers() -> None:
    body = built_body()
    assert body.text == "甲乙若丙\n"
    assert [(s.start, s.end, s.marker) for s in body.spans] == [(0, 7, "pb")]
    assert body.substitutions == (Substitution(9, 17, "若", "gaiji KR0002"),)
    # An unresolved entity reads as the digitizers' placeholder.
    b = BodyBuilder("&KR9;")
    b.entity(0, 5, None, "no table")
    assert b.build("test", "").text == UNRESOLVED


def test_merge_maps_the_layout_spans_back_and_the_spans_partition_the_file() -> None:
    body = built_body()
    parsed = Parsed(
        spans=(Span(0, 4, Layer.JING), Span(4, 5, Layer.MARKUP, 0, "layout")),
        marks=(Mark(0, MarkKind.PAGE, "guess"), Mark(3, MarkKind.LINE, "1")),
        diagnostics=(Diagnostic("placeholder", "the entity", 2, 3),),
    )
    merged = merge(RAW, body, parsed, "plain", "x.txt")
    assert [(s.start, s.end, s.layer) for s in merged.spans] == [
        (0, 7, Layer.MARKUP),
        (7, 18, Layer.JING),  # 甲乙, the whole entity and 丙: one span across the entity
        (18, 19, Layer.MARKUP),
    ]
    assert "".join(RAW[s.start : s.end] for s in merged.spans) == RAW
    # The container's pages replace the layout's guess; other marks move to raw offsets.
    assert [(m.offset, m.kind, m.label) for m in merged.marks] == [(0, "page", "1a"), (17, "line", "1")]
    # A diagnostic on the entity's body character covers the entity's raw characters.
    assert [(d.start, d.end) for d in merged.diagnostics] == [(9, 17)]
    assert merged.substitutions == body.substitutions


def test_a_layout_that_leaves_part_of_the_body_unread_is_a_bug() -> None:
    body = identity("射者仁之道也", "plain", "")
    with pytest.raises(LayoutError, match="did not cover the whole file"):
        merge(body.text, body, Parsed(spans=(Span(0, 3, Layer.JING),)), "plain", "x.txt")
    with pytest.raises(LayoutError, match="gap or overlap at offset 3"):
        merge(body.text, body, Parsed(spans=(Span(0, 3, Layer.JING), Span(4, 6, Layer.JING))), "plain", "x.txt")


def test_the_whole_plain_file_is_the_body() -> None:
    raw = "射者仁之道也\n故射者\n"
    body = identity(raw, "plain", "no wrapping")
    assert (body.text, body.spans, body.container) == (raw, (), "plain")
    parsed = Parsed(spans=(Span(0, 6, Layer.JING), Span(6, 7, Layer.MARKUP, 0, "layout"), Span(7, 11, Layer.JING, 1)))
    assert merge(raw, body, parsed, "plain", "x.txt").spans == parsed.spans
