"""The synoptic view: each layer a table, one column per witness, one row per passage of the base."""

from __future__ import annotations

from typing import Any

import pytest
from builders import has_class, html_collation, locus_by_lemma, page_of, text_of

from collate.apparatus import Collation
from collate.model import Witness


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


def cells(row: Any) -> dict[str, Any]:
    """A passage's cells by witness."""
    return {td.get("data-w"): td for td in row.xpath("./td")}


def test_a_column_per_witness_a_row_per_passage(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    view = page_of(built).get_element_by_id("view-syn")
    jing, zhu = view.xpath(f".//table[{has_class('syn-table')}]")
    # The heads: each witness of the layer by its label and siglum, base first; the sparse DD last.
    assert jing.xpath("./thead/tr/th/@data-w") == ["SK", "ZS", "DD"]
    assert zhu.xpath("./thead/tr/th/@data-w") == ["SK", "ZS"]
    assert [text_of(th) for th in jing.xpath("./thead/tr/th")] == ["四庫本SK", "注疏本ZS", "大戴禮DD"]
    # A passage: its printed place, then each witness's own text of it, side by side.
    first, second = jing.xpath(f"./tbody[{has_class('chunk')}]")
    assert text_of(first.xpath(".//th")[0]) == "頁1a 行1"
    row = cells(first.xpath(f"./tr[{has_class('texts')}]")[0])
    assert text_of(row["SK"]) == "主人请曰某有枉矢哨壶请以乐宾"
    assert text_of(row["ZS"]).startswith("主人請曰—有枉矢哨壺")  # its own characters; 某 it lacks
    later = cells(second.xpath(f"./tr[{has_class('texts')}]")[0])
    assert text_of(later["SK"]) == "宾曰子有旨酒执算嘉肴"


def test_a_locus_is_marked_in_every_column(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    view = page_of(built).get_element_by_id("view-syn")
    mei = locus_by_lemma(collation, "旨")
    marks = view.xpath(".//span[@data-locus=$id]", id=mei.id)
    assert [m.getparent().get("data-w") for m in marks] == ["SK", "ZS"]
    # The base's characters as they stand; the witness reading otherwise set apart (d).
    assert [(m.text, "d" in m.get("class").split()) for m in marks] == [("旨", False), ("美", True)]
    assert all("c-substantive" in m.get("class").split() and m.get("data-wits") == "ZS" for m in marks)
    # ZS is not extant over 嘉肴: shaded, no characters.
    zs = marks[1].getparent()
    assert zs.xpath(f"./i[{has_class('ne')}]") and not text_of(zs).endswith("嘉肴")
    # DD's reading in its own column, beside the lemma it concerns, opening the same panel.
    shao = locus_by_lemma(collation, "哨")
    (dd,) = view.xpath(".//td[@data-w='DD']/span[@data-locus=$id]", id=shao.id)
    assert dd.xpath(f"./i[{has_class('lem')}]")[0].text == "哨" and text_of(dd) == "哨峭"
