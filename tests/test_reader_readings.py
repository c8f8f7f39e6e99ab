"""Readings files (sparse witnesses) and the 大戴禮 readings reported by 蕙田案 in seed 000."""

from __future__ import annotations

from pathlib import Path

import opencc
import pytest
from conftest import DADAI_READINGS, SEED_000

from collate.errors import LayoutError
from collate.model import Layer, SparseReading, Witness
from collate.readers import read_witness
from collate.readers.base import ReadOptions
from collate.readers.layouts.readings import READER

T2S = opencc.OpenCC("t2s")


@pytest.fixture(scope="module")
def dd() -> Witness:
    return read_witness(DADAI_READINGS, siglum="DD")


@pytest.fixture(scope="module")
def sk() -> Witness:
    return read_witness(SEED_000, siglum="SK", layout="siku-wltk")


def layer_offsets(w: Witness, layer: Layer, role: str = "text") -> tuple[str, list[int]]:
    """A layer's text (spans of ``role``) and the file offset of each of its characters."""
    offsets = [i for s in w.spans if s.layer is layer and s.role == role for i in range(s.start, s.end)]
    return "".join(w.text[i] for i in offsets), offsets


def test_the_dadai_file_parses(dd: Witness) -> None:
    assert dd.layout == "readings" and dd.sparse
    assert dd.meta("title") == "大戴禮記·投壺"
    assert len(dd.readings) == 15
    kinds = [r.kind for r in dd.readings]
    assert (kinds.count("substitution"), kinds.count("addition"), kinds.count("omission")) == (6, 8, 1)
    assert all(r.layer is Layer.JING and r.source.startswith("蕙田案（五禮通考卷165 頁") for r in dd.readings)
    first = dd.readings[0]
    assert (first.at, first.base, first.reading) == ("某有枉矢哨壶", "哨", "峭")
    assert dd.line_col(first.start) == (dd.text[: first.start].count("\n") + 1, 1)
    assert dd.text[first.start :].startswith("[[reading]]")


def test_spans_cover_the_file_one_span_a_reading(dd: Witness) -> None:
    pos = 0
    for s in dd.spans:
        assert s.start == pos < s.end and s.layer is Layer.MARKUP
        pos = s.end
    assert pos == len(dd.text)
    tables = [s for s in dd.spans if s.label]
    assert [(s.start, s.end) for s in tables] == [(r.start, r.end) for r in dd.readings]
    assert [s.label for s in tables] == [f"reading {n}" for n in range(1, 16)]
    assert all(dd.text[r.start : r.end].rstrip().endswith('"') for r in dd.readings)


def test_each_entry_finds_its_place_once_in_the_base(dd: Witness, sk: Witness) -> None:
    jing = T2S.convert(sk.layer_text(Layer.JING))
    for r in dd.readings:
        at = T2S.convert(r.at)
        assert jing.count(at) == 1, r.at
        assert T2S.convert(r.base) in at


def test_each_entry_cites_the_note_and_the_page_it_stands_on(dd: Witness, sk: Witness) -> None:
    notes, note_offsets = layer_offsets(sk, Layer.NOTE)
    jing, jing_offsets = layer_offsets(sk, Layer.JING)
    first_place: dict[int, int] = {}
    for r in dd.readings:
        assert r.note, r.at
        found = notes.find(r.note)
        assert found >= 0 and notes.count(r.note) == 1, r.note
        note_at = note_offsets[found]
        unit = next(s.unit for s in sk.spans if s.start <= note_at < s.end)
        unit_start = min(s.start for s in sk.spans if s.unit == unit)
        assert sk.text[unit_start : unit_start + 3] == "蕙田案"
        page = sk.page_at(unit_start)[0]
        assert f"頁{page}" in r.source, (r.source, page)
        place = jing_offsets[jing.find(T2S.convert(r.at))]
        first_place[unit_start] = min(place, first_place.get(unit_start, place))
    # A note stands after the passage it speaks of (哨 → 峭 is reported once for three places).
    assert len(first_place) == 8
    assert all(place < note_start for note_start, place in first_place.items())


def test_the_readings_the_notes_report(dd: Witness) -> None:
    by_reading = {r.reading: r for r in dd.readings}
    assert by_reading["奏投壺之令"].position == "before" and by_reading["奏投壺之令"].at == "顺投为入"
    assert by_reading["算"].at == "比投不释" and by_reading["算"].position == "after"
    lack = next(r for r in dd.readings if r.kind == "omission")
    assert lack.base == "一马从二马"
    assert by_reading["終則復始"].at == "正爵既行请彻马"
    assert by_reading["堂下司正"].position == "before"
    assert len(by_reading["降揖其阼階及樂事皆與射同節"].reading) == 13  # 十三字, as the note counts


