from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SEED_003
from readers_support import line_spans, markup_in_text, synthetic

from collate.model import Layer, Severity, Witness
from collate.readers import get_container, read_witness
from collate.readers.layouts.web import READER


@pytest.fixture(scope="module")
def web() -> Witness:
    return read_witness(SEED_003, siglum="WEB", layout="web-bracket")


def test_text_spans_hold_no_brackets_line_ends_or_gaps(web: Witness) -> None:
    assert markup_in_text(web, "【】\n ") == []


def test_last_line_is_boilerplate(web: Witness) -> None:
    assert line_spans(web, 33) == [
        ("【打 印】 【来源：读书之家-dushuzhijia.com】", Layer.BOILERPLATE, "text", "web page")
    ]
    assert web.layer_text(Layer.BOILERPLATE) == "【打 印】 【来源：读书之家-dushuzhijia.com】"


def test_zhu_then_shu_in_one_bracket(web: Witness) -> None:
    spans = line_spans(web, 21)
    assert spans[0] == ("张皮侯而栖鹄则春以功", Layer.JING, "text", None)
    assert spans[1] == ("【注", Layer.MARKUP, "marker", "【注")
    assert spans[2][0].startswith("皮侯以皮所饰之侯") and spans[2][0].endswith("与之事鬼神焉")
    assert spans[2][1] is Layer.ZHU
    assert spans[3] == (" 疏", Layer.MARKUP, "marker", "疏")
    assert spans[4] == (
        "张皮侯者天子三侯用虎熊豹皮饰侯之侧号曰皮侯而栖鹄者各以其皮为鹄缀于中央似鸟之栖故云而栖鹄也",
        Layer.SHU,
        "text",
        None,
    )
    assert spans[5] == ("】", Layer.MARKUP, "marker", "】")


def test_zhu_alone(web: Witness) -> None:
    assert line_spans(web, 6)[1:] == [
        ("【注", Layer.MARKUP, "marker", "【注"),
        ("贯革穿革甲也", Layer.ZHU, "text", None),
        ("】", Layer.MARKUP, "marker", "】"),
    ]


def test_later_commentator_with_attribution(web: Witness) -> None:
    assert line_spans(web, 2) == [
        ("曲礼君使士射不能则辞以疾言曰某有负薪之忧", Layer.JING, "text", None),
        ("【", Layer.MARKUP, "marker", "【"),
        ("应氏镛曰", Layer.COMMENTARY, "attribution", "应氏镛曰"),
        ("射者男子所有事可以疾辞不可以不能辞也", Layer.COMMENTARY, "text", None),
        ("】", Layer.MARKUP, "marker", "】"),
    ]
    attribution, passage = (s for s in web.spans if s.layer is Layer.COMMENTARY and s.start < 80)
    assert attribution.unit == passage.unit


def test_commentator_inside_the_shu_bracket(web: Witness) -> None:
    spans = line_spans(web, 28)
    assert [s[1] for s in spans if s[2] != "marker"] == [
        Layer.JING,
        Layer.ZHU,
        Layer.SHU,
        Layer.COMMENTARY,
        Layer.COMMENTARY,
    ]
    assert ("王氏昭禹曰", Layer.COMMENTARY, "attribution", "王氏昭禹曰") in spans
    assert spans[-2] == ("侯而祭之者神无乎不在而君子无往不用其至也", Layer.COMMENTARY, "text", None)


def test_notes_headings_and_large_print_commentator(web: Witness) -> None:
    assert line_spans(web, 1) == [
        ("蕙田案", Layer.NOTE, "attribution", "蕙田案"),
        ("以上卑幼侍尊长射", Layer.NOTE, "text", None),
    ]
    assert line_spans(web, 5)[0] == ("又案", Layer.NOTE, "attribution", "又案")
    assert line_spans(web, 8) == [("右射杂仪", Layer.HEADING, "text", "section end")]
    assert line_spans(web, 3) == [("大戴礼士使之射不能则辞以疾悬弧之义也", Layer.JING, "text", None)]
    assert line_spans(web, 32)[0] == (
        "聂崇义三礼图虎侯图説曰",
        Layer.COMMENTARY,
        "attribution",
        "聂崇义三礼图虎侯图説曰",
    )


def test_lost_glyph_is_kept_and_diagnosed(web: Witness) -> None:
    at = web.text.index("□")
    assert "以为□谓之鹄" in web.layer_text(Layer.ZHU)
    found = [d for d in web.diagnostics if d.code == "placeholder"]
    assert [(d.start, d.end) for d in found] == [(at, at + 1)]
    assert web.locate(found[0].start).line == 11


def test_unclosed_bracket_is_reported_and_ends_with_its_line(tmp_path: Path) -> None:
    w = synthetic("礼记曰射者【注射之言绎也\n蕙田案此注不完\n", tmp_path, "web-bracket")
    opener = w.text.index("【")
    assert [(d.code, d.start) for d in w.diagnostics] == [("unbalanced", opener)]
    assert w.layer_text(Layer.ZHU) == "射之言绎也"
    assert w.layer_text(Layer.NOTE) == "蕙田案此注不完"
    assert w.layer_text(Layer.JING) == "礼记曰射者"


def test_stray_closer_is_a_marker(tmp_path: Path) -> None:
    w = synthetic("礼记曰射者】观德\n", tmp_path, "web-bracket")
    assert w.layer_text(Layer.JING) == "礼记曰射者观德"
    assert [d.code for d in w.diagnostics] == ["unbalanced"]
    assert [d.severity for d in w.diagnostics] == [Severity.WARNING]


def test_characters_per_layer(web: Witness) -> None:
    counts = {layer: len(web.layer_text(layer)) for layer in web.layers()}
    assert counts[Layer.SHU] > counts[Layer.ZHU] > counts[Layer.JING] > counts[Layer.NOTE] > 0
    assert counts[Layer.BOILERPLATE] == 31
    assert counts[Layer.HEADING] == 4


def test_detection_scores_its_seed_by_brackets_and_the_container_by_furniture() -> None:
    own, reason = READER.detect(SEED_003.read_text(encoding="utf-8"))
    assert own >= 0.9 and "【注" in reason
    w = read_witness(SEED_003)
    assert w.container == "web" and "furniture" in w.container_reason
    # Furniture is the container's only at the edges of the file: inside the text a bracket is the print's.
    assert get_container("web").detect("甲\n" * 5 + "【返回】\n" + "乙\n" * 5)[0] == 0
