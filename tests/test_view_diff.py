"""``collate diff``: the base text with variants inline, each with its class's mark; filters and their
excerpts; the loci list (a table on a terminal, tab-separated lines piped); plain and paged output."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path

import pytest
from builders import copy_default_project, plain_witness, tokens_from_string
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from collate.align.alignment import LayerAlignment
from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer
from collate.cli import main
from collate.decisions import decisions_path
from collate.model import Layer, Witness
from collate.model.annotations import DecisionAction
from collate.pipeline import collate_project
from collate.project import load_project
from collate.review.session import ReviewSession
from collate.views.diff import CLASS_MARK, CUT, LIST_COLUMNS, DiffFilter, diff_view, excerpts, loci_table, windows
from collate.views.terminal import print_paged


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_default_project(tmp_path)


def diff(project: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["diff", "--config", str(project), *args])
    assert result.exit_code == 0, result.output
    # stdout alone: what is shown, without what stderr says of where the run came from.
    return result.stdout


def test_variants_stand_inline_after_the_base_text(project: Path) -> None:
    out = diff(project, "--class", "all")
    assert "\x1b[" not in out  # piped: plain text
    assert "主人请曰某有枉矢哨〔DD 峭 文〕壶请以乐宾" in out
    assert "执八算〔ZS 筭 異〕兴" in out
    assert "请宾曰〔DD +奏投壺之令 衍〕顺投为入" in out  # text the base lacks
    assert "敢固〔ZS ∅ 脫〕以请宾" in out  # text a witness lacks
    # Pages of the base, where they begin, in order.
    pages = re.findall(r"\{(\d+[ab])\}", out.split("經 jing")[1].split("注 zhu")[0])
    assert pages[:3] == ["2a", "2b", "3a"] and len(pages) == len(set(pages))
    # Witnesses not extant somewhere are not variants there: no 〔ZS …〕 for the 大戴 additions.
    assert "ZS ∅" not in out.split("〔DD +奏投壺之令 衍〕")[1].split("\n")[0]


def test_piped_the_class_is_read_from_its_mark_and_a_legend_says_what_each_means(project: Path) -> None:
    out = diff(project, "--class", "all")
    legend = next(line for line in out.splitlines() if line.startswith("marks: "))
    for cls in ReadingClass:
        if cls is not ReadingClass.NOT_EXTANT:  # no variant: shown only when asked for
            assert f"{CLASS_MARK[cls]} {cls.value.replace('_', ' ')}" in legend
    assert len(set(CLASS_MARK.values())) == len(ReadingClass)  # one mark, one class
    # An orthographic and a substantive reading no longer look alike without colour.
    assert "〔ZS 筭 異〕" in out and "〔DD 峭 文〕" in out and "〔ZS 筭〕" not in out


def test_each_layer_says_how_many_loci_it_shows(project: Path) -> None:
    out = diff(project, "--class", "all")
    run = collate_project(load_project(project))
    for result in run.collation.layers:
        n = len(result.loci)
        # Where the base is not extant (the 疏 the 注疏本 has before what 五禮通考 quotes) nothing is shown.
        shown = sum(1 for x in result.loci if x.cls is not ReadingClass.NOT_EXTANT)
        assert f"{result.layer.chinese} {result.layer.value}: {shown} of {n} loci shown\n" in out


def _brackets(text: str) -> list[str]:
    return re.findall(r"〔[^〕]*〕", text)


def _passages(out: str, layer: str) -> list[str]:
    """The lines a layer's heading is followed by, up to the next heading."""
    lines = out.split(f"{layer}: ")[1].splitlines()[1:]
    return [line for line in lines[: next((k for k, x in enumerate(lines) if not x), len(lines))]]


def test_a_class_asked_for_shows_only_its_loci_each_with_some_base_text(project: Path) -> None:
    whole = diff(project)
    ortho = diff(project, "--class", "orthographic")
    assert len(ortho) < len(whole) / 5  # the matching loci, not every paragraph of all three layers
    assert _brackets(ortho) and all(b.endswith(" 異〕") for b in _brackets(ortho))
    jing = _passages(ortho, "經 jing")
    # One line for the one locus: its page and line in the base, the paragraph cut on its left.
    assert jing == [f"5b.1  {CUT}矢半反位设中东面执八算〔ZS 筭 異〕兴"]
    # Loci closer than the context share a line, as grep joins the context of its matches.
    shu = _passages(ortho, "疏 shu")
    assert len(shu) < len([b for line in shu for b in _brackets(line)])
    assert "疏 shu: 9 of 31 loci shown" in ortho
    # Wider context on request; whole paragraphs with --full.
    wide = _passages(diff(project, "--class", "orthographic", "--context", "20"), "經 jing")
    assert len(wide[0]) > len(jing[0])
    assert diff(project, "--class", "orthographic", "--full").count("\n") > 2 * ortho.count("\n")


