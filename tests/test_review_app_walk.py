"""The review's place and view, driven key by key: filters, search, undo, long texts, orphans, the key bar."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from test_review_app import open_session, project, screen_text, type_text
from textual.pilot import Pilot

from collate.apparatus import ReadingClass
from collate.decisions import load_decisions
from collate.model import Layer
from collate.model.annotations import DecisionAction
from collate.review.app import OrphansScreen, ReviewApp
from collate.review.filters import LocusFilter
from collate.review.texts import Lang

__all__ = ["project"]  # the fixture, shared with test_review_app


def drive(app: ReviewApp, keys: Callable[[Pilot[None]], Awaitable[None]], size: tuple[int, int] = (100, 30)) -> None:
    """Run ``app`` headless, press ``keys``, then quit."""

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await keys(pilot)
            await pilot.press("q")

    asyncio.run(run())


def test_undo_and_redo_by_keys(project: Path) -> None:
    session = open_session(project)
    app = ReviewApp(session)
    seen: list[tuple[str | None, int]] = []

    async def keys(pilot: Pilot[None]) -> None:
        def note() -> None:
            seen.append((app.locus.id if app.locus else None, len(load_decisions(session.path))))

        await pilot.press("k")  # kept, and on to the next locus
        note()
        await pilot.press("u")  # undone: back at the first, and out of the file
        note()
        assert app.message == "已撤銷：從底本 jing-00024"
        await pilot.press("ctrl+r")  # redone
        note()
        await pilot.press("u", "U")  # U redoes too
        note()
        await pilot.press("u", "u")
        assert app.message == "無可撤銷"

    drive(app, keys)
    assert seen == [("jing-00053", 1), ("jing-00024", 0), ("jing-00024", 1), ("jing-00024", 1)]
    assert load_decisions(session.path) == ()


def test_filters_by_class_layer_witness_undecided_and_note(project: Path) -> None:
    app = ReviewApp(open_session(project))
    walked: dict[str, list[str]] = {}

    async def walk(name: str, pilot: Pilot[None]) -> None:
        ids = []
        for _ in range(len(app.shown)):
            assert app.locus is not None
            ids.append(app.locus.id)
            await pilot.press("n")
        walked[name] = ids

    async def keys(pilot: Pilot[None]) -> None:
        # Classes in the picker: 全部, then those present, strongest first; 異體 (orthographic) is the 7th.
        await pilot.press("f", "1", "7")
        assert "異體" in screen_text(app)[0] and app.message.startswith("篩選：")
        await walk("orthographic", pilot)
        await pilot.press("f", "7", "f", "2", "3")  # cleared, then 注 of 經 注 疏
        await walk("zhu", pilot)
        await pilot.press("f", "2", "1", "f", "3", "2")  # every layer; witness: DD (of any, DD, ZS)
        await walk("DD", pilot)
        await pilot.press("f", "5")  # and with a note
        await walk("noted", pilot)

    drive(app, keys)
    loci = {x.id: x for x in app.session.loci}
    assert all(loci[k].variants()[0].cls is ReadingClass.ORTHOGRAPHIC for k in walked["orthographic"])
    # 算/筭 ten times and two print forms (受/授, 向/鄉); the simplified base's 里 for 裏 is its script.
    assert len(walked["orthographic"]) == 12
    assert walked["zhu"] and all(loci[k].layer is Layer.ZHU for k in walked["zhu"])
    assert all(any("DD" in r.sigla for r in loci[k].variants()) for k in walked["DD"])
    assert walked["noted"] and all(loci[k].notes and "DD" in loci[k].sigla for k in walked["noted"])


def test_a_decision_goes_on_to_the_next_locus_the_filter_shows(project: Path) -> None:
    app = ReviewApp(open_session(project))
    visited: list[str] = []

    async def keys(pilot: Pilot[None]) -> None:
        await pilot.press("f", "4", "f", "1", "7")  # undecided only, orthographic only
        for _ in range(3):
            assert app.locus is not None
            visited.append(app.locus.id)
            await pilot.press("k")

    drive(app, keys)
    # The first three 算/筭, each kept in turn, with no key to move between them.
    assert visited == ["jing-00159", "zhu-00217", "zhu-00228"]
    assert [d.anchor.locus for d in load_decisions(app.session.path)] == visited


def test_a_search_walks_the_loci_where_any_witness_has_the_characters(project: Path) -> None:
    app = ReviewApp(open_session(project))
    found: list[str] = []

    async def keys(pilot: Pilot[None]) -> None:
        await pilot.press("slash", *type_text("枉矢哨壺"))  # in traditional characters: the base's are simplified
        assert "搜「枉矢哨壺」" in screen_text(app)[0]
        for _ in range(4):
            assert app.locus is not None
            found.append(app.locus.id)
            await pilot.press("n")
        assert app.message == "已是最後一處"
        await pilot.press("slash", "enter")  # an empty search clears it
        assert app.shown == app.session.matching(LocusFilter())

    drive(app, keys)
    assert found == ["jing-00024", "jing-00053", "jing-00081", "jing-00081"]


def test_a_long_reading_is_cut_with_its_length_and_e_shows_it_whole(project: Path) -> None:
    app = ReviewApp(open_session(project))
    screens: list[str] = []

    async def keys(pilot: Pilot[None]) -> None:
        await pilot.press("g", *type_text("17b"))
        screens.append("".join(line.strip() for line in screen_text(app)))
        await pilot.press("e")
        screens.append("".join(line.strip() for line in screen_text(app)))

    drive(app, keys, size=(100, 60))
    cut, whole = screens
    reading = "今日泰射四正具舉大夫君子凡以庶"
    assert reading in cut and "（共113字，e展開）" in cut.replace(" ", "")
    assert cut.count("…") == cut.count("（共")  # never a bare …
    assert "乃節其行既志乃張" not in cut and "乃節其行既志乃張" in whole and "（共113字" not in whole


def test_the_orphans_view_says_why_and_re_attaches_or_drops(project: Path) -> None:
    session = open_session(project)
    app = ReviewApp(session)
    shown: list[str] = []

    async def keys(pilot: Pilot[None]) -> None:
        await pilot.press("o")
        assert app.message == "沒有失位的決定"
        await pilot.press("g", *type_text("4a"), "n")  # zhu-00158 (席/人)
        assert app.locus is not None and app.locus.id == "zhu-00158"
        await pilot.press("k", "p", "m")  # kept; then merged with 者/∅ after it: the keep fits no more
        assert "1條決定失位" in app.message
        await pilot.press("o")
        assert isinstance(app.screen, OrphansScreen)
        shown.append("\n".join(screen_text(app)))
        await pilot.press("r")  # re-attached to the merged locus
        assert app.message == "已接到 zhu-00158" and not session.report.orphans
        await pilot.press("u", "o", "x")  # undone: an orphan again; dropped
        assert app.message == "已刪除失位的決定"

    drive(app, keys)
    assert "此處已重新分合，今為 zhu-00158「席席皆南乡间相去如射物者」" in shown[0]
    assert [d.action for d in load_decisions(session.path)] == [DecisionAction.MERGE]


@pytest.mark.parametrize(("lang", "last"), [("zh", "? 說明  q 離開"), ("en", "? help  q quit")])
def test_the_key_bar_shows_help_and_quit_at_80_columns(project: Path, lang: Lang, last: str) -> None:
    app = ReviewApp(open_session(project), lang)
    bottom: list[str] = []

    async def keys(pilot: Pilot[None]) -> None:
        bottom.append(screen_text(app)[-1].rstrip())

    drive(app, keys, size=(80, 24))
    assert bottom[0].endswith(last) and bottom[0].startswith("k ")


def test_a_zhu_locus_shows_the_jing_it_explains_above_it(project: Path) -> None:
    app = ReviewApp(open_session(project))
    lines: list[str] = []

    async def keys(pilot: Pilot[None]) -> None:
        await pilot.press("g", *type_text("2a"))
        lines.extend(screen_text(app))

    drive(app, keys)
    assert lines[1].split()[:2] == ["注", "zhu-00014"]
    assert lines[2].startswith("所釋經文 2a.1：投壶之礼主人奉矢司射奉中使人执壶")
    row = next(line for line in lines if line.startswith("SK"))
    assert "使人执壶" not in row  # the context is the 注's own unit
