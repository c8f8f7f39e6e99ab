"""The base text laid out as an edition: layers, page breaks, loci marked, carets, gaiji."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from builders import align_rows, has_class, html_collation, layered, page_of, parse, sparse_witness, text_of

from collate.apparatus import Collation, WitnessInfo, build_layer
from collate.exporters.html import build_html, display_class, shown_readings
from collate.model import Layer, Mark, Substitution, Witness


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


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
    small = para.xpath(f".//span[{has_class('sp')}]")
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


def test_sparse_addition_drawn_as_a_caret() -> None:
    alignment, witnesses = align_rows({"SK": "比投不释胜者", "ZS": "比投不釋勝者"})
    dd = sparse_witness(("比投不释", "", "算", "after"))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    collation = Collation("t", "x", "SK", (WitnessInfo("SK", "SK", "SK.txt", "plain"),), (result,))
    view = parse(build_html(collation, witnesses["SK"], witnesses=witnesses)).get_element_by_id("view-text")
    (caret,) = view.xpath(f".//*[{has_class('ins')}]")
    assert caret.get("data-locus") == result.loci[0].id and {"v", "c-addition"} <= set(caret.get("class").split())
    assert (caret.getprevious().tail or caret.getparent().text or "").endswith("比投不释")


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
    """A resolved entity reads as its character (its code in the tooltip); an unresolved one as 〓."""
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
        ("若", "KR0002 gaiji KR0002"),
        ("〓", "KR9999 no gaiji table KR9999"),
    ]
    assert view.text_content().endswith("以若是〓者")


def test_no_page_prints_an_unresolved_entity(tmp_path: Path) -> None:
    """Wherever a reading or a witness's text is shown (readings, synopsis, print 校勘記), an entity no
    table resolved is the printer's 〓, never the file's &KR…; (which the tokens keep)."""
    from test_reader_gaiji import table_file

    from collate.init import project_from_files
    from collate.pipeline import collate_project

    body = "# -*- mode: mandoku-view -*-\n#+TITLE: 投壺\n<pb:KR1d0052_WYG_062-1a>¶\n{}¶\n"
    table = table_file(tmp_path, ["KR0002\t9\t\t若"])
    (tmp_path / "a.txt").write_text(body.format("主人奉矢司射奉中"), encoding="utf-8")
    (tmp_path / "b.txt").write_text(body.format("主人奉&KR0756;司射奉中"), encoding="utf-8")
    project = replace(project_from_files([Path("a.txt"), Path("b.txt")], root=tmp_path), gaiji_table=table)
    run = collate_project(project)
    assert any("&KR0756;" in r.text for x in run.collation.loci() for r in x.readings)
    page = build_html(run.collation, run.read.base, witnesses=run.read.by_siglum())
    assert "KR0756;" not in page and "〓" in page



def test_each_jing_run_is_a_unit_with_the_small_print_after_it(
    built: tuple[Collation, Witness, dict[str, Witness]],
) -> None:
    """The side-by-side view sets each unit as 經 | 注疏: the 注 goes with the 經 it follows."""
    (para,) = page_of(built).get_element_by_id("view-text").xpath(f".//p[{has_class('para')}]")
    units = para.xpath(f"./span[{has_class('u')}]")
    pairs = [
        (text_of(u.xpath(f"./span[{has_class('uj')}]")[0]), text_of(u.xpath(f"./span[{has_class('uc')}]")[0]))
        for u in units
    ]
    assert pairs == [("主人请曰某有枉矢哨壶请以乐宾", "注枉哨不正貌"), ("宾曰子有旨酒执算嘉肴", "")]


def test_a_run_of_small_print_is_one_span_a_layer() -> None:
    """注 then 疏 after one 經: two small-print spans, so that each can be hidden or set apart alone."""
    parts = [
        (Layer.JING, "主人请曰"),
        (Layer.ZHU, "请曰告也"),
        (Layer.MARKUP, "注正義曰", "marker"),
        (Layer.SHU, "请者"),
    ]
    sk = layered("SK", parts)
    zs = layered("ZS", [(Layer.JING, "主人請曰")])
    alignment, _ = align_rows({"SK": "主人请曰", "ZS": "主人請曰"})
    collation = Collation("t", "x", "SK", (WitnessInfo("SK", "SK", "SK.txt", "plain"),), (build_layer(alignment, {}),))
    view = parse(build_html(collation, sk, witnesses={"SK": sk, "ZS": zs})).get_element_by_id("view-text")
    (unit,) = view.xpath(f".//span[{has_class('u')}]")
    small = unit.xpath(f"./span[{has_class('uc')}]/span")
    # 注正義曰 opens the 疏 on the 注: it goes with the 疏.
    assert [(s.get("class"), text_of(s)) for s in small] == [("sp s-zhu", "请曰告也"), ("sp s-shu", "注正義曰请者")]


def test_pages_carry_their_witness_and_other_witnesses_pages_are_anchored(
    built: tuple[Collation, Witness, dict[str, Witness]],
) -> None:
    view = page_of(built).get_element_by_id("view-text")
    assert view.xpath(f".//span[{has_class('pb')}]/@data-page") == ["SK:1a", "SK:1b"]
    # ZS marks no pages: its one line begins where its first character is aligned, before 主.
    (anchor,) = view.xpath(f".//span[{has_class('pg')}]")
    assert anchor.get("data-page") == "ZS:行1" and anchor.text is None
    assert (anchor.tail or "").startswith("主人请曰")