def test_filters_by_class_layer_and_witness(project: Path) -> None:
    ortho = diff(project, "--class", "orthographic")
    assert "算〔ZS 筭 異〕" in ortho and "〔DD 峭" not in ortho
    jing = diff(project, "--layer", "jing")
    assert "經 jing" in jing and "注 zhu" not in jing
    # A layer asked for: its loci, each cited by the base's page and line, not its paragraphs.
    assert all(re.match(r"\d+[ab]\.\d+  ", line) for line in _passages(jing, "經 jing"))
    zs = diff(project, "ZS", "--layer", "jing")
    assert "〔DD" not in zs and "般〔ZS 盤 文〕" in zs and "哨壶" in zs


def test_an_unknown_witness_is_a_clean_error(project: Path) -> None:
    result = CliRunner().invoke(main, ["diff", "--config", str(project), "XX"])
    assert result.exit_code == 1 and "no witness 'XX'" in result.output and "Traceback" not in result.output


def test_the_list_piped_is_a_reading_a_line_in_named_columns(project: Path) -> None:
    out = diff(project, "--list", "--layer", "jing")
    lines = out.splitlines()
    assert lines[0].split("\t") == list(LIST_COLUMNS)
    assert LIST_COLUMNS[1:4] == ("class", "layer", "base place") and "witness place" in LIST_COLUMNS
    rows = [dict(zip(LIST_COLUMNS, line.split("\t"), strict=True)) for line in lines[1:]]
    row = next(r for r in rows if r["locus"] == "jing-00121")
    assert row["class"] == "文 substantive" and row["layer"] == "經" and row["base place"] == "3b.1"
    assert (row["lemma"], row["witness"], row["reading"], row["witness place"]) == ("般", "ZS", "盤", "23:84")
    ortho = next(r for r in rows if r["reading"] == "筭")
    assert ortho["class"] == "異 orthographic" and ortho["base place"] == "5b.1"
    # A whole reading, however long: no cut, no wrap, no frame.
    assert any(len(r["reading"]) > 100 for r in rows) and "…" not in out and "│" not in out


def test_the_list_on_a_terminal_aligns_chinese_columns_and_cuts_nothing(project: Path) -> None:
    run = collate_project(load_project(project))
    table = loci_table(run.collation, DiffFilter(layers=(Layer.JING,)))
    for width in (60, 80, 200):
        console = Console(width=width, record=True, color_system=None)
        console.print(table)
        out = console.export_text()
        assert "…" not in out and "jing-00121" in out
        rows = [line for line in out.splitlines() if line.startswith(("│", "┃", "┏", "┡", "└"))]
        assert all(cell_len(line) <= width for line in out.splitlines())
        if rows:  # a table where there is room for one; lines of text below that
            assert len({cell_len(line) for line in rows}) == 1  # every row as wide as the frame
            assert any("jing-00121" in r and "般" in r and "盤" in r and "3b.1" in r for r in rows)
        # Every reading is there whole, wrapped (or folded) but never cut: the reading column's
        # cells, or the lines, joined.
        column = [line.split("│")[7] for line in rows if line.startswith("│")] if rows else out.splitlines()
        assert "今日泰射四正具舉大夫君子凡以庶士小大莫處御于君所" in re.sub(r"\s", "", "".join(column))


def test_decisions_show_in_the_diff(project: Path) -> None:
    run = collate_project(load_project(project))
    session = ReviewSession(run.collation, decisions_path(load_project(project)), "王")
    first = session.loci[0]
    session.decide(first, DecisionAction.ADOPT, reading=first.variants()[0], siglum="DD")
    session.decide(session.loci[2], DecisionAction.DOUBT, comment="待考")
    out = diff(project, "--layer", "jing")
    assert "某有枉矢哨〔DD 峭 文〕→DD壶" in out and "敢固〔ZS ∅ 脫〕存疑以请" in out


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
    assert "[b〔ZS i 文〕]之乎" in out and "{1a}" in out


