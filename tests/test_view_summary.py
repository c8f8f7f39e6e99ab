"""The run summary of ``collate run``: per layer and witness, its extent and its readings by class,
each layer's totals in a row of their own; the run's tables whole at any width."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from builders import align_rows, copy_default_project, sparse_witness
from rich.cells import cell_len
from rich.console import Console

from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer
from collate.pipeline import collate_project
from collate.project import load_project
from collate.views.run import print_run
from collate.views.summary import summary_view


def test_summary_view_counts_loci_by_class_per_witness() -> None:
    from collate.views.summary import class_counts, locus_counts

    alignment, witnesses = align_rows(
        {"SK": "主人请曰某有枉矢哨壶", "ZS": "主人請曰某有曲矢--", "WY": "主人请曰某有枉矢峭壶"},
        {"ZS": [0, 7]},
        lines=2,
    )
    dd = sparse_witness(("哨壶", "哨", "峭", ""), ("无此句", "", "也", "after"))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    assert locus_counts(result) == {ReadingClass.SUBSTANTIVE: 2}
    assert class_counts(result, "SK") == {}  # the base reads no variants: its text is the lemma
    assert class_counts(result, "ZS") == {ReadingClass.SUBSTANTIVE: 1, ReadingClass.NOT_EXTANT: 1}
    collation = Collation("投壺", "touhu", "SK", (WitnessInfo("SK", "四庫本", "SK.txt", "plain"),), (result,))
    console = Console(record=True, width=200, color_system=None)
    console.print(summary_view(collation))
    lines = console.export_text().splitlines()
    zs = lines.index(next(line for line in lines if " ZS " in line))
    assert "p. 1a (1:1)" in lines[zs] and "p. 1a (2:4)" in lines[zs + 1] and " 8 " in lines[zs]
    assert "SK (base)" in "".join(lines) and "四庫本" in "".join(lines)
    dd_row = next(line for line in lines if " DD " in line)
    assert "sparse" in dd_row and "1 placed" in dd_row
    assert any("1 column differs only by script" in line for line in lines)
    assert any("not found in the base text [sparse-unplaced]" in line for line in lines)


def _rows(lines: list[str], first: str) -> list[str]:
    """The table row starting with ``first`` in its second cell, and its continuation lines."""
    k = next(i for i, line in enumerate(lines) if line.startswith("│") and line.split("│")[2].strip().startswith(first))
    out = [lines[k]]
    for line in lines[k + 1 :]:
        if not line.startswith("│") or line.split("│")[2].strip():
            break
        out.append(line)
    return out


def test_the_totals_have_a_row_of_their_own_not_the_bases() -> None:
    alignment, witnesses = align_rows({"SK": "主人请曰某有枉矢哨壶", "ZS": "主人請曰某有曲矢峭壶"}, lines=2)
    result = build_layer(alignment, witnesses)
    collation = Collation("投壺", "touhu", "SK", (WitnessInfo("SK", "四庫本", "SK.txt", "plain"),), (result,))
    console = Console(record=True, width=100, color_system=None)
    console.print(summary_view(collation))
    lines = console.export_text().splitlines()
    base = " ".join(_rows(lines, "SK (base)"))
    assert "subst" not in base and "lemma" in base
    zs = " ".join(_rows(lines, "ZS"))
    assert "subst 2" in zs
    total = " ".join(_rows(lines, "all loci"))
    assert "2 loci:" in total and "subst 2" in total


LONG_LABEL = "欽定四庫全書文淵閣本五禮通考卷一百六十五嘉禮三十八射禮所引禮記投壺篇"


def table_columns(out: str) -> list[list[str]]:
    """Each table drawn in ``out``, as the text of each of its columns read top to bottom (its
    lines joined without spaces): what a cell holds, however it was wrapped or folded."""
    tables: list[list[str]] = []
    for line in out.splitlines():
        if line.startswith("┏"):
            tables.append([])
        if tables and line.startswith(("┃", "│")):
            cells = re.split("[┃│]", line)[1:-1]
            columns = tables[-1]
            columns.extend("" for _ in range(len(cells) - len(columns)))
            for k, cell in enumerate(cells):
                columns[k] += "".join(cell.split())
    return tables


@pytest.mark.parametrize("width", [60, 80, 200])
def test_the_runs_tables_wrap_and_never_cut_at_any_width(tmp_path: Path, width: int) -> None:
    project = copy_default_project(tmp_path)
    text = project.read_text(encoding="utf-8")
    project.write_text(text.replace('label = "四庫本"', f'label = "{LONG_LABEL}"'), encoding="utf-8")
    result = collate_project(load_project(project))
    console = Console(record=True, width=width, color_system=None)
    print_run(console, result, [])
    out = console.export_text()
    assert "…" not in out
    assert all(cell_len(line) <= width for line in out.splitlines())
    witnesses, rules, summary = table_columns(out)
    # Whatever a cell holds is there whole, wrapped or folded.
    assert f"SK(base){LONG_LABEL}" in witnesses[0] and "siku-wltk(paged)" in witnesses[1]
    assert witnesses[6].startswith("diagnostics")
    assert rules[5].startswith("variant-graph") and rules[2].startswith("placeholder")
    assert f"SK(base){LONG_LABEL}" in summary[1] and "p.17bl.6" in summary[2]
    # Each layer's totals, in their own row after the witnesses'.
    assert summary[1].count("allloci") == 3 and "17loci:subst7omit2add7orth1" in summary[4]
