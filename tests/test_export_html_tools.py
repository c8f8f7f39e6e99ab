"""The reader's tools (collate/exporters/html/tools.py): the fold table, the pages, the switches."""

from __future__ import annotations

from dataclasses import replace

import pytest
from builders import align_rows, has_class, html_collation, page_of, parse

from collate.apparatus import Collation, WitnessInfo, build_layer
from collate.exporters.html import build_html
from collate.exporters.html.context import Context
from collate.exporters.html.tools import fold_pairs, page_targets
from collate.model import Mark, Witness


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


def context(built: tuple[Collation, Witness, dict[str, Witness]]) -> Context:
    collation, sk, witnesses = built
    return Context.of(collation, sk, witnesses, {}, ())


def test_fold_table_is_the_tokens_keys(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    pairs = fold_pairs(context(built))
    table = dict(zip(pairs[::2], pairs[1::2], strict=True))
    # ZS's traditional characters fold to the keys they were compared by: 壺 finds 壶.
    assert {"壺": "壶", "請": "请", "賓": "宾", "樂": "乐"}.items() <= table.items()
    assert all(t != n for t, n in table.items())
    (search,) = page_of(built).xpath("//input[@id='q']")
    assert search.get("data-fold") == pairs and search.get("type") == "search"


def test_pages_of_every_witness(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    targets = page_targets(context(built))
    # SK's printed pages are its own labels; ZS marks none: its file's lines (one here).
    assert targets.pages == {"SK": ("1a", "1b"), "ZS": ("行1",)}
    assert targets.anchors == {built[1].text.index("主人"): (("ZS", "行1"),)}
    doc = page_of(built)
    assert doc.xpath("//select[@id='jump-w']/option/@value") == ["SK", "ZS"]
    options = doc.xpath(f"//select[{has_class('jump-p')}]/option/@value")
    assert options == ["SK:1a", "SK:1b", "ZS:行1"]
    # Every option has its place in the text.
    view = doc.get_element_by_id("view-text")
    assert all(view.xpath(".//*[@data-page=$k]", k=k) for k in options)


def test_a_page_the_base_lacks_the_start_of_is_placed_before_the_base_text_after_it() -> None:
    """ZS's page 2 begins with 又, which the base lacks: its anchor is where the base goes on, before 有."""
    alignment, witnesses = align_rows({"SK": "主人请曰-有枉矢", "ZS": "主人請曰又有枉矢"})
    zs = replace(witnesses["ZS"], marks=(Mark(0, "page", "1"), Mark(4, "page", "2")))
    witnesses = {**witnesses, "ZS": zs}
    result = build_layer(alignment, witnesses)
    infos = (WitnessInfo("SK", "SK", "SK.txt", "plain"), WitnessInfo("ZS", "ZS", "ZS.txt", "plain"))
    collation = Collation("t", "x", "SK", infos, (result,))
    targets = page_targets(Context.of(collation, witnesses["SK"], witnesses, {}, ()))
    sk = witnesses["SK"].text
    assert targets.pages["ZS"] == ("1", "2")
    assert targets.anchors == {0: (("ZS", "1"),), sk.index("有"): (("ZS", "2"),)}
    view = parse(build_html(collation, witnesses["SK"], witnesses=witnesses)).get_element_by_id("view-text")
    (second,) = view.xpath(".//*[@data-page='ZS:2']")
    # Right before the caret of ZS's 又 (an addition at the same place), and then 有.
    caret = second.getnext()
    assert "ins" in caret.get("class").split() and not second.tail and caret.tail.startswith("有枉矢")


def test_witness_switches_and_what_they_switch(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    doc = page_of(built)
    assert doc.xpath("//input[@data-wit]/@data-wit") == ["ZS", "DD"]  # never the base
    view = doc.get_element_by_id("view-text")
    # Each mark says whose readings it shows: ZS reads 美 for 旨; only DD reads 峭 for 哨.
    wits = {m.text: m.get("data-wits") for m in view.xpath(f".//*[{has_class('v')}]") if m.text}
    assert wits["旨"] == "ZS" and wits["哨"] == "DD"
    syn = doc.get_element_by_id("view-syn")
    # The synopsis: a column a witness (its head and its cells say whose), the sparse DD's too.
    assert syn.xpath(".//th/@data-w") == ["SK", "ZS", "DD", "SK", "ZS"]
    assert syn.xpath(f".//td[{has_class('sparse')}]/@data-w") == ["DD", "DD"]
    assert set(syn.xpath(f".//span[{has_class('v')}]/@data-wits")) == {"ZS", "DD"}


def test_the_bar_holds_the_tools(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    doc = page_of(built)
    (bar,) = doc.xpath("//header[@class='bar']")
    assert bar.xpath(".//input[@id='q'] and .//button[@id='parallel'] and .//select[@id='jump-w']")
    assert bar.xpath(".//button[@data-hit]/@data-hit") == ["-1", "1"]
    assert doc.xpath(f"//aside[@id='panel']/button[{has_class('sheet-handle')}]")
    # Their style and script are inlined with the page's own, in its one <style> and <script>.
    (style,) = doc.xpath("//style/text()")
    (script,) = doc.xpath("//script/text()")
    assert "::highlight(q-hits)" in style and ".parallel .para .u" in style and ".c-substantive {" in style
    assert "collate:show" in script and "hashchange" in script and "createTreeWalker" in script
