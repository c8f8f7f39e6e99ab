"""``collate batch``: a manifest of jobs run on Dask, skipped while unchanged, failures reported and retried."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from conftest import GAIJI, REPO, SHARED, need_shared

from collate.batch import Outcome, Status, load_batch, run_batch, run_job
from collate.batch.cluster import connect
from collate.batch.lines import scan
from collate.batch.view import duration, tally_line
from collate.cli import main
from collate.errors import ProjectError

WITNESSES = SHARED / "witnesses"
# The default project, copied: its decisions and outputs in the repository are not the tests' to change.
DEFAULT_FILES = (
    "collate.toml",
    "seeds/000_2cc6d19ca27bf473.txt",
    "seeds/001_97a493e45035c1ac.txt",
    "witnesses/dadai-readings.toml",
)

SHEREN = """
[[job]]
name = "sheren"
title = "周禮·射人"
base = "ZS"
layers = ["jing", "zhu"]

[[job.witness]]
siglum = "ZS"
label = "注疏本"
path = "{w}/zhouli-zhushu-sheren-kanripo-WYG.txt"

[[job.witness]]
siglum = "SB"
label = "四部叢刊本"
path = "{w}/zhouli-sheren-kanripo-SBCK.txt"
"""

SHEYI = """
[[job]]
name = "sheyi"
title = "禮記·射義"
base = "HZ"

[[job.witness]]
siglum = "HZ"
label = "纂圖互註"
path = "{w}/liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt"

[[job.witness]]
siglum = "TLS"
label = "TLS"
path = "{w}/liji-sheyi-kanripo-TLS.txt"

[[job.witness]]
siglum = "WS"
label = "維基文庫"
path = "{w}/liji-sheyi-wikisource-hangsau.txt"
"""


def write_corpus(folder: Path, *extra: str) -> Path:
    """A manifest of three small jobs in ``folder``: the default project (copied) and two works of the shared witnesses.

    ``extra`` are more ``[[job]]`` tables, appended. Returns the manifest's path.
    """
    need_shared(WITNESSES)
    need_shared(GAIJI)
    for name in DEFAULT_FILES:
        (folder / "touhu" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / name, folder / "touhu" / name)
    manifest = folder / "corpus.toml"
    head = f'[defaults]\ngaiji_table = "{GAIJI.as_posix()}"\nlayers = ["jing"]\n\n'
    head += '[[job]]\nproject = "touhu/collate.toml"\n'
    body = SHEREN.format(w=WITNESSES.as_posix()) + SHEYI.format(w=WITNESSES.as_posix())
    manifest.write_text(head + body + "".join(extra), encoding="utf-8")
    return manifest


def batch(*args: str) -> Result:
    return CliRunner().invoke(main, ["batch", *args])


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A cluster of two worker processes, shared by the tests of this module: its scheduler's address."""
    with connect(None, 2) as pool:
        yield pool.address


def statuses(out: Path) -> dict[str, str]:
    record = json.loads((out / "batch.json").read_text(encoding="utf-8"))
    return {job["name"]: job["status"] for job in record["jobs"]}


@pytest.mark.slow
def test_three_jobs_run_on_the_embedded_cluster_then_all_are_skipped(tmp_path: Path) -> None:
    manifest = write_corpus(tmp_path)
    out = tmp_path / "out"
    first = batch(str(manifest), "--workers", "2", "--out", str(out))
    assert first.exit_code == 0, first.output
    assert statuses(out) == {"touhu": "done", "sheren": "done", "sheyi": "done"}
    for name, stem in (("touhu", "touhu"), ("sheren", "sheren"), ("sheyi", "sheyi")):
        assert (out / name / f"{stem}.json").is_file()
        assert (out / name / ".collate" / "last-run.json").is_file()
    # An inline job is an ordinary project file in its folder, its paths relative to it or as given.
    assert 'name = "sheyi"' in (out / "sheyi" / "collate.toml").read_text(encoding="utf-8")
    assert "3 done" in first.output
    mtime = (out / "sheyi" / "sheyi.json").stat().st_mtime_ns

    second = batch(str(manifest), "--workers", "2", "--out", str(out))
    assert second.exit_code == 0, second.output
    assert statuses(out) == {"touhu": "skipped", "sheren": "skipped", "sheyi": "skipped"}
    assert "3 skipped" in second.output
    assert (out / "sheyi" / "sheyi.json").stat().st_mtime_ns == mtime


