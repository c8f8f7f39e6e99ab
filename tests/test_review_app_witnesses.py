"""The witnesses at a locus on a real terminal's screen: each reading that differs, with its witnesses,
on one line of the first screen at 80×24, 100×30 and 200×50; the agreeing witnesses named in one line.

Two collations: five witnesses built here (no files), and 禮記·射義 in its six editions from the
reference material beside the repository (skipped without it).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from builders import collate_rows, review_session, seed_chars, shared_project
from rich.cells import cell_len
from test_review_app import column_of, screen_text
from textual.containers import VerticalScroll

from collate.apparatus import Collation, Locus, WitnessInfo
from collate.pipeline import collate_project
from collate.review.app import ReviewApp
from collate.review.look import shown
from collate.review.session import ReviewSession, open_review

SIZES = [(80, 24), (100, 30), (200, 50)]

# --- five witnesses, built here ----------------------------------------------------------------------------

LABELS = {"WYG": "四庫本", "ZT": "纂圖本", "JS": "集說本", "TLS": "TLS本", "WS": "維基本"}
# 30 characters only 集說本 has: too wide for what 80 columns leave them, not for 100.
ADDED = "天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏闰余成岁律吕"


def five_witnesses() -> Collation:
    """WYG (the base) and four witnesses: ZT alone reads 甲 at 40; ZT and JS read 乙, TLS 丙 at 70;
    JS alone has 30 characters more at 100. Every context runs on for 40 characters either side."""
    base = seed_chars()[200:330]
    assert not {"甲", "乙", "丙"} & set(base)
    rows = {s: list(base[:100]) + ["-"] * len(ADDED) + list(base[100:]) for s in LABELS}
    rows["ZT"][40] = "甲"
    rows["ZT"][70] = rows["JS"][70] = "乙"
    rows["TLS"][70] = "丙"
    rows["JS"][100 : 100 + len(ADDED)] = ADDED
    collation = collate_rows({s: "".join(row) for s, row in rows.items()})
    infos = tuple(WitnessInfo(s, LABELS[s], f"{s}.txt", "plain") for s in LABELS)
    return replace(collation, witnesses=infos)


@pytest.fixture
def five(tmp_path: Path) -> ReviewSession:
    """A review of :func:`five_witnesses`."""
    return review_session(five_witnesses(), tmp_path / "decisions.toml")


# --- what the screen shows -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Screen:
    """One locus on screen: the lines the terminal shows, and whether anything lies below them."""

    locus: Locus
    lines: list[str]
    scrolls: bool


def screens(session: ReviewSession, size: tuple[int, int], loci: list[str], full: bool = False) -> Iterator[Screen]:
    """The screen of each locus of ``loci`` (ids), drawn headless at ``size``; with ``e`` if ``full``."""
    app = ReviewApp(session)
    index = {x.id: k for k, x in enumerate(session.loci)}
    out: list[Screen] = []

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            if full:
                await pilot.press("e")
            for locus in loci:
                app.index = index[locus]
                app.refresh_view()
                await pilot.pause()
                scroll = app.query_one(VerticalScroll)
                lines = [line.rstrip() for line in screen_text(app)]
                out.append(Screen(session.loci[index[locus]], lines, scroll.max_scroll_y > 0))
            await pilot.press("q")

    asyncio.run(run())
    return iter(out)


def cells(line: str) -> list[str]:
    """A line of the witnesses' table cut into its cells (columns are two spaces or more apart)."""
    return re.split(r"\s{2,}", line.strip())


def line_of(lines: list[str], name: str) -> list[str]:
    """The lines of the table that begin with the witness ``name``."""
    return [line for line in lines if line.startswith(name) and cells(line)[0] == name]


def assert_readings_shown(screen: Screen, names: Callable[[str], str], readings: dict[str, str]) -> None:
    """Every witness of ``readings`` (siglum → the reading as shown) has one line on screen: its name,
    the whole reading in its brackets; the others with the base's reading named in one line."""
    locus = screen.locus
    assert any(locus.id in line for line in screen.lines)
    for siglum, reading in readings.items():
        (line,) = line_of(screen.lines, names(siglum))
        assert f"〔{reading}〕" in line, (siglum, line)
    agreeing = [s for s in locus.lemma_witnesses[1:] if s not in readings]
    if agreeing:
        # A note's claim may end so too (· 一本亦作脩，同底本): the witnesses' line is not one of its claims.
        (line,) = [
            line
            for line in screen.lines
            if line.endswith("同底本") and "〔" not in line and not line.lstrip().startswith("·")
        ]
        assert line.strip() == "、".join(names(s) for s in agreeing) + " 同底本"


def readings_of(locus: Locus) -> dict[str, str]:
    """The base's and each differing witness's reading at ``locus``, as the screen shows a short one."""
    out = {locus.lemma_witnesses[0]: shown(locus.lemma.text)}
    out.update({w.siglum: shown(w.text) for r in locus.variants() for w in r.witnesses})
    return out


