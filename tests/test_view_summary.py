"""The run summary of ``collate run``: per layer and witness, its extent and its loci by class."""

from __future__ import annotations

from builders import align_rows, sparse_witness

from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer
from collate.model import SourceLocation
from collate.views.summary import place


def test_summary_view_counts_loci_by_class_per_witness() -> None:
    from rich.console import Console

    from collate.views.summary import class_counts, summary_view

    alignment, witnesses = align_rows(
        {"SK": "主人请曰某有枉矢哨壶", "ZS": "主人請曰某有曲矢--", "WY": "主人请曰某有枉矢峭壶"},
        {"ZS": [0, 7]},
        lines=2,
    )
    dd = sparse_witness(("哨壶", "哨", "峭", ""), ("无此句", "", "也", "after"))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    assert class_counts(result, "SK") == {ReadingClass.SUBSTANTIVE: 2}
    assert class_counts(result, "ZS") == {ReadingClass.SUBSTANTIVE: 1, ReadingClass.NOT_EXTANT: 1}
    collation = Collation("投壺", "touhu", "SK", (WitnessInfo("SK", "四庫本", "SK.txt", "plain"),), (result,))
    console = Console(record=True, width=200, color_system=None)
    console.print(summary_view(collation))
    lines = console.export_text().splitlines()
    zs = next(line for line in lines if " ZS " in line)
    assert "p. 1a (1:1)" in zs and "p. 1a (2:4)" in zs and " 8 " in zs
    assert "SK (base)" in "".join(lines) and "四庫本" in "".join(lines)
    dd_row = next(line for line in lines if " DD " in line)
    assert "sparse" in dd_row and "1 placed" in dd_row
    assert any("1 column differs only by script" in line for line in lines)
    assert any("not found in the base text [sparse-unplaced]" in line for line in lines)


def test_a_place_is_the_printed_page_and_line_when_known() -> None:
    assert place(SourceLocation("sk.txt", 4, 5, "3a", 2)) == "p. 3a l. 2"
    assert place(SourceLocation("sk.txt", 4, 5, "3a")) == "p. 3a (4:5)"  # a page without printed lines
    assert place(SourceLocation("zs.txt", 4, 5)) == "4:5"
    assert place(None) == "-"