BROKEN = """
[[job]]
name = "broken"
base = "A"

[[job.witness]]
siglum = "A"
path = "broken.txt"

[[job.witness]]
siglum = "B"
path = "{w}/zhouli-sheren-kanripo-SBCK.txt"
"""


@pytest.mark.slow
def test_a_failing_job_is_reported_the_others_land_and_a_rerun_retries_it_alone(tmp_path: Path, cluster: str) -> None:
    manifest = write_corpus(tmp_path, BROKEN.format(w=WITNESSES.as_posix()))
    # Punctuation only: the base has no text in the layers collated, which only collating finds.
    (tmp_path / "broken.txt").write_text("。。。\n", encoding="utf-8")
    out = tmp_path / "out"
    first = batch(str(manifest), "--scheduler", cluster, "--out", str(out))
    assert first.exit_code == 1
    assert "Traceback" not in first.output
    assert "1 of 4 jobs failed: broken" in first.output
    assert statuses(out) == {"touhu": "done", "sheren": "done", "sheyi": "done", "broken": "failed"}
    record = json.loads((out / "batch.json").read_text(encoding="utf-8"))
    error = next(j["error"] for j in record["jobs"] if j["name"] == "broken")
    assert error["kind"] == "input" and "broken.txt" in error["where"]
    assert not (out / "broken" / ".collate" / "last-run.json").exists()

    shutil.copyfile(WITNESSES / "zhouli-zhushu-sheren-kanripo-WYG.txt", tmp_path / "broken.txt")
    second = batch(str(manifest), "--scheduler", cluster, "--out", str(out))
    assert second.exit_code == 0, second.output
    assert statuses(out) == {"touhu": "skipped", "sheren": "skipped", "sheyi": "skipped", "broken": "done"}


def flaky(name: str, project_file: str, out: str) -> Outcome:
    """A worker's task that takes its worker down (``crash``), raises (``bug``), or runs the job."""
    attempts = Path(out).parent / f"{name}.attempts"
    with attempts.open("a", encoding="utf-8") as file:
        file.write("x")
    if name == "sheren":
        # Crash only once the other two jobs are over: a worker that dies takes down with it
        # whatever else Dask had put there, which is Dask's business, not this test's.
        others = Path(out).parent / "sheyi.attempts"
        for _ in range(6000):  # a fallback, never reached unless the batch is stuck
            if others.exists() and others.read_text(encoding="utf-8") == "xx" and any(
                (Path(out).parent / "touhu").glob("*.json")
            ):
                break
            time.sleep(0.1)
        os._exit(1)
    if name == "sheyi":
        raise RuntimeError("a bug")
    return run_job(name, project_file, out)


@pytest.mark.slow
def test_a_crash_or_an_exception_is_tried_once_more_then_reported(tmp_path: Path, cluster: str) -> None:
    plan = load_batch(write_corpus(tmp_path), tmp_path / "out")
    result = run_batch(plan, scheduler=cluster, task=flaky)
    by_name = {o.name: o for o in result.outcomes}
    assert by_name["touhu"].status is Status.DONE
    crash, bug = by_name["sheren"], by_name["sheyi"]
    assert crash.status is Status.FAILED and crash.error is not None and crash.error.kind == "crash"
    assert bug.status is Status.FAILED and bug.error is not None and bug.error.kind == "bug"
    assert "RuntimeError: a bug" in bug.error.message and "Traceback" in bug.error.detail
    for name in ("sheren", "sheyi"):
        assert (tmp_path / "out" / f"{name}.attempts").read_text(encoding="utf-8") == "xx"


def _line(manifest: Path, needle: str) -> int:
    lines = manifest.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def _refused(result: Result, message: str, where: str) -> None:
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    assert message in result.output, result.output
    assert where in result.output, result.output


