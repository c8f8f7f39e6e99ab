"""The formats of a set written two at a time (forked workers) give the bytes written one after another."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from builders import run_default_project

import collate.runs.writers as writers
from collate.errors import ExportError
from collate.exporters import EXPORTERS, Exporter, get_exporter
from collate.exporters.tei import build_tei, tei_bytes
from collate.results import ExportInput, RunResult
from collate.runs.manifest import sha256_of

forking = pytest.mark.skipif(
    sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2, reason="formats are written in parallel on Linux"
)


@pytest.fixture(scope="module")
def run() -> RunResult:
    return run_default_project()


def files(folder: Path) -> list[tuple[str, Path]]:
    folder.mkdir()
    return [(name, folder / f"touhu{get_exporter(name).suffix}") for name in EXPORTERS]


def test_a_small_run_is_written_here(run: RunResult) -> None:
    data = ExportInput.of(run)
    assert sum(len(w.text) for w in data.witnesses.values()) < writers.PARALLEL_FROM
    assert writers._workers(data, len(EXPORTERS)) == 0


@forking
def test_written_in_parallel_the_bytes_are_the_same(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = ExportInput.of(run)
    one_by_one = writers.write_formats(data, files(tmp_path / "here"))
    monkeypatch.setattr(writers, "PARALLEL_FROM", 0)
    assert writers._workers(data, len(EXPORTERS)) >= 2
    heard: list[str] = []
    parallel = writers.write_formats(data, files(tmp_path / "forked"), heard.append)
    assert parallel == one_by_one
    assert {p.name: sha256_of(p) for p in (tmp_path / "forked").iterdir()} == one_by_one
    assert any("touhu.tei.xml" in said for said in heard)
    assert writers._INPUT is None  # nothing of the set kept once it is written


@forking
def test_a_format_failing_in_a_worker_fails_the_set(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Broken:
        name, suffix, description = "tei", ".tei.xml", "TEI that cannot be written"

        def write(self, data: ExportInput, path: Path) -> None:
            raise ExportError("cannot write: disk full", where=str(path))

    def exporter(name: str) -> Exporter:
        return Broken() if name == "tei" else get_exporter(name)

    monkeypatch.setattr(writers, "get_exporter", exporter)
    monkeypatch.setattr(writers, "PARALLEL_FROM", 0)
    with pytest.raises(ExportError, match="disk full"):
        writers.write_formats(ExportInput.of(run), files(tmp_path / "forked"))


def test_a_layer_all_collated_is_not_tokenized_again(run: RunResult, monkeypatch: pytest.MonkeyPatch) -> None:
    """The TEI of the witnesses' own text is the same whether the run's layer sizes are known or not."""
    import collate.normalize.tokenize as tokenize

    calls: list[tuple[str, str]] = []
    real = tokenize.tokenize

    def counted(witness, layer, normalizer):  # type: ignore[no-untyped-def]
        calls.append((witness.siglum, layer.value))
        return real(witness, layer, normalizer)

    monkeypatch.setattr(tokenize, "tokenize", counted)
    data = ExportInput.of(run)
    assert data.layer_sizes and all(data.layer_sizes.values())
    known = tei_bytes(build_tei(data))
    skipped = list(calls)
    calls.clear()
    unknown = tei_bytes(build_tei(ExportInput(data.collation, data.witnesses, data.bibl, data.notes)))
    assert known == unknown
    assert len(skipped) < len(calls)
    # What is skipped is a layer the alignment carries whole.
    for siglum, layer in set(calls) - set(skipped):
        assert siglum != run.collation.base and layer in {r.layer.value for r in run.collation.layers}


def test_a_very_large_run_writes_its_formats_itself(run: RunResult, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above PARALLEL_UNTIL a worker would add too much memory to the peak: no worker is started."""
    data = ExportInput.of(run)
    monkeypatch.setattr(writers, "PARALLEL_FROM", 0)
    monkeypatch.setattr(writers, "PARALLEL_UNTIL", 10)
    assert writers._workers(data, len(EXPORTERS)) == 0


@pytest.mark.parametrize("fails", [False, True], ids=["written", "failed"])
def test_the_collector_is_paused_while_the_formats_are_written(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fails: bool
) -> None:
    """Collections would walk the whole run again and again; the collector is as it was after."""
    import gc

    seen: list[bool] = []

    class Watching:
        name, suffix, description = "notes", ".notes.json", "notes that see the collector"

        def write(self, data: ExportInput, path: Path) -> None:
            seen.append(gc.isenabled())
            if fails:
                raise ExportError("cannot write: disk full", where=str(path))
            path.write_text("{}", encoding="utf-8")

    monkeypatch.setattr(writers, "get_exporter", lambda name: Watching())
    assert gc.isenabled()
    try:
        writers.write_formats(ExportInput.of(run), [("notes", tmp_path / "touhu.notes.json")])
    except ExportError:
        assert fails
    assert seen == [False] and gc.isenabled()
    gc.disable()
    try:
        writers.write_formats(ExportInput.of(run), [("notes", tmp_path / "again.notes.json")])
    except ExportError:
        assert fails
    finally:
        still_off = not gc.isenabled()
        gc.enable()
    assert still_off  # left off where the caller had it off


@pytest.mark.parametrize("parallel", [False, True], ids=["here", "forked"])
def test_the_callers_work_is_done_once_beside_the_formats(
    run: RunResult, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel: bool
) -> None:
    """Saving the run is done in this process, once, whether or not a worker writes a format meanwhile."""
    if parallel:
        if sys.platform != "linux" or len(os.sched_getaffinity(0)) < 2:
            pytest.skip("formats are written in parallel on Linux")
        monkeypatch.setattr(writers, "PARALLEL_FROM", 0)
    done: list[int] = []
    data = ExportInput.of(run)
    digests = writers.write_formats(data, files(tmp_path / "set"), beside=lambda: done.append(os.getpid()))
    assert done == [os.getpid()]
    assert set(digests) == {p.name for p in (tmp_path / "set").iterdir()}
