"""Regularizing from a locus (key r): the rule saved in the project, folded at once, undone by u, and
applied by the next run; the loci of graphs only left out of the walk; causes named in Chinese."""

from __future__ import annotations

import asyncio
import io
import os
from pathlib import Path

import pytest
from builders import collate_rows
from rich.console import Console
from test_review_app import screen_text
from textual.pilot import Pilot

from collate.apparatus import Locus, ReadingClass
from collate.errors import ExportError
from collate.model import Cause
from collate.normalize.regularizations import REGULARIZATIONS_FILE, Regularization, read_regularizations
from collate.pipeline import collate_project
from collate.project import load_project
from collate.review.app import ChoiceScreen, ReviewApp, ScopeScreen
from collate.review.app_view import render_locus
from collate.review.look import Look
from collate.review.regularize import Pending, fold_pending
from collate.review.session import Refused, ReviewSession, open_review
from collate.review.texts import Lang, Words

# 甲本 is the base. 乙本 writes 楫 for 揖 twice, 丙本 once (and 事 for 爭); 乙本 avoids 玄 (元, a taboo form).
TEXTS = {
    "a.txt": "君子無所爭必也射乎揖讓而升下而飲其爭也君子\n主人揖賓賓揖主人乃射玄酒在西\n",
    "b.txt": "君子無所爭必也射乎楫讓而升下而飲其爭也君子\n主人揖賓賓楫主人乃射元酒在西\n",
    "c.txt": "君子無所事必也射乎楫讓而升下而飲其爭也君子\n主人揖賓賓揖主人乃射玄酒在西\n",
}
PROJECT = """\
# 射義：三本對校。 A comment the editor wrote, to be kept.
title = "射義"   # the edition's title
name = "sheyi"
base = "A"

[[witness]]
siglum = "A"   # the base
label = "甲本"
path = "a.txt"

[[witness]]
siglum = "B"
label = "乙本"
path = "b.txt"

[[witness]]
siglum = "C"
label = "丙本"
path = "c.txt"
"""
NAMED = '\n[normalize]\nvariant_tables = ["regularizations.toml"]\n'


@pytest.fixture
def config(tmp_path: Path) -> Path:
    """The project file of three witnesses of one 經 passage, written here."""
    for name, text in TEXTS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    path = tmp_path / "collate.toml"
    path.write_text(PROJECT, encoding="utf-8")
    return path


def review(config: Path) -> ReviewSession:
    """The project collated, as `collate review` opens it (with its project, so it can regularize)."""
    project = load_project(config)
    return open_review(collate_project(project), "王", project=project)


def by_lemma(loci: tuple[Locus, ...]) -> dict[tuple[str, int], Locus]:
    """The loci by (the base's text, its offset)."""
    return {(x.lemma.text, x.base_start): x for x in loci}


def classes(locus: Locus) -> dict[str, tuple[ReadingClass, str | None]]:
    """Each witness's reading class and cause at ``locus``."""
    return {s: (r.cls, r.cause) for r in locus.variants() for s in r.sigla}


def run_app(app: ReviewApp, keys: object, size: tuple[int, int] = (80, 24)) -> None:
    """Run ``app`` headless at ``size``, let ``keys(pilot)`` press keys, then quit."""

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            await keys(pilot)  # type: ignore[operator]
            await pilot.press("q")

    asyncio.run(run())


