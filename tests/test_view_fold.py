"""``collate diff`` folds the loci where witnesses differ only in graphs (異體) into a count: readings first.

``--class all`` (or 全部) shows them; a class or a cause asked for is shown as asked; the ``--list``
record keeps every reading; a reading that differs only by script is never shown.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from builders import collate_rows, copy_default_project
from click.testing import CliRunner
from rich.console import Console
from test_view_diff import diff  # the command as the diff tests run it

from collate.apparatus import SCRIPT_RULE, Collation, ReadingClass
from collate.cli import main
from collate.pipeline import collate_project
from collate.project import load_project
from collate.views.diff import DiffFilter, diff_view
from collate.views.variants import DiffFilter as Filter

# 哨/峭 a reading; the first 算/筭 only a graph (folded); the second 算 read 等 by one, 筭 by another
# (a reading of substance: shown, its graph too).
ROWS = {
    "SK": "主人请曰某有枉矢哨壶执八算兴执算而立",
    "ZS": "主人请曰某有枉矢哨壶执八筭兴执筭而立",
    "DD": "主人请曰某有枉矢峭壶执八算兴执等而立",
}
FOLD_LINE = re.compile(r"另有異體 (\d+) 處（--class all 顯示）")


@pytest.fixture(scope="module")
def rows() -> Collation:
    return collate_rows(ROWS)


def shown(collation: Collation, view: DiffFilter) -> str:
    """The view as piped: whole lines, no colour."""
    out = io.StringIO()
    Console(file=out, width=10_000, color_system=None).print(diff_view(collation, view), soft_wrap=True)
    return out.getvalue()


def test_orthographic_loci_are_folded_into_a_count_after_the_readings(rows: Collation) -> None:
    out = shown(rows, DiffFilter(fold=True))
    assert "哨〔DD 峭 文〕" in out and "执八算兴" in out  # the graph alone: not marked
    # Where one witness reads another word, the graph of another is shown beside it.
    assert "执算〔DD 等 文；ZS 筭 異〕" in out
    assert "經 jing: 2 of 3 loci shown（另有異體 1 處）" in out
    assert out.rstrip().splitlines()[-1] == "另有異體 1 處（--class all 顯示）"
    assert out.index("峭") < out.index("另有異體 1 處（--class")  # readings first


def test_without_folding_or_asked_for_by_class_every_orthographic_locus_is_shown(rows: Collation) -> None:
    whole = shown(rows, DiffFilter())
    assert "执八算〔ZS 筭 異〕兴" in whole and not FOLD_LINE.search(whole)
    ortho = shown(rows, DiffFilter(classes=(ReadingClass.ORTHOGRAPHIC,), fold=True))
    assert "算〔ZS 筭 異〕兴" in ortho and "〔DD" not in ortho and not FOLD_LINE.search(ortho)


def test_a_cause_asked_for_is_shown_not_folded(rows: Collation) -> None:
    graph = next(x for x in rows.loci() if x.base_start == 12)
    assert Filter(fold=True).folded(graph) and Filter(fold=True).readings(graph) == ()
    asked = Filter(causes=("variant",), fold=True)
    assert not asked.folded(graph) and asked.readings(graph)[0].text == "筭"


def test_a_reading_differing_only_by_script_is_never_shown(rows: Collation) -> None:
    graph = next(x for x in rows.loci() if x.base_start == 12)
    script = graph.with_readings((replace(graph.readings[0], rules=(SCRIPT_RULE,)),))
    every = tuple(c for c in ReadingClass)
    assert Filter().readings(script) == () and Filter(classes=every).readings(script) == ()
    assert not Filter(fold=True).folded(script)  # nothing to show: not counted as a graph either


@pytest.fixture
def default(tmp_path: Path) -> Path:
    """A copy of the default project."""
    return copy_default_project(tmp_path)


def test_diff_folds_by_default_and_says_how_many_and_how_to_see_them(default: Path) -> None:
    project = default
    out = diff(project)
    run = collate_project(load_project(project))
    graphs = sum(1 for x in run.collation.loci() if DiffFilter(fold=True).folded(x))
    assert graphs > 0
    found = FOLD_LINE.findall(out)
    assert found == [str(graphs)] and out.rstrip().endswith("（--class all 顯示）")
    assert "〔ZS 筭 異〕" not in out and "哨〔DD 峭 文〕" in out
    for name in ("all", "全部", "ALL"):
        every = diff(project, "--class", name)
        assert "执八算〔ZS 筭 異〕兴" in every and not FOLD_LINE.search(every)


def test_the_list_keeps_every_reading_and_a_wrong_class_names_all(default: Path) -> None:
    project = default
    listed = diff(project, "--list")
    assert any(line.split("\t")[6] == "筭" for line in listed.splitlines()[1:])
    result = CliRunner().invoke(main, ["diff", "--config", str(project), "--class", "xyz"])
    assert result.exit_code == 2 and "or all 全部" in result.output
