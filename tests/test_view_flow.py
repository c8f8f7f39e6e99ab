"""``collate diff`` on a terminal of any width: a reading's bracket is never broken, the line breaks before it.

A bracket too wide for the terminal breaks between its readings, then between sigla, never inside
a reading's text (unless that alone is wider than the terminal); nothing is lost, no line is too wide.
"""

from __future__ import annotations

import io
import re

import pytest
from builders import collate_rows, run_default_project
from conftest import GAIJI, REPO, SHARED, need_shared
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.text import Text

from collate.apparatus import Collation
from collate.pipeline import collate_project
from collate.project import project_from_mapping
from collate.results import RunResult
from collate.views.diff import DiffFilter, diff_view
from collate.views.flow import BEFORE_TEXT, BETWEEN_SIGLA, KEEP, Flow

# Long sigla, as real editions have them (SBCK-zuantu, WYG-jishuo): a bracket takes half a narrow line.
BASE = (
    "其節天子以騶虞爲節諸侯以貍首爲節卿大夫以采蘋爲節士以采蘩爲節"
    "騶虞者樂官備也貍首者樂會時也采蘋者樂循法也采蘩者樂不失職也"
)
ROWS = {
    "WYG-zhushu": BASE,
    "SBCK-zuantu": BASE.replace("蘩", "繁").replace("貍", "狸"),
    "WYG-jishuo": BASE.replace("蘩", "繁").replace("循", "脩"),
}
BRACKET = re.compile(r"〔[^〕]*〕")


@pytest.fixture(scope="module")
def rows() -> Collation:
    return collate_rows(ROWS)


def rendered(renderable: RenderableType, width: int) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(renderable)
    return out.getvalue().splitlines()


def piped(renderable: RenderableType) -> list[str]:
    out = io.StringIO()
    Console(file=out, width=10_000, color_system=None).print(renderable, soft_wrap=True)
    return out.getvalue().splitlines()


def assert_brackets_whole(lines: list[str], whole: list[str], width: int) -> int:
    """Every bracket of the unwrapped view that fits the width stands whole on one line; no line is
    wider than the terminal; the text is all there. Returns how many brackets were checked."""
    assert all(cell_len(line) <= width for line in lines)
    # Only line breaks added (rich drops the space it breaks the legend's words at).
    assert re.sub(r"\s", "", "".join(lines)) == re.sub(r"\s", "", "".join(whole))
    checked = 0
    for bracket in (b for line in whole for b in BRACKET.findall(line)):
        if cell_len(bracket) <= width:
            assert any(bracket in line for line in lines), (width, bracket)
            checked += 1
    return checked


@pytest.mark.parametrize("width", [80, 40])
def test_a_bracket_stays_whole_on_its_line(rows: Collation, width: int) -> None:
    view = diff_view(rows, DiffFilter(fold=True))
    lines, whole = rendered(view, width), piped(view)
    assert assert_brackets_whole(lines, whole, width) >= 4
    # The bracket goes onto the next line with the character it reads against, not alone.
    assert not any(line.startswith("〔") for line in lines)
    assert any(line.startswith("蘩〔") for line in lines) or width == 80


@pytest.mark.parametrize("width", [80, 40])
def test_the_default_project_at_80_and_40_columns(width: int) -> None:
    run = run_default_project()
    for view in (DiffFilter(fold=True), DiffFilter(), DiffFilter(layers=(run.collation.layers[0].layer,))):
        shown = diff_view(run.collation, view, run.read.by_siglum(), None if view.fold else 10)
        assert assert_brackets_whole(rendered(shown, width), piped(shown), width) > 0


def test_a_bracket_wider_than_the_terminal_breaks_between_sigla_not_inside_a_reading(rows: Collation) -> None:
    width = 20
    lines = rendered(diff_view(rows, DiffFilter(fold=True)), width)
    body = lines[lines.index(next(x for x in lines if x.startswith("經 jing"))) + 1 :]
    assert all(cell_len(line) <= width for line in body)
    # 〔SBCK-zuantu WYG-jishuo 繁 文〕 is 30 cells: broken after a siglum, its reading whole.
    at = next(k for k, line in enumerate(body) if line.endswith("蘩〔SBCK-zuantu "))
    assert body[at + 1].startswith("WYG-jishuo 繁 文〕")


def test_break_costs_choose_the_last_cheapest_place() -> None:
    flow = Flow()
    flow.append("甲乙丙丁")
    # 〔AAA BB 戊 文〕: a break may come after the space between the sigla, else before the reading.
    inner = {k: {5: BETWEEN_SIGLA, 8: BEFORE_TEXT}.get(k, KEEP) for k in range(1, 12)}
    flow.append_kept(Text("〔AAA BB 戊 文〕"), inner.items(), glue=1)
    flow.append("己庚")
    # 丁 goes with its bracket; the bracket breaks between its sigla; the base text anywhere.
    assert flow.breaks(12) == [3, 9, 17]
    assert [line.plain for line in flow.text.divide([3, 9, 17])] == ["甲乙丙", "丁〔AAA ", "BB 戊 文〕己", "庚"]
    assert flow.breaks(100) == []
    with_lines = Flow()
    with_lines.append("甲乙\n丙丁")
    assert with_lines.breaks(2) == [1, 4] and rendered(with_lines, 2) == ["甲", "乙", "丙", "丁"]


# 禮記·射義 in six editions: most loci are graphs (爲/為, 徳/德), the sigla long, the brackets wide.
SHEYI = (
    ("WYG-zhushu", "liji-sheyi-zhushu-kanripo-WYG.txt"),
    ("SBCK-zhengyi", "liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt"),
    ("SBCK-zuantu", "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt"),
    ("WYG-jishuo", "liji-jishuo-chenhao-sheyi-kanripo-WYG.txt"),
    ("TLS", "liji-sheyi-kanripo-TLS.txt"),
    ("wikisource", "liji-sheyi-wikisource-hangsau.txt"),
)


@pytest.fixture(scope="module")
def sheyi() -> RunResult:
    files = [need_shared(SHARED / "witnesses" / name) for _, name in SHEYI]
    data = {
        "title": "禮記·射義",
        "name": "sheyi",
        "base": "WYG-zhushu",
        "gaiji_table": str(need_shared(GAIJI)),
        "witness": [{"siglum": s, "path": str(f)} for (s, _), f in zip(SHEYI, files, strict=True)],
    }
    return collate_project(project_from_mapping(data, root=REPO))


@pytest.mark.parametrize("width", [80, 40])
def test_six_editions_of_sheyi_at_80_and_40_columns(sheyi: RunResult, width: int) -> None:
    view = diff_view(sheyi.collation, DiffFilter(fold=True), sheyi.read.by_siglum())
    lines, whole = rendered(view, width), piped(view)
    assert assert_brackets_whole(lines, whole, width) > 50
    # The graphs are folded: counted at the end, more of them than of the loci shown.
    folded = sum(1 for x in sheyi.collation.loci() if DiffFilter(fold=True).folded(x))
    shown = sum(len(BRACKET.findall(line)) for line in whole)
    assert folded > shown and whole[-1] == f"另有異體 {folded} 處（--class all 顯示）"