# --- five witnesses ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_every_reading_that_differs_is_on_the_first_screen(five: ReviewSession, size: tuple[int, int]) -> None:
    ids = [x.id for x in five.loci]
    assert len(ids) == 3

    def names(siglum: str) -> str:
        # The labels where siglum and label would leave the text too little of 80 columns.
        return LABELS[siglum] if size[0] < 100 else f"{siglum} {LABELS[siglum]}"

    for screen in screens(five, size, ids):
        assert not screen.scrolls
        readings = readings_of(screen.locus)
        if screen.locus.lemma.text:
            assert_readings_shown(screen, names, readings)
            continue
        # The 30 characters 集說本 adds: on one line, cut with their length said where the line is short.
        (line,) = line_of(screen.lines, names("JS"))
        if size[0] < 100:
            assert "〔天地玄黄" in line and "…（共30字，e 展開）〕" in line
        else:
            assert f"〔{ADDED}〕" in line
        assert_readings_shown(screen, names, {s: r for s, r in readings.items() if s != "JS"})


def test_one_witness_differing_among_five_is_one_line_and_the_others_one_line(five: ReviewSession) -> None:
    (screen,) = screens(five, (80, 24), [five.loci[0].id])
    table = [line for line in screen.lines if "〔" in line or "同底本" in line]
    assert [cells(line)[0] for line in table] == ["四庫本", "纂圖本", "集說本、TLS本、維基本 同底本"]
    assert "〔甲〕" in table[1] and "異文" in table[1]


@pytest.mark.parametrize("size", SIZES)
def test_contexts_fit_one_line_with_the_readings_in_one_column_and_centred(
    five: ReviewSession, size: tuple[int, int]
) -> None:
    (screen,) = screens(five, size, [five.loci[1].id])  # 乙 and 丙 at 70: 40 characters either side
    rows = [line for line in screen.lines if "〔" in line]
    assert len(rows) == 4  # the base, ZT, JS, TLS: no row folded onto a second line
    assert all(cell_len(line.rstrip()) <= size[0] for line in rows)
    assert len({column_of("〔", line) for line in rows}) == 1
    text = cells(rows[0])[1]
    before, after = text.split("〔")[0], text.split("〕")[1]
    assert before and after and abs(cell_len(before) - cell_len(after)) <= 2


def test_with_e_every_witness_has_its_line(five: ReviewSession) -> None:
    (screen,) = screens(five, (200, 50), [five.loci[0].id], full=True)
    assert {cells(line)[0] for line in screen.lines if "〔" in line} == {f"{s} {label}" for s, label in LABELS.items()}
    assert not any(line.endswith("同底本") and "〔" not in line for line in screen.lines)


# --- 禮記·射義 in six editions -------------------------------------------------------------------------

SHEYI = {
    "WYG-zhushu": ("liji-sheyi-zhushu-kanripo-WYG.txt", "四庫本《禮記註疏》"),
    "SBCK-zhengyi": ("liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt", "四部叢刊本《禮記正義》"),
    "SBCK-zuantu": ("liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt", "四部叢刊本《纂圖互註禮記》"),
    "WYG-jishuo": ("liji-jishuo-chenhao-sheyi-kanripo-WYG.txt", "四庫本《陳氏禮記集說》"),
    "TLS": ("liji-sheyi-kanripo-TLS.txt", "TLS本"),
    "wikisource": ("liji-sheyi-wikisource-hangsau.txt", "射義"),
}


@pytest.fixture(scope="module")
def sheyi(tmp_path_factory: pytest.TempPathFactory) -> ReviewSession:
    """A review of the six editions of 射義, collated here."""
    root = tmp_path_factory.mktemp("sheyi")
    project = shared_project(root, "WYG-zhushu", SHEYI)
    return open_review(collate_project(project), "王", project=project)


def crowded(session: ReviewSession) -> list[str]:
    """The loci that crowd the screen: many witnesses differing, several readings, notes, a 經 above."""
    loci = session.loci
    many = [x for x in loci if len(x.variants()) > 1 or sum(len(r.sigla) for r in x.variants()) > 2]
    noted = [x for x in loci if x.notes]
    glossed = [next(x for x in loci if session.glossed(x) is not None and "SBCK-zhengyi" in x.sigla)]
    return [x.id for x in (*many, *noted, *glossed)]


@pytest.mark.shared
@pytest.mark.parametrize("size", SIZES)
def test_sheyi_every_reading_and_its_witnesses_are_on_the_first_screen(
    sheyi: ReviewSession, size: tuple[int, int]
) -> None:
    ids = crowded(sheyi)
    assert len(ids) >= 30

    def names(siglum: str) -> str:
        # The long labels leave too little of 80 columns: the sigla; of 100, the labels alone.
        label = SHEYI[siglum][1]
        return siglum if size[0] < 100 else label if size[0] < 120 else f"{siglum} {label}"

    for screen in screens(sheyi, size, ids):
        assert_readings_shown(screen, names, readings_of(screen.locus))
        assert not screen.scrolls, screen.locus.id
