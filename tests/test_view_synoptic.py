"""``collate diff --synoptic``: a row a locus, a column a witness, 「同」 where one agrees; as wide as the terminal."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import collate_rows, copy_default_project
from click.testing import CliRunner
from rich.cells import cell_len
from test_view_flow import rendered

from collate.apparatus import Collation
from collate.cli import main
from collate.views.diff import DiffFilter
from collate.views.synoptic import layer_table, synoptic_view

ROWS = {
    "WYG-zhushu": "主人请曰某有枉矢哨壶执八算兴执算而立",
    "SBCK-zuantu": "主人请曰某有枉矢哨壶执八筭兴执筭而立",
    "WYG-jishuo": "主人请曰某有枉矢峭壶执八算兴执等而立",
}


@pytest.fixture(scope="module")
def rows() -> Collation:
    return collate_rows(ROWS)


def cells(line: str) -> list[str]:
    """A row's cells (the table's columns are set off by two spaces or more)."""
    return [c for c in line.strip().split("  ") if c.strip()]


def test_a_row_a_locus_a_column_a_witness(rows: Collation) -> None:
    lines = rendered(synoptic_view(rows, DiffFilter(fold=True)), 200)
    head = next(line for line in lines if line.startswith("place"))
    assert [c.strip() for c in cells(head)] == ["place", "WYG-zhushu", "SBCK-zuantu", "WYG-jishuo"]
    body = [cells(line) for line in lines[lines.index(head) + 2 :] if line[:2] == "1a"]
    # 哨: one witness reads 峭; the other agrees (同). The mixed 算: a reading and a graph. The
    # graph alone (the first 算) is folded, and counted.
    assert [[c.strip() for c in row[1:]] for row in body] == [["哨", "同", "峭 文"], ["算", "筭 異", "等 文"]]
    assert lines[-1] == "另有異體 1 處（--class all 顯示）"
    every = rendered(synoptic_view(rows, DiffFilter()), 200)
    assert sum(1 for line in every if line.startswith("1a")) == 3 and "另有異體" not in "".join(every)


def test_a_witness_asked_for_is_the_only_column_beside_the_base(rows: Collation) -> None:
    table, shown = layer_table(rows.layers[0], DiffFilter(sigla=("WYG-jishuo",), fold=True))
    assert shown == 2 and [str(c.header) for c in table.columns] == ["place", "WYG-zhushu", "WYG-jishuo"]


@pytest.mark.parametrize("width", [80, 40])
def test_the_table_fits_the_terminal(rows: Collation, width: int) -> None:
    lines = rendered(synoptic_view(rows, DiffFilter(fold=True)), width)
    assert all(cell_len(line) <= width for line in lines)
    text = "".join(lines)
    assert "峭" in text and "同" in text and "等" in text and "1a" in text


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_default_project(tmp_path)


def test_diff_synoptic_on_the_default_project(project: Path) -> None:
    result = CliRunner().invoke(main, ["diff", "--config", str(project), "--synoptic"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    head = next(line for line in lines if line.startswith("place"))
    assert [c.strip() for c in cells(head)] == ["place", "SK", "ZS", "DD"]
    rows = [cells(line) for line in lines if line.startswith("2b.5")]
    assert [c.strip() for c in rows[0]] == ["2b.5", "哨", "同", "峭 文"]
    # DD's addition where ZS is not extant: the base lacks the text, ZS has none to compare.
    added = next(cells(line) for line in lines if "+奏投壺之令" in line)
    assert [c.strip() for c in added[1:]] == ["∅", "不存", "+奏投壺之令 衍"]
    assert "〔" not in result.stdout and "另有異體" in lines[-1]
    both = CliRunner().invoke(main, ["diff", "--config", str(project), "--synoptic", "--list"])
    assert both.exit_code == 2 and "not both" in both.output