def test_a_terminal_gets_a_pager_and_a_pipe_plain_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    from collate.views import terminal

    collation, witnesses = collation_with("之乎者也" * 30, "之乎者矣" * 30)
    paged: list[tuple[str, bytes]] = []
    monkeypatch.setattr(terminal, "spawn_pager", lambda command, env, data: paged.append((command, data)))
    monkeypatch.setattr(terminal, "_found", lambda command: True)
    monkeypatch.delenv("COLLATE_PAGER", raising=False)
    monkeypatch.delenv("PAGER", raising=False)
    shown = io.StringIO()
    terminal_console = Console(file=shown, force_terminal=True, width=40)
    print_paged(terminal_console, diff_view(collation, DiffFilter(), witnesses))
    assert len(paged) == 1 and paged[0][0] == "less"
    page = paged[0][1].decode()
    assert "\x1b[" in page and "也〔ZS 矣 文〕" in re.sub(r"\x1b\[[0-9;]*m", "", page)
    assert shown.getvalue() == ""
    piped_out = io.StringIO()
    piped = Console(file=piped_out, width=40)
    print_paged(piped, diff_view(collation, DiffFilter(), witnesses))
    lines = piped_out.getvalue().splitlines()
    assert not paged[1:] and any(cell_len(line) > 40 for line in lines)  # a passage a line, not wrapped


def collation_in_paragraphs(base: str, other: str, unit_starts: tuple[int, ...]) -> Collation:
    """:func:`collation_with`, the texts in paragraphs (units) starting at ``unit_starts``."""
    witnesses = {"SK": plain_witness("SK", base), "ZS": plain_witness("ZS", other)}
    streams = {
        s: [replace(t, unit=sum(1 for k in unit_starts if t.index >= k)) for t in tokens_from_string(s, text)]
        for s, text in (("SK", base), ("ZS", other))
    }
    columns = tuple(zip(streams["SK"], streams["ZS"], strict=True))
    result = build_layer(LayerAlignment(Layer.JING, ("SK", "ZS"), columns), witnesses)
    infos = (WitnessInfo("SK", "SK", "SK.txt", "plain"), WitnessInfo("ZS", "ZS", "ZS.txt", "plain"))
    return Collation("t", "t", "SK", infos, (result,))


def test_an_excerpt_is_cut_at_its_paragraph_and_neighbouring_loci_share_one() -> None:
    base = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉"  # two paragraphs: 甲…丑, 寅…酉
    other = base[:3] + "X" + base[4:6] + "Y" + base[7:15] + "Z" + base[16:]
    result = collation_in_paragraphs(base, other, (12,)).layers[0]
    assert [x.base_start for x in result.loci] == [3, 6, 15]
    tokens = sorted(result.alignment.base.tokens, key=lambda t: t.index)
    # 丁 and 庚 are 3 apart: with 2 characters either side their stretches meet, one window;
    # 巳 is in the next paragraph.
    cut = windows(tokens, result.loci, 2)
    assert [(w.start, w.end, w.unit_start, w.unit_end) for w in cut] == [(1, 9, 0, 12), (13, 18, 12, 20)]
    text, shown = excerpts(result, DiffFilter(), None, 2)
    assert shown == 3
    assert text.plain.splitlines() == [
        f"1a  {CUT}乙丙丁〔ZS X 文〕戊己庚〔ZS Y 文〕辛壬{CUT}",
        f"1a  {CUT}卯辰巳〔ZS Z 文〕午未{CUT}",
    ]
    # A paragraph's own ends are no cut: no mark there.
    assert excerpts(result, DiffFilter(), None, 20)[0].plain.splitlines() == [
        "1a  甲乙丙丁〔ZS X 文〕戊己庚〔ZS Y 文〕辛壬癸子丑",
        "1a  寅卯辰巳〔ZS Z 文〕午未申酉",
    ]


def test_a_cause_asked_for_shows_only_its_readings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 形近: 己/已 and 已/巳 are graphic confusions; 矣/也 is another word, of no cause.
    (tmp_path / "a.txt").write_text("反求諸己而已故君子無所爭矣\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("反求諸已而巳故君子無所爭也\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["diff", "a.txt", "b.txt", "--cause", "look-alike", "--list", "--no-pager"])
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.stdout.splitlines()[1:] if line.strip()]
    assert sorted((r[4], r[6]) for r in rows) == [("己", "已"), ("已", "巳")]
