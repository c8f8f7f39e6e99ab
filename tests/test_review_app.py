"""``collate review`` driven headlessly, key by key, on a copy of the default project."""

from __future__ import annotations

import asyncio
import io
import os
from dataclasses import replace
from pathlib import Path

import pytest
from builders import copy_default_project
from click.testing import CliRunner
from rich.cells import cell_len
from rich.console import Console

from collate.apparatus import ReadingClass
from collate.cli import main
from collate.decisions import decision_counts, load_decisions
from collate.model.annotations import DecisionAction
from collate.pipeline import collate_project
from collate.project import load_project
from collate.review.app import HelpScreen, ReviewApp
from collate.review.session import ReviewSession, open_review

ALGORITHM_SQUARE = 10  # loci where the base reads 算 and 注疏本 筭, in 經, 注 and 疏 (one beside an omission in 疏)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the default project (project file, seeds, readings file) to edit freely."""
    return copy_default_project(tmp_path)


def open_session(config: Path, editor: str = "王") -> ReviewSession:
    """Collate the project as ``collate review`` does and open its decisions."""
    return open_review(collate_project(load_project(config)), editor)


def type_text(text: str) -> tuple[str, ...]:
    """The keys that type ``text`` into a prompt and answer it."""
    return (*text, "enter")


