"""The 四庫本 五禮通考 reader (seed 000): layers by indentation, small-print runs, pages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import GAIJI, MANDOKU, SEED_000, SEED_001, SEED_002, SEED_003, SEED_004, SHARED, need_shared
from readers_support import text_of

from collate.model import Layer, Witness
from collate.model.citation import half_folio
from collate.normalize import Normalizer
from collate.normalize.tokenize import tokenize
from collate.readers import read_witness
from collate.readers.base import ReadOptions
from collate.readers.layouts.siku import READER

LAYOUT_CHARS = set("()/ \n\r\u3000")


@pytest.fixture(scope="module")
def sk() -> Witness:
    return read_witness(SEED_000, siglum="SK", layout="siku-wltk")


def units(w: Witness, layer: Layer) -> list[int]:
    """The units of a layer, in file order."""
    seen: list[int] = []
    for s in w.spans:
        if s.layer is layer and s.unit not in seen:
            seen.append(s.unit)
    return seen


def unit_text(w: Witness, layer: Layer, unit: int, role: str = "text") -> str:
    return "".join(w.text[s.start : s.end] for s in w.spans if s.layer is layer and s.unit == unit and s.role == role)


def spans_of(w: Witness, layer: Layer, unit: int) -> list[tuple[str, str | None, str]]:
    return [(s.role, s.label, w.text[s.start : s.end]) for s in w.spans if s.layer is layer and s.unit == unit]


# The first five printed lines of a file are its headers.
HEADER = "钦定四库全书\n\u3000五礼通考卷一\n\u3000\u3000某撰\n\u3000\u3000嘉礼一\n\u3000\u3000\u3000射礼\n"


def read(text: str) -> Witness:
    parsed = READER.read(text, ReadOptions(path="t.txt"))
    return Witness(
        "T", "T", "t.txt", text, "siku-wltk", spans=parsed.spans, marks=parsed.marks, diagnostics=parsed.diagnostics
    )


def test_first_zhu_joins_the_double_columns(sk: Witness) -> None:
    first = units(sk, Layer.ZHU)[0]
    assert unit_text(sk, Layer.ZHU, first).startswith("矢所以投者也中士则鹿中也射人奉之者投壶射之类也其奉之西阶上北面")
    marker = next(s for s in sk.spans if s.role == "marker")
    assert (sk.text[marker.start : marker.end], marker.label, marker.unit) == ("注", "注", first)


def test_first_shu_follows_its_marker(sk: Witness) -> None:
    first = units(sk, Layer.SHU)[0]
    assert unit_text(sk, Layer.SHU, first).startswith("士则鹿中案乡射记云大夫兕中士鹿中此篇投壶是大夫士之礼")
    markers = [s for s in sk.spans if s.role == "marker" and s.unit == first]
    assert [sk.text[s.start : s.end] for s in markers] == [" 疏"]


def test_a_zhu_run_goes_on_across_a_page_break(sk: Witness) -> None:
    # 礼记投壶's first 注/疏 run ends on the next page: 宰夫代公为主人与宾俱升西阶而主人在东也.
    first = units(sk, Layer.SHU)[0]
    shu = [s for s in sk.spans if s.layer is Layer.SHU and s.unit == first]
    assert unit_text(sk, Layer.SHU, first).endswith("故燕礼大射宰夫代公为主人与宾俱升西阶而主人在东也")
    assert {sk.page_at(s.start)[0] for s in shu} == {"2a", "2b"}


def test_every_small_print_run_after_jing_has_its_zhu(sk: Witness) -> None:
    assert len(units(sk, Layer.ZHU)) == 21
    assert len(units(sk, Layer.SHU)) == 14
    for unit in units(sk, Layer.SHU):
        assert unit_text(sk, Layer.SHU, unit)[:2] in {"士则", "知既", "此一", "前经", "以鼓", "经云", "礼记"}


def test_drum_notation_is_jing_text(sk: Witness) -> None:
    for line in ("鼓○囗○囗囗囗○囗○○囗半○囗○囗○○○囗", "鲁鼓○囗○○囗囗○○半○囗○○囗○○○○囗"):
        start = sk.text.index(line)
        covering = [s for s in sk.spans if s.start < start + len(line) and s.end > start]
        assert {(s.layer, s.role) for s in covering} == {(Layer.JING, "text")}
    assert "○囗○" in sk.layer_text(Layer.JING)
    assert sk.diagnostics == ()


def test_huitian_notes_are_twelve_note_blocks(sk: Witness) -> None:
    notes = units(sk, Layer.NOTE)
    assert len(notes) == 12
    for unit in notes:
        roles = spans_of(sk, Layer.NOTE, unit)
        assert roles[0] == ("attribution", "蕙田案", "蕙田案")
        assert {label for _, label, _ in roles} == {"蕙田案"}
    # A note's continuation lines keep the indent, across a page break too.
    across = next(u for u in notes if unit_text(sk, Layer.NOTE, u).startswith("司射庭长一节"))
    assert unit_text(sk, Layer.NOTE, across) == "司射庭长一节陈氏浩移在此节之下"


def test_commentators_are_commentary_with_attribution(sk: Witness) -> None:
    attributions = [s for s in sk.spans if s.role == "attribution" and s.layer is Layer.COMMENTARY]
    names = [a.label for a in attributions]
    assert set(names) == {"方氏悫曰", "吕氏大临曰", "陈氏礼书", "朱子曰", "刘敞投壶义", "应氏镛曰"}
    assert names.count("陈氏礼书") == 8
    assert names.count("方氏悫曰") == 4
    assert all(sk.text[a.start : a.end] == a.label for a in attributions)
    # Large print (one indent, no paren) and small print (one indent and a paren) alike.
    large = next(a for a in attributions if a.label == "陈氏礼书")
    small = next(a for a in attributions if a.label == "方氏悫曰")
    assert sk.text[large.start - 1] == "\u3000" and sk.text[small.start - 2 : small.start] == "\u3000("


def test_consecutive_small_print_commentators_are_separate_units(sk: Witness) -> None:
    fang = next(s for s in sk.spans if s.label == "方氏悫曰" and sk.text.startswith("凡射人", s.end))
    lu = next(s for s in sk.spans if s.label == "吕氏大临曰" and sk.text.startswith("矢本入", s.end))
    assert fang.unit != lu.unit
    assert unit_text(sk, Layer.COMMENTARY, fang.unit).endswith("上言入下言释互相明也")


def test_small_print_inside_a_large_passage_is_the_passage(sk: Witness) -> None:
    # 陈氏礼书 … 司射作人者也(乡射礼司/射作三耦)(射/)庭长正人者也(乡饮酒将旅…)冠士行礼者也 …
    at = sk.text.index("乡射礼司")
    unit = next(s.unit for s in sk.spans if s.start <= at < s.end)
    text = unit_text(sk, Layer.COMMENTARY, unit)
    assert "司射作人者也乡射礼司射作三耦射庭长正人者也乡饮酒将旅" in text
    assert text.startswith("主人以仁接宾")


def test_titles_label_the_classic(sk: Witness) -> None:
    titles = [(sk.text[s.start : s.end], s.label) for s in sk.spans if s.layer is Layer.HEADING and s.label]
    assert titles == [("礼记投壶", "礼记投壶"), ("少仪", "少仪"), ("春秋昭公十二年左氏传", "春秋昭公十二年左氏传")]
    jing = [s for s in sk.spans if s.layer is Layer.JING]
    assert sk.text[jing[0].start :].startswith("投壶之礼主人奉矢")
    by_label = {label: "".join(sk.text[s.start : s.end] for s in jing if s.label == label) for label, _ in titles}
    assert by_label["少仪"] == "侍投则拥矢胜则洗而以请客亦如之不角不擢马"
    assert by_label["春秋昭公十二年左氏传"].startswith("晋侯以齐侯宴")
    assert all(s.label == "少仪" for s in sk.spans if s.layer is Layer.ZHU and "不敢释于地" in sk.text[s.start : s.end])


def test_headers_and_closing_lines_are_headings(sk: Witness) -> None:
    headings = [sk.text[s.start : s.end] for s in sk.spans if s.layer is Layer.HEADING and not s.label]
    assert headings == [
        "钦定四库全书",
        "五礼通考卷一百六十五",
        "刑部尚书秦蕙田撰",
        "嘉礼三十八",
        "射礼",
        "右投壶",
        "五礼通考卷一百六十五",
    ]
    assert sk.meta("title") == "五礼通考卷一百六十五"
    assert sk.meta("author") == "刑部尚书秦蕙田撰"


def test_pages_are_half_folios(sk: Witness) -> None:
    pages = [m for m in sk.marks if m.kind == "page"]
    assert [m.label for m in pages[:4]] == ["1a", "1b", "2a", "2b"]
    assert pages[0].offset == 0
    assert len(pages) == sk.text.count("\n\n") + 1 == 42
    title = sk.text.index("礼记投壶投壶之礼")
    assert sk.page_at(title) == ("2a", 1)
    assert str(sk.locate(sk.text.index("蕙田案王肃云"))) == f"{sk.path}:39:5 (p. 3a, l. 3)"


def test_every_printed_line_is_marked(sk: Witness) -> None:
    lines = [m for m in sk.marks if m.kind == "line"]
    printed = [ln for ln in sk.text.split("\n") if ln]
    assert len(lines) == len(printed)
    # 四庫全書 prints eight lines a half-folio; the last page is padded with empty lines.
    assert max(int(m.label) for m in lines) == 8
    assert sk.page_at(len(sk.text) - 1) == ("21b", 8)


def test_layout_markers_and_text_keep_apart(sk: Witness) -> None:
    for s in sk.spans:
        chars = set(sk.text[s.start : s.end])
        if s.role == "layout":
            assert chars <= LAYOUT_CHARS, s
        elif s.role == "marker":
            assert sk.text[s.start : s.end] in {"注", "疏", " 疏"}
        else:
            assert not chars & LAYOUT_CHARS, s


def test_layer_sizes(sk: Witness) -> None:
    jing = sk.layer_text(Layer.JING)
    assert jing.startswith("投壶之礼主人奉矢司射奉中使人执壶主人请曰某有枉矢哨壶")
    assert jing.endswith("其以中㒞也")
    assert len(units(sk, Layer.COMMENTARY)) == 17
    assert "蕙田案" not in sk.layer_text(Layer.COMMENTARY)


def test_detect_scores_seed_000_high_and_the_others_low() -> None:
    score, reason = READER.detect(SEED_000.read_text(encoding="utf-8"))
    assert score >= 0.9
    assert "(注…/…) small-print runs" in reason and "蕙田案" in reason
    others = [SEED_001, SEED_002, SEED_003, SEED_004, need_shared(MANDOKU)]
    for path in others:
        assert READER.detect(path.read_text(encoding="utf-8"))[0] <= 0.2, path.name


# (name, text, layer → expected layer text, expected diagnostics as (code, offset))
CASES = [
    (
        "unclosed paren ends at its line end",
        "礼记投壶投壶之礼(注矢所以投者\n主人请曰(注燕饮酒/既脱屦)宾曰\n",
        {Layer.JING: "投壶之礼主人请曰宾曰", Layer.ZHU: "矢所以投者燕饮酒既脱屦"},
        [("unbalanced", 8)],
    ),
    (
        "paren reopened before closing",
        "主人请曰(注燕饮(注酒/既)宾曰\n",
        {Layer.JING: "主人请曰宾曰", Layer.ZHU: "燕饮酒既"},
        [("unbalanced", 4)],
    ),
    (
        "stray closing paren is layout",
        "主人请曰)宾曰(注燕饮/酒)\n",
        {Layer.JING: "主人请曰宾曰", Layer.ZHU: "燕饮酒"},
        [("unbalanced", 4)],
    ),
    (
        "small print after 經 without a marker",
        "主人请曰(燕饮/酒)宾曰\n",
        {Layer.JING: "主人请曰宾曰", Layer.ZHU: "燕饮酒"},
        [("marker", 5)],
    ),
    (
        "placeholder glyphs and PUA",
        "主人请曰某有□矢\ue000壶\n",
        {Layer.JING: "主人请曰某有□矢\ue000壶"},
        [("placeholder", 6), ("pua", 8)],
    ),
    (
        "run continues over a page break and switches to 疏",
        "司射(注度/壶)\n\n(度其所/设 疏前经)\n\u3000\u3000\u3000\u3000蕙田案此节\n",
        {Layer.JING: "司射", Layer.ZHU: "度壶度其所设", Layer.SHU: "前经", Layer.NOTE: "蕙田案此节"},
        [],
    ),
    (
        "a glyph the e-text moved before 疏 out of the next column",
        "射节(注狸首曾孙同疏凡此为节/射节则不  故射人云)\n",
        {Layer.JING: "射节", Layer.ZHU: "狸首曾孙", Layer.SHU: "凡此为节射节则不故射人云"},
        [("displaced", 8)],
    ),
    (
        "two spaces before 疏 opening the next column: the print's spacing",
        "射节(注舞谓执弓/之仪  疏此诸侯)\n",
        {Layer.JING: "射节", Layer.ZHU: "舞谓执弓之仪", Layer.SHU: "此诸侯"},
        [],
    ),
    (
        "commentator line without attribution",
        "主人请曰\n\u3000某氏云投壶\n",
        {Layer.JING: "主人请曰", Layer.COMMENTARY: "某氏云投壶"},
        [("attribution", 6)],
    ),
]


@pytest.mark.parametrize(("name", "text", "layers", "diagnostics"), CASES, ids=[c[0] for c in CASES])
def test_synthetic_cases(name: str, text: str, layers: dict[Layer, str], diagnostics: list[tuple[str, int]]) -> None:
    w = read(HEADER + text)
    pos = 0
    for s in w.spans:
        assert s.start == pos
        pos = s.end
    assert pos == len(HEADER + text)
    for layer in Layer:
        if layer.is_text:
            assert w.layer_text(layer) == layers.get(layer, ""), layer
    assert [(d.code, d.start - len(HEADER)) for d in w.diagnostics] == diagnostics


def test_page_marks_of_a_synthetic_text(tmp_path: Path) -> None:
    """Pages come from the paged container: blank lines out, a page mark after each break."""
    text = HEADER + "主人请曰\n\n宾曰\n\u3000\n\n宾曰亦如之\n"
    path = tmp_path / "t.txt"
    path.write_text(text, encoding="utf-8")
    w = read_witness(path, layout="siku-wltk", container="paged")
    pages = [(m.label, m.offset) for m in w.marks if m.kind == "page"]
    assert pages == [("1a", 0), ("1b", text.index("宾曰")), ("2a", text.index("宾曰亦"))]
    assert [m.label for m in w.marks if m.kind == "line"] == ["1", "2", "3", "4", "5", "6", "1", "2", "1"]
    assert w.layer_text(Layer.JING) == "主人请曰宾曰宾曰亦如之"
    assert len(units(w, Layer.JING)) == 1


def test_the_registry_reads_seed_000_by_name(repo: Path) -> None:
    w = read_witness(repo / "seeds" / SEED_000.name, layout="siku-wltk", display="seeds/000.txt")
    assert w.layout == "siku-wltk" and w.path == "seeds/000.txt"


def _as_mandoku(text: str) -> str:
    """Seed 000 as a Kanripo file would hold it: org header, a <pb:> per page, ¶ at line ends."""
    out = ["# -*- mode: mandoku-view -*-", "#+TITLE: 五禮通考", "#+PROPERTY: JUAN 165"]
    page = 0
    for block in re.split(r"\n\n+", text.strip("\n")):
        out.append(f"<pb:KR1d0087_WYG_175-{half_folio(page)}>¶")
        out.extend(line + "¶" for line in block.split("\n"))
        page += 1
    return "\n".join(out) + "\n"


def _reading(w: Witness) -> list[tuple[Layer, int, str, str | None, str]]:
    """Every span but layout, units renumbered in order of first appearance."""
    units: dict[int, int] = {}
    return [
        (s.layer, units.setdefault(s.unit, len(units)), s.role, s.label, text_of(w, s))
        for s in w.spans
        if s.role != "layout" and s.layer is not Layer.MARKUP and s.label != "title"
    ]


def test_seed_000_in_a_mandoku_container_reads_as_seed_000(sk: Witness, tmp_path: Path) -> None:
    path = tmp_path / "KR1d0087_175.txt"
    path.write_text(_as_mandoku(SEED_000.read_text(encoding="utf-8")), encoding="utf-8")
    wrapped = read_witness(path)
    assert (wrapped.container, wrapped.layout) == ("mandoku", "siku-wltk")
    heading = [(layer, role, label, t) for layer, _, role, label, t in _reading(wrapped) if layer is Layer.HEADING]
    assert heading[0][1:] == ("text", None, "钦定四库全书")  # the org title (the container's) aside
    assert _reading(wrapped) == _reading(sk)
    assert wrapped.meta("title") == "五禮通考"
    pages = [m.label for m in wrapped.marks if m.kind == "page"]
    assert pages == [f"175-{m.label}" for m in sk.marks if m.kind == "page"]
    lines = [m.label for m in wrapped.marks if m.kind == "line"]
    assert lines == [m.label for m in sk.marks if m.kind == "line"]
    at = wrapped.text.index("蕙田案")
    assert wrapped.page_at(at)[0] == "175-" + str(sk.page_at(sk.text.index("蕙田案"))[0])


WLTK = ("wuli-tongkao-juan163-kanripo-master.txt", "wuli-tongkao-juan163-kanripo-WYG.txt")


@pytest.mark.parametrize("name", WLTK)
def test_the_kanripo_wuli_tongkao_reads_into_its_layers(name: str) -> None:
    path = need_shared(SHARED / "witnesses" / name)
    w = read_witness(path, gaiji_table=need_shared(GAIJI))
    assert (w.container, w.layout) == ("mandoku", "siku-wltk")
    raw_lines = path.read_text(encoding="utf-8").splitlines()
    # Every 蕙田案 block opens a line indented by four U+3000: one NOTE unit each.
    blocks = sum(1 for line in raw_lines if re.match("\u3000{4,8}(蕙田案|又案)", line))
    assert len(units(w, Layer.NOTE)) == blocks >= 10
    # A later commentator's passage opens a line indented by one U+3000 with his name (吕氏大臨曰).
    named = sum(1 for line in raw_lines if re.match("\u3000\\(?[\u4e00-\u9fff]氏[\u4e00-\u9fff]{0,2}曰", line))
    assert len(units(w, Layer.COMMENTARY)) >= named >= 10
    # The quoted classics open with their titles, which are headings, not 經.
    headings = [text_of(w, s) for s in w.spans if s.layer is Layer.HEADING]
    assert {"禮記射義", "周禮春官", "詩齊風"} <= set(headings)
    assert not w.layer_text(Layer.JING).startswith("周禮")
    for layer in (Layer.JING, Layer.ZHU, Layer.SHU, Layer.COMMENTARY, Layer.NOTE):
        tokens = tokenize(w, layer, Normalizer())
        assert len(tokens) > 500, layer
        # An entity the table does not resolve is one placeholder token; nothing else is ASCII.
        assert not [t for t in tokens if re.search(r"[A-Za-z0-9<>&;¶#/()]", t.t) and not t.is_placeholder], layer
    assert len({m.label for m in w.marks if m.kind == "page"}) == sum(1 for line in raw_lines if "<pb:" in line)


def test_two_branches_of_one_print_differ_only_where_their_files_do() -> None:
    a, b = (read_witness(need_shared(SHARED / "witnesses" / n), gaiji_table=need_shared(GAIJI)) for n in WLTK)
    for layer in Layer:
        if layer.is_text:
            ta, tb = a.layer_text(layer), b.layer_text(layer)
            # The branches differ in one line only: 𣙗 written as an entity (&KR0527;) twice.
            assert ta == tb or ta.replace("𣙗", "&KR0527;") == tb, layer
            ka = [t.t for t in tokenize(a, layer, Normalizer())]
            kb = [t.t for t in tokenize(b, layer, Normalizer())]
            assert ka == kb, layer  # the gaiji table resolves &KR0527; to 𣙗: the same tokens


# The Kanripo 四庫 text of other juan: traditional characters, other quoted works, other hands.
TRAD_HEADER = "欽定四庫全書\n\u3000五禮通考巻二\n\u3000\u3000某撰\n\u3000\u3000吉禮二\n\u3000\u3000\u3000圜丘祀天\n"


def heading_texts(w: Witness) -> list[str]:
    return [text_of(w, s) for s in w.spans if s.layer is Layer.HEADING and s.role == "text"]


def test_each_flush_left_quotation_opens_with_its_title() -> None:
    # The print starts every quotation on a new line, flush left like the line before it.
    text = (
        "郊特牲祭天掃地而祭焉于其質而已矣\n"
        "逸周書作雒乃設兆於南郊祀以上帝\n"
        "爾雅非人為謂之丘\n"
        "孝經昔者周公郊祀后稷以配天宗祀文王于明堂以\n"
        "配上帝\n"
        "大戴禮朝事篇祀天於南郊配以先祖\n"
        "易豫卦象上傳雷出地奮豫先王以作樂\n"
        "書費誓魯人三郊三遂\n"
        "國語魯語展禽曰有虞氏禘黄帝\n"
        "春秋定三年公羊傳郊則曷為必祭稷\n"
        "春秋襄公十一年榖梁傳古者天子六師\n"
        "閔公元年左氏傳晉侯作二軍\n"
    )
    w = read(TRAD_HEADER + text)
    assert heading_texts(w)[5:] == [
        "郊特牲", "逸周書", "爾雅", "孝經", "大戴禮朝事篇", "易豫卦象上傳", "書費誓", "國語魯語",
        "春秋定三年公羊傳", "春秋襄公十一年榖梁傳", "閔公元年左氏傳",
    ]  # fmt: skip
    jing = units(w, Layer.JING)
    assert len(jing) == 11
    # A passage still goes on over its lines: 配上帝 is 孝經's.
    assert unit_text(w, Layer.JING, jing[3]) == "昔者周公郊祀后稷以配天宗祀文王于明堂以配上帝"
    assert {s.label for s in w.spans if s.layer is Layer.JING and s.unit == jing[3]} == {"孝經"}


def test_small_print_may_open_with_shu() -> None:
    # Where the 注 is left out the run opens with 疏, and a later 疏 inside it is text.
    w = read(TRAD_HEADER + "周禮春官大司樂冬日至于地上之圜丘奏之(疏言圜/丘者按)\n(爾雅疏土之髙者曰丘/)\n")
    (shu,) = units(w, Layer.SHU)
    assert unit_text(w, Layer.SHU, shu) == "言圜丘者按爾雅疏土之髙者曰丘"
    assert units(w, Layer.ZHU) == []
    assert [d.code for d in w.diagnostics] == []


def test_guancheng_notes_and_traditional_attributions() -> None:
    text = (
        "\u3000(郝氏敬曰𤣥冠𤣥繒/為之朝服見君之禮)\n"
        "\u3000(陳氏禮書特牲筮祭同/𤣥端少牢筮與祭同)\n"
        "\u3000\u3000(婦人與丈夫為禮/其禮重者亦俠拜)\n"
        "\u3000通典壇名泰壇在國南五十里\n"
        "\u3000\u3000\u3000\u3000蕙田案王制三公一命卷若有加則賜也不\n"
        "\u3000\u3000\u3000\u3000\u3000觀承案因地出車因車成軍\n"
        "\u3000五禮通考卷二\n"
    )
    w = read(TRAD_HEADER + text)
    commentary = units(w, Layer.COMMENTARY)
    labels = [next(s.label for s in w.spans if s.unit == u and s.layer is Layer.COMMENTARY) for u in commentary]
    assert labels == ["郝氏敬曰", "陳氏禮書", "通典"]
    # A line of small print set a column deeper goes on with the run above it.
    assert unit_text(w, Layer.COMMENTARY, commentary[1]).endswith("婦人與丈夫為禮其禮重者亦俠拜")
    notes = units(w, Layer.NOTE)
    assert [spans_of(w, Layer.NOTE, u)[0][1] for u in notes] == ["蕙田案", "觀承案"]
    assert heading_texts(w)[-1] == "五禮通考卷二"
    assert [d.code for d in w.diagnostics] == []


def test_titles_come_from_the_table_of_the_prints_chapter_headings() -> None:
    """禮記, 儀禮 and 大戴禮記 chapters the shipped table names, in the forms a compilation prints."""
    text = (
        "禮記曾子問孔子曰諸侯適天子\n"
        "儀禮既夕禮既夕哭請啓期\n"
        "大戴禮記主言孔子閒居曾子侍\n"
        "大戴禮記朝事古者聖王明義\n"
        "礼记孔子间居孔子闲居子夏侍\n"
    )
    w = read(TRAD_HEADER + text)
    assert heading_texts(w)[5:] == ["禮記曾子問", "儀禮既夕禮", "大戴禮記主言", "大戴禮記朝事", "礼记孔子间居"]


def test_the_table_of_chapter_titles_is_whole() -> None:
    from collate.readers.titles import chapters, table

    counts = {book: len(chapters(book)) for book in ("禮記", "儀禮", "周禮", "大戴禮記")}
    assert counts == {"禮記": 49, "儀禮": 17, "周禮": 6, "大戴禮記": 40}
    assert all(re.fullmatch(rf"{re.escape(ch)}第[一二三四五六七八九十百]+", printed) for _, ch, printed, _ in table())


def test_a_bare_title_after_a_line_that_stops_short_begins_the_next_quotation() -> None:
    # 禮記王制…相見¶ stops short of a full line: 經解 opening the next line is the next quotation.
    full = "仲尼燕居子曰禮者何也即事之治也君子有其事必有其治"  # 24 characters: a full line of this print
    text = "".join(
        [
            *(f"禮記表記{full[4:]}\n" for _ in range(6)),
            "禮記王制六禮冠昏喪祭鄉相見\n",
            "經解鄉飲酒之禮所以明長幼之序也鄉飲酒之禮廢則長幼\n",
            f"{full[:20]}\n",
            "仲尼燕居鄉射之禮所以仁鄉黨也\n",
        ]
    )
    w = read(TRAD_HEADER + text)
    assert heading_texts(w)[-2:] == ["經解", "仲尼燕居"]


def test_the_place_of_a_moved_glyph_is_a_blank_of_one_cell() -> None:
    """Its place in the 疏 is a glyph the print does not give there: a lacuna a cell wide, no omission."""
    text = HEADER + "射节(注狸首曾孙同疏凡此为节/射节则不  故射人云)\n"
    w = read(text)
    (blank,) = [m for m in w.marks if m.kind == "lacuna"]
    assert blank.offset == text.index("  故") and blank.label == "blank, 1"
