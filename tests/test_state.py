"""The record of the last run: JSON read back as written, refused when newer or damaged; never code.

`collate export` on a folder received from someone else must run nothing of theirs: a crafted
pickle where older versions kept the run is refused unread, and a record naming files it did not
hash never has them read.
"""

from __future__ import annotations

import json
import os
import pickle
from pathlib import Path

import pytest
from builders import copy_default_project
from click.testing import CliRunner

import collate.runs.manifest
import collate.runs.saved
from collate.cli import main
from collate.errors import ExportError
from collate.pipeline import collate_project
from collate.project import load_project
from collate.results import RunResult
from collate.runs.manifest import MANIFEST, Manifest, Source, manifest_text, parse_manifest, read_manifest
from collate.runs.outputs import write_outputs
from collate.runs.saved import load_run

MARK = "ran-code"


class _Payload:
    """Unpickled, it makes a file: what an attacker's pickle would do instead."""

    def __reduce__(self) -> tuple[object, tuple[str, int]]:
        return (os.open, (MARK, os.O_CREAT | os.O_WRONLY))


@pytest.fixture(scope="module")
def project_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the default project; its project file."""
    return copy_default_project(tmp_path_factory.mktemp("project"))


@pytest.fixture(scope="module")
def written(project_copy: Path) -> tuple[RunResult, Path]:
    """The copy collated and its set written into ``output/`` beside it: the run, the folder."""
    run = collate_project(load_project(project_copy))
    out = project_copy.parent / "output"
    write_outputs(run, out)
    return run, out


def _record(**changes: object) -> str:
    data: dict[str, object] = {
        "schema": 1,
        "collate": collate.__version__,
        "source": {"file": "../collate.toml", "root": None, "files": [], "gaiji": None},
        "inputs": {"../collate.toml": "0" * 64},
        "outputs": {"touhu.tei.xml": "a" * 64},
    }
    data.update(changes)
    return json.dumps(data)


def test_a_record_reads_back_as_written() -> None:
    manifest = Manifest("9.9", Source(root="..", files=("a.txt", "b.txt"), gaiji="../g.txt"), {"../a.txt": "1" * 64})
    assert parse_manifest(manifest_text(manifest), "m") == manifest


def test_a_run_is_collated_again_from_its_record(written: tuple[RunResult, Path]) -> None:
    run, out = written
    again = load_run(out)
    assert again.collation == run.collation and again.rule_counts == run.rule_counts
    assert again.read.project.name == "touhu"
    assert read_manifest(out).source == Source(file="../collate.toml")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_record(schema=3), "schema 3, newer than this collate reads"),
        (_record(schema="1"), "no schema version"),
        (_record(schema=None), "no schema version"),
        ("[]", "no schema version"),
        ("{", "cannot be read"),
        (b"\xff\xfe{}", "cannot be read"),
        ("[" * 100_000, "cannot be read"),
        (_record(outputs={"../../escaped": "a" * 64}), "not a file of the folder"),
        (_record(outputs={".collate": "a" * 64}), "not a file of the folder"),
        (_record(outputs={"touhu.tei.xml": "not a hash"}), "not a table of SHA-256"),
        (_record(source={"file": "a\0b"}), "not a path"),
        (_record(source={"files": []}), "neither a project file nor witness files"),
        (_record(collate=1), "lacks `collate`"),
    ],
)
def test_a_bad_record_is_refused_with_its_place(text: str | bytes, message: str) -> None:
    with pytest.raises(ExportError, match=message) as error:
        parse_manifest(text, "out/.collate/last-run.json")
    assert error.value.where == "out/.collate/last-run.json"
    assert error.value.hint is not None and "collate run" in error.value.hint


def test_without_a_record_the_error_says_to_run_first(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match="no collation has been run here yet") as error:
        load_run(tmp_path)
    assert error.value.hint == "run `collate run` first"


def test_a_run_saved_by_another_version_is_collated_again_saying_so(
    written: tuple[RunResult, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    run, out = written
    monkeypatch.setattr(collate.runs.saved, "__version__", "0.0.1-other")
    told: list[str] = []
    again = load_run(out, tell=told.append)
    made = f"the last run was made by collate {collate.__version__}, not this one (0.0.1-other)"
    assert told == [f"{made}; collating again"]
    assert again.collation == run.collation


def test_a_crafted_pickle_is_refused_unread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An older collate's saved run, or an attacker's: export names it and never loads it."""
    monkeypatch.chdir(tmp_path)
    saved = tmp_path / "output" / ".collate" / "last-run.pickle"
    saved.parent.mkdir(parents=True)
    saved.write_bytes(pickle.dumps(_Payload()))
    result = CliRunner().invoke(main, ["export"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "last-run.pickle" in result.output and "is not read" in result.output
    assert not (tmp_path / MARK).exists()


def test_a_crafted_pickle_beside_a_record_is_never_read(
    written: tuple[RunResult, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = written
    monkeypatch.chdir(out.parent)
    (out / ".collate" / "last-run.pickle").write_bytes(pickle.dumps(_Payload()))
    result = CliRunner().invoke(main, ["export", "--format", "jiaokanji", "--force"])
    assert result.exit_code == 0, result.output
    assert not (out.parent / MARK).exists()
    # The run's record stands for the set, and the saved run of another set goes with the next write.
    assert not (out / ".collate" / "last-run.pickle").exists()


def test_a_record_naming_a_file_it_did_not_hash_never_has_it_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A received record pointing at the recipient's files: refused before any is read into an output."""
    (tmp_path / "secret.txt").write_text("投壺之禮，主人奉矢。\n", encoding="utf-8")
    (tmp_path / "collate.toml").write_text('[[witness]]\nsiglum = "A"\npath = "secret.txt"\n', encoding="utf-8")
    out = tmp_path / "received"
    (out / ".collate").mkdir(parents=True)
    files = {"root": "..", "files": ["secret.txt", "secret.txt"], "file": None, "gaiji": None}
    for source in (files, {"file": "../collate.toml"}):
        (out / MANIFEST).write_text(_record(source=source, outputs={}), encoding="utf-8")
        monkeypatch.chdir(tmp_path)
        result = CliRunner().invoke(main, ["export", "--out", "received"])
        assert result.exit_code == 1 and "Traceback" not in result.output
        assert "not those of the last run" in result.output, result.output
        assert sorted(p.name for p in out.iterdir()) == [".collate"]
