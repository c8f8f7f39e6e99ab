"""The TLS layout: numbered sentences (``47.1古者…``) are markers, every phrase line is 經."""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from pathlib import Path

import pytest
from conftest import GAIJI, SEEDS, SHARED, need_shared
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz import fuzz
from readers_support import assert_partition, ideographs, synthetic, text_of

from collate.model import Layer, Witness
from collate.normalize import Normalizer
from collate.normalize.tokenize import tokenize_witness
from collate.readers import detect_container, detect_layout, get_container, read_witness
from collate.readers.base import ReadOptions
from collate.readers.layouts.tls import READER

WITNESSES = SHARED / "witnesses"
TLS = WITNESSES / "liji-sheyi-kanripo-TLS.txt"
WIKISOURCE = WITNESSES / "liji-sheyi-wikisource-hangsau.txt"


@pytest.fixture(scope="module")
def tls() -> Witness:
    return read_witness(need_shared(TLS), gaiji_table=need_shared(GAIJI))


@pytest.fixture(scope="module")
def wikisource() -> Witness:
    return read_witness(need_shared(WIKISOURCE), layout="plain")




def numbers(w: Witness) -> list[tuple[str, str | None, int]]:
    """(text, label, unit) of the sentence-number markers."""
    markers = [s for s in w.spans if s.layer is Layer.MARKUP and s.role == "marker"]
    return [(text_of(w, s), s.label, s.unit) for s in markers if s.label and s.label[0].isdigit()]


def test_the_tls_file_is_detected_as_tls(tls: Witness) -> None:
    assert (tls.container, tls.layout) == ("mandoku", "tls")
    assert "12 lines open with a sentence number" in tls.layout_reason


def test_sentence_numbers_are_markers_labelled_with_the_number(tls: Witness) -> None:
    found = numbers(tls)
    assert [label for _, label, _ in found] == [f"47.{n}" for n in range(1, 13)]
    assert all(text == label for text, label, _ in found)
    assert not re.search(r"[0-9]", tls.layer_text(Layer.JING))
    assert tls.diagnostics == ()


def test_a_numbered_sentence_is_one_unit_across_its_phrase_lines(tls: Witness) -> None:
    units = {label: unit for _, label, unit in numbers(tls)}
    jing = [s for s in tls.spans if s.layer is Layer.JING]
    assert {s.unit for s in jing} == set(units.values())
    first = "".join(text_of(tls, s) for s in jing if s.unit == units["47.1"])
    assert first.startswith("古者諸侯之射也，必先行燕禮；卿、大夫、士之射也，")
    assert first.endswith("鄉飲酒之禮者，所以明長幼之序也。")
    last = "".join(text_of(tls, s) for s in jing if s.unit == units["47.12"])
    assert last.startswith("孔子曰：「射者何以射？何以聽？") and last.endswith("求中以辭爵者，辭養也。")


def test_text_layers_hold_no_ascii_and_no_container_markup(tls: Witness) -> None:
    tokens = tokenize_witness(tls, Normalizer())
    assert set(tokens) == {Layer.JING}
    assert len(tokens[Layer.JING]) == len(ideographs(tls.layer_text(Layer.JING)))
    bad = [t.t for toks in tokens.values() for t in toks if re.search(r"[A-Za-z0-9<¶&#]", t.t)]
    assert bad == []
    for layer in tls.layers():
        if layer.is_text:
            assert not re.search(r"[\x00-\x7f¶]", tls.layer_text(layer).replace("\n", "")), layer


def test_the_jing_agrees_with_the_wikisource_text(tls: Witness, wikisource: Witness) -> None:
    ours = ideographs(tls.layer_text(Layer.JING))
    theirs = ideographs(wikisource.layer_text(Layer.JING))
    # Measured: 1008 and 1017 ideographs, ratio 99.5.
    assert abs(len(ours) - len(theirs)) / len(theirs) <= 0.02
    assert fuzz.ratio(ours, theirs) >= 97
    changes = [
        (ours[i1:i2], theirs[j1:j2])
        for op, i1, i2, j1, j2 in SequenceMatcher(None, ours, theirs, autojunk=False).get_opcodes()
        if op != "equal"
    ]
    # Two editions, not reading slips (Wikisource's own 一作 notes are notes, not 經): 繁/蘩, 脩/修, 后/後.
    assert changes == [("繁", "蘩"), ("繁", "蘩"), ("脩", "修"), ("后", "後")]


