"""The HTML page as a whole: self-contained, its filters and styles, the exporter, the default project.

The small collation (builders.html_collation) has a heading, a 經 passage under its run-in
title with a 注 run inside it, a page break, a later commentator and a 蕙田案 note; the
parts of the page each have their own tests (test_export_html_text, _panel, _synopsis, _common).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from builders import (
    collate_rows,
    has_class,
    html_collation,
    page_of,
    parse,
    plain_witness,
    run_default_project,
    text_of,
)

from collate.apparatus import Collation, ReadingClass
from collate.exporters import EXPORTERS, get_exporter
from collate.exporters.html import build_html, run_html, shown_loci
from collate.model import Layer, Witness
from collate.results import ExportInput, RunResult

CSS = Path(__file__).resolve().parents[1] / "collate" / "exporters" / "html_assets" / "view.css"


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


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


def test_orthographic_loci_open_unmarked_their_box_unticked_and_counted(
    built: tuple[Collation, Witness, dict[str, Witness]],
) -> None:
    doc = page_of(built)
    boxes = {b.get("data-hide"): b.get("checked") is not None for b in doc.xpath("//input[@data-hide]")}
    assert [hide for hide, ticked in boxes.items() if not ticked] == ["c-orthographic"]
    # Unmarked without the script too: the body starts with the class the unticked box gives it.
    assert doc.xpath("//body/@class") == ["hide-c-orthographic"]
    (note,) = doc.xpath(f"//div[{has_class('overview')}]/p[{has_class('fold-note')}]")
    assert note.text == "另有異體 1 處未標出（勾選「異體」顯示）。"
    style = CSS.read_text(encoding="utf-8")
    assert ".fold-note { display: none;" in style and ".hide-c-orthographic .fold-note { display: block; }" in style


def test_a_page_without_orthographic_loci_folds_nothing() -> None:
    collation = collate_rows({"SK": "投壺之禮", "ZS": "投壺之體"})
    doc = parse(build_html(collation, plain_witness("SK", "投壺之禮")))
    assert doc.xpath("//body/@class") == [] and not doc.xpath(f"//*[{has_class('fold-note')}]")


def test_stylesheet_covers_every_class_and_layer() -> None:
    style = CSS.read_text(encoding="utf-8")
    for c in ReadingClass:
        assert f".c-{c.value} {{" in style, c
        assert f".hide-c-{c.value} .c-{c.value}" in style, c
        assert f".badge.c-{c.value}" in style, c
    for layer in Layer:
        if layer.is_text:
            assert f".hide-l-{layer.value} .l-{layer.value}" in style, layer


# --- The default project, end to end ---------------------------------------------------------------------


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
    details = doc.get_element_by_id("details")
    # A panel a locus shown, and once the buttons every panel's heading gets (a <template>).
    assert len(details.findall("section")) == len(shown) and len(details.findall("template")) == 1
    assert not details.xpath(".//section//button[@data-step]")
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


def test_the_page_reads_each_layer_in_linear_time_not_once_per_locus() -> None:
    from scan_support import growth

    # The base tokens by index are built once per layer, not for every locus's panel.
    assert growth(lambda collation, witnesses: build_html(collation, witnesses["SK"], witnesses=witnesses)) < 2.5


def test_graphic_confusions_have_a_filter_of_their_own() -> None:
    """A locus of look-alikes (己 read 已) is marked 形近 too, and a checkbox hides those marks alone."""
    from builders import collate, plain_witness

    from collate.exporters.html.common import LOOKALIKE_CSS

    sk = plain_witness("SK", "君子反求諸己而已矣其爭也君子")
    zs = plain_witness("ZS", "君子反求諸已而已矣其事也君子")
    collation, witnesses = collate([sk, zs], layers=(Layer.JING,))
    doc = parse(build_html(collation, sk, witnesses=witnesses))
    marked = {m.text: m.get("class").split() for m in doc.xpath(f"//*[{has_class('v')}][@data-locus]")}
    assert LOOKALIKE_CSS in marked["己"] and LOOKALIKE_CSS not in marked["爭"]
    assert LOOKALIKE_CSS in doc.xpath("//input[@type='checkbox']/@data-hide")
    style = CSS.read_text(encoding="utf-8")
    assert f".hide-{LOOKALIKE_CSS} .{LOOKALIKE_CSS}" in style
