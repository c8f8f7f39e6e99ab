"""``collate export``: ``--out DIR`` with or without a run of its own, and the editor's decisions in what it writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import copy_default_project, xp
from click.testing import CliRunner, Result
from lxml import etree

from collate.cli import main
from collate.model.annotations import DecisionAction
from collate.project import load_project
from collate.review.session import open_review
from collate.runs.manifest import read_manifest
from collate.runs.saved import last_run

OUTPUTS = ("touhu.json", "touhu.tei.xml", "touhu.jiaokanji.txt", "touhu.html", "touhu.notes.json")


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the default project, run, the working folder its own: the project's folder."""
    monkeypatch.chdir(copy_default_project(tmp_path).parent)
    result = invoke("run")
    assert result.exit_code == 0, result.output
    return tmp_path


def test_out_without_a_run_gets_the_last_runs_outputs_as_a_set_of_its_own(ran: Path) -> None:
    result = invoke("export", "--out", "other")
    assert result.exit_code == 0, result.output
    assert "no collation has been run" not in result.output
    for name in OUTPUTS:
        assert (ran / "other" / name).read_bytes() == (ran / "output" / name).read_bytes(), name
        assert f"wrote {Path('other') / name}" in result.output
    # A whole set with its manifest: the inputs are the project's, read from the new folder.
    mine, last = read_manifest(ran / "other"), read_manifest(ran / "output")
    assert set(mine.outputs) == set(OUTPUTS) and mine.run is not None
    assert {(ran / "other" / k).resolve() for k in mine.inputs} == {(ran / "output" / k).resolve() for k in last.inputs}
    # From now on DIR holds a run: exported again, its set is current.
    again = invoke("export", "--out", "other")
    assert again.exit_code == 0, again.output
    assert f"current {Path('other') / 'touhu.json'}" in again.output


def test_out_holding_a_run_has_that_run_written_again(ran: Path) -> None:
    # Another run into its own folder: of two witness files given, not of the project's.
    (ran / "a.txt").write_text("投壺之禮主人奉矢\n", encoding="utf-8")
    (ran / "b.txt").write_text("投壺之禮主人執矢\n", encoding="utf-8")
    assert invoke("run", "a.txt", "b.txt", "--out", "mine").exit_code == 0
    (ran / "mine" / "collation.json").unlink()
    result = invoke("export", "--out", "mine", "--format", "json")
    assert result.exit_code == 0, result.output
    assert f"wrote {Path('mine') / 'collation.json'}" in result.output
    assert not (ran / "mine" / "touhu.json").exists()
    assert read_manifest(ran / "mine").source.files == ("a.txt", "b.txt")


def test_out_with_no_run_anywhere_says_so_and_makes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(copy_default_project(tmp_path).parent)
    result = invoke("export", "--out", "other")
    assert result.exit_code == 1
    assert "no collation has been run here yet" in result.output and "collate run" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "other").exists()


def test_export_help_says_what_out_does() -> None:
    shown = CliRunner().invoke(main, ["export", "--help"], terminal_width=400).output
    assert "holding no run gets the outputs of the last run" in shown


# --- the editor's decisions in what export writes -----------------------------------------------


def _adopt(project_folder: Path, locus_id: str, siglum: str, comment: str) -> str:
    """Adopt ``siglum``'s reading at ``locus_id`` through a review session on the saved run; return it."""
    project = load_project(project_folder / "collate.toml")
    session = open_review(last_run(project_folder / "output", project), "王")
    locus = next(x for x in session.loci if x.id == locus_id)
    reading = next(r for r in locus.readings if siglum in {w.siglum for w in r.witnesses})
    session.decide(locus, DecisionAction.ADOPT, reading=reading, siglum=siglum, comment=comment)
    return reading.text


@pytest.mark.parametrize("out", [None, "other"], ids=["output", "out-elsewhere"])
def test_a_decision_made_in_review_is_in_the_exported_tei_and_jiaokanji(ran: Path, out: str | None) -> None:
    adopted = _adopt(ran, "jing-00121", "ZS", "石經亦作盤")  # 般 of the base against 盤 of 注疏本
    assert adopted == "盤"
    result = invoke("export", *(["--out", out] if out else []))
    assert result.exit_code == 0, result.output
    folder = ran / (out or "output")
    tree = etree.parse(str(folder / "touhu.tei.xml"))
    (app,) = xp(tree, "//tei:app[@xml:id='app.jing-00121']")
    (lem,) = xp(app, "tei:lem")
    assert (lem.text, lem.get("wit"), lem.get("resp")) == ("盤", "#ZS", "#ed-王")
    assert [r.text for r in xp(app, "tei:rdg")] == ["般"]
    (note,) = xp(app, "tei:note[@subtype='decision']")
    assert note.text == "石經亦作盤"
    jiaokanji = (folder / "touhu.jiaokanji.txt").read_text(encoding="utf-8")
    (line,) = [x for x in jiaokanji.splitlines() if "石經亦作盤" in x]
    assert "「般」" in line and "今從注疏本改作「盤」" in line and "（王：石經亦作盤）" in line