def test_a_rule_made_by_keys_is_kept_in_the_project_folded_at_once_and_applied_by_the_next_run(config: Path) -> None:
    original = config.read_text(encoding="utf-8")
    session = review(config)
    app = ReviewApp(session)
    seen: dict[str, list[str]] = {}

    async def keys(pilot: Pilot[None]) -> None:
        # The first locus is 爭/事; the next, 揖 read 楫 by 乙本 and 丙本.
        await pilot.press("n")
        assert app.locus is not None and app.locus.lemma.text == "揖"
        await pilot.press("r")
        assert isinstance(app.screen, ChoiceScreen)  # two witnesses differ: which one's 楫?
        await pilot.press("1")
        assert isinstance(app.screen, ScopeScreen)
        await pilot.pause()
        seen["asked"] = screen_text(app)
        await pilot.press("1")  # this witness only
        await pilot.pause()
        seen["scoped"] = screen_text(app)
        await pilot.press("enter")
        seen["after"] = screen_text(app)

    run_app(app, keys)
    asked, scoped, after = ("\n".join(seen[k]) for k in ("asked", "scoped", "after"))
    assert "規整：B「楫」讀作底本「揖」" in asked
    assert "校本：全部校本" in asked and "層：全部層" in asked  # the defaults: every witness, every layer
    assert "將有 2 處、3 條異文改為異體" in asked  # 乙本's two places and 丙本's one
    assert "校本：只 B 乙本" in scoped and "將有 2 處、2 條異文改為異體" in scoped
    assert app.message.startswith("已規整：B「楫」讀作「揖」（只 B、全部層），2處改為異體")

    # Saved: a rule of the table, named in the project file, which is otherwise as it was.
    (rule,) = read_regularizations(config.parent / REGULARIZATIONS_FILE)
    assert (rule.variant, rule.standard, rule.witnesses, rule.layers) == ("楫", "揖", ("B",), ())
    assert rule.editor == "王" and rule.when and rule.locus == "jing-00009"
    assert config.read_text(encoding="utf-8") == original + NAMED

    # Folded at once: 乙本's 楫 is a graph of 揖 (丙本's is still a reading, the locus stays, marked);
    # the second place, where 乙本 alone read 楫, differs in graphs only and is left out of the walk.
    assert "異體（異體字）・規整" in after and "規整（待重跑）：B「楫」讀作「揖」" in after
    assert "另有異體 2 處" in after.splitlines()[0]  # the 玄/元 and the second 揖/楫
    loci = by_lemma(session.loci)
    assert classes(loci[("揖", 9)]) == {
        "B": (ReadingClass.ORTHOGRAPHIC, Cause.VARIANT),
        "C": (ReadingClass.SUBSTANTIVE, None),
    }
    assert classes(loci[("揖", 26)]) == {"B": (ReadingClass.ORTHOGRAPHIC, Cause.VARIANT)}

    # The next run reads the project file again: the same classes, now from the normalizer.
    again = by_lemma(review(config).loci)
    assert classes(again[("揖", 9)]) == classes(loci[("揖", 9)])
    assert classes(again[("揖", 26)]) == classes(loci[("揖", 26)])
    token = again[("揖", 26)].readings[0].witnesses[0].tokens[0]
    said = ("variant-graph", "楫", "揖", "project table regularizations.toml")
    assert [(c.rule, c.before, c.after, c.source) for c in token.changes[:1]] == [said]


def test_u_takes_the_rule_out_again_and_redo_puts_it_back(config: Path) -> None:
    session = review(config)
    app = ReviewApp(session, "en")
    table = config.parent / REGULARIZATIONS_FILE
    counts: list[int] = []

    async def keys(pilot: Pilot[None]) -> None:
        await pilot.press("n", "r", "2", "enter")  # 丙本's 楫, in every witness and layer
        counts.append(len(read_regularizations(table)))
        # Both places of 揖/楫 now differ in graphs only: gone from the walk, the review is elsewhere.
        assert app.locus is not None and app.locus.lemma.text == "爭"
        await pilot.press("u")
        assert app.message == "undone: regularization jing-00009"
        assert app.locus is not None and app.locus.id == "jing-00009"  # back where it was made
        counts.append(len(read_regularizations(table)))
        await pilot.press("U")
        counts.append(len(read_regularizations(table)))
        await pilot.press("u")

    run_app(app, keys)
    assert counts == [1, 0, 1]
    assert read_regularizations(table) == () and session.pending == ()
    assert {(x.lemma.text, x.base_start) for x in session.loci} >= {("揖", 9), ("揖", 26)}
    assert all(r.cls is ReadingClass.SUBSTANTIVE for x in session.loci if x.lemma.text == "揖" for r in x.variants())
    # The table stays named (empty), so the project file is changed once only.
    assert config.read_text(encoding="utf-8") == PROJECT + NAMED


