from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SEED_004
from readers_support import line_spans, markup_in_text, synthetic

from collate.model import Layer, Severity, Witness
from collate.model.chars import is_private_use
from collate.readers import read_witness
from collate.readers.layouts.jishuo import READER, classify_unprefixed

CASES = Path(__file__).parent / "data" / "jishuo_lines.tsv"


@pytest.fixture(scope="module")
def js() -> Witness:
    return read_witness(SEED_004, siglum="JS", layout="jishuo")


def cases() -> list[tuple[int, Layer, str, str]]:
    rows = []
    for row in CASES.read_text(encoding="utf-8").splitlines():
        if row and not row.startswith("#"):
            line, layer, opening, why = row.split("\t")
            rows.append((int(line), Layer(layer), opening, why))
    return rows


@pytest.mark.parametrize(("line", "layer", "opening", "why"), cases())
def test_line_kinds(js: Witness, line: int, layer: Layer, opening: str, why: str) -> None:
    first = line_spans(js, line)[0]
    assert first[0].startswith(opening), why
    assert first[1] is layer, why


def test_text_spans_hold_no_brackets_line_ends_or_indents(js: Witness) -> None:
    assert markup_in_text(js, "【】\n\u3000") == []


def test_speakers_are_attributions(js: Witness) -> None:
    assert line_spans(js, 12) == [
        ("注曰", Layer.ZHU, "attribution", "注曰"),
        ("官各馔其所当共之物", Layer.ZHU, "text", None),
    ]
    assert line_spans(js, 13)[0] == ("继公谓", Layer.COMMENTARY, "attribution", "继公谓")
    assert line_spans(js, 13)[1][1] is Layer.COMMENTARY
    inline_shu = line_spans(js, 127)
    assert inline_shu[:3] == [
        ("卒管大师及少师上工皆东坫之东面西面北上坐", Layer.JING, "text", None),
        ("疏曰", Layer.SHU, "attribution", "疏曰"),
        ("不言去堂逺近当如乡射迁工阼阶之东南堂前三笴西面北上", Layer.SHU, "text", None),
    ]
    # 注曰 then 疏曰 on one line: the 疏 starts where its prefix is.
    layers = [(s[1], s[2]) for s in line_spans(js, 138)]
    assert layers == [
        (Layer.ZHU, "attribution"),
        (Layer.ZHU, "text"),
        (Layer.SHU, "attribution"),
        (Layer.SHU, "text"),
    ]


def test_gloss_is_shiwen_and_what_follows_is_the_authors(js: Witness) -> None:
    assert line_spans(js, 25) == [
        ("摈者纳賔賔及庭公降一等揖賔賔辟公升即席", Layer.JING, "text", None),
        ("【", Layer.MARKUP, "marker", "【"),
        ("辟音避", Layer.SHIWEN, "text", None),
        ("】", Layer.MARKUP, "marker", "】"),
        ("凡受公礼者皆辟经不尽见之也", Layer.COMMENTARY, "text", None),
    ]
    after_gloss = line_spans(js, 100)
    assert [s[1] for s in after_gloss][-2:] == [Layer.ZHU, Layer.ZHU]
    assert after_gloss[-2][:3] == ("注曰", Layer.ZHU, "attribution")


def test_editors_note_inside_a_line(js: Witness) -> None:
    spans = line_spans(js, 117)
    assert ("案", Layer.NOTE, "attribution", "案") in spans
    assert spans[-1][0].startswith("注云大师无瑟") and spans[-1][1] is Layer.NOTE


def test_pua_kept_in_text_and_diagnosed(js: Witness) -> None:
    pua = [i for i, ch in enumerate(js.text) if is_private_use(ch)]
    assert len(pua) == 5
    assert "内\ueb8e挎越右手相" in js.layer_text(Layer.JING)
    assert "\ue5ab" in js.layer_text(Layer.COMMENTARY)
    found = [d for d in js.diagnostics if d.code == "pua"]
    assert [d.start for d in found] == pua
    assert {d.severity for d in found} == {Severity.INFO}


def test_lost_source_name_is_warned(js: Witness) -> None:
    (d,) = [d for d in js.diagnostics if d.code == "unknown-attribution"]
    assert js.text[d.start : d.end] == "防曰" and js.locate(d.start).line == 74


def test_title_is_metadata(js: Witness) -> None:
    assert js.meta("title") == "仪礼集说"


@pytest.mark.parametrize(
    ("body", "after_jing", "layer"),
    [
        ("官馔", False, Layer.JING),
        ("此亦当酌膳云散误也", True, Layer.COMMENTARY),
        ("自此以后其经文有与燕礼同者则不重释之", False, Layer.COMMENTARY),
        ("主人辞洗賔坐奠觚于篚兴对卒洗及阶揖升主人升拜洗如賔礼", True, Layer.JING),
        ("胥宰胥也", True, Layer.COMMENTARY),
        ("乃歌鹿鸣三终", False, Layer.JING),
        # Traditional script leans the same way.
        ("賓坐祭立卒爵不拜", True, Layer.JING),
        ("此亦當酌膳云散誤也", False, Layer.COMMENTARY),
    ],
)
def test_classify_unprefixed(body: str, after_jing: bool, layer: Layer) -> None:
    assert classify_unprefixed(body, after_jing) is layer


def test_unclosed_gloss_is_reported(tmp_path: Path) -> None:
    w = synthetic("仪礼集说\n　　更爵洗升酌散【散思但反\n　　此亦当酌膳云散误也\n", tmp_path, "jishuo")
    opener = w.text.index("【")
    assert [(d.code, d.start) for d in w.diagnostics] == [("unbalanced", opener)]
    assert w.layer_text(Layer.SHIWEN) == "散思但反"
    assert w.layer_text(Layer.COMMENTARY) == "此亦当酌膳云散误也"


def test_characters_per_layer(js: Witness) -> None:
    counts = {layer: len(js.layer_text(layer)) for layer in js.layers()}
    assert counts[Layer.JING] > counts[Layer.COMMENTARY] > counts[Layer.ZHU] > counts[Layer.SHU] > 0
    # Every gloss is closed on its line: SHIWEN holds exactly what the brackets hold.
    assert counts[Layer.SHIWEN] == sum(len(g) for g in re.findall(r"【([^】]*)】", js.text))


def test_detection_scores_its_seed_by_speaker_lines() -> None:
    own, reason = READER.detect(SEED_004.read_text(encoding="utf-8"))
    assert own >= 0.85 and "注曰" in reason
