from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SEED_002
from readers_support import line_spans as spans_on_line
from readers_support import synthetic, text_of

from collate.model import Layer, Witness
from collate.readers import read_witness
from collate.readers.layouts.yili import READER


@pytest.fixture(scope="module")
def yl() -> Witness:
    return read_witness(SEED_002, siglum="YL", layout="yili-inline")


def line_spans(w: Witness, line: int) -> list[tuple[str, Layer, str]]:
    """(text, layer, role) of the non-layout spans on one file line."""
    return [found[:3] for found in spans_on_line(w, line)]


def test_inline_zhengzhu_splits_a_line(yl: Witness) -> None:
    assert line_spans(yl, 3) == [
        ("遂实之宾觯以之主人大夫之觯长受", Layer.JING, "text"),
        ("郑注", Layer.MARKUP, "marker"),
        ("长众宾长", Layer.ZHU, "text"),
    ]


def test_next_line_is_jing_again(yl: Witness) -> None:
    assert line_spans(yl, 5) == [("而错皆不拜", Layer.JING, "text")]
    assert line_spans(yl, 7)[0] == ("郑注", Layer.MARKUP, "marker")
    assert line_spans(yl, 7)[1][0].startswith("错者实主人之觯")
    assert line_spans(yl, 7)[1][1] is Layer.ZHU


def test_layers_hold_no_markers(yl: Witness) -> None:
    jing, zhu = yl.layer_text(Layer.JING), yl.layer_text(Layer.ZHU)
    assert jing.startswith("遂实之宾觯以之主人大夫之觯长受而错皆不拜辩卒受者兴以旅在下者于西阶上")
    assert zhu.startswith("长众宾长错者实主人之觯")
    for marker in ("郑注", "【", "】", "\u00a0", "\n"):
        assert marker not in jing and marker not in zhu


def test_siku_notes(yl: Witness) -> None:
    notes = [s for s in yl.spans if s.layer is Layer.NOTE]
    units = sorted({s.unit for s in notes})
    assert len(units) == 17 == yl.text.count("【案")
    for unit in units:
        parts = [s for s in yl.spans if s.unit == unit]
        assert [(s.role, s.label) for s in parts[:2]] == [("marker", "note open"), ("attribution", "案")]
        assert parts[-1].role == "marker" and text_of(yl, parts[-1]) == "】"
        assert parts[2].layer is Layer.NOTE and parts[2].role == "text"
    note = next(s for s in notes if s.role == "text")
    assert text_of(yl, note) == "?今注疏本讹作于据宋本改正"
    # The 注 interrupted by the note goes on after it as the same unit.
    before, after = (
        [s for s in yl.spans if s.layer is Layer.ZHU and s.start < note.start][-1],
        next(s for s in yl.spans if s.layer is Layer.ZHU and s.start > note.end),
    )
    assert text_of(yl, before).endswith("不以巳尊?人也")
    assert text_of(yl, after).startswith("其末若皆众宾")
    assert before.unit == after.unit


def test_placeholder_is_reported_at_its_line_and_column(yl: Witness) -> None:
    placeholders = [d for d in yl.diagnostics if d.code == "placeholder"]
    assert len(placeholders) == yl.text.count("?") == 29
    first = yl.locate(placeholders[0].start)
    assert (first.line, first.column) == (11, 46)
    assert yl.text[placeholders[0].start] == "?"
    assert [d.code for d in yl.diagnostics if d.code != "placeholder"] == []


def test_heading(yl: Witness) -> None:
    assert yl.layer_text(Layer.HEADING) == "卷六 乡射礼第五之二"
    assert (yl.meta("juan"), yl.meta("title")) == ("卷六", "乡射礼第五之二")


def test_layout_is_line_ends_and_nbsp(yl: Witness) -> None:
    assert all(set(text_of(yl, s)) <= {"\n", "\u00a0"} for s in yl.spans if s.role == "layout")


def test_unclosed_note_is_reported_and_the_rest_read(tmp_path: Path) -> None:
    w = synthetic(
        "经一郑注注一【案未闭\n\n\u00a0\u00a0经二】\n\n\u00a0\u00a0郑注注二【案二】注三\n", tmp_path, "yili-inline"
    )
    where = [(d.code, w.locate(d.start).line, w.locate(d.start).column) for d in w.diagnostics]
    assert where == [("unbalanced", 1, 7), ("unbalanced", 3, 5)]
    assert w.layer_text(Layer.JING) == "经一经二"
    assert w.layer_text(Layer.ZHU) == "注一注二注三"
    assert w.layer_text(Layer.NOTE) == "案未闭案二"


def test_a_second_zhengzhu_in_zhu_is_text(tmp_path: Path) -> None:
    w = synthetic("郑注甲郑注乙\n", tmp_path, "yili-inline")
    assert w.layer_text(Layer.ZHU) == "甲郑注乙"


def test_detection_scores_its_seed_by_zhengzhu_and_notes() -> None:
    own, reason = READER.detect(SEED_002.read_text(encoding="utf-8"))
    assert own >= 0.9 and "郑注" in reason and "【案" in reason