def test_auto_detection_takes_toml_as_readings(tmp_path: Path) -> None:
    path = tmp_path / "r.toml"
    path.write_text(ENTRY, encoding="utf-8")
    w = read_witness(path)
    assert w.layout == "readings" and len(w.readings) == 1
    assert READER.detect(ENTRY)[0] > 0.5
    assert READER.detect(SEED_000.read_text(encoding="utf-8"))[0] == 0.0


ENTRY = """[witness]
title = "大戴禮記·投壺"

[[reading]]
at = "某有枉矢哨壶"
base = "哨"
reading = "峭"
source = "蕙田案"
"""


def read(text: str) -> tuple[SparseReading, ...]:
    return READER.read(text, ReadOptions(path="dd.toml")).readings


def test_a_traditional_base_is_found_in_a_simplified_at() -> None:
    (r,) = read(ENTRY.replace('base = "哨"', 'base = "壺"'))
    assert (r.base, r.reading) == ("壺", "峭")


def test_defaults_and_optional_keys() -> None:
    (r,) = read(ENTRY + 'note = "今本大戴礼乃作峭"\n')
    assert (r.position, r.layer, r.note) == ("after", Layer.JING, "今本大戴礼乃作峭")
    (r,) = read(ENTRY.replace('base = "哨"', 'base = ""') + 'position = "before"\nlayer = "zhu"\n')
    assert (r.kind, r.position, r.layer) == ("addition", "before", Layer.ZHU)


# (what is wrong, the file, "line:col" in the message, words of the message)
BAD = [
    ("bad TOML", ENTRY.replace('reading = "峭"', 'reading = "峭'), "7:", "not valid TOML"),
    ("missing reading", ENTRY.replace('reading = "峭"\n', ""), "4:1", "lacks `reading`"),
    ("missing source", ENTRY.replace('source = "蕙田案"\n', ""), "4:1", "lacks `source`"),
    ("base outside at", ENTRY.replace('base = "哨"', 'base = "嘉"'), "6:1", "is not inside `at`"),
    ("base twice in at", ENTRY.replace('base = "哨"', 'base = "枉矢哨壶"').replace("某有枉矢哨壶", "枉矢哨壶枉矢哨壶"),
     "6:1", "occurs 2 times"),
    ("unknown layer", ENTRY + 'layer = "jingg"\n', "9:1", "unknown layer 'jingg'"),
    ("markup layer", ENTRY + 'layer = "markup"\n', "9:1", "unknown layer 'markup'"),
    ("unknown key", ENTRY + 'readng = "峭"\n', "9:1", "unknown key 'readng'"),
    ("position of a substitution", ENTRY + 'position = "after"\n', "9:1", "for additions only"),
    ("bad position", ENTRY.replace('base = "哨"', 'base = ""') + 'position = "under"\n', "9:1", "unknown position"),
    ("nothing read", ENTRY.replace('base = "哨"', 'base = ""').replace('reading = "峭"', 'reading = ""'),
     "6:1", "both empty"),
    ("same as base", ENTRY.replace('reading = "峭"', 'reading = "哨"'), "7:1", "same as `base`"),
    ("not a string", ENTRY.replace('reading = "峭"', "reading = 3"), "7:1", "must be a string"),
    ("no readings", '[witness]\ntitle = "x"\n', "1:1", "no readings"),
    ("inline array", 'reading = [{at = "哨", base = "哨", reading = "峭", source = "s"}]\n', "1:1",
     "[[reading]] tables"),
    ("unknown witness key", ENTRY.replace("title =", "titel ="), "2:1", "unknown key 'titel'"),
    ("unknown top-level key", "siglum = \"DD\"\n" + ENTRY, "1:1", "unknown top-level key"),
]  # fmt: skip


@pytest.mark.parametrize(("name", "text", "where", "words"), BAD, ids=[b[0] for b in BAD])
def test_malformed_files_raise_layout_errors_with_a_place(name: str, text: str, where: str, words: str) -> None:
    with pytest.raises(LayoutError) as info:
        read(text)
    error = info.value
    assert error.where is not None and error.where.startswith(f"dd.toml:{where}"), error.where
    assert words in error.message
    assert error.hint


def test_the_project_names_the_readings_file(repo: Path) -> None:
    w = read_witness(repo / "witnesses" / "dadai-readings.toml", layout="readings", display="witnesses/dd.toml")
    assert w.path == "witnesses/dd.toml" and len(w.readings) == 15
