"""The zhu-bracket layout on real 四部叢刊 prints, each checked against an independent witness."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import GAIJI, SHARED, need_shared
from rapidfuzz import fuzz
from readers_support import ideographs, synthetic, text_of

from collate.model import Layer, Witness
from collate.model.numerals import number
from collate.readers import read_witness

WITNESSES = SHARED / "witnesses"


def read(name: str) -> Witness:
    return read_witness(need_shared(WITNESSES / name), gaiji_table=need_shared(GAIJI))


def test_the_zhengzhu_print_matches_its_own_tally_less_its_lost_pages() -> None:
    w = read("yili-yanli-zhengzhu-kanripo-SBCK.txt")
    assert (w.container, w.layout) == ("mandoku", "zhu-bracket")
    (tally,) = [text_of(w, s) for s in w.spans if s.layer is Layer.HEADING and s.label == "tally"]
    m = re.fullmatch(r"經(\w+)字/注(\w+)字", tally)
    assert m is not None
    jing_tally, zhu_tally = number(m.group(1)), number(m.group(2))
    jing, zhu = len(ideographs(w.layer_text(Layer.JING))), len(ideographs(w.layer_text(Layer.ZHU)))
    # Two pages (four half-folios' worth at most) are lost: what is read is a little under the tally.
    lacunae = [m for m in w.marks if m.kind == "lacuna"]
    assert [m.label for m in lacunae] == ["006-14a, 2 pages", "006-19a, 2 pages"]
    assert 0.9 * jing_tally <= jing <= jing_tally
    assert 0.9 * zhu_tally <= zhu <= zhu_tally
    lost = [d for d in w.diagnostics if d.code == "lacuna"]
    assert len(lost) == 2 and all(w.text[d.start : d.end] == "# page missing" for d in lost)
    assert not any(s.layer.is_text for s in w.spans for m in lacunae if s.start <= m.offset < s.end)


def test_the_zuantu_huzhu_print_against_the_wikisource_text() -> None:
    w = read("liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt")
    wiki = read_witness(need_shared(WITNESSES / "liji-sheyi-wikisource-hangsau.txt"), layout="plain")
    ours, theirs = ideographs(w.layer_text(Layer.JING)), ideographs(wiki.layer_text(Layer.JING))
    # Wikisource adds a few inline 一作 notes; the print has its own forms (郷, 㓜, 礼 …).
    assert abs(len(ours) - len(theirs)) <= 0.03 * len(theirs)
    assert fuzz.ratio(ours, theirs) >= 85
    # 音義 after ○ and 陸曰, the 重言/重意 cross-references as notes, the title a heading.
    assert len(ideographs(w.layer_text(Layer.SHIWEN))) > 300
    notes = [text_of(w, s) for s in w.spans if s.layer is Layer.NOTE and s.role == "attribution"]
    assert set(notes) <= {"重言", "重意", "互註", "互注", "案"} and notes.count("重言") >= 3
    assert "長丁丈反" in w.layer_text(Layer.SHIWEN) and "長丁丈反" not in w.layer_text(Layer.ZHU)
    headings = [text_of(w, s) for s in w.spans if s.layer is Layer.HEADING]
    assert "射義第四十六" in headings and "禮記　鄭氏註" in headings


@pytest.mark.parametrize(
    "name",
    [
        "dadai-touhu-kanripo-SBCK.txt",
        "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt",
        "yili-yanli-zhengzhu-kanripo-SBCK.txt",
        "zhouli-sheren-kanripo-SBCK.txt",
    ],
)
def test_no_markup_reaches_a_text_layer(name: str) -> None:
    w = read(name)
    for s in w.spans:
        if s.layer.is_text and s.role == "text":
            piece = text_of(w, s)
            assert not re.search(r"[A-Za-z0-9<>¶#/()○〇\s]", re.sub(r"&KR\d+;", "", piece)), (piece, s)


def _read(tmp_path: Path, *lines: str) -> Witness:
    """A Mandoku file of ``lines`` (each ending in a line end) read in the zhu-bracket layout."""
    return synthetic("".join(f"{line}\n" for line in lines), tmp_path, "zhu-bracket")


def test_an_unclosed_bracket_stops_at_its_line_end(tmp_path: Path) -> None:
    lines = ("#+TITLE: 周禮", "<pb:KR1d0002_SBCK_007-28b>¶", "射人掌國(位將射始入¶", "見君之位不言士(者/此)¶")
    w = _read(tmp_path, *lines)
    assert w.layer_text(Layer.ZHU) == "位將射始入者此"
    assert w.layer_text(Layer.JING) == "射人掌國見君之位不言士"
    (d,) = [d for d in w.diagnostics if d.code == "unbalanced"]
    assert w.locate(d.start).line == 3 and "line end" in d.message


def test_a_circle_in_large_print_is_a_section_mark_and_in_a_score_a_sign(tmp_path: Path) -> None:
    # 周禮 卷八 (四部叢刊本): 三公北面東上孤○東面北上 — the print's circle, no word of the 經.
    w = _read(
        tmp_path,
        "#+TITLE: 周禮",
        "<pb:KR1d0002_SBCK_008-1b>¶",
        "王南郷三公北面東上孤○¶",
        "東面北上(此王日/視朝)¶",
        "鼓○□○○□○□(圜者/擊鼙)¶",
    )
    assert w.layer_text(Layer.JING) == "王南郷三公北面東上孤東面北上鼓○□○○□○□"
    (mark,) = [s for s in w.spans if s.role == "marker" and text_of(w, s) == "○"]
    assert mark.marker == "section break" and w.locate(mark.start).line == 3


def test_the_tally_may_follow_the_closing_juan_title(tmp_path: Path) -> None:
    # 儀禮卷第一 closes its juan with the tally on the same printed line.
    w = _read(
        tmp_path,
        "#+TITLE: 儀禮",
        "<pb:KR1d0026_SBCK_001-1a>¶",
        "士冠禮第一¶",
        "筮于庿門(筮者/以蓍)¶",
        "儀禮卷第一(經一千八百九十八字/注三千六百二字)¶",
    )
    assert w.layer_text(Layer.JING) == "筮于庿門"
    assert w.layer_text(Layer.ZHU) == "筮者以蓍"
    headings = {s.label: text_of(w, s) for s in w.spans if s.layer is Layer.HEADING and s.label != "title"}
    assert headings["juan title"] == "儀禮卷第一"
    assert headings["tally"] == "經一千八百九十八字/注三千六百二字"


def test_a_large_print_tally_closes_a_dadai_juan(tmp_path: Path) -> None:
    # 大戴禮記 closes a juan in large print: the number of chapters and of characters.
    w = _read(
        tmp_path,
        "#+TITLE: 大戴禮記",
        "<pb:KR1d0076_SBCK_003-1a>",
        "保傅第四十八¶",
        "而後車必覆(謂居號/斯言)¶",
        "　¶凡¶二章(新別)凡三千五百五十四字",
    )
    assert w.layer_text(Layer.JING) == "而後車必覆"
    assert w.layer_text(Layer.ZHU) == "謂居號斯言"
    tally = [text_of(w, s) for s in w.spans if s.layer is Layer.HEADING and s.label == "tally"]
    # The container's ¶ (a line end of the other print) stays between 凡 and 二章.
    assert "".join(tally) == "凡二章新別凡三千五百五十四字"


def test_a_lone_fanqie_tail_is_the_yinyi_of_a_gloss_whose_head_the_print_lost(tmp_path: Path) -> None:
    # 纂圖互註禮記 卷十一 (學記): 多其訊(呻/吟), then a lost leaf, then (反)此四者…: the 反 is the end of
    # a 音義 gloss on the lost leaf, and the 注 呻吟 ends before it, as at a ○.
    w = _read(
        tmp_path,
        "#+TITLE: 纂圖互註禮記",
        "<pb:KR1d0054_SBCK_011-2a>¶",
        "今之教者呻其佔畢多其訊(呻/吟)¶",
        "<pb:KR1d0054_SBCK_011-2b>¶",
        "<pb:KR1d0054_SBCK_011-2b>¶",
        "(反)此四者教之所由興也(興起/也)¶",
    )
    assert w.layer_text(Layer.ZHU) == "呻吟興起也"
    assert w.layer_text(Layer.SHIWEN) == "反"
    # The 注 呻吟 is no stretch whose end the collation must settle (as 興起也 at the file's end is).
    assert [w.text[u.start : u.end] for u in w.unsettled] == ["興起/也"]
