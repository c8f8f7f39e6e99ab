"""The 校勘記 names the editor the project declares, and no one else: never the login name."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import copy_default_project
from click.testing import CliRunner

from collate.cli import main
from collate.model.annotations import DecisionAction
from collate.pipeline import collate_project
from collate.project import load_project, project_from_mapping
from collate.review.session import default_editor, open_review

LOGIN = "wang7"


def decide_and_run(config: Path) -> str:
    """The 校勘記 after a review of ``config`` (its editor by default) decides one locus, with a comment."""
    project = load_project(config)
    review = open_review(collate_project(project), default_editor(project))
    gu = next(x for x in review.loci if x.lemma.text == "固")
    review.decide(gu, DecisionAction.ADOPT, reading=gu.readings[0], siglum="ZS", comment="從注疏")
    result = CliRunner().invoke(main, ["run", "--config", str(config)])
    assert result.exit_code == 0, result.output
    return (config.parent / "output" / "touhu.jiaokanji.txt").read_text(encoding="utf-8")


def test_a_project_naming_no_editor_records_and_prints_no_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", LOGIN)
    monkeypatch.setenv("USERNAME", LOGIN)
    config = copy_default_project(tmp_path)
    jiaokanji = decide_and_run(config)
    assert "頁3a行5　注疏本無「固」字。今從注疏本刪「固」字。（從注疏）" in jiaokanji.splitlines()
    for written in (jiaokanji, (tmp_path / "decisions.toml").read_text(encoding="utf-8")):
        assert LOGIN not in written
    for output in (tmp_path / "output").glob("touhu.*"):
        assert LOGIN not in output.read_text(encoding="utf-8")


def test_a_project_naming_its_editor_prints_that_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", LOGIN)
    config = copy_default_project(tmp_path)
    config.write_text(config.read_text(encoding="utf-8") + '\n[review]\neditor = "王"\n', encoding="utf-8")
    jiaokanji = decide_and_run(config)
    assert "頁3a行5　注疏本無「固」字。今從注疏本刪「固」字。（王：從注疏）" in jiaokanji.splitlines()
    assert LOGIN not in jiaokanji


def test_the_default_editor_is_the_declared_one_or_no_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("USER", LOGIN)
    witness = {"siglum": "SK", "path": "a.txt"}
    declared = project_from_mapping({"witness": [witness], "review": {"editor": "王"}}, root=tmp_path)
    silent = project_from_mapping({"witness": [witness]}, root=tmp_path)
    assert default_editor(declared) == "王"
    assert default_editor(silent) == default_editor() == ""
