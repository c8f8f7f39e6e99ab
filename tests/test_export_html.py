"""The HTML view: the base text by layer, loci marked by class, the panel, escaping, the default project."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from builders import align_rows, run_default_project, sparse_witness

from collate.alignment import Extent, LayerAlignment
from collate.apparatus import Collation, Locus, Reading, ReadingClass, WitnessInfo, build_layer
from collate.exporters import EXPORTERS, ExportInput, get_exporter
from collate.exporters.html import build_html, display_class, is_script_only, run_html, shown_loci, shown_readings
from collate.model import Layer, Mark, Span, Substitution, Token, Witness
from collate.normalize import Normalizer
from collate.notes.records import AttachedNote
from collate.pipeline import RunResult
from collate.review.records import DecisionAction, EditorDecision
from collate.tokenize import tokenize

CSS = Path(__file__).resolve().parents[1] / "collate" / "exporters" / "html_assets" / "view.css"

# The base: a heading, a 經 passage under its run-in title with a 注 run inside it, a page
# break, a later commentator in small print and a 蕙田案 note.
SK_PARTS: list[tuple[Layer, str, str, str | None, int]] = [
    (Layer.HEADING, "text", "钦定四库全书", None, 1),
    (Layer.MARKUP, "layout", "\n", None, 0),
    (Layer.HEADING, "text", "礼记投壶", "礼记投壶", 2),
    (Layer.JING, "text", "主人请曰某有枉矢哨壶请以乐宾", "礼记投壶", 3),
    (Layer.MARKUP, "layout", "(", None, 0),
    (Layer.MARKUP, "marker", "注", "注", 4),
    (Layer.ZHU, "text", "枉哨不正貌", "礼记投壶", 4),
    (Layer.MARKUP, "layout", ")\n\n", None, 0),
    (Layer.JING, "text", "宾曰子有旨酒执算嘉肴", "礼记投壶", 5),
    (Layer.MARKUP, "layout", "\n\u3000(", None, 0),
    (Layer.COMMENTARY, "attribution", "方氏悫曰", "方氏悫曰", 6),
    (Layer.COMMENTARY, "text", "矢以直为善", "方氏悫曰", 6),
    (Layer.MARKUP, "layout", ")\n\u3000\u3000\u3000\u3000", None, 0),
    (Layer.NOTE, "attribution", "蕙田案", "蕙田案", 7),
    (Layer.NOTE, "text", "今本大戴礼乃作峭谬甚", "蕙田案", 7),
]
ZS_PARTS: list[tuple[Layer, str]] = [
    (Layer.JING, "主人請曰有枉矢哨壺請以樂賓"),
    (Layer.ZHU, "枉哨不正也"),
    (Layer.JING, "賓曰子有美酒執筭"),
]
# Aligned by hand ('-': no token). ZS lacks 某, reads 美 for 旨 and 筭 for 算, and ends
# before 嘉肴 (a fragment: not extant there). 請/请, 壺/壶, 賓/宾 differ by script only.
ROWS = {
    Layer.JING: {
        "SK": "主人请曰某有枉矢哨壶请以乐宾宾曰子有旨酒执算嘉肴",
        "ZS": "主人請曰-有枉矢哨壺請以樂賓賓曰子有美酒執筭--",
    },
    Layer.ZHU: {"SK": "枉哨不正貌", "ZS": "枉哨不正也"},
}
EXTENTS = {Layer.JING: {"ZS": (0, 21)}}


def base_witness(parts: list[tuple[Layer, str, str, str | None, int]] = SK_PARTS) -> Witness:
    """The base witness from its parts, with a page mark at the start and one at the blank line."""
    text, spans, offset = "", [], 0
    for layer, role, words, label, unit in parts:
        spans.append(Span(offset, offset + len(words), layer, unit, role, label))
        text += words
        offset += len(words)
    second = text.index("宾曰")
    marks = (Mark(0, "page", "1a"), Mark(0, "line", "1"), Mark(second, "page", "1b"), Mark(second, "line", "1"))
    return Witness("SK", "四庫本", "sk.txt", text, "siku-wltk", spans=tuple(spans), marks=marks)


def zs_witness() -> Witness:
    text, spans = "", []
    for layer, words in ZS_PARTS:
        spans.append(Span(len(text), len(text) + len(words), layer))
        text += words
    return Witness("ZS", "注疏本", "zs.txt", text, "zhushu", spans=tuple(spans))


def aligned(layer: Layer, rows: dict[str, str], streams: dict[str, tuple[Token, ...]]) -> LayerAlignment:
    """Columns from aligned strings: each character takes the witness's next token."""
    its = {s: iter(streams[s]) for s in rows}
    width = len(rows["SK"])
    columns = []
    for i in range(width):
        col: list[Token | None] = []
        for s, row in rows.items():
            tok = None if row[i] == "-" else next(its[s])
            assert tok is None or tok.t == row[i], (s, i, tok)
            col.append(tok)
        columns.append(tuple(col))
    extents = tuple(Extent(s, a, b) for s, (a, b) in EXTENTS.get(layer, {}).items())
    return LayerAlignment(layer, tuple(rows), tuple(columns), extents)


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    sk, zs = base_witness(), zs_witness()
    dd = sparse_witness(("枉矢哨壺", "哨", "峭", ""))
    normalizer = Normalizer()
    witnesses = {"SK": sk, "ZS": zs, "DD": dd}
    layers = []
    for layer, rows in ROWS.items():
        streams = {w.siglum: tokenize(w, layer, normalizer) for w in (sk, zs)}
        layers.append(build_layer(aligned(layer, rows, streams), witnesses))
    note_start = sk.text.index("今本")
    note = AttachedNote("SK-n1", "秦蕙田", "今本大戴礼乃作峭谬甚", sk.locate(note_start), ("DD reads 峭 for 哨",))
    jing = layers[0]
    layers[0] = jing.with_loci(tuple(x.with_notes((note,)) if x.lemma.text == "哨" else x for x in jing.loci))
    collation = Collation(
        title="禮記·投壺",
        name="touhu",
        base="SK",
        witnesses=(
            WitnessInfo("SK", "四庫本", "sk.txt", "siku-wltk"),
            WitnessInfo("ZS", "注疏本", "zs.txt", "zhushu"),
            WitnessInfo("DD", "大戴禮", "dd.toml", "readings", sparse=True),
        ),
        layers=tuple(layers),
    )
    return collation, sk, witnesses


