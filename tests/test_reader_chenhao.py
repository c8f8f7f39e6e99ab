"""陳澔 禮記集說 (layout ``jishuo-chen``) on its 四庫 print of 射義, and on small made-up texts."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import GAIJI, SEEDS, SHARED, need_shared
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz import fuzz
from readers_support import ideographs, line_spans, markup_in_text, real_files, synthetic, text_of

from collate.model import Layer, Witness
from collate.readers import read_witness
from collate.readers.base import ReadOptions
from collate.readers.layouts.chenhao import READER, SOUND_NOTES, is_notes

WITNESSES = SHARED / "witnesses"
CHENHAO = WITNESSES / "liji-jishuo-chenhao-sheyi-kanripo-WYG.txt"
WIKISOURCE = WITNESSES / "liji-sheyi-wikisource-hangsau.txt"


han = ideographs


@pytest.fixture(scope="module")
def chen() -> Witness:
    return read_witness(need_shared(CHENHAO), gaiji_table=need_shared(GAIJI))


def line_of(w: Witness, needle: str) -> int:
    """The file line holding ``needle``."""
    return w.line_col(w.text.index(needle))[0]


def units(w: Witness, layer: Layer) -> dict[int, str]:
    """The text of each unit of ``layer`` (attributions included), in file order."""
    found: dict[int, str] = {}
    for s in w.spans:
        if s.layer is layer:
            found[s.unit] = found.get(s.unit, "") + text_of(w, s)
    return found


def sound_notes(w: Witness) -> dict[int, str]:
    """The text of each unit of 音 notes (COMMENTARY labelled 音), in file order."""
    found: dict[int, str] = {}
    for s in w.spans:
        if s.layer is Layer.COMMENTARY and s.label == SOUND_NOTES:
            found[s.unit] = found.get(s.unit, "") + text_of(w, s)
    return found


def test_detected_with_a_reason(chen: Witness) -> None:
    assert chen.layout == "jishuo-chen"
    assert "某氏曰" in chen.layout_reason and "音 notes" in chen.layout_reason


@pytest.mark.parametrize(
    "path",
    real_files(SHARED, SEEDS, but=CHENHAO),
    ids=lambda p: p.name,
)
def test_not_detected_on_other_files(path: Path) -> None:
    assert read_witness(path, gaiji_table=GAIJI).layout != "jishuo-chen"


def test_title_and_headnote(chen: Witness) -> None:
    assert line_spans(chen, line_of(chen, "射義第四十六")) == [("射義第四十六", Layer.HEADING, "text", "title")]
    assert chen.meta("chapter") == "射義第四十六"
    headnote = line_spans(chen, line_of(chen, "疏曰繫辭"))
    assert headnote[1] == ("疏曰", Layer.COMMENTARY, "attribution", "疏曰")
    assert headnote[2][:2] == ("繫辭云弦木為弧剡木為矢又世本云揮", Layer.COMMENTARY)
    # The headnote goes on over its second bracketed line: one unit.
    first = next(s for s in chen.spans if s.role == "attribution")
    rest = line_of(chen, "之夏殷無文")
    assert {s.unit for s in chen.spans if s.layer.is_text and chen.line_col(s.start)[0] == rest} == {first.unit}


def test_jing_then_commentary_with_attribution(chen: Witness) -> None:
    spans = line_spans(chen, line_of(chen, "之禮者所以明長幼之序也("))
    assert spans[:4] == [
        ("之禮者所以明長幼之序也", Layer.JING, "text", None),
        ("(", Layer.MARKUP, "marker", "("),
        ("呂氏曰", Layer.COMMENTARY, "attribution", "呂氏曰"),
        ("諸侯之射大射也", Layer.COMMENTARY, "text", None),
    ]
    assert ("/", Layer.MARKUP, "marker", "column break") in spans


def test_a_passage_over_bracketed_lines_is_one_unit(chen: Witness) -> None:
    commentary = units(chen, Layer.COMMENTARY)
    (passage,) = [t for t in commentary.values() if t.startswith("呂氏曰禮射者必先比耦")]
    assert passage.endswith("其為徳可知矣")
    assert "當物及物皆揖" in passage and "内外交脩則發乎亊者中矣" in passage


def test_closing_notes_are_shiwen(chen: Witness) -> None:
    notes = list(sound_notes(chen).values())
    assert "長上聲中去聲" in notes
    assert "還音旋中行並去聲比音畀拾其結切楅音偪弣音撫説音脱" in notes  # over two bracketed lines
    assert "舎如字去聲著直略切鳱古安切" in notes
    assert all(is_notes(n) or len(n) <= 3 for n in notes)
    # The notes are no 釋文, and they are units of their own in the commentary.
    assert Layer.SHIWEN not in chen.layers()
    assert all("長上聲" not in t for u, t in units(chen, Layer.COMMENTARY).items() if u not in sound_notes(chen))


def test_notes_that_lost_their_blank(chen: Witness) -> None:
    notes = list(sound_notes(chen).values())
    # ``…樂不失職也去樂/音洛行去聲乗去聲共音供與  聲)``: the e-text moved the blank.
    assert "樂音洛行去聲乗去聲共音供與聲" in notes
    assert any(t.endswith("所以樂不失職也去") for t in units(chen, Layer.COMMENTARY).values())


def test_authorities_open_units(chen: Witness) -> None:
    names = [(text_of(chen, s), s.label) for s in chen.spans if s.role == "attribution"]
    assert all(name == label for name, label in names)
    assert [n for n, _ in names].count("呂氏曰") == 4
    assert {"鄭氏曰", "疏曰", "朱子曰", "今按", "司裘註云"} <= {n for n, _ in names}
    commentary = list(units(chen, Layer.COMMENTARY).values())
    # Named inside a part, where the e-text lost the blank: ``…之類又鄭氏曰…``, ``…可知獸/呂氏曰…``.
    assert any(t.endswith("如君止於仁父止於慈之類又") for t in commentary)
    assert "鄭氏曰得為諸侯謂有慶也不得為諸侯謂有讓也" in commentary
    assert any(t.startswith("呂氏曰彼茁者葭") for t in commentary)
    # 疏云 cited in passing stays inside the author's sentence.
    assert any("進爵絀地者疏云進則爵輕於地" in t for t in commentary)


def test_reading_marks_stay_inside_the_jing(chen: Witness) -> None:
    spans = line_spans(chen, line_of(chen, "者(句/)不(句/)在此位也"))
    assert ("句", Layer.MARKUP, "marker", "reading mark") in spans
    jing = [s for s in chen.spans if s.layer is Layer.JING]
    at = chen.text.index("者(句/)不(句/)在此位也")
    around = {s.unit for s in jing if at - 30 < s.start < at + 15}
    assert len(around) == 1
    assert "脩身以俟死者不在此位也" in chen.layer_text(Layer.JING)


def test_text_layers_hold_no_markup(chen: Witness) -> None:
    assert markup_in_text(chen, "()/ \u3000\n<>¶&;#") == []
    for layer in chen.layers():
        if layer.is_text:
            assert not re.search(r"[\x00-\x7f]", chen.layer_text(layer)), layer


def test_jing_against_the_wikisource_text(chen: Witness) -> None:
    plain = read_witness(need_shared(WIKISOURCE), layout="plain")
    ours, theirs = han(chen.layer_text(Layer.JING)), han(plain.layer_text(Layer.JING))
    # 1007 and 1017 characters (the 通行本 carries 一作繁 notes inside the text); ratio 98.
    assert abs(len(ours) - len(theirs)) <= 0.03 * len(theirs)
    assert fuzz.ratio(ours, theirs) >= 95
    # None of the 集說 leaked into the 經.
    assert "呂氏" not in chen.layer_text(Layer.JING)


def test_characters_per_layer(chen: Witness) -> None:
    counts = {layer: len(han(chen.layer_text(layer))) for layer in chen.layers()}
    sounds = len(han("".join(sound_notes(chen).values())))
    assert counts[Layer.COMMENTARY] > counts[Layer.JING] > sounds > 0
    assert Layer.ZHU not in counts and Layer.SHU not in counts
    small = sum(len(han(p)) for p in re.findall(r"\(([^()]*)\)", chen.text))
    reading_marks = len(re.findall(r"\(句/\)", chen.text))
    assert counts[Layer.COMMENTARY] == small - reading_marks


@pytest.mark.parametrize(
    ("part", "alone", "notes"),
    [
        ("長上聲中去聲", False, True),
        ("旄音耄㢙僅同", False, True),
        ("射音石飯上聲食音嗣", False, True),
        ("讓而升下五字當依鄭註為句", False, False),
        ("與音預", True, True),
        # 倣此 "likewise below" belongs to the notes: ``夫音扶後俱倣此…``.
        ("夫音扶後俱倣此齊音齋疏去聲後亦倣此齊色之齊如字", False, True),
        ("卜其吉凶", True, False),
        ("賁與僨同覆敗也亡國亡其君之國也與為人後言人有死而無子者", True, False),
    ],
)
def test_is_notes(part: str, alone: bool, notes: bool) -> None:
    assert is_notes(part, alone=alone) is notes


def test_made_up_text(tmp_path: Path) -> None:
    text = (
        "欽定四庫全書\n陳氏禮記集說卷一\n　　曲禮上第一\n"
        "毋不敬儼若思(朱子曰首章言/君子修身  范氏曰經禮)\n"
        "(三百  毋音無/)安定辭(定/字)\n"
    )
    w = synthetic(text, tmp_path, "jishuo-chen")
    assert w.layer_text(Layer.HEADING) == "欽定四庫全書陳氏禮記集說卷一曲禮上第一"
    assert w.layer_text(Layer.JING) == "毋不敬儼若思安定辭"
    assert list(sound_notes(w).values()) == ["毋音無"]
    commentary = units(w, Layer.COMMENTARY)
    assert list(commentary.values()) == ["朱子曰首章言君子修身", "范氏曰經禮三百", "毋音無", "定字"]
    jing_units = {s.unit for s in w.spans if s.layer is Layer.JING}
    assert len(jing_units) == 2


def test_a_circle_separates_parts_like_a_blank(tmp_path: Path) -> None:
    # Some juan print ``○`` where others leave a blank: before the 音 notes and before an
    # authority (``…時祭之禮/○犧音莎…``, ``…為陔也○劉氏曰…``).
    text = (
        "禮器是故大備(此章言諸侯時祭之禮/○犧音莎縣音玄應去聲)禮也者反其所自生\n"
        "大饗其王事與(故知此當為陔也○劉氏曰後篇言鐘次/之見情也○與平聲内音納)祀帝於郊\n"
    )
    w = synthetic(text, tmp_path, "jishuo-chen")
    circles = [s for s in w.spans if text_of(w, s) == "○"]
    assert len(circles) == 3 and all((s.layer, s.role) == (Layer.MARKUP, "marker") for s in circles)
    assert list(sound_notes(w).values()) == ["犧音莎縣音玄應去聲", "與平聲内音納"]
    assert list(units(w, Layer.COMMENTARY).values()) == [
        "此章言諸侯時祭之禮",
        "犧音莎縣音玄應去聲",
        "故知此當為陔也",
        "劉氏曰後篇言鐘次之見情也",
        "與平聲内音納",
    ]
    assert w.layer_text(Layer.JING) == "禮器是故大備禮也者反其所自生大饗其王事與祀帝於郊"
    # The circle is evidence of this print too, where a juan has no blanks at all: before the
    # authorities it quotes. Before 音 notes alone it is not: a 注 print sets 陸德明's 音義 so.
    score, reason = READER.detect(text * 3)
    assert score >= 0.6 and "○" in reason
    assert READER.detect("射人掌國之位(位將射始入見君之位/○見賢遍反與音預)\n" * 20)[0] == 0


def test_unbalanced_brackets_are_reported(tmp_path: Path) -> None:
    w = synthetic("毋不敬(朱子曰首章言\n儼若思)安定辭\n", tmp_path, "jishuo-chen")
    assert [(d.code, w.text[d.start]) for d in w.diagnostics] == [("unbalanced", "("), ("unbalanced", ")")]
    assert w.layer_text(Layer.JING) == "毋不敬儼若思安定辭"


PIECES = ("(", ")", "/", "  ", " ", "\u3000", "○", "\n", "呂氏曰", "疏曰", "今按", "長上聲", "音", "句", "射", "也",
          "欽定四庫全書", "集說卷一", "\u3000\u3000射義第四十六")  # fmt: skip


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_is_partitioned(text: str) -> None:
    spans = READER.read(text, ReadOptions()).spans
    assert all(s.start < s.end for s in spans)
    assert all(a.end == b.start for a, b in pairwise(spans))
    assert "".join(text[s.start : s.end] for s in spans) == text
    for s in spans:
        if s.layer.is_text:
            assert not re.search(r"[()/ \u3000\n]", text[s.start : s.end])
