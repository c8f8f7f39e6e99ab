"""An output set is written as one: a killed run leaves the old set or the new one, and export checks it.

The kill test runs `collate run` on a copy of the default project and kills it (SIGKILL: no
handler runs) at random moments; after each kill the set must be one of the two whole sets, and
`collate export` must either work or say what is wrong.
"""

from __future__ import annotations

import os
import random
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from builders import copy_default_project
from click.testing import CliRunner

from collate.cli import main
from collate.errors import ExportError
from collate.pipeline import collate_project
from collate.project import load_project
from collate.results import RunResult
from collate.runs.manifest import MANIFEST, STATE_DIR, read_manifest, sha256_of
from collate.runs.outputs import recover, write_outputs

SET = ("touhu.html", "touhu.jiaokanji.txt", "touhu.json", "touhu.notes.json", "touhu.tei.xml")
TRIALS = 10


class Killed(BaseException):
    """Stands for SIGKILL during the renames, where the writer has no handler for anything."""


def on_disk(out: Path) -> dict[str, str]:
    """The SHA-256 of each file of the set as it is in ``out`` (those present)."""
    return {name: sha256_of(out / name) for name in SET if (out / name).exists()}


def left_over(out: Path) -> list[str]:
    """What a writer leaves only when it is killed: staging folders, temporary files."""
    return sorted(
        [p.name for p in (out / STATE_DIR).iterdir() if p.name not in ("last-run.json", "run.json.gz", "lock")]
        + [p.name for p in out.iterdir() if p.name.endswith(".tmp")]
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the default project in a folder of its own; its project file."""
    return copy_default_project(tmp_path)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    """The default project's copy, collated once for the tests that write it."""
    return collate_project(load_project(copy_default_project(tmp_path_factory.mktemp("run"))))


def test_a_set_is_written_with_its_manifest_and_nothing_else(run: RunResult, tmp_path: Path) -> None:
    paths = write_outputs(run, tmp_path)
    assert sorted(p.name for p in paths) == sorted(SET)
    assert read_manifest(tmp_path).outputs == on_disk(tmp_path)
    assert left_over(tmp_path) == []


def test_a_subset_keeps_the_rest_of_its_set(run: RunResult, tmp_path: Path) -> None:
    write_outputs(run, tmp_path)
    whole = on_disk(tmp_path)
    (tmp_path / "touhu.tei.xml").write_text("edited", encoding="utf-8")
    (path,) = write_outputs(run, tmp_path, ["tei"])
    assert path.name == "touhu.tei.xml" and on_disk(tmp_path) == whole == read_manifest(tmp_path).outputs
    (tmp_path / "touhu.json").write_text("edited", encoding="utf-8")
    with pytest.raises(
        ExportError, match=r"do not match the last run's manifest, changed since it was written: touhu\.json"
    ):
        write_outputs(run, tmp_path, ["tei"])


@pytest.mark.parametrize("renames", range(len(SET) + 1))
def test_a_kill_between_renames_is_rolled_forward(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renames: int
) -> None:
    """Killed after ``renames`` files went into place: the next writer finishes the set."""
    write_outputs(run, tmp_path)
    new = read_manifest(tmp_path)
    # An older set to kill over: the same files, other bytes (their manifest says so).
    for name in SET:
        (tmp_path / name).write_text(f"old {name}", encoding="utf-8")
    old_manifest = (tmp_path / MANIFEST).read_text(encoding="utf-8")
    for name in SET:
        old_manifest = old_manifest.replace(new.outputs[name], sha256_of(tmp_path / name))
    (tmp_path / MANIFEST).write_text(old_manifest, encoding="utf-8")
    old = on_disk(tmp_path)
    real = os.replace
    done = 0

    def rename(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        nonlocal done
        if not Path(dst).parent.name.startswith("new-"):  # into place, not inside the staging folder
            if done == renames:
                raise Killed
            done += 1
        real(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", rename)
        with pytest.raises(Killed):
            write_outputs(run, tmp_path)
    moved = on_disk(tmp_path)
    assert sum(moved[n] != old[n] for n in SET) == renames  # a mix, for a moment
    recover(tmp_path)
    assert on_disk(tmp_path) == new.outputs == read_manifest(tmp_path).outputs
    assert left_over(tmp_path) == []


def test_what_a_kill_while_writing_leaves_is_cleaned_up(run: RunResult, tmp_path: Path) -> None:
    write_outputs(run, tmp_path)
    whole = on_disk(tmp_path)
    staging = tmp_path / STATE_DIR / "new-k1ll3d00"
    staging.mkdir()
    (staging / "touhu.json").write_text("half", encoding="utf-8")
    (tmp_path / ".touhu.json.abc123_x.tmp").write_text("half", encoding="utf-8")
    (tmp_path / ".mine.abc123_x.tmp").write_text("not ours", encoding="utf-8")
    recover(tmp_path)
    assert on_disk(tmp_path) == whole and left_over(tmp_path) == [".mine.abc123_x.tmp"]


def test_export_refuses_a_set_that_does_not_match_its_manifest(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.parent)
    assert CliRunner().invoke(main, ["run"]).exit_code == 0
    out = project.parent / "output"
    (out / "touhu.jiaokanji.txt").write_text("edited", encoding="utf-8")
    before = on_disk(out)
    result = CliRunner().invoke(main, ["export", "--format", "tei"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "changed since it was written: touhu.jiaokanji.txt" in result.output
    assert on_disk(out) == before


def test_export_collates_again_an_input_that_changed_saying_so(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.parent)
    assert CliRunner().invoke(main, ["run"]).exit_code == 0
    out = project.parent / "output"
    before = read_manifest(out)
    seed = project.parent / "seeds" / "001_97a493e45035c1ac.txt"
    seed.write_text(seed.read_text(encoding="utf-8") + "投壺\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export"])
    assert result.exit_code == 0 and "Traceback" not in result.output
    said = " ".join(result.output.split())
    assert "changed since the last run: seeds/001_97a493e45035c1ac.txt (changed); collating again" in said
    after = read_manifest(out)
    assert after.inputs != before.inputs and after.run != before.run
    assert on_disk(out) == after.outputs


def test_export_refuses_an_input_gone(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.parent)
    assert CliRunner().invoke(main, ["run"]).exit_code == 0
    (project.parent / "seeds" / "001_97a493e45035c1ac.txt").unlink()
    result = CliRunner().invoke(main, ["export"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "not those of the last run: seeds/001_97a493e45035c1ac.txt (gone)" in result.output
    assert "collate run" in result.output


def test_export_loads_the_saved_run_and_never_collates(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.parent)
    assert CliRunner().invoke(main, ["run"]).exit_code == 0

    def collating(*args: object, **kwargs: object) -> None:
        raise AssertionError("export collated again")

    monkeypatch.setattr("collate.pipeline.collate_project", collating)
    result = CliRunner().invoke(main, ["export", "--force"])
    assert result.exit_code == 0, result.output
    assert "wrote" in result.output


def test_export_writes_the_same_bytes_again(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.parent)
    assert CliRunner().invoke(main, ["run"]).exit_code == 0
    out = project.parent / "output"
    whole = on_disk(out)
    (out / "touhu.html").unlink()
    result = CliRunner().invoke(main, ["export"])
    assert result.exit_code == 0, result.output
    assert on_disk(out) == whole == read_manifest(out).outputs
    assert CliRunner().invoke(main, ["export", "--force"]).exit_code == 0
    assert on_disk(out) == whole


def test_export_leaves_the_files_nothing_changed_since(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project.parent)
    assert CliRunner().invoke(main, ["run"]).exit_code == 0
    out = project.parent / "output"
    stamps = {name: (out / name).stat().st_mtime_ns for name in SET}

    def loading(*args: object, **kwargs: object) -> None:
        raise AssertionError("export loaded the run for files that are current")

    with monkeypatch.context() as m:
        m.setattr("collate.runs.outputs.last_run", loading)
        result = CliRunner().invoke(main, ["export"])
    assert result.exit_code == 0, result.output
    assert "current output/touhu.tei.xml" in result.output and "--force" in result.output
    assert {name: (out / name).stat().st_mtime_ns for name in SET} == stamps
    # A decision made since changes what is printed: the set is written again.
    decisions = project.parent / "decisions.toml"
    decisions.write_text("# the editor's decisions\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["export", "-f", "jiaokanji"])
    assert result.exit_code == 0, result.output
    assert "wrote output/touhu.jiaokanji.txt" in result.output
    assert "../decisions.toml" in read_manifest(out).inputs
    # The other files were written before it: they left the set, and are not current.
    assert "wrote output/touhu.tei.xml" in CliRunner().invoke(main, ["export", "-f", "tei"]).output
    assert "current output/touhu.tei.xml" in CliRunner().invoke(main, ["export", "-f", "tei"]).output


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run_killed(folder: Path, delay: float) -> bool:
    """`collate run` in ``folder``, sent SIGKILL after ``delay`` seconds; False if it had finished."""
    process = subprocess.Popen(
        [sys.executable, "-m", "collate.cli", "run"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        process.wait(timeout=delay)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
        return True
    return False


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is POSIX")
@pytest.mark.slow
def test_a_run_killed_at_random_leaves_the_old_set_or_the_new_one(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = project.parent
    out = folder / "output"
    texts = [
        project.read_text(encoding="utf-8"),
        project.read_text(encoding="utf-8").replace('title = "禮記·投壺"', 'title = "禮記·投壺（又）"'),
    ]
    sets: list[dict[str, str]] = []
    for text in texts:
        # A whole run of each version of the project: the two sets a kill may leave.
        project.write_text(text, encoding="utf-8")
        before = _children_cpu()
        whole = subprocess.run([sys.executable, "-m", "collate.cli", "run"], cwd=folder, capture_output=True)
        assert whole.returncode == 0, whole.stderr
        # Not asserted: the CPU a whole run takes only spreads the kills over it (on a loaded
        # machine a run takes longer than its CPU, so the kills fall earlier in it, never after).
        took = _children_cpu() - before
        sets.append(dict(read_manifest(out).outputs))
    assert sets[0] != sets[1]
    seed = random.randrange(1 << 30)
    rng = random.Random(seed)
    monkeypatch.chdir(folder)
    for trial in range(TRIALS):
        old = on_disk(out)
        new = sets[sets.index(old) ^ 1]
        project.write_text(texts[sets.index(new)], encoding="utf-8")
        # From a third of a whole run's time (it is still collating) to past its end (the new set).
        killed = _run_killed(folder, rng.uniform(0.3, 1.05) * took)
        where = f"trial {trial} (seed {seed})"
        if on_disk(out) != read_manifest(out).outputs:
            # Killed between two renames: the next writer finishes them, as recover does here.
            assert any(p.startswith("new-") for p in left_over(out)), where
            recover(out)
        now = on_disk(out)
        assert now in (old, new) and now == read_manifest(out).outputs, where
        result = CliRunner().invoke(main, ["export", "--format", "jiaokanji"])
        assert "Traceback" not in result.output, where
        assert result.exit_code == 0, f"{where}: {result.output}"
        if now == new:
            assert on_disk(out) == now and left_over(out) == [], where
        else:
            # The project file here is the new one: export says so and collates it again; its set
            # is whole (the formats written, and nothing of the old inputs kept in it).
            assert "collate.toml (changed); collating again" in result.output, f"{where}: {result.output}"
            written = read_manifest(out).outputs
            assert list(written) == ["touhu.jiaokanji.txt"] and on_disk(out)["touhu.jiaokanji.txt"] == written[
                "touhu.jiaokanji.txt"
            ], where
            assert left_over(out) == [], where
            assert CliRunner().invoke(main, ["run"]).exit_code == 0, where  # the new set, whole, for the next trial
        assert killed or now == new, where


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is fcntl's")
def test_a_second_writer_is_told_another_one_is_writing(run: RunResult, tmp_path: Path) -> None:
    import fcntl

    (tmp_path / STATE_DIR).mkdir()
    with (tmp_path / STATE_DIR / "lock").open("ab") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        with pytest.raises(ExportError, match="another collate is writing into this folder"):
            write_outputs(run, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".collate"]
    write_outputs(run, tmp_path)
    assert read_manifest(tmp_path).outputs == on_disk(tmp_path)
