"""The page printed: a title, the text with its loci numbered, then a 校勘記 with the same numbers.

Only the print stylesheet shows these parts; what it shows is checked here in the page's tree and
style (the browser's print is checked in test_html_browser, and by eye on a rendered PDF).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import collate_rows, has_class, html_collation, page_of, parse, plain_witness, text_of

from collate.apparatus import Collation, ReadingClass
from collate.exporters.html import build_html
from collate.exporters.html.common import el
from collate.exporters.html.printing import number_marks
from collate.model import Witness

CSS = Path(__file__).resolve().parents[1] / "collate" / "exporters" / "html_assets" / "view.css"


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


def test_each_locus_is_numbered_once_in_the_text_and_listed_in_that_order(
    built: tuple[Collation, Witness, dict[str, Witness]],
) -> None:
    doc = page_of(built)
    text = doc.get_element_by_id("view-text")
    numbered = [m.get("data-locus") for m in text.xpath(f".//*[{has_class('v')} and {has_class('n')}]")]
    marked = {m.get("data-locus") for m in text.xpath(f".//*[{has_class('v')}]")}
    assert len(numbered) == len(set(numbered)) == len(marked) == 5
    (jkj,) = doc.xpath("//section[@id='jkj']")
    entries = jkj.xpath(f".//li[{has_class('e')}]")
    assert [e.get("data-locus") for e in entries] == numbered  # the same numbers, counted alike
    assert not jkj.xpath(f".//li[{has_class('x')}]")  # every locus has its place in the text


def test_an_entry_says_what_the_witnesses_have_as_a_jiaokanji_does(
    built: tuple[Collation, Witness, dict[str, Witness]],
) -> None:
    doc = page_of(built)
    entries = {text_of(e).split("　", 1)[1]: e for e in doc.xpath(f"//li[{has_class('e')}]")}
    assert set(entries) == {
        "注疏本無「某」。",
        "「哨」，大戴禮作「峭」。",
        "〔注〕「貌」，注疏本作「也」。",
        "「旨」，注疏本作「美」。",
        "「算」，注疏本作「筭」（異體）。",
    }
    shao = entries["「哨」，大戴禮作「峭」。"]
    assert text_of(shao).startswith("頁1a 行1　")  # the base's printed place first
    # The entry hides with what the filters hide: its class, layer and witnesses as the mark's.
    assert shao.get("class").split() == ["e", "c-substantive", "l-jing"] and shao.get("data-wits") == "DD"
    assert entries["「算」，注疏本作「筭」（異體）。"].get("class").split()[:2] == ["e", "c-orthographic"]


def test_an_addition_is_placed_after_the_base_character_before_it() -> None:
    collation = collate_rows({"SK": "投壺之-禮", "ZS": "投壺之大禮", "DD": "投壺之大禮"})
    doc = parse(build_html(collation, plain_witness("SK", "投壺之禮")))
    (entry,) = doc.xpath(f"//li[{has_class('e')}]")
    assert text_of(entry).endswith("　ZS、DD並「之」下有「大」。")


def test_the_print_has_a_title_the_witnesses_and_says_what_is_not_listed(
    built: tuple[Collation, Witness, dict[str, Witness]],
) -> None:
    doc = page_of(built)
    (head,) = doc.xpath(f"//main/header[{has_class('print-head')}]")
    assert text_of(head) == "禮記·投壺 校勘記底本：四庫本（SK）。校本：注疏本（ZS）、大戴禮（DD）。"
    # 異體字不出校 while the 異體 box stays unticked (the style shows the line only then).
    (note,) = doc.xpath(f"//section[@id='jkj']/p[{has_class('fold-note')}]")
    assert note.text == "異體字不出校（凡 1 處）。"
    (vertical,) = doc.xpath("//input[@data-print='vertical']")
    assert vertical.get("checked") is None  # horizontal unless asked


def test_the_print_stylesheet_numbers_hides_and_sets_vertical_lines() -> None:
    style = CSS.read_text(encoding="utf-8")
    screen, printed = style.split("@media print {", 1)
    assert ".print-head, .jkj { display: none; }" in screen
    for rule in (
        ".bar, #panel, #details, #view-syn, .sheet-handle { display: none !important; }",
        ".v.n { counter-increment: jkj; }",
        "counter-increment: jkj-e;",
        "html.print-vertical { writing-mode: vertical-rl; }",
        "counter(jkj, cjk-decimal)",
    ):
        assert rule in printed, rule
    # A class a filter hides is numbered in neither: every class has both rules.
    for c in ReadingClass:
        assert f".hide-c-{c.value} .v.c-{c.value}.n," in printed, c
        assert f".hide-c-{c.value} .e.c-{c.value}" in printed, c


def test_number_marks_puts_the_number_after_a_locus_last_piece() -> None:
    # 甲 and 丙 are one locus cut by a page label (and by another locus's 乙): numbered after 丙.
    first, label, other, last = (
        el("span", {"class": "v c-substantive", "data-locus": "a"}, "甲"),
        el("span", {"class": "pb"}, "2a"),
        el("span", {"class": "v c-omission", "data-locus": "b"}, "乙"),
        el("span", {"class": "v c-substantive", "data-locus": "a"}, "丙"),
    )
    blocks = [el("p", {"class": "para w-1"}, first, label, other), el("p", {"class": "para"}, last)]
    assert number_marks(blocks) == [("b", "w-1"), ("a", "")]
    assert [e.get("class").split()[-1] for e in (first, other, last)] == ["c-substantive", "n", "n"]