def test_an_unknown_key_is_refused_at_its_line(tmp_path: Path) -> None:
    manifest = write_corpus(tmp_path)
    text = manifest.read_text(encoding="utf-8").replace('base = "HZ"', 'bsae = "HZ"')
    manifest.write_text(text, encoding="utf-8")
    result = batch(str(manifest))
    _refused(result, "unknown key `bsae`", f"corpus.toml:{_line(manifest, 'bsae')}")
    assert "did you mean `base`" in result.output


def test_a_missing_file_is_refused_at_its_line(tmp_path: Path) -> None:
    manifest = write_corpus(tmp_path)
    text = manifest.read_text(encoding="utf-8").replace("liji-sheyi-kanripo-TLS.txt", "no-such-file.txt")
    manifest.write_text(text, encoding="utf-8")
    _refused(batch(str(manifest)), "does not exist", f"corpus.toml:{_line(manifest, 'no-such-file')}")


def test_a_missing_project_file_is_refused_at_its_line(tmp_path: Path) -> None:
    manifest = write_corpus(tmp_path)
    (tmp_path / "touhu" / "collate.toml").unlink()
    _refused(batch(str(manifest)), "the project file", f"corpus.toml:{_line(manifest, 'project =')}")


def test_a_job_name_used_twice_is_refused_at_the_second(tmp_path: Path) -> None:
    manifest = write_corpus(tmp_path, SHEYI.format(w=WITNESSES.as_posix()))
    second = [
        i for i, line in enumerate(manifest.read_text(encoding="utf-8").splitlines(), 1) if 'name = "sheyi"' in line
    ]
    _refused(batch(str(manifest)), "duplicate job name 'sheyi'", f"corpus.toml:{second[1]}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_an_unreachable_scheduler_is_refused(tmp_path: Path) -> None:
    manifest = write_corpus(tmp_path)
    address = f"tcp://127.0.0.1:{_free_port()}"
    _refused(
        batch(str(manifest), "--scheduler", address), f"cannot reach the Dask scheduler at {address}", "--scheduler"
    )
    # Named in the manifest, the error names its line.
    text = f'[cluster]\nscheduler = "{address}"\n\n' + manifest.read_text(encoding="utf-8")
    manifest.write_text(text, encoding="utf-8")
    _refused(batch(str(manifest)), "cannot reach the Dask scheduler", "corpus.toml:2")


def test_workers_with_a_scheduler_is_refused(tmp_path: Path) -> None:
    result = batch(str(write_corpus(tmp_path)), "--scheduler", "tcp://127.0.0.1:1", "--workers", "2")
    _refused(result, "--workers sizes the embedded cluster", "")


def test_a_job_naming_a_project_takes_no_settings(tmp_path: Path) -> None:
    manifest = write_corpus(tmp_path)
    text = manifest.read_text(encoding="utf-8").replace(
        'project = "touhu/collate.toml"', 'project = "touhu/collate.toml"\nbase = "SK"'
    )
    manifest.write_text(text, encoding="utf-8")
    with pytest.raises(ProjectError, match="unknown key `base` in job 1") as caught:
        load_batch(manifest)
    assert caught.value.where == f"{manifest}:{_line(manifest, 'base = ' + chr(34) + 'SK')}"


def test_lines_are_found_for_tables_and_keys() -> None:
    lines = scan(
        '[defaults]\nlayers = ["jing"]\n\n[[job]]\nname = "a"\n[[job.witness]]\npath = "x"\n[[job]]\nname = "b"\n'
    )
    assert lines.of(("defaults",), "layers") == 2
    assert lines.of(("job", 1), "name") == 5
    assert lines.of(("job", 1, "witness", 1), "path") == 7
    assert lines.of(("job", 2), "name") == 9
    assert lines.of(("job", 2), "base") == 8  # not written: the job's own header


def test_lines_count_the_jobs_and_witnesses_from_one() -> None:
    lines = scan(
        '[defaults]\nlayers = ["jing"]\n[defaults.normalize]\nloans = {}\n\n'
        '[[job]]\nproject = "a/collate.toml"\n\n'
        '[[job]]\nname = "b"\nnormalize.variant_tables = ["t.tsv"]\n'
        '[[job.witness]]\nsiglum = "A"\npath = "a.txt"\n'
        '[[job.witness]]\nsiglum = "B"\npath = "b.txt"\n'
        '[[job]]\nname = "c"\nwitness = [{ siglum = "C", path = "c.txt" }]\n'
    )
    assert lines.of(("defaults", "normalize"), "loans") == 4
    assert lines.of(("job", 1), "project") == 7
    assert lines.of(("job", 2)) == 9
    assert lines.of(("job", 2, "normalize"), "variant_tables") == 11
    assert lines.of(("job", 2, "witness", 2), "path") == 17
    # A witness the job takes from [defaults], written nowhere in it: the job's own line.
    assert lines.of(("job", 1, "witness", 1), "path") == 6
    # An inline table's keys have their own lines too.
    assert lines.of(("job", 3, "witness", 1), "path") == 20
    # A job of a [book]'s juans, numbered after the manifest's own, has no line: not another job's.
    assert lines.of(("job", 4), "name") is None


def test_the_tally_reads_as_a_sentence() -> None:
    from collate.batch import Tally

    line = tally_line(Tally(total=10, done=3, running=2, failed=1, skipped=1, seconds_left=200.0))
    assert line == "10 jobs: 3 done · 2 running · 1 failed · 1 skipped · 3 waiting · about 3 min left"
    assert duration(None) == "?" and duration(40) == "40 s" and duration(3 * 3600) == "3 h 0 min"


def _scheduler_address(file: Path, scheduler: subprocess.Popen[bytes]) -> str:
    """The address the scheduler writes into its file, once the file is whole (while it runs)."""
    while scheduler.poll() is None:
        try:
            address: str = json.loads(file.read_text(encoding="utf-8"))["address"]
            return address
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
    raise AssertionError(f"the scheduler ended before it wrote its address (exit {scheduler.returncode})")


def _wait_for_a_worker(address: str, worker: subprocess.Popen[bytes]) -> None:
    """Wait, however loaded the machine, until the worker has joined the scheduler (while it runs)."""
    import distributed

    client_of: Any = distributed.Client  # distributed ships no types for its client
    with client_of(address) as client:
        while worker.poll() is None:
            try:
                client.wait_for_workers(1, timeout=1)
                return
            except TimeoutError:
                continue
    raise AssertionError(f"the worker ended before it joined the scheduler (exit {worker.returncode})")


@pytest.mark.slow
def test_one_job_on_a_separately_started_scheduler_and_worker(tmp_path: Path) -> None:
    """A ``dask scheduler`` and a ``dask worker`` started here, one job sent to them, both stopped.

    Every wait lasts while the process waited for runs (never a number of seconds: a loaded
    machine is slow, not wrong), so the test cannot hang.
    """
    manifest = write_corpus(tmp_path)
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text[: text.index('[[job]]\nname = "sheren"')], encoding="utf-8")
    file = tmp_path / "scheduler.json"
    dask = [sys.executable, "-m", "dask"]
    started: list[subprocess.Popen[bytes]] = []
    try:
        started.append(
            subprocess.Popen(
                [
                    *dask,
                    "scheduler",
                    "--host",
                    "127.0.0.1",
                    "--port",
                    "0",
                    "--no-dashboard",
                    "--scheduler-file",
                    str(file),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        address = _scheduler_address(file, started[0])
        started.append(
            subprocess.Popen(
                [*dask, "worker", address, "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
        _wait_for_a_worker(address, started[1])
        out = tmp_path / "out"
        result = batch(str(manifest), "--scheduler", address, "--out", str(out))
        assert result.exit_code == 0, result.output
        assert statuses(out) == {"touhu": "done"}
        assert re.search(r"1 job: 1 done, 0 skipped, 0 failed in [\d.]+ s on 1 worker\b", result.output)
    finally:
        for process in reversed(started):
            process.terminate()
        for process in reversed(started):
            process.wait()