def screen_text(app: ReviewApp) -> list[str]:
    """The lines of the terminal as the app has drawn them (what the editor sees)."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def decide_by_keys(app: ReviewApp) -> list[str]:
    """Decide loci as an editor would, key by key; return the ids visited when deciding.

    After each decision the review goes on to the next locus by itself.
    """
    decided = []
    async with app.run_test(size=(120, 40)) as pilot:
        # The loci of graphs only (算/筭) are left out unless shown: shown, to batch them below.
        await pilot.press("f", "6")

        async def here(*keys: str) -> None:
            assert app.locus is not None
            decided.append(app.locus.id)
            k = app.index
            await pilot.press(*keys)
            assert app.index == k + 1, "a decision goes on to the next locus"

        await here("a", "1", *type_text("大戴本作峭"))  # adopt DD's 峭
        await here("k")  # keep the base
        await here("d", *type_text("待考"))  # 存疑
        await here("c", "3", "enter")  # DD's 峭 is a scribal error
        await here("a", "1", "enter")  # adopt ZS's 盤, no comment
        await here("b", "k")  # every 算/筭 kept at once
        await pilot.press("p")
        assert app.locus is not None and app.locus.id == decided[-1]
        await pilot.press("N")
        assert app.locus is not None and app.locus.decision is None
        await pilot.press("g", *type_text("10a"))
        assert app.locus is not None and app.locus.lemma.location is not None
        assert app.locus.lemma.location.page == "10a"
        decided.append(app.locus.id)
        await pilot.press("k")
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("space")
        assert not isinstance(app.screen, HelpScreen)
        await pilot.press("q")
    return decided


def test_decisions_made_by_keys_are_applied_after_a_rerun(project: Path) -> None:
    session = open_session(project)
    app = ReviewApp(session)
    visited = asyncio.run(decide_by_keys(app))
    assert app.return_code == 0
    first = session.loci[0]
    assert visited[0] == first.id == "jing-00024"
    decided = set(session.report.decided)
    assert len(decided) == len(visited) - 1 + ALGORITHM_SQUARE == 16 and set(visited) <= decided

    # A new run of the collation, a new session: the same loci decided, the same way.
    again = open_session(project, editor="李")
    assert set(again.report.decided) == decided and not again.report.orphans
    by_id = {x.id: x for x in again.loci}
    adopted = by_id["jing-00024"].decision
    assert adopted is not None and (adopted.lemma, adopted.siglum, adopted.comment) == ("峭", "DD", "大戴本作峭")
    assert adopted.resp == ("王",)
    doubtful = by_id[visited[2]].decision
    assert doubtful is not None and doubtful.doubtful and doubtful.comment == "待考"
    reclassified = by_id[visited[3]]
    reading = reclassified.reading_of("DD")
    assert reading is not None and reading.cls is ReadingClass.SCRIBAL_ERROR
    pan = by_id[visited[4]]
    assert pan.decision is not None and pan.decision.lemma == "盤" and pan.decision.siglum == "ZS"
    assert pan.editor_lemma() is not None
    batch = [d for d in again.decisions if d.batch is not None]
    assert len(batch) == ALGORITHM_SQUARE and {d.anchor.lemma for d in batch} == {"算"}
    assert all(by_id[x].decision is not None for x in decided)

    # Reopened: the first screen is the first undecided locus, and N goes from undecided to undecided.
    reopened = ReviewApp(again)

    async def walk() -> list[str]:
        seen = []
        async with reopened.run_test(size=(120, 40)) as pilot:
            for _ in range(8):
                assert reopened.locus is not None
                seen.append(reopened.locus.id)
                await pilot.press("N")
            await pilot.press("q")
        return seen

    assert asyncio.run(walk()) == list(again.report.undecided[:8])


def test_decisions_reanchor_or_become_orphans_after_witness_files_change(project: Path) -> None:
    session = open_session(project)
    for locus in session.loci:
        variant = locus.variants()[0]
        if variant.sigla == ("DD",):
            session.decide(locus, DecisionAction.ADOPT, reading=variant, siglum="DD", comment="大戴")
        else:
            session.decide(locus, DecisionAction.KEEP)
    made = {d.id for d in session.decisions}
    assert len(made) == len(session.loci) == len(session.report.decided)

    # The base gains a character early in 經 (all later 經 offsets move by one), and 注疏本 is
    # corrected where it read 盤 for 般 (that locus is gone).
    base = project.parent / "seeds" / "000_2cc6d19ca27bf473.txt"
    text = base.read_text(encoding="utf-8")
    assert text.count("使人执壶(注") == 1
    base.write_text(text.replace("使人执壶(注", "使人执壶之(注"), encoding="utf-8")
    zs = project.parent / "seeds" / "001_97a493e45035c1ac.txt"
    text = zs.read_text(encoding="utf-8")
    assert text.count("賓盤還") == 1
    zs.write_text(text.replace("賓盤還", "賓般還"), encoding="utf-8")

    again = open_session(project)
    report = again.report
    assert {p.decision.id for p in report.placed} | {d.id for d in report.orphans} == made  # none lost
    assert [(d.anchor.lemma, d.anchor.readings) for d in report.orphans] == [("般", ("盘",))]
    moved = [p for p in report.placed if p.moved]
    assert moved and all(p.locus.startswith("jing-") for p in moved)
    assert all(int(p.locus[5:10]) == p.decision.anchor.offset + 1 for p in moved)
    shao = [p for p in report.placed if p.decision.anchor.lemma == "哨"]
    assert [p.locus for p in shao] == ["jing-00025", "jing-00054", "jing-00082"]
    assert all(
        (x := again.collation.locus(p.locus)) is not None and x.decision is not None and x.decision.siglum == "DD"
        for p in shao
    )
    counts = decision_counts(report)
    assert (counts.orphaned, counts.moved) == (1, len(moved))
    # The new place (执壶之) is undecided; deciding it keeps the orphan in the file.
    assert counts.undecided >= 1
    new = next(x for x in again.loci if x.decision is None)
    again.decide(new, DecisionAction.KEEP)
    assert made <= {d.id for d in load_decisions(again.path)}


def test_a_save_that_fails_is_reported_and_the_file_is_intact(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = open_session(project)
    app = ReviewApp(session, "en")

    async def drive() -> str:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("k")
            good = session.path.read_bytes()

            def crash(src: object, dst: object) -> None:
                raise OSError(5, "Input/output error")

            monkeypatch.setattr(os, "replace", crash)
            await pilot.press("b", "k")
            message = app.message
            monkeypatch.undo()
            assert session.path.read_bytes() == good
            await pilot.press("q")
        return message

    message = asyncio.run(drive())
    assert message.startswith("NOT SAVED") and "Input/output error" in message
    assert len(load_decisions(session.path)) == 1 == len(session.decisions)
    # No temporary file left behind (the lock file every save takes stays, empty).
    left = {p.name for p in session.path.parent.iterdir() if p.name.startswith(".decisions")}
    assert left == {".decisions.toml.lock"}


def test_review_needs_a_terminal(project: Path) -> None:
    result = CliRunner().invoke(main, ["review", "--config", str(project)])
    assert result.exit_code == 1 and "needs a terminal" in result.output


def test_a_decision_does_not_jump_to_another_place_that_reads_alike(project: Path) -> None:
    session = open_session(project)
    second = next(x for x in session.loci if x.id == "jing-00053")  # 主人曰枉矢哨壶不足辞也敢固, twice in 投壺
    session.decide(second, DecisionAction.ADOPT, reading=second.variants()[0], siglum="DD")
    # The readings file no longer reports 峭 at the second place: that locus is gone, the third stays.
    readings = project.parent / "witnesses" / "dadai-readings.toml"
    text = readings.read_text(encoding="utf-8")
    entry = (
        '[[reading]]\nat = "枉矢哨壶不足辞也敢固以请宾曰某既赐"\nbase = "哨"\nreading = "峭"\n'
        'source = "蕙田案（五禮通考卷165 頁3a）"\nnote = "今本大戴礼乃作峭谬甚"\n'
    )
    assert text.count(entry) == 1
    readings.write_text(text.replace(entry, ""), encoding="utf-8")
    again = open_session(project)
    assert "jing-00053" not in {x.id for x in again.loci} and "jing-00081" in {x.id for x in again.loci}
    assert len(again.report.orphans) == 1 and not again.report.placed


def column_of(text: str, line: str) -> int:
    """The terminal column (in cells: a CJK character takes two) where ``text`` starts in ``line``."""
    return cell_len(line[: line.index(text)])


def rendered(app: ReviewApp, width: int = 120) -> list[str]:
    """The locus on screen as plain lines, ``width`` cells wide."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, color_system=None).print(app.render_locus())
    return buffer.getvalue().splitlines()


