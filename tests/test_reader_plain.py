"""The plain layout: every line 經 (or a heading); inline 【案…】 are the editors' notes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import SEED_000, SEED_001, SEED_002, SEED_003, SEED_004, SHARED, need_shared
from hypothesis import given
from hypothesis import strategies as st
from readers_support import assert_partition, synthetic, text_of

from collate.model import Layer
from collate.normalize import Normalizer
from collate.normalize.tokenize import tokenize
from collate.readers import detect_layout, read_witness
from collate.readers.base import ReadOptions, iter_lines
from collate.readers.layouts.plain import READER

WIKISOURCE = SHARED / "witnesses" / "liji-sheyi-wikisource-hangsau.txt"
# A closed note on one line, as the e-texts print them.
NOTE = re.compile(r"【案[^【】\r\n]*】")


def layer_by_line_rule(text: str) -> list[Layer]:
    """Each character's layer by the rule plain text had before notes: line bodies 經 or heading."""
    layers = [Layer.MARKUP] * len(text)
    for line in iter_lines(text):
        whole = text[line.start : line.end].rstrip("\r\n")
        layer = Layer.HEADING if re.match(r"^\s*(=+).*\1\s*$", whole) else Layer.JING
        layers[line.body_start : line.body_end] = [layer] * (line.body_end - line.body_start)
    return layers


@pytest.mark.parametrize("path", [SEED_000, SEED_001, SEED_002, SEED_003, SEED_004], ids=lambda p: p.name[:3])
def test_seeds_read_as_before_outside_their_notes(path: Path) -> None:
    w = read_witness(path, layout="plain", container="plain")  # the layout alone, on the file as it is
    expected = layer_by_line_rule(w.text)
    in_note = {i for m in NOTE.finditer(w.text) for i in range(m.start(), m.end())}
    changed = {i for s in w.spans for i in range(s.start, s.end) if s.layer is not expected[i]}
    assert changed <= in_note
    assert len(w.layer_text(Layer.NOTE)) == len(in_note) - 2 * len(NOTE.findall(w.text))  # 【 】 are markup
    assert [d for d in w.diagnostics if d.code == "unbalanced"] == []


def test_seed_002_has_its_seventeen_notes() -> None:
    w = read_witness(SEED_002, layout="plain")
    notes = [s for s in w.spans if s.layer is Layer.NOTE and s.role == "text"]
    assert len(notes) == 17 == len({s.unit for s in notes})
    assert text_of(w, notes[0]) == "?今注疏本讹作于据宋本改正"
    assert [text_of(w, s) for s in w.spans if s.role == "attribution"] == ["案"] * 17
    labels = [s.label for s in w.spans if s.role == "marker"]
    assert labels == ["note open", "note close"] * 17


def test_a_note_is_set_apart_and_the_line_goes_on_as_one_unit(tmp_path: Path) -> None:
    w = synthetic("宾升【案今注疏本脱升字】西阶上\n主人答拜\n", tmp_path, "plain")
    parts = [(text_of(w, s), s.layer, s.role, s.label) for s in w.spans if s.role != "layout"]
    assert parts == [
        ("宾升", Layer.JING, "text", None),
        ("【", Layer.MARKUP, "marker", "note open"),
        ("案", Layer.NOTE, "attribution", "案"),
        ("今注疏本脱升字", Layer.NOTE, "text", None),
        ("】", Layer.MARKUP, "marker", "note close"),
        ("西阶上", Layer.JING, "text", None),
        ("主人答拜", Layer.JING, "text", None),
    ]
    units = [s.unit for s in w.spans if s.role != "layout"]
    assert units[0] == units[5] != units[6] and len(set(units[1:5])) == 1 and units[1] not in (units[0], units[6])


def test_note_tokens_carry_no_brackets_and_the_attribution_is_no_token(tmp_path: Path) -> None:
    w = synthetic("宾升【谨案今本作升】西阶上\n", tmp_path, "plain")
    assert [t.t for t in tokenize(w, Layer.NOTE, Normalizer())] == list("今本作升")
    assert [t.t for t in tokenize(w, Layer.JING, Normalizer())] == list("宾升西阶上")