def test_a_rule_of_every_witness_folds_them_all_and_a_run_agrees(config: Path) -> None:
    session = review(config)
    locus = by_lemma(session.loci)[("揖", 9)]
    made = session.regularize(locus, "C")
    assert made.rule.everywhere and session.folded_by(made) == (2, 3)
    assert all(
        r.cls is ReadingClass.ORTHOGRAPHIC
        for x in session.collation.loci()
        if x.lemma.text == "揖"
        for r in x.variants()
    )
    again = by_lemma(review(config).loci)
    assert classes(again[("揖", 9)]) == {
        "B": (ReadingClass.ORTHOGRAPHIC, Cause.VARIANT),
        "C": (ReadingClass.ORTHOGRAPHIC, Cause.VARIANT),
    }
    with pytest.raises(Refused) as refused:
        session.regularize(session.collation.locus(locus.id) or locus, "C")  # pending already
    assert refused.value.key == "refused_pending"


@pytest.mark.parametrize(
    ("base", "witness", "key"),
    [
        ("君子無所爭", "君子無所事", ""),  # one character: a rule can be made
        ("君子無所爭也", "君子無所也", "refused_not_one"),  # an omission
        ("君子無所爭也", "君子無何事也", "refused_several"),  # one locus of two characters
        ("反求諸己", "反求諸已", "refused_never_fold"),  # 己/已: a reading a collator must see
        ("某有枉矢哨", "某有枉矢□", "refused_placeholder"),
    ],
)
def test_a_rule_is_one_character_for_another_and_never_a_pair_to_see(
    tmp_path: Path, base: str, witness: str, key: str
) -> None:
    for name, text in (("a.txt", base), ("b.txt", witness)):
        (tmp_path / name).write_text(text + "\n", encoding="utf-8")
    config = tmp_path / "collate.toml"
    config.write_text(
        'title = "t"\nbase = "A"\n[[witness]]\nsiglum = "A"\npath = "a.txt"\n'
        '[[witness]]\nsiglum = "B"\npath = "b.txt"\n',
        encoding="utf-8",
    )
    session = review(config)
    locus = session.loci[-1]
    if not key:
        assert session.pair(locus, "B").variant.t == "事"
        return
    with pytest.raises(Refused) as refused:
        session.pair(locus, "B")
    assert refused.value.key == key
    assert not (tmp_path / REGULARIZATIONS_FILE).exists()


def test_without_a_project_file_no_rule_is_made(config: Path, tmp_path: Path) -> None:
    project = load_project(config)
    session = ReviewSession(collate_project(project).collation, tmp_path / "d.toml", "王")
    with pytest.raises(Refused) as refused:
        session.regularize(session.loci[0], "C")
    assert refused.value.key == "refused_no_project"
    app = ReviewApp(session)

    async def keys(pilot: Pilot[None]) -> None:
        await pilot.press("r")  # 丙本's 事: said at once, before any dialog
        assert not isinstance(app.screen, ScopeScreen)
        assert app.message == "未規整：沒有項目文件（collate.toml）可存規整"

    run_app(app, keys)


def test_the_review_leaves_out_the_loci_of_graphs_only_and_f_shows_them(config: Path) -> None:
    app = ReviewApp(review(config))
    walked: list[list[str]] = []
    tops: list[str] = []

    async def keys(pilot: Pilot[None]) -> None:
        ids = []
        for _ in range(len(app.shown)):
            assert app.locus is not None
            ids.append(app.locus.lemma.text)
            await pilot.press("n")
        assert app.message == "已是最後一處"
        walked.append(ids)
        tops.append(screen_text(app)[0])
        await pilot.press("f", "6")  # 異體之處：顯示
        walked.append([app.session.loci[k].lemma.text for k in app.shown])
        tops.append(screen_text(app)[0])

    run_app(app, keys, size=(100, 30))
    assert walked == [["爭", "揖", "揖"], ["爭", "揖", "揖", "玄"]]
    assert "另有異體 1 處" in tops[0] and "另有異體" not in tops[1] and "含異體" in tops[1]


