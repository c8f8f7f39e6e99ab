"""The WYG 注疏 layout (``zhushu-wyg``), checked against other witnesses of the same texts.

The 經 and 注 read from the 注疏 prints are compared with prints that mark their layers
differently (a punctuated 禮記, the 四部叢刊 鄭注 prints of 周禮 and 儀禮), so these tests do
not restate the reader's rules: they fail if a rule puts the wrong words in a layer.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import GAIJI, SEEDS, SHARED, need_shared
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz import fuzz
from readers_support import ideographs, line_spans, synthetic, text_of

from collate.model import Layer, Witness
from collate.readers import read_witness
from collate.readers.base import ReadOptions
from collate.readers.layouts.zhushuwyg import READER

WITNESSES = SHARED / "witnesses"
LIJI = WITNESSES / "liji-sheyi-zhushu-kanripo-WYG.txt"
YILI = WITNESSES / "yili-yanli-zhushu-kanripo-WYG.txt"
ZHOULI = WITNESSES / "zhouli-zhushu-sheren-kanripo-WYG.txt"
TARGETS = (LIJI, YILI, ZHOULI)


def read(path: Path, layout: str = "zhushu-wyg") -> Witness:
    return read_witness(need_shared(path), layout=layout, gaiji_table=need_shared(GAIJI))


@pytest.fixture(scope="module")
def liji() -> Witness:
    return read(LIJI)


@pytest.fixture(scope="module")
def yili() -> Witness:
    return read(YILI)


@pytest.fixture(scope="module")
def zhouli() -> Witness:
    return read(ZHOULI)


def layer(w: Witness, which: Layer) -> str:
    return ideographs(w.layer_text(which))


def kaozheng_start(w: Witness) -> int:
    """Where the 考證 title line stands in the file."""
    return next(s.start for s in w.spans if s.layer is Layer.HEADING and re.search("[考攷]證$", text_of(w, s)))


# -- independent checks: the same text in another print ------------------------------------


def test_liji_jing_is_the_punctuated_text(liji: Witness) -> None:
    other = read(WITNESSES / "liji-sheyi-wikisource-hangsau.txt", layout="plain")
    ours, theirs = layer(liji, Layer.JING), layer(other, Layer.JING)
    assert abs(len(ours) - len(theirs)) <= 0.04 * len(theirs)
    assert fuzz.ratio(ours, theirs) >= 90


def test_zhouli_jing_and_zhu_are_the_sbck_print(zhouli: Witness) -> None:
    other = read(WITNESSES / "zhouli-sheren-kanripo-SBCK.txt", layout="zhu-bracket")
    for which in (Layer.JING, Layer.ZHU):
        ours, theirs = layer(zhouli, which), layer(other, which)
        assert abs(len(ours) - len(theirs)) <= 0.02 * len(theirs), which
        assert fuzz.ratio(ours, theirs) >= 93, which  # the prints differ in graphs: 𤣥/玄, 告/吿


def test_yili_jing_is_the_sbck_large_print(yili: Witness) -> None:
    other = read(WITNESSES / "yili-yanli-zhengzhu-kanripo-SBCK.txt", layout="zhu-bracket")
    ours, theirs = layer(yili, Layer.JING), layer(other, Layer.JING)
    # The SBCK print has lost two pages (`# page missing`), some 150 characters of 經 each.
    assert 200 <= len(ours) - len(theirs) <= 400
    assert fuzz.ratio(ours, theirs) >= 88
    assert fuzz.partial_ratio(theirs[:1000], ours) >= 85  # 賔/賓, 荅/答 …


def test_yili_zhu_is_the_sbck_small_print(yili: Witness) -> None:
    other = read(WITNESSES / "yili-yanli-zhengzhu-kanripo-SBCK.txt", layout="zhu-bracket")
    ours, theirs = layer(yili, Layer.ZHU), layer(other, Layer.ZHU)
    assert 0 <= len(ours) - len(theirs) <= 0.06 * len(theirs)
    assert fuzz.ratio(ours, theirs) >= 88


# -- what each layer holds ---------------------------------------------------------------------


@pytest.mark.parametrize("path", TARGETS, ids=lambda p: p.name)
def test_no_markup_in_text_layers(path: Path) -> None:
    w = read(path)
    # An entity the gaiji table cannot resolve stays in the raw text, a substitution.
    entity = {i for sub in w.substitutions for i in range(sub.start, sub.end)}
    for s in w.spans:
        if s.layer.is_text:
            chars = "".join(w.text[i] for i in range(s.start, s.end) if i not in entity)
            assert not set(chars) & set("()/<>¶&;#+:○〇 \u3000\n"), s
            assert not any(c.isascii() for c in chars), s


@pytest.mark.parametrize("path", TARGETS, ids=lambda p: p.name)
def test_shu_and_shiwen_only_in_labelled_small_print(path: Path) -> None:
    w = read(path)
    end = kaozheng_start(w)
    for s in w.spans:
        if s.layer in (Layer.SHU, Layer.SHIWEN):
            assert s.start < end
            before = w.text[: s.start]
            assert before.rfind("(") > before.rfind(")"), (w.line_col(s.start), text_of(w, s))
    # Everything in the 考證 is the editors' notes (or layout, markers and the titles).
    assert {s.layer for s in w.spans if s.start >= end} <= {Layer.NOTE, Layer.HEADING, Layer.MARKUP}
    assert not [s for s in w.spans if s.layer is Layer.NOTE and s.start < end]
    shu = w.layer_text(Layer.SHU)
    assert "正義曰" not in shu and "釋曰" not in shu


@pytest.mark.parametrize(("path", "notes"), [(LIJI, 6), (YILI, 27), (ZHOULI, 2)], ids=["liji", "yili", "zhouli"])
def test_kaozheng_notes_are_units(path: Path, notes: int) -> None:
    w = read(path)
    end = kaozheng_start(w)
    units = {s.unit for s in w.spans if s.layer is Layer.NOTE}
    # Count the lemma lines from the file: flush left, or an indented 注/疏 lemma with its ○.
    raw = w.text[end:].splitlines()[1:]
    lemmas = [
        line
        for line in raw
        if (line and not line.startswith(("#", "<", "\u3000"))) or re.match("\u3000[注疏].*○", line)
    ]
    assert len(units) == len(lemmas) == notes
    assert all(s.label == "考證" for s in w.spans if s.layer is Layer.NOTE and s.role == "text")


def test_kaozheng_lemma_note_and_editors(liji: Witness, yili: Witness) -> None:
    first = next(s for s in liji.spans if s.layer is Layer.NOTE)
    assert text_of(liji, first) == "射義古之諸侯之射也必先行燕禮卿大夫士之射也"
    editors = {s.label for w in (liji, yili) for s in w.spans if s.role == "attribution"}
    assert {"臣召南", "臣學健", "臣紱", "臣清植"} <= editors
    marks = [text_of(liji, s) for s in liji.spans if s.role == "marker" and s.label == "句"]
    assert marks and set(marks) == {"句"}


def test_headings(liji: Witness, yili: Witness, zhouli: Witness) -> None:
    def headings(w: Witness) -> list[str]:
        return [text_of(w, s) for s in w.spans if s.layer is Layer.HEADING and s.label != "title"]

    assert headings(liji)[:4] == ["欽定四庫全書", "禮記注疏卷六十二", "漢鄭氏注　唐陸徳明音義　孔穎達疏", "射義"]
    assert "燕禮第六" in headings(yili) and "記" in headings(yili)
    assert headings(zhouli) == ["周禮注疏巻三十考證"]
    assert "欽定四庫全書" not in liji.layer_text(Layer.JING)


def test_zhu_opened_by_its_word_and_closed_by_the_labels(liji: Witness) -> None:
    line = liji.text[: liji.text.index("所以明長幼之序也注")].count("\n") + 1
    spans = line_spans(liji, line)
    assert ("之禮者所以明長幼之序也", Layer.JING, "text", None) in spans
    assert ("注", Layer.MARKUP, "marker", "注") in spans
    assert spans[-1][:2] == ("言别尊卑老稺然後射", Layer.ZHU)
    nxt = [s[:2] for s in line_spans(liji, line + 1)]
    assert nxt[:3] == [("以觀徳行也", Layer.ZHU), ("音義", Layer.MARKUP), ("(", Layer.MARKUP)]
    assert ("正義", Layer.MARKUP) in nxt and ("曰", Layer.MARKUP) in nxt  # 疏(正義/曰此)
    assert ("此", Layer.SHU) in nxt


def test_jing_resumes_after_the_glosses(liji: Witness) -> None:
    jing = liji.layer_text(Layer.JING)
    assert "詩云發彼有的以祈" in jing  # after 音義(…) with no 疏
    assert "孔子曰射者何以射何以聽" in jing  # on the line after a 疏 closed


def test_unmarked_zhu_ends_are_estimated_and_reported(yili: Witness) -> None:
    cuts = [d for d in yili.diagnostics if d.code == "estimated-boundary"]
    assert len(cuts) >= 10
    zhu, jing = yili.layer_text(Layer.ZHU), yili.layer_text(Layer.JING)
    assert "既受獻矣不敢安盛" in zhu and "射人升賓賓升立于序内東面" in jing


# -- detection ------------------------------------------------------------------------------


def test_detection_picks_this_layout_only_for_the_wyg_zhushu() -> None:
    files = sorted(need_shared(WITNESSES).glob("*.txt")) + sorted(SEEDS.glob("*.txt"))
    picked = {p.name for p in files if read_witness(p, gaiji_table=need_shared(GAIJI)).layout == "zhushu-wyg"}
    assert picked == {p.name for p in TARGETS}
    assert all(READER.detect(read(p).text)[0] >= 0.6 for p in TARGETS)


# -- synthetic texts ------------------------------------------------------------------------

SAMPLE = (
    "欽定四庫全書\n　儀禮注疏卷一\n　　漢鄭氏注　唐陸德明音義　賈公彦疏\n　士冠禮第一\n"
    "士冠禮○筮于廟門注筮者以蓍問日吉凶於易也音\n義(筮市/制反)疏(釋/曰此)\n"
    "(一節論/筮日)(注釋/曰云)○主人玄冠注玄冠委貌也疏(釋曰冠)\n"
    "記冠義注記冠之義疏(注釋曰/記者)\n"
    "　儀禮注疏卷一考證\n士冠禮筮于廟門○監本譌作(臣/)\n　(紱/)按今改正(句/)\n"
)


def test_a_synthetic_page(tmp_path: Path) -> None:
    w = synthetic(SAMPLE, tmp_path, "zhushu-wyg")
    assert w.layer_text(Layer.JING) == "士冠禮筮于廟門主人玄冠冠義"
    assert w.layer_text(Layer.ZHU) == "筮者以蓍問日吉凶於易也玄冠委貌也記冠之義"
    assert w.layer_text(Layer.SHIWEN) == "筮市制反"
    assert w.layer_text(Layer.SHU) == "此一節論筮日云冠記者"
    assert w.layer_text(Layer.NOTE) == "士冠禮筮于廟門監本譌作臣紱按今改正"
    assert [text_of(w, s) for s in w.spans if s.role == "attribution"] == ["臣", "紱"]
    assert {s.label for s in w.spans if s.role == "attribution"} == {"臣紱"}
    headings = [text_of(w, s) for s in w.spans if s.layer is Layer.HEADING]
    assert "記" in headings and "士冠禮第一" in headings


def test_a_paragraph_of_the_liji_that_opens_with_ji_is_the_jing_own_word(tmp_path: Path) -> None:
    # 禮記·學記: 記問之學不足以爲人師 after a closed 疏 run. 孔穎達's 正義 (正義曰) is on works that have
    # no 記 section (禮記 is itself 記); 賈公彦's 儀禮疏 (釋曰) heads one with the word (above).
    liji = "發慮憲注憲法也疏(正義曰此/一節論)\n記問之學不足以爲人師注記問謂豫誦雜難\n"
    w = synthetic(liji, tmp_path, "zhushu-wyg")
    assert w.layer_text(Layer.JING) == "發慮憲記問之學不足以爲人師"
    assert not [s for s in w.spans if s.layer is Layer.HEADING]


PIECES = (
    "注", "音義", "疏", "(", ")", "/", "○", "正義曰", "釋曰", "注釋曰", "(臣紱/)", "(句/)", "記",
    "欽定四庫全書", "\u3000禮記注疏卷一", "\u3000禮記注疏卷一考證", "\u3000射義", "經文", "\n", "\u3000",
    "音\n義", "疏\n(", "曰", "案", "䟽", "注正義曰", "正義曰經",
)  # fmt: skip


@given(data=st.data())
def test_any_text_is_partitioned(data: st.DataObject) -> None:
    text = data.draw(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), label="text")
    spans = READER.read(text, ReadOptions()).spans
    assert all(s.start < s.end for s in spans)
    assert all(a.end == b.start for a, b in pairwise(spans))
    assert "".join(text[s.start : s.end] for s in spans) == text
    assert (spans[0].start, spans[-1].end) == (0, len(text)) if spans else text == ""