def test_a_locus_shows_each_reading_in_context_the_agreeing_witnesses_in_a_line_and_the_notes(project: Path) -> None:
    app = ReviewApp(open_session(project), "en")
    assert app.locus is not None and app.locus.id == "jing-00024"
    lines = rendered(app)
    row = {line.split()[0]: line for line in lines if line.split() and line.split()[0] in ("SK", "ZS", "DD")}
    assert "某有枉矢〔哨〕壶请以乐宾" in row["SK"] and "2b.5" in row["SK"]
    assert row["ZS"].strip() == "ZS 注疏本 = base"  # agreeing with the base: named, not drawn again
    assert "〔峭〕" in row["DD"] and "substantive" in row["DD"]
    assert column_of("〔", row["DD"]) == column_of("〔", row["SK"])  # the readings in one column
    assert sum(line.startswith("秦蕙田") for line in lines) == 1  # the one 蕙田案 on this place, once
    assert any("DD) reads 峭 for 哨" in line for line in lines)
    assert any(line.startswith("undecided") for line in lines)
    # With e, every witness in its own characters and its whole unit.
    app.look = replace(app.look, full=True)
    whole = {line.split()[0]: line for line in rendered(app) if line.split() and line.split()[0] in ("SK", "ZS")}
    assert "某有枉矢〔哨〕壺請以樂賓" in whole["ZS"] and "= base" in whole["ZS"]


def test_a_chinese_edition_is_reviewed_in_chinese(project: Path) -> None:
    """Labels, classes, claims and the decision state in Chinese; nothing of the English left."""
    lines = rendered(ReviewApp(open_session(project)))
    text = "\n".join(lines)
    row = {line.split()[0]: line for line in lines if line.split() and line.split()[0] in ("SK", "ZS", "DD")}
    assert "同底本" in row["ZS"] and "異文" in row["DD"] and "所記異文" in row["DD"]
    assert "今本大戴礼（DD）作峭，底本作哨" in text  # the claim, worded from its fields as the edition words it
    assert lines[0].split()[:3] == ["經", "jing-00024", "異文"]
    assert any(line.startswith("未決") for line in lines)
    for english in ("base", "reads", "substantive", "undecided", "siglum", "suggested"):
        assert english not in text