@pytest.mark.parametrize(
    ("lang", "shown", "absent"), [("zh", "異體（避諱）", "taboo"), ("en", "orthographic (taboo)", "避諱")]
)
def test_a_cause_is_named_in_the_language_of_the_review(config: Path, lang: Lang, shown: str, absent: str) -> None:
    session = review(config)
    (taboo,) = [x for x in session.loci if x.lemma.text == "玄"]
    buffer = io.StringIO()
    Console(file=buffer, width=120, color_system=None).print(render_locus(session, taboo, Look(Words(lang))))
    row = next(line for line in buffer.getvalue().splitlines() if line.startswith("B"))
    assert shown in row and absent not in row
    assert Words("zh").cause("haplography") == "haplography"  # an editor's own word, as written
    assert Words("zh").cause("look-alike") == "形近" and Words("en").cause("look-alike") == "look-alike"


def test_a_rule_not_saved_changes_nothing(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = review(config)
    locus = by_lemma(session.loci)[("揖", 9)]

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(ExportError, match="No space left"):
        session.regularize(locus, "B")
    monkeypatch.undo()
    assert session.pending == () and session.history.done == []
    assert not (config.parent / REGULARIZATIONS_FILE).exists() and config.read_text(encoding="utf-8") == PROJECT
    assert all(r.cls is ReadingClass.SUBSTANTIVE for r in by_lemma(session.loci)[("揖", 9)].variants())


def test_a_review_of_causes_shows_their_loci_of_graphs_only(config: Path) -> None:
    project = load_project(config)
    session = open_review(collate_project(project), "王", causes=frozenset({"taboo"}), project=project)
    app = ReviewApp(session)
    assert [session.loci[k].lemma.text for k in app.shown] == ["玄"]


@pytest.mark.parametrize(
    ("witnesses", "layers", "folded"),
    [
        ((), (), [2, 4]),  # every witness, every layer: the two classes are one, either way round
        (("ZS",), (), [2]),  # ZS's 楫 read as 揖; the base's own 楫 is not ZS's
        ((), ("zhu",), []),  # a rule of 注 leaves 經 as it is
    ],
)
def test_a_pending_rule_folds_what_a_run_with_it_would(
    witnesses: tuple[str, ...], layers: tuple[str, ...], folded: list[int]
) -> None:
    collation = collate_rows({"SK": "主人揖賓楫", "ZS": "主人楫賓揖"})
    rule = Regularization("r1", "楫", "揖", witnesses, layers)
    marked, marks = fold_pending(collation, [Pending(rule, "楫", "揖")])
    assert [m.col_start for m in marks] == folded
    assert [x.base_start for x in marked.loci() if x.readings[0].cls is ReadingClass.ORTHOGRAPHIC] == folded
    assert all(m.rules == ("r1",) and m.siglum == "ZS" for m in marks)


def test_after_the_first_rule_export_collates_again_and_writes(config: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The table a review begins is the project's own: the commands after collate with it, no dead end."""
    from click.testing import CliRunner

    from collate.cli import main

    monkeypatch.chdir(config.parent)
    runner = CliRunner()
    assert runner.invoke(main, ["run"]).exit_code == 0
    session = review(config)
    locus = next(x for x in session.loci if x.lemma.text == "揖")
    session.regularize(locus, "B")
    done = runner.invoke(main, ["export"])
    assert done.exit_code == 0, done.output
    assert "regularizations.toml (new)" in done.output and "collating again" in done.output
    # The rule (every witness) is in what was written: 楫 is no longer a substantive entry of the 校勘記.
    printed = (config.parent / "output" / "sheyi.jiaokanji.txt").read_text(encoding="utf-8")
    assert "「楫」" not in printed and "丙本「爭」作「事」" in printed
    # A table nobody's review began is still refused as a stranger's input.
    (config.parent / "extra.tsv").write_text("萹\t篇\n", encoding="utf-8")
    named = '["regularizations.toml", "extra.tsv"]'
    config.write_text(config.read_text(encoding="utf-8").replace('["regularizations.toml"]', named), encoding="utf-8")
    refused = runner.invoke(main, ["export"])
    assert refused.exit_code == 1 and "extra.tsv (new)" in refused.output