@pytest.mark.parametrize(
    ("line", "unbalanced"),
    [
        ("鼓【所谓反】宾", 0),  # a pronunciation gloss
        ("注【王氏曰射礼】宾", 0),  # a quoted commentator
        ("【案】", 0),  # an empty note is still a note
        ("先【案有】【案", 1),  # the second opens a note that is never closed
        ("宾【案今本【作】升】", 1),  # a bracket inside: the reader does not guess which 】 closes it
    ],
)
def test_other_brackets_stay_as_they_were(line: str, unbalanced: int) -> None:
    text = line + "\n"
    parsed = READER.read(text, ReadOptions())
    notes = [range(m.start(), m.end()) for m in NOTE.finditer(text)]
    outside = [s for s in parsed.spans if not any(s.start in r for r in notes)]
    assert "".join(text[s.start : s.end] for s in outside) == NOTE.sub("", line) + "\n"
    assert {s.layer for s in outside} <= {Layer.JING, Layer.MARKUP}
    assert [d.code for d in parsed.diagnostics] == ["unbalanced"] * unbalanced


def test_an_unclosed_note_is_text_with_a_diagnostic() -> None:
    text = "宾升【案今注疏本脱升字\n西阶上】\n"
    parsed = READER.read(text, ReadOptions())
    assert {s.layer for s in parsed.spans} == {Layer.JING, Layer.MARKUP}
    assert [(d.code, text[d.start : d.end]) for d in parsed.diagnostics] == [("unbalanced", "【")]


def test_plain_stays_the_fallback_even_with_notes() -> None:
    assert READER.detect("宾升【案今注疏本脱升字】西阶上\n")[0] == 0.01
    # Seed 002 without its 郑注 switches: a plain simplified text with 17 【案…】 notes.
    text = SEED_002.read_text(encoding="utf-8").replace("郑注", "")
    assert len(NOTE.findall(text)) == 17
    assert detect_layout(text)[0] == "plain"
    assert "【案…】 notes" in READER.detect(text)[1]


def test_wikisource_heading_and_paragraphs() -> None:
    w = read_witness(need_shared(WIKISOURCE))
    assert (w.container, w.layout) == ("plain", "plain")
    assert w.layer_text(Layer.HEADING) == "=== 20 | 射義 ==="
    paragraphs = [s for s in w.spans if s.layer is Layer.JING]
    assert len({s.unit for s in paragraphs}) == 12
    # The web editors' variant notes (采蘩一作「繁」) are notes, the classic reads on around them.
    notes = [(text_of(w, s), s.role) for s in w.spans if s.layer is Layer.NOTE]
    assert notes == [("一作", "attribution"), ("繁", "text")] * 2 + [("一作", "attribution"), ("脩", "text")]
    assert "士以《采蘩》為節" in w.layer_text(Layer.JING)
    # A stray ASCII space (又揚觶而語 曰) stays in the paragraph; the tokenizer sets it aside.
    tokens = tokenize(w, Layer.JING, Normalizer())
    assert not [t.t for t in tokens if re.search(r"[\x00-\x7f¶]", t.t)]


def test_a_variant_note_closing_on_the_places_it_holds_for_has_the_reading_alone(tmp_path: Path) -> None:
    # 儒行 on Wikisource: 上答一作「荅 下同」之不敢以疑 — 荅 is the reading, 下同 ("likewise below") the editors'.
    w = synthetic("=== 41 | 儒行 ===\n易衣而出，并日而食。上答一作「荅 下同」之不敢以疑。\n", tmp_path, "plain")
    notes = [(text_of(w, s), s.role) for s in w.spans if s.layer is Layer.NOTE]
    assert notes == [("一作", "attribution"), ("荅", "text")]
    assert [text_of(w, s) for s in w.spans if s.marker == "下同"] == ["下同"]
    assert "上答之不敢以疑" in w.layer_text(Layer.JING).replace("，", "").replace("。", "")
    # A reading that is those very words stays one.
    plain = synthetic("=== 1 | 射 ===\n某一作「下同」也。\n", tmp_path, "plain")
    assert [text_of(plain, s) for s in plain.spans if s.layer is Layer.NOTE] == ["一作", "下同"]


PIECES = ("【", "】", "【案", "案", "谨案", "宾", "升，", "=== 1 | 射 ===", "\n", "\r\n", " ", "\u3000", "\u00a0", "?")


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_is_partitioned(text: str) -> None:
    parsed = READER.read(text, ReadOptions())
    assert_partition(parsed.spans, text)
    for s in parsed.spans:
        if s.layer is Layer.NOTE:
            assert not set(text[s.start : s.end]) & set("【】\r\n")