def parse(html: str) -> Any:
    return lxml.html.document_fromstring(html)


def has_class(name: str) -> str:
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def text_of(element: Any) -> str:
    """An element's text without the page-break labels and insertion carets drawn into it."""
    out = [element.text or ""]
    for child in element:
        if not set(child.get("class", "").split()) & {"pb", "ins"}:
            out.append(text_of(child))
        out.append(child.tail or "")
    return "".join(out)


def page_of(built: tuple[Collation, Witness, dict[str, Witness]], **kwargs: Any) -> Any:
    collation, sk, witnesses = built
    return parse(build_html(collation, sk, witnesses=witnesses, **kwargs))


def locus_by_lemma(collation: Collation, lemma: str) -> Locus:
    return next(x for x in collation.loci() if x.lemma.text == lemma)


# --- The loci the fixture makes ---------------------------------------------------------------


def test_fixture_loci(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    summary = [(x.layer.value, x.lemma.text, display_class(x).value) for x in collation.loci() if shown_readings(x)]
    assert summary == [
        ("jing", "某", "omission"),
        ("jing", "哨", "substantive"),
        ("jing", "旨", "substantive"),
        ("jing", "算", "orthographic"),
        ("zhu", "貌", "substantive"),
    ]


# --- The page -----------------------------------------------------------------------------------


def test_page_is_self_contained(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, sk, witnesses = built
    html = build_html(collation, sk, witnesses=witnesses)
    doc = parse(html)
    assert html.startswith("<!DOCTYPE html>")
    assert doc.xpath("//meta/@charset") == ["utf-8"]
    assert not doc.xpath("//link | //script[@src] | //img | //iframe")
    assert len(doc.xpath("//style")) == 1 and len(doc.xpath("//script")) == 1
    style = doc.xpath("//style")[0].text
    assert "url(" not in style and "@import" not in style and "@font-face" not in style
    assert not re.search(r"https?://", html)
    assert '"Noto Serif CJK TC", "Source Han Serif TC", "Songti TC", "SimSun", serif' in style
    assert "line-break: strict" in style


def test_base_text_laid_out_by_layer(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    _, sk, _ = built
    doc = page_of(built)
    view = doc.get_element_by_id("view-text")
    for layer in (Layer.JING, Layer.ZHU, Layer.COMMENTARY, Layer.NOTE):
        shown = "".join(text_of(e) for e in view.xpath(f".//span[{has_class('l-' + layer.value)}]"))
        words = "".join(sk.text[s.start : s.end] for s in sk.spans if s.layer is layer and s.role == "text")
        assert shown == words, layer
    # 注 is small print inside the 經 paragraph, behind its marker; the title opens the passage.
    (para,) = view.xpath(f".//p[{has_class('para')}]")
    assert para.xpath(f"./span[{has_class('title')}]")[0].text == "礼记投壶"
    small = para.xpath(f"./span[{has_class('sp')}]")
    assert [text_of(s) for s in small] == ["注枉哨不正貌"]
    assert small[0].xpath(f"./span[{has_class('mk')}]")[0].text == "注"
    # The commentator under its name, set small (its run opens with a bracket); the note boxed.
    (commentary,) = view.xpath(f".//div[{has_class('commentary')}]")
    assert "small" in commentary.get("class").split()
    assert commentary.xpath(f"./span[{has_class('attr')}]")[0].text == "方氏悫曰"
    (note,) = view.xpath(f".//aside[{has_class('note')}]")
    assert note.xpath(f"./span[{has_class('attr')}]")[0].text == "蕙田案"
    # Headings before the text are front matter; layout characters are not drawn.
    assert view.xpath(f".//header[{has_class('front')}]/p")[0].text == "钦定四库全书"
    assert "(" not in view.text_content() and "\u3000" not in view.text_content()


def test_page_breaks_drawn_where_they_fall(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    doc = page_of(built)
    breaks = doc.get_element_by_id("view-text").xpath(f".//span[{has_class('pb')}]")
    assert [b.text for b in breaks] == ["1a", "1b"]
    # 1b stands right before the first character of its page.
    second = breaks[1]
    following = second.tail or second.getnext().text_content()
    assert following.startswith("宾曰")


def test_loci_marked_by_class_on_their_lemma(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    view = page_of(built).get_element_by_id("view-text")
    for locus in collation.loci():
        marks = view.xpath(f".//*[@data-locus=$id and {has_class('v')}]", id=locus.id)
        if not shown_readings(locus):
            assert not marks
            continue
        assert "".join(m.text_content() for m in marks) == locus.lemma.text
        for m in marks:
            assert {"v", f"c-{display_class(locus).value}"} <= set(m.get("class").split())
            assert m.get("tabindex") == "0"
    substantive = view.xpath(f".//*[{has_class('v')} and {has_class('c-substantive')}]")
    assert sorted(m.text for m in substantive) == ["哨", "旨", "貌"]


def test_script_differences_are_not_variants(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    view = page_of(built).get_element_by_id("view-text")
    marked = "".join(m.text for m in view.xpath(f".//*[@data-locus and {has_class('v')}]"))
    assert not set(marked) & set("请壶宾乐")
    # A reading the builder classed orthographic by the script rule alone is not shown either.
    locus = locus_by_lemma(collation, "算")
    (reading,) = locus.readings
    script = replace(reading, rules=("script",), cause=None)
    assert is_script_only(script) and not is_script_only(reading)
    assert shown_readings(locus.with_readings((script,))) == ()
    only_script = collation.with_locus(locus.with_readings((script,)))
    doc = parse(build_html(only_script, built[1], witnesses=built[2]))
    assert not doc.xpath("//*[@data-locus=$id]", id=locus.id)


def test_panel_lists_every_witness_reading(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    doc = page_of(built)
    locus = locus_by_lemma(collation, "旨")
    section = doc.get_element_by_id(f"d-{locus.id}")
    rows = section.xpath(f".//table[{has_class('wits')}]/tr")
    cells = [[c.text_content().strip() for c in row.xpath("./th | ./td")] for row in rows]
    assert cells[0][:3] == ["四庫本SK", "旨", "底本"]
    assert cells[0][3] == "頁1b 行1"
    assert cells[1][:3] == ["注疏本ZS", "美", "異文"]
    assert cells[1][3] == "行1 列23"  # ZS has no printed pages: its line and column
    assert cells[2][0] == "大戴禮DD" and "無記載" in cells[2][1]
    # The alignment around the locus, ZS's own characters, the variant cell marked.
    window = section.xpath(f".//table[{has_class('align')}]")[0]
    zs_row = window.xpath("./tr")[1]
    assert "".join(td.text or "" for td in zs_row.xpath("./td")) == "樂賓賓曰子有美酒執筭"
    assert zs_row.xpath(f"./td[{has_class('d')}]")[0].text == "美"


def test_panel_of_an_orthographic_variant_and_an_omission(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    doc = page_of(built)
    ortho = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '算').id}")
    row = ortho.xpath(f".//tr[{has_class('c-orthographic')}]")[0]
    assert (
        row.xpath("./td")[0].text == "筭" and "異體字" in row.text_content() and "variant-graph" in row.text_content()
    )
    omission = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '某').id}")
    row = omission.xpath(f".//tr[{has_class('c-omission')}]")[0]
    assert row.xpath("./td")[0].text_content() == "〔無〕"


def test_sparse_reading_and_attached_note(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    doc = page_of(built)
    locus = locus_by_lemma(collation, "哨")
    section = doc.get_element_by_id(f"d-{locus.id}")
    dd = section.xpath(f".//table[{has_class('wits')}]/tr")[2]
    assert dd.xpath("./td")[0].text == "峭" and "據 蕙田案" in dd.text_content()
    box = section.xpath(f".//div[{has_class('notebox')}]")[0]
    assert "今本大戴礼乃作峭谬甚" in box.text_content() and "DD reads 峭 for 哨" in box.text_content()
    # The note at its own place links to the locus it judges.
    (note,) = doc.get_element_by_id("view-text").xpath(f".//aside[{has_class('note')}]")
    assert note.xpath(".//a/@data-locus") == [locus.id]


@dataclass(frozen=True)
class FakeNote:
    start: int


class FakeVerdict(str, Enum):
    CONTRADICTED = "contradicted"


@dataclass(frozen=True)
class FakeClaim:
    note: FakeNote
    base_start: int | None
    base_end: int | None

    def summary(self) -> str:
        return "大戴礼 (DD) reads 峭 for 哨"


@dataclass(frozen=True)
class FakeCheck:
    claim: FakeClaim
    verdict: FakeVerdict
    evidence: str = "ZS reads 哨"
    actual: str = "哨"


def test_claim_verdicts_shown(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, sk, _ = built
    at = sk.text.index("哨")
    check = FakeCheck(FakeClaim(FakeNote(sk.text.index("今本")), at, at + 1), FakeVerdict.CONTRADICTED)
    doc = page_of(built, checks=[check])
    section = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '哨').id}")
    (item,) = section.xpath(f".//ul[{has_class('checks')}]/li")
    assert item.xpath("./span")[0].text == "不合" and "reads 峭 for 哨" in item.text_content()
    assert "實作 哨" in item.text_content()
    (note,) = doc.get_element_by_id("view-text").xpath(f".//aside[{has_class('note')}]")
    assert note.xpath(f".//span[{has_class('verdict')}]")[0].text == "不合"
    other = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '旨').id}")
    assert not other.xpath(f".//ul[{has_class('checks')}]")


def test_decisions_shown(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    locus = locus_by_lemma(collation, "旨")
    doubt = locus_by_lemma(collation, "某")
    decisions = {
        locus.id: EditorDecision(
            (DecisionAction.ADOPT,), ("ed",), "2026-01-02", "美", adopted="美", siglum="ZS", comment="從注疏本"
        ),
        doubt.id: EditorDecision((DecisionAction.DOUBT,), ("ed",), "2026-01-02", "某", doubtful=True),
    }
    doc = page_of(built, decisions=decisions)
    box = doc.get_element_by_id(f"d-{locus.id}").xpath(f".//div[{has_class('decision')}]")[0]
    assert "改從" in box.text_content() and "美（從注疏本）" in box.text_content() and "從注疏本" in box.text_content()
    view = doc.get_element_by_id("view-text")
    assert "decided" in view.xpath(".//*[@data-locus=$id]", id=locus.id)[0].get("class").split()
    assert {"decided", "doubt"} <= set(view.xpath(".//*[@data-locus=$id]", id=doubt.id)[0].get("class").split())
    undecided = locus_by_lemma(collation, "算")
    assert "decided" not in view.xpath(".//*[@data-locus=$id]", id=undecided.id)[0].get("class").split()
    # A decision the locus carries is shown without being passed in.
    carried = collation.with_locus(locus.with_decision(decisions[locus.id]))
    doc = parse(build_html(carried, built[1], witnesses=built[2]))
    assert doc.get_element_by_id(f"d-{locus.id}").xpath(f".//div[{has_class('decision')}]")


def test_filters_and_legend(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    doc = page_of(built)
    boxes = doc.xpath("//input[@type='checkbox']/@data-hide")
    assert boxes == ["c-substantive", "c-omission", "c-orthographic", "l-jing", "l-zhu", "l-commentary", "l-note"]
    counts = {
        label.xpath("./input/@data-hide")[0]: label.xpath(f"./span[{has_class('n')}]")[0].text
        for label in doc.xpath("//label[span]")
        if label.xpath(f"./span[{has_class('n')}]")
    }
    assert counts == {"c-substantive": "3", "c-omission": "1", "c-orthographic": "1"}


def test_stylesheet_covers_every_class_and_layer() -> None:
    style = CSS.read_text(encoding="utf-8")
    for c in ReadingClass:
        assert f".c-{c.value} {{" in style, c
        assert f".hide-c-{c.value} .c-{c.value}" in style, c
        assert f".badge.c-{c.value}" in style, c
    for layer in Layer:
        if layer.is_text:
            assert f".hide-l-{layer.value} .l-{layer.value}" in style, layer


def test_coverage_strips(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    doc = page_of(built)
    coverage = doc.xpath("//section[@aria-label='存佚']")[0]
    widths = [e.get("style") for e in coverage.xpath(f".//div[{has_class('ext')}]")]
    # 經: SK over all 24 columns, ZS over 0..21; 注: both over everything.
    assert widths == ["left:0.00%;width:100.00%", "left:0.00%;width:91.67%"] + ["left:0.00%;width:100.00%"] * 2
    ticks = coverage.xpath(f".//button[{has_class('tick')}]/@data-locus")
    assert len(ticks) == 5 + 1  # every shown locus, and DD's one place again on its own strip
    assert "頁1a 行1 – 頁1b 行1 · 24 字" in coverage.text_content()


def test_synoptic_view(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    view = page_of(built).get_element_by_id("view-syn")
    columns = view.xpath(f".//span[{has_class('sc')} and not({has_class('key')})]")
    assert len(columns) == 24 + 5
    first = columns[0].xpath("./i")
    assert [i.text for i in first] == ["主", "主"]
    mei = next(c for c in columns if [i.text for i in c.xpath("./i")][:2] == ["旨", "美"])
    assert mei.get("data-locus") == locus_by_lemma(collation, "旨").id
    assert mei.xpath("./i")[1].get("class") == "d"
    # ZS is not extant over 嘉肴: shaded cells, no characters.
    last = columns[23].xpath("./i")
    assert last[0].text == "肴" and last[1].get("class") == "ne"
    # DD's reading is noted under the column of 哨.
    shao = view.xpath(".//*[@data-locus=$id]", id=locus_by_lemma(collation, "哨").id)[0]
    assert shao.xpath(f"./i[{has_class('sparse')}]")[0].text == "峭"


def test_witness_text_stays_text() -> None:
    """A hand-made witness whose characters look like markup: escaped, never markup."""
    evil = "主人<script>window.pwned=1</script>&amp;"
    alignment, witnesses = align_rows({"SK": "主人請曰" + "-" * (len(evil) - 4), "ZS": evil})
    result = build_layer(alignment, witnesses)
    base = replace(witnesses["SK"], label="<b>四庫</b>&")
    collation = Collation(
        "<i>題</i>",
        "x",
        "SK",
        (WitnessInfo("SK", "<b>四庫</b>&", "SK.txt", "plain"), WitnessInfo("ZS", "Z&S", "ZS.txt", "plain")),
        (result,),
    )
    html = build_html(collation, base, witnesses=witnesses)
    doc = parse(html)
    assert len(doc.xpath("//script")) == 1 and "pwned" not in doc.xpath("//script")[0].text
    assert not doc.xpath("//b[ancestor::main] | //i[ancestor::header]")
    assert doc.xpath("//title")[0].text == "<i>題</i> 校勘記"
    (row,) = doc.xpath(f"//tr[{has_class('c-substantive')}]")
    assert row.xpath("./td")[0].text == "<script>window.pwned=1</script>&amp;"
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;&amp;amp;" in html


def test_characters_xml_cannot_hold_do_not_break_the_page() -> None:
    alignment, witnesses = align_rows({"SK": "主人\x0c请", "ZS": "主人\x00請"})
    result = build_layer(alignment, witnesses)
    collation = Collation("t", "x", "SK", (WitnessInfo("SK", "SK", "SK.txt", "plain"),), (result,))
    doc = parse(build_html(collation, witnesses["SK"], witnesses=witnesses))
    assert "主人\ufffd请" in doc.get_element_by_id("view-text").text_content()


def test_sparse_addition_drawn_as_a_caret() -> None:
    alignment, witnesses = align_rows({"SK": "比投不释胜者", "ZS": "比投不釋勝者"})
    dd = sparse_witness(("比投不释", "", "算", "after"))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    collation = Collation("t", "x", "SK", (WitnessInfo("SK", "SK", "SK.txt", "plain"),), (result,))
    view = parse(build_html(collation, witnesses["SK"], witnesses=witnesses)).get_element_by_id("view-text")
    (caret,) = view.xpath(f".//*[{has_class('ins')}]")
    assert caret.get("data-locus") == result.loci[0].id and {"v", "c-addition"} <= set(caret.get("class").split())
    assert (caret.getprevious().tail or caret.getparent().text or "").endswith("比投不释")


def test_reading_class_not_extant_alone_is_not_a_variant() -> None:
    alignment, witnesses = align_rows({"SK": "主人请曰", "ZS": "主人--"}, {"ZS": [0, 1]})
    result = build_layer(alignment, witnesses)
    assert all(r.cls is ReadingClass.NOT_EXTANT for x in result.loci for r in x.readings)
    assert shown_loci(result) == ()
    fake = Reading("x", ReadingClass.NOT_EXTANT, ())
    assert not is_script_only(fake)


# --- The default project, end to end -------------------------------------------------------------


@pytest.fixture(scope="module")
def default_run() -> RunResult:
    return run_default_project()


def test_default_project(default_run: RunResult) -> None:
    html = run_html(ExportInput.of(default_run))
    doc = parse(html)
    collation = default_run.collation
    base = default_run.read.base
    view = doc.get_element_by_id("view-text")
    shown = [x for r in collation.layers for x in shown_loci(r)]
    assert shown and {x.id for x in shown} == set(view.xpath(".//@data-locus")) - {""}
    assert len(doc.get_element_by_id("details")) == len(shown)
    for locus in shown:
        if locus.lemma.text:
            marked = "".join(m.text for m in view.xpath(f".//*[@data-locus=$id and {has_class('v')}]", id=locus.id))
            assert marked == locus.lemma.text, locus.id
    # Every character of the base's text layers is on the page, in its layer.
    for layer in (Layer.JING, Layer.ZHU, Layer.SHU, Layer.COMMENTARY, Layer.NOTE):
        drawn = "".join(text_of(e) for e in view.xpath(f".//span[{has_class('l-' + layer.value)}]"))
        words = "".join(base.text[s.start : s.end] for s in base.spans if s.layer is layer and s.role == "text")
        assert drawn == words, layer
    # The five header lines are front matter; 右投壶 and the closing 卷 title close the text.
    front = [e.get("class") for e in view.xpath(f".//header[{has_class('front')}]/p")]
    assert front == [f"heading h-{k}" for k in ("collection", "title", "author", "section", "subsection")]
    closing = [text_of(e) for e in view.xpath(f".//p[{has_class('h-close')}]")]
    assert closing == ["右投壶", "五礼通考卷一百六十五"]
    pages = [m.label for m in base.marks if m.kind == "page"]
    drawn_pages = [e.text for e in view.xpath(f".//span[{has_class('pb')}]")]
    assert drawn_pages == pages[: len(drawn_pages)] and len(drawn_pages) >= len(pages) - 1
    # 蕙田案: 今本大戴礼乃作峭 — DD reads 峭 where SK and ZS read 哨.
    shao = next(x for x in shown if x.lemma.text == "哨" and x.reading_of("DD"))
    section = doc.get_element_by_id(f"d-{shao.id}")
    assert "峭" in section.text_content() and "大戴禮" in section.text_content()
    assert len(doc.xpath("//script")) == 1


def test_registered_exporter_writes_the_page(default_run: RunResult, tmp_path: Path) -> None:
    assert EXPORTERS["html"] == "collate.exporters.html"
    exporter = get_exporter("html")
    assert exporter.suffix == ".html" and exporter.description
    path = tmp_path / "out" / "touhu.html"
    exporter.write(ExportInput.of(default_run), path)
    assert path.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in path.parent.iterdir()] == ["touhu.html"]  # no temporary file left


def test_page_break_inside_a_span() -> None:
    alignment, witnesses = align_rows({"SK": "主人请曰某有", "ZS": "主人請曰某又"})
    base = replace(witnesses["SK"], marks=(Mark(0, "page", "1a"), Mark(3, "page", "1b")))
    collation = Collation(
        "t", "x", "SK", (WitnessInfo("SK", "SK", "SK.txt", "plain"),), (build_layer(alignment, witnesses),)
    )
    view = parse(build_html(collation, base, witnesses=witnesses)).get_element_by_id("view-text")
    (span,) = view.xpath(f".//span[{has_class('l-jing')}]")
    pieces = [(child.get("class"), child.text, child.tail) for child in span]
    assert pieces[:2] == [("pb", "1a", "主人请"), ("pb", "1b", "曰某")]
    assert text_of(span) == "主人请曰某有"


def test_gaiji_entity_shown_as_its_character() -> None:
    """A resolved entity reads as its character (the entity in the tooltip); an unresolved one as 〓."""
    alignment, witnesses = align_rows({"SK": "以&KR0002;是&KR9999;者", "ZS": "以&KR0002;是&KR9999;者"})
    text = witnesses["SK"].text
    first, second = text.index("&KR0002;"), text.index("&KR9999;")
    subs = (
        Substitution(first, first + 8, "若", "gaiji KR0002"),
        Substitution(second, second + 8, None, "no gaiji table KR9999"),
    )
    base = replace(witnesses["SK"], substitutions=subs)
    collation = Collation(
        "t", "x", "SK", (WitnessInfo("SK", "SK", "SK.txt", "plain"),), (build_layer(alignment, witnesses),)
    )
    view = parse(build_html(collation, base, witnesses=witnesses)).get_element_by_id("view-text")
    gaiji = view.xpath(f".//span[{has_class('gaiji')}]")
    assert [(g.text, g.get("title")) for g in gaiji] == [
        ("若", "&KR0002; gaiji KR0002"),
        ("〓", "&KR9999; no gaiji table KR9999"),
    ]
    assert view.text_content().endswith("以若是〓者")


def test_the_page_reads_each_layer_in_linear_time_not_once_per_locus() -> None:
    from scan_support import growth

    # The base tokens by index are built once per layer, not for every locus's panel.
    assert growth(lambda collation, witnesses: build_html(collation, witnesses["SK"], witnesses=witnesses)) < 2.5
