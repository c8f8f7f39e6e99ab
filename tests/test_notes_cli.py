"""`collate notes`, and notes attached to apparatus loci."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from collate.cli import main
from collate.model.claim_words import english
from collate.normalize import Normalizer
from collate.notes import attach_to_loci, notes_for_project
from collate.pipeline import collate_project
from collate.project import load_project


def test_notes_command_prints_one_line_per_claim_when_piped(repo: Path) -> None:
    result = CliRunner().invoke(main, ["notes", "--config", str(repo / "collate.toml")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert any(
        line.startswith("SK-n2\tp.3a l.3\tquote\tp.2b l.5\t枉矢哨\t今本大戴礼 (DD) reads 峭 for 哨") for line in lines
    )
    assert any(line.startswith("12 notes (1 not tied to a passage), 14 claims (0 unplaced)") for line in lines)
    assert "Traceback" not in result.output


def test_notes_command_has_help() -> None:
    result = CliRunner().invoke(main, ["notes", "--help"])
    assert result.exit_code == 0 and "蕙田案" in result.output


def test_notes_command_reports_a_missing_project_cleanly(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["notes", "--config", str(tmp_path / "none.toml")])
    assert result.exit_code == 1 and "none.toml: the project file does not exist" in result.output


@pytest.mark.filterwarnings("ignore")
def test_notes_attach_to_the_loci_they_judge(repo: Path) -> None:
    project = load_project(repo / "collate.toml")
    run = collate_project(project)
    collation = attach_to_loci(
        run.collation, notes_for_project(project, run.read.witnesses, Normalizer.from_project(project))
    )
    noted = {locus.lemma.text: locus.notes for locus in collation.loci() if locus.notes}
    assert "哨" in noted
    (note,) = noted["哨"]
    assert note.resp == "秦蕙田" and [english(c) for c in note.claims] == ["今本大戴礼 (DD) reads 峭 for 哨"]
    assert any(c.base == "一马从二马" for c in noted["一马从二马"][0].claims)