def test_every_class_an_editor_may_give_is_offered_and_applied(project: Path) -> None:
    from collate.decisions.file import EDITOR_CLASSES

    assert {ReadingClass.LOAN, ReadingClass.TRANSPOSITION, ReadingClass.PLACEHOLDER} <= set(EDITOR_CLASSES)
    session = open_session(project)
    app = ReviewApp(session, "en")

    async def drive() -> str:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("c")
            await pilot.pause()
            offered = "\n".join(screen_text(app))
            await pilot.press("4", *type_text("假借"))  # the fourth: loan
            await pilot.press("q")
        return offered

    offered = asyncio.run(drive())
    names = ("substantive", "orthographic", "scribal error", "loan", "transposition", "placeholder")
    assert all(f"{k}  {name}" in offered for k, name in enumerate(names, 1))
    again = open_session(project)
    locus = again.collation.locus("jing-00024")
    assert locus is not None and locus.readings[0].cls is ReadingClass.LOAN
    assert [d.cls for d in load_decisions(again.path)] == [ReadingClass.LOAN]


def test_a_notes_suggestion_is_shown_and_accepted_with_one_key(project: Path) -> None:
    session = open_session(project)
    app = ReviewApp(session)
    seen: list[str] = []

    async def drive() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            seen.extend(screen_text(app))
            await pilot.press("y")
            assert app.locus is not None and app.locus.id == "jing-00053"  # on to the next
            await pilot.press("y")
            assert app.message == "此處案語無建議"
            await pilot.press("q")

    asyncio.run(drive())
    assert "建議：從底本（秦蕙田：「谬甚」）  y 採納" in "\n".join(seen)
    (kept,) = load_decisions(session.path)
    assert (kept.action, kept.comment, kept.anchor.locus) == (DecisionAction.KEEP, "秦蕙田：谬甚", "jing-00024")


def test_loci_merged_and_split_by_keys_are_cut_so_again_after_a_rerun(project: Path) -> None:
    session = open_session(project)
    app = ReviewApp(session)

    async def drive() -> None:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("g", *type_text("4a"))  # zhu-00149 偕/階, then zhu-00158 席/人 in the same 注
            assert app.locus is not None and app.locus.id == "zhu-00149"
            await pilot.press("m")
            assert app.message == "已合併為 zhu-00149"
            await pilot.press("k")  # the merged locus decided like any other
            await pilot.press("g", *type_text("11a"))
            for _ in range(len(session.loci)):  # on to shu-01126: 注亦实八算于中横委其馀于中西, omitted
                if app.locus is not None and app.locus.id == "shu-01126":
                    break
                await pilot.press("n")
            await pilot.press("s", "7")  # cut after 注亦实八算于中
            assert app.message == "已拆分為 shu-01126 shu-01133"
            await pilot.press("g", *type_text("2b"), "s")
            assert app.message == "底本此處不足兩字，不能拆分"
            await pilot.press("q")

    asyncio.run(drive())
    again = open_session(project)
    merged = again.collation.locus("zhu-00149")
    assert merged is not None and merged.lemma.text == "偕进明为偶也宾席主席"
    assert merged.readings[0].text == "階進明為偶也賓席主人" and merged.decision is not None
    assert again.collation.locus("zhu-00158") is None
    halves = [again.collation.locus(k) for k in ("shu-01126", "shu-01133")]
    assert [x.lemma.text if x else None for x in halves] == ["注亦实八算于中", "横委其馀于中西"]
    assert all(x is not None and x.readings[0].cls is ReadingClass.OMISSION for x in halves)
    assert not again.report.orphans
