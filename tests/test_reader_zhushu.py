from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SEED_001
from readers_support import synthetic, text_of

from collate.model import Layer, Span, Witness
from collate.readers import read_witness
from collate.readers.layouts.zhushu import READER


@pytest.fixture(scope="module")
def zs() -> Witness:
    return read_witness(SEED_001, siglum="ZS", layout="zhushu")


def following(w: Witness, span: Span, role: str = "text") -> list[Span]:
    """The spans of ``role`` after ``span``, in file order."""
    return [s for s in w.spans if s.start >= span.end and s.role == role]


def test_zhu_and_shiwen_split_at_the_circle(zs: Witness) -> None:
    jing = next(s for s in zs.spans if text_of(zs, s) == "投壺之禮．主人奉矢．司射奉中．使人執壺．")
    assert jing.layer is Layer.JING
    zhu, shiwen = following(zs, jing)[:2]
    assert zhu.layer is Layer.ZHU
    assert (
        text_of(zs, zhu)
        == "矢．所以投者也．中．士則鹿中也．射人案之者．投壺．射之類也．其奉之．西階上．北面．"
    )
    assert shiwen.layer is Layer.SHIWEN
    assert text_of(zs, shiwen).startswith("投壺．壺．器名")
    between = [s for s in zs.spans if zhu.end <= s.start < shiwen.start]
    assert [(text_of(zs, s), s.role, s.label) for s in between] == [("〇", "marker", "釋文")]
    assert zhu.unit != shiwen.unit


def test_every_run_without_circle_is_zhu(zs: Witness) -> None:
    run = next(s for s in zs.spans if text_of(zs, s) == "固之言如故也．言如故辭者．重辭也．")
    assert run.layer is Layer.ZHU


def test_shu_paragraphs(zs: Witness) -> None:
    headers = [s for s in zs.spans if s.role == "marker" and (s.label or "").startswith("疏")]
    shown = {text_of(zs, s): s.label for s in headers}
    assert shown["文疏『投壺』至『敬從』"] == "疏 投壺…敬從"
    assert shown["註疏『士則』至『北面』"] == "疏·注 士則…北面"
    assert shown["註疏『亦實八筭於中．橫委其餘於中西』"] == "疏·注 亦實八筭於中．橫委其餘於中西"
    assert len(headers) == 9  # eight 文疏/註疏 lemma headers and the opening 註疏正義曰
    shu = zs.layer_text(Layer.SHU)
    assert "此一節論燕禮脫屨升堂之後" in shu
    assert "『司射奉中』者．中．謂受筭之器．" in shu  # a later line of the same paragraph group
    assert "亦鄉射也" in shu  # the last line of the file
    assert "正義曰" not in shu and "文疏" not in shu and "註疏" not in shu
    # One paragraph group is one unit: every text span from a header to the next blank line.
    header = next(s for s in headers if s.label == "疏 投壺…敬從")
    group = [s for s in zs.spans if s.unit == header.unit]
    assert {s.layer for s in group} == {Layer.SHU, Layer.MARKUP}
    assert text_of(zs, group[-1]).endswith("是重以樂也")


def test_jing_holds_the_classic_and_no_shu(zs: Witness) -> None:
    jing = zs.layer_text(Layer.JING)
    assert "主人曰：『枉矢哨壺不足辭也．敢以請．』" in jing
    assert jing.startswith("投壺之禮．主人奉矢．")
    assert jing.endswith("執八筭興．")
    for span in zs.spans:
        if span.layer is Layer.SHU and span.end - span.start > 6:
            assert text_of(zs, span) not in jing
    assert "_{" not in jing and "}" not in jing and "〇" not in jing


def test_chapter_title_and_prefaces(zs: Witness) -> None:
    assert zs.layer_text(Layer.HEADING) == "投壺第四十(一)"
    assert zs.meta("title") == "投壺第四十(一)"
    # 陸德明's preface run stands before any 經: 釋文, with its attribution set apart.
    attribution = next(s for s in zs.spans if s.role == "attribution")
    assert (text_of(zs, attribution), attribution.layer, attribution.label) == (
        "陸曰：",
        Layer.SHIWEN,
        "陸德明",
    )
    assert zs.layer_text(Layer.SHIWEN).startswith("陸曰：『鄭云：「【投壺】者．")
    (preface,) = following(zs, attribution)[:1]
    assert preface.layer is Layer.SHIWEN and preface.unit == attribution.unit
    assert text_of(zs, preface).endswith("或云「宜屬旁若無人禮也」．』")
    assert zs.layer_text(Layer.SHU).startswith("案鄭【目錄】云：")


def test_markers_are_markup(zs: Witness) -> None:
    markers = {text_of(zs, s) for s in zs.spans if s.role == "marker"}
    assert {"_{", "}", "〇", "正義曰："} <= markers
    assert all(s.layer is Layer.MARKUP for s in zs.spans if s.role in ("marker", "layout"))
    assert all(text_of(zs, s).strip("\n") == "" for s in zs.spans if s.role == "layout")


def test_seed_oddity_is_reported(zs: Witness) -> None:
    # 疏 on 投壺…敬從 has a closing 』 that opens nothing: 「主人請投壺於賓．』賓辭」.
    (diag,) = zs.diagnostics
    assert diag.code == "unbalanced" and zs.text[diag.start] == "』"
    assert (zs.locate(diag.start).line, zs.locate(diag.start).column) == (10, 26)


def test_unclosed_run_is_reported_and_the_rest_read(tmp_path: Path) -> None:
    w = synthetic(
        "經一_{注一〇釋一\n\n經二_{注二}經三}\n\n文疏『經二』至『經三』\n正義曰：疏『一\n", tmp_path, "zhushu"
    )
    where = {(d.code, w.locate(d.start).line, w.locate(d.start).column) for d in w.diagnostics}
    assert where == {("unbalanced", 1, 3), ("unbalanced", 3, 10), ("unbalanced", 6, 6)}
    assert w.layer_text(Layer.JING) == "經一經二經三"
    assert w.layer_text(Layer.ZHU) == "注一注二"
    assert w.layer_text(Layer.SHIWEN) == "釋一"
    assert w.layer_text(Layer.SHU) == "疏『一"


def test_placeholders_and_private_use_are_reported(tmp_path: Path) -> None:
    w = synthetic("經□一_{注?〓\ue000}\n", tmp_path, "zhushu")
    assert [(d.code, w.text[d.start]) for d in w.diagnostics] == [
        ("placeholder", "□"),
        ("placeholder", "?"),
        ("placeholder", "〓"),
        ("pua", "\ue000"),
    ]
    assert w.layer_text(Layer.ZHU) == "注?〓\ue000"


def test_detection_scores_its_seed_by_runs_and_shu_headers() -> None:
    own, reason = READER.detect(SEED_001.read_text(encoding="utf-8"))
    assert own >= 0.9 and "_{" in reason and "文疏" in reason
