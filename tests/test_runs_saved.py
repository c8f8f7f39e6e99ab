"""The saved run: written with the outputs, loaded by every command after `collate run`, never collated again.

A run decodes back into the very records it was (but for its table of tokens, which is not
saved); the decisions of the day are applied on loading; a saved file that is damaged or not the
one the record names is refused; and only an input that changed since has the run collated again.
"""

from __future__ import annotations

import gc
import gzip
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from builders import copy_default_project
from click.testing import CliRunner

from collate.apparatus.habits import HabitVerdict
from collate.cli import main
from collate.decisions.file import change_habit_verdict, decisions_path
from collate.errors import ExportError
from collate.model.annotations import DecisionAction
from collate.pipeline import collate_project
from collate.project import load_project
from collate.results import RunResult
from collate.review.session import open_review
from collate.runs.manifest import read_manifest
from collate.runs.outputs import write_outputs
from collate.runs.saved import SAVED, decided, last_run, load_last, load_run, run_bytes, run_of_bytes


@pytest.fixture(scope="module")
def default_run() -> RunResult:
    """The default project, collated once for the module."""
    return collate_project(load_project(Path(__file__).resolve().parents[1] / "collate.toml"))


def test_a_run_loads_back_as_the_records_it_was(default_run: RunResult) -> None:
    data = run_bytes(default_run)
    assert run_bytes(default_run) == data  # the same run saves the same bytes (no time stamp)
    loaded = run_of_bytes(data, "run.json.gz")
    assert loaded == replace(default_run, tokens={})
    # Decoded with the collector paused, and the collector as it was after: on, or left off.
    assert gc.isenabled()
    gc.disable()
    try:
        assert run_of_bytes(data, "run.json.gz") == loaded and not gc.isenabled()
    finally:
        gc.enable()
    # Records that compare by identity inside a run still find each other once loaded.
    assert loaded.notes is not None and default_run.notes is not None
    before, after = default_run.notes, loaded.notes
    for claim, again in zip(before.claims, after.claims, strict=True):
        assert [c.verdict for c in before.checks_of(claim)] == [c.verdict for c in after.checks_of(again)]


@pytest.mark.parametrize(
    "data",
    [b"not gzip", gzip.compress(b"{"), gzip.compress(b'{"read": 3}'), gzip.compress(b"[]")],
    ids=["not-gzip", "bad-json", "wrong-type", "not-a-run"],
)
def test_a_damaged_saved_run_is_refused_saying_to_run_again(data: bytes) -> None:
    with pytest.raises(ExportError, match="the saved run cannot be read") as error:
        run_of_bytes(data, "out/.collate/run.json.gz")
    assert gc.isenabled()  # the collector, paused while decoding, runs again after a failure too
    assert error.value.where == "out/.collate/run.json.gz"
    assert error.value.hint is not None and "collate run" in error.value.hint


