"""``collate diff``: the base text with variants inline, filters, the loci table, plain and paged output."""

from __future__ import annotations

import io
import pydoc
import re
from pathlib import Path

import pytest
from builders import copy_default_project, plain_witness, tokens_from_string
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from collate.alignment import LayerAlignment
from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer
from collate.cli import main
from collate.model import Layer, Witness
from collate.pipeline import collate_project
from collate.project import load_project
from collate.review import decisions_path
from collate.review.records import DecisionAction
from collate.review.session import ReviewSession
from collate.views.diff import DiffFilter, diff_view, loci_table, print_paged


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_default_project(tmp_path)


def diff(project: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["diff", "--config", str(project), *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_variants_stand_inline_after_the_base_text(project: Path) -> None:
    out = diff(project)
    assert "\x1b[" not in out  # piped: plain text
    assert "主人请曰某有枉矢哨〔DD 峭〕壶请以乐宾" in out
    assert "执八算〔ZS 筭〕兴" in out
    assert "请宾曰〔DD +奏投壺之令〕顺投为入" in out  # text the base lacks
    assert "敢固〔ZS ∅〕以请宾" in out  # text a witness lacks
    # Pages of the base, where they begin, in order.
    pages = re.findall(r"\{(\d+[ab])\}", out.split("經 jing")[1].split("注 zhu")[0])
    assert pages[:3] == ["2a", "2b", "3a"] and len(pages) == len(set(pages))
    # Witnesses not extant somewhere are not variants there: no 〔ZS …〕 for the 大戴 additions.
    assert "ZS ∅〕" not in out.split("〔DD +奏投壺之令〕")[1].split("\n")[0]


def test_each_layer_says_how_many_loci_it_shows(project: Path) -> None:
    out = diff(project)
    run = collate_project(load_project(project))
    for result in run.collation.layers:
        n = len(result.loci)
        # Where the base is not extant (the 疏 the 注疏本 has before what 五禮通考 quotes) nothing is shown.
        shown = sum(1 for x in result.loci if x.cls is not ReadingClass.NOT_EXTANT)
        assert f"{result.layer.chinese} {result.layer.value}: {shown} of {n} loci shown" in out


def test_filters_by_class_layer_and_witness(project: Path) -> None:
    ortho = diff(project, "--class", "orthographic")
    assert "算〔ZS 筭〕" in ortho and "〔DD 峭〕" not in ortho
    jing = diff(project, "--layer", "jing")
    assert "經 jing" in jing and "注 zhu" not in jing
    zs = diff(project, "ZS", "--layer", "jing")
    assert "〔DD" not in zs and "般〔ZS 盤〕" in zs and "哨壶" in zs


def test_an_unknown_witness_is_a_clean_error(project: Path) -> None:
    result = CliRunner().invoke(main, ["diff", "--config", str(project), "XX"])
    assert result.exit_code == 1 and "no witness 'XX'" in result.output and "Traceback" not in result.output


def test_the_list_aligns_chinese_columns(project: Path) -> None:
    out = diff(project, "--list", "--layer", "jing")
    rows = [line for line in out.splitlines() if line.startswith(("│", "┃", "┏", "┡", "└"))]
    assert len({cell_len(line) for line in rows}) == 1  # every row as wide as the frame
    assert any("jing-00121" in r and "般" in r and "ZS 盤" in r and "3b.1" in r for r in rows)


def test_decisions_show_in_the_diff(project: Path) -> None:
    run = collate_project(load_project(project))
    session = ReviewSession(run.collation, decisions_path(load_project(project)), "王")
    first = session.loci[0]
    session.decide(first, DecisionAction.ADOPT, reading=first.variants()[0], siglum="DD")
    session.decide(session.loci[2], DecisionAction.DOUBT, comment="待考")
    out = diff(project, "--layer", "jing")
    assert "某有枉矢哨〔DD 峭〕→DD壶" in out and "敢固〔ZS ∅〕存疑以请" in out


def collation_with(base: str, other: str) -> tuple[Collation, dict[str, Witness]]:
    """A one-layer collation of two equal-length texts, column by column, and the witnesses."""
    witnesses = {}
    streams = {}
    for siglum, text in (("SK", base), ("ZS", other)):
        witnesses[siglum] = plain_witness(siglum, text)
        streams[siglum] = tokens_from_string(siglum, text)
    columns = tuple(zip(streams["SK"], streams["ZS"], strict=True))
    result = build_layer(LayerAlignment(Layer.JING, ("SK", "ZS"), columns), witnesses)
    infos = (WitnessInfo("SK", "SK", "SK.txt", "plain"), WitnessInfo("ZS", "ZS", "ZS.txt", "plain"))
    return Collation("t", "t", "SK", infos, (result,)), witnesses


def test_witness_text_is_never_markup() -> None:
    collation, witnesses = collation_with("[b]之乎", "[i]之乎")
    buffer = io.StringIO()
    console = Console(file=buffer, width=60, color_system=None)
    console.print(diff_view(collation, DiffFilter(), witnesses))
    console.print(loci_table(collation, DiffFilter()))
    out = buffer.getvalue()
    assert "[b〔ZS i〕]之乎" in out and "{1a}" in out


def test_a_terminal_gets_a_pager_and_a_pipe_plain_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    collation, witnesses = collation_with("之乎者也" * 30, "之乎者矣" * 30)
    paged: list[str] = []
    monkeypatch.setattr(pydoc, "pager", paged.append)
    shown = io.StringIO()
    terminal = Console(file=shown, force_terminal=True, width=40)
    print_paged(terminal, diff_view(collation, DiffFilter(), witnesses))
    assert len(paged) == 1 and "\x1b[" in paged[0] and "也〔ZS 矣〕" in re.sub(r"\x1b\[[0-9;]*m", "", paged[0])
    assert shown.getvalue() == ""
    piped_out = io.StringIO()
    piped = Console(file=piped_out, width=40)
    print_paged(piped, diff_view(collation, DiffFilter(), witnesses))
    lines = piped_out.getvalue().splitlines()
    assert not paged[1:] and any(cell_len(line) > 40 for line in lines)  # a passage a line, not wrapped
