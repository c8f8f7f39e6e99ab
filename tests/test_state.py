"""The last run kept in the output folder: read back as saved, refused from another version or damaged."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import collate_rows

import collate.state
from collate.errors import ExportError
from collate.pipeline import ReadResult, RunResult
from collate.project import load_project
from collate.state import load_run, save_run


@pytest.fixture
def run(repo: Path) -> RunResult:
    """A small run: the default project's settings, a one-layer collation of two witnesses."""
    collation = collate_rows({"SK": "主人请曰某有枉矢哨壶", "ZS": "主人请曰某有枉矢峭壶"})
    return RunResult(ReadResult(load_project(repo / "collate.toml"), ()), {}, collation, {"ZS": {"script": 3}})


def test_a_saved_run_reads_back_as_it_was(run: RunResult, tmp_path: Path) -> None:
    path = save_run(run, tmp_path / "out")
    assert path == tmp_path / "out" / ".collate" / "last-run.pickle"
    again = load_run(tmp_path / "out")
    assert again.collation == run.collation and again.rule_counts == run.rule_counts
    assert again.read.project.name == run.read.project.name
    assert [x.lemma.text for x in again.collation.loci()] == ["哨"]


def test_without_a_saved_run_the_error_says_to_run_first(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no collation has been run here yet") as error:
        load_run(tmp_path)
    assert error.value.hint == "run `collate run` first"


def test_a_run_saved_by_another_version_is_refused(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patch:
        patch.setattr(collate.state, "__version__", "0.0.1-other")
        save_run(run, tmp_path)
        assert load_run(tmp_path).collation == run.collation  # that version reads it
    with pytest.raises(ExportError, match="from another version of collate"):
        load_run(tmp_path)


def test_a_damaged_file_is_refused_with_its_place(run: RunResult, tmp_path: Path) -> None:
    path = save_run(run, tmp_path)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(ExportError, match="the saved run cannot be read") as error:
        load_run(tmp_path)
    assert error.value.where == str(path)