def detected_layout(path: Path) -> str:
    """The layout ``read_witness`` picks for ``path``: its container's body, then detection."""
    raw = path.read_text(encoding="utf-8")
    body = get_container(detect_container(raw)[0]).read(raw, ReadOptions(gaiji_table=need_shared(GAIJI)))
    return detect_layout(body.text, str(path))[0]


def test_only_the_tls_file_is_detected_as_tls() -> None:
    files = sorted(need_shared(WITNESSES).glob("*.txt")) + sorted(SEEDS.glob("0*.txt"))
    # Detection only: other layouts' readers need not be finished for this file's test to hold.
    detected = {path.name: detected_layout(path) for path in files}
    assert [name for name, layout in detected.items() if layout == "tls"] == [TLS.name]
    assert detected[WIKISOURCE.name] == "plain"


@pytest.mark.parametrize(
    ("text", "markers", "jing"),
    [
        ("1.1天命之謂性，\n率性之謂道，\n1.2道也者，\n", ["1.1", "1.2"], "天命之謂性，率性之謂道，道也者，"),
        ("2.3.1子曰：\n2.3.2學而時習之，\n", ["2.3.1", "2.3.2"], "子曰：學而時習之，"),
        ("3.1　君子\u3000不器。\n", ["3.1"], "君子不器。"),
    ],
)
def test_phrase_numbers_of_any_depth_are_markers(tmp_path: Path, text: str, markers: list[str], jing: str) -> None:
    w = synthetic(text, tmp_path, "tls")
    assert [label for _, label, _ in numbers(w)] == markers
    assert "".join(text_of(w, s) for s in w.spans if s.layer is Layer.JING) == jing


def test_detection_wants_numbered_phrase_lines() -> None:
    assert READER.detect("1.1天命之謂性，\n率性之謂道，\n1.2道也者，\n不可須臾離也，\n")[0] >= 0.9
    assert READER.detect("天命之謂性，\n率性之謂道，\n")[0] == 0.0
    # One number counts in phrase lines only (a short chapter), not at the head of a paragraph.
    assert READER.detect("1.1天命之謂性，\n率性之謂道，\n")[0] == 0.6
    assert READER.detect("1.1天命之謂性，率性之謂道，修道之謂教。道也者，不可須臾離也，可離非道也。\n")[0] < 0.3
    descending = READER.detect("2.1天命之謂性，\n1.1率性之謂道，\n")[0]
    assert 0 < descending < 0.8


def test_stray_ascii_is_markup_with_a_diagnostic() -> None:
    text = "1.1天命KR之謂性，\n7率性之謂道，1.2.3.4\n"
    parsed = READER.read(text, ReadOptions())
    assert "".join(text[s.start : s.end] for s in parsed.spans if s.layer is Layer.JING) == "天命之謂性，率性之謂道，"
    assert [text[s.start : s.end] for s in parsed.spans if s.label == "stray"] == ["KR", "7", "1.2.3.4"]
    assert [(d.code, text[d.start : d.end]) for d in parsed.diagnostics] == [
        ("stray-ascii", "KR"),
        ("stray-ascii", "7"),
        ("stray-ascii", "1.2.3.4"),
    ]


def test_text_before_the_first_number_is_its_own_unit() -> None:
    text = "射義\n1.1古者\n"
    parsed = READER.read(text, ReadOptions())
    jing = [(text[s.start : s.end], s.unit) for s in parsed.spans if s.layer is Layer.JING]
    assert jing == [("射義", 1), ("古者", 2)]


PIECES = ("47.1", "47.12", "1.2.3", "47", ".", "古", "者，", "「", "」", "\n", "\r\n", " ", "\u3000", "a", "9")


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_is_partitioned(text: str) -> None:
    parsed = READER.read(text, ReadOptions())
    assert_partition(parsed.spans, text)
    for s in parsed.spans:
        if s.layer.is_text:
            assert not re.search(r"[0-9A-Za-z\s]", text[s.start : s.end])