@pytest.fixture
def written(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the default project, run with its set written beside it: the project file, the folder."""
    config = copy_default_project(tmp_path)
    out = config.parent / "output"
    write_outputs(collate_project(load_project(config)), out)
    return config, out


def _never_collate(monkeypatch: pytest.MonkeyPatch) -> None:
    def collating(*args: object, **kwargs: object) -> None:
        raise AssertionError("collated again")

    monkeypatch.setattr("collate.pipeline.collate_project", collating)


def test_a_saved_run_changed_since_is_refused(written: tuple[Path, Path]) -> None:
    config, out = written
    saved = out / SAVED
    saved.write_bytes(gzip.compress(gzip.decompress(saved.read_bytes()) + b" "))
    with pytest.raises(ExportError, match="not the one the record of the last run names"):
        last_run(out, load_project(config))


def test_the_commands_after_the_run_load_it(written: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    config, _ = written
    _never_collate(monkeypatch)
    for command in (["diff", "--list", "--no-pager"], ["notes"], ["habits"], ["export"]):
        result = CliRunner().invoke(main, [command[0], "--config", str(config), *command[1:]])
        assert result.exit_code == 0, (command, result.output)
        assert "collating" not in result.output


def test_the_decisions_of_the_day_are_applied_to_a_loaded_run(
    written: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    config, out = written
    project = load_project(config)
    session = open_review(last_run(out, project), "王")
    session.decide(session.loci[0], DecisionAction.KEEP)
    _never_collate(monkeypatch)
    run = load_run(out, project)
    assert run.decisions is not None and [p.locus for p in run.decisions.placed] == [session.loci[0].id]
    assert run.undecided is not None and run.collation != run.undecided
    # What the review places decisions on is the run as saved, before any decision.
    assert run.without_decisions().collation == last_run(out, project).collation


def test_an_input_changed_since_has_the_run_collated_again_saying_so(written: tuple[Path, Path]) -> None:
    config, out = written
    seed = config.parent / "seeds" / "001_97a493e45035c1ac.txt"
    seed.write_text(seed.read_text(encoding="utf-8") + "投壺\n", encoding="utf-8")
    told: list[str] = []
    run = last_run(out, load_project(config), tell=told.append)
    assert len(told) == 1 and "001_97a493e45035c1ac.txt (changed); collating again" in told[0]
    assert run.collation != collate_project(load_project(copy_default_project(config.parent.parent))).collation


def test_a_new_verdict_on_a_habit_has_the_run_collated_again(written: tuple[Path, Path]) -> None:
    config, out = written
    project = load_project(config)
    verdict = HabitVerdict("ZS", "算", "筭", "reject", "王", "2026-01-01T00:00:00")
    change_habit_verdict(decisions_path(project), verdict, project.title)
    told: list[str] = []
    run = last_run(out, project, tell=told.append)
    assert told == ["the verdicts on print habits changed since the last run; collating again"]
    assert run.habits == (verdict,)


def test_the_record_names_the_saved_run_by_its_hash(written: tuple[Path, Path]) -> None:
    _, out = written
    manifest = read_manifest(out)
    assert manifest.run is not None and (out / SAVED).is_file()
    assert SAVED.name not in manifest.outputs  # not an output people open: the record's own


def test_a_loaded_run_takes_its_decisions_from_the_project_here(written: tuple[Path, Path], tmp_path: Path) -> None:
    """A saved run names the paths of the machine it was made on: decisions are never read from them."""
    config, out = written
    project = load_project(config)
    (tmp_path / "elsewhere").mkdir()
    elsewhere = load_project(copy_default_project(tmp_path / "elsewhere"))
    run = last_run(out, project)
    session = open_review(run, "王", project=elsewhere)
    session.decide(session.loci[0], DecisionAction.KEEP)  # a decision in the other project's file only
    moved = replace(run, read=replace(run.read, project=elsewhere))
    here = decided(moved, project).decisions
    there = decided(moved).decisions
    assert here is not None and here.placed == ()
    assert there is not None and [p.locus for p in there.placed] == [session.loci[0].id]


def test_a_run_exported_from_another_folder_keeps_its_inputs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The saved run names its project's folder as it was run (``.``): export from elsewhere records the files here."""
    config = copy_default_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["run"]).exit_code == 0
    before = read_manifest(tmp_path / "output").inputs
    monkeypatch.chdir(tmp_path.parent)
    result = CliRunner().invoke(main, ["export", "-c", str(config.relative_to(tmp_path.parent)), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert read_manifest(tmp_path / "output").inputs == before
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["diff", "--list", "--no-pager"]).exit_code == 0


def test_an_export_saves_the_loaded_run_as_the_bytes_it_was_read_from(
    written: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Not encoded anew: the same run saves the same bytes, and copying them is cheaper."""
    config, out = written
    before = (out / SAVED).read_bytes()
    project = load_project(config)
    session = open_review(last_run(out, project), "王")
    session.decide(session.loci[0], DecisionAction.KEEP)  # the decisions of the day are not saved

    def encoding(run: RunResult) -> bytes:
        raise AssertionError("encoded anew")

    with monkeypatch.context() as patch:
        patch.setattr("collate.runs.saved.run_bytes", encoding)
        result = CliRunner().invoke(main, ["export", "--force", "--config", str(config), "-f", "json"])
    assert result.exit_code == 0, result.output
    assert (out / SAVED).read_bytes() == before
    # The bytes handed back are those a new encoding would give; a run moved elsewhere has none.
    run, data = load_last(out, project)
    assert data == before == run_bytes(decided(run, project))
    # The project and its outputs moved to another folder: the run names its new places.
    there = tmp_path / "moved"
    shutil.copytree(config.parent, there)
    moved, none = load_last(there / "output", load_project(there / config.name))
    assert none is None and run_bytes(moved) != before
