"""Benchmark of ``collate batch`` at corpus scale: many juan-sized jobs on the embedded Dask cluster (run by hand).

    python bench/bench_batch.py                # 100 jobs, with 1, 2 and all workers (about 10 minutes on 2 CPUs)
    python bench/bench_batch.py --jobs 20      # fewer jobs
    python bench/bench_batch.py --write        # also write the table into bench/README.md

Each job is a project of 3 witnesses of about 30,000 characters, made as ``bench_book.py`` makes
its book (its generator, each job with its own seed): seed 000's body repeated and lightly edited,
two edited copies, one of them in traditional characters. The jobs are written once; each
configuration runs ``collate batch`` on them as a user runs it (a child process, into a fresh
output tree), and its wall time is taken around that child. Per job, the batch record
(``batch.json``) gives the characters collated and the peak RSS of the worker process that ran
it; a worker's peak is the largest over its jobs.

The baseline, measured in the same run: the same jobs one after another in one plain process
(``run_job``, the function a worker runs, with no Dask), over the first few jobs (a fifth, at
least 5). Throughput is characters collated per wall second; the speed-up of a configuration is
its throughput over the 1-worker batch's, and its ratio to the baseline says what Dask costs. On a
shared machine the CPUs are not all ours: before each configuration a pure-Python loop is timed in
1 and in N processes (``multiprocessing``), and the best speed-up of that loop is what N workers
could give at best in this run.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bookgen import ROOT, write_book  # noqa: E402  (the book generator, reused)

README = HERE / "README.md"
TABLE_START = "<!-- batch table start -->"
TABLE_END = "<!-- batch table end -->"
SIZE = 30_000
WITNESSES = 3


@dataclass(frozen=True, slots=True)
class Measured:
    """One configuration: wall seconds, characters collated, jobs done, and the peak MB of each worker."""

    label: str
    workers: int
    seconds: float
    characters: int
    done: int
    peaks: tuple[float, ...]
    cpu: float

    @property
    def rate(self) -> float:
        """Characters a second."""
        return self.characters / self.seconds


def _burn(n: int) -> float:
    x = 0
    for i in range(n):
        x += i * i
    return float(x)


def ceiling(processes: int) -> float:
    """How much faster ``processes`` processes run a pure-Python loop than one, now: what the machine gives."""

    def timed(n: int) -> float:
        with multiprocessing.Pool(n) as pool:
            start = time.perf_counter()
            pool.map(_burn, [3_000_000] * (2 * processes))
            return time.perf_counter() - start

    return timed(1) / timed(processes)


def _ceiling(speed_ups: list[float]) -> str:
    return f"{min(speed_ups):.2f}–{max(speed_ups):.2f}×"


def write_jobs(folder: Path, count: int) -> Path:
    """``count`` juan-sized projects and the manifest naming them; returns the manifest."""
    lines = []
    for k in range(count):
        name = f"juan{k + 1:03d}"
        write_book(folder / name, WITNESSES, SIZE, seed=k + 1, readings=False)
        config = folder / name / "collate.toml"
        text = config.read_text(encoding="utf-8").replace('name = "book"', f'name = "{name}"')
        config.write_text(text, encoding="utf-8")
        lines.append(f'[[job]]\nproject = "{name}/collate.toml"\n')
    manifest = folder / "corpus.toml"
    manifest.write_text("\n".join(lines), encoding="utf-8")
    return manifest


def run_batch(manifest: Path, out: Path, workers: int, label: str) -> Measured:
    """``collate batch`` in a child process with ``workers`` workers, into the fresh folder ``out``."""
    start = time.perf_counter()
    child = subprocess.run(
        [sys.executable, "-m", "collate.cli", "batch", str(manifest), "--workers", str(workers), "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if child.returncode != 0:
        raise SystemExit(f"the batch failed:\n{child.stdout[-2000:]}\n{child.stderr[-2000:]}")
    record = json.loads((out / "batch.json").read_text(encoding="utf-8"))
    jobs = record["jobs"]
    peaks: dict[int, float] = {}
    for job in jobs:
        peaks[job["worker"]] = max(peaks.get(job["worker"], 0.0), job["peak_mb"])
    characters = sum(job["characters"] for job in jobs)
    done = sum(job["status"] == "done" for job in jobs)
    cpu = sum(job["cpu"] for job in jobs) / max(done, 1)
    return Measured(label, workers, seconds, characters, done, tuple(sorted(peaks.values())), cpu)


def baseline(manifest: Path, out: Path, count: int) -> Measured:
    """The first ``count`` jobs one after another in one plain process, through ``run_job``, no Dask."""
    probe = f"""
import json, time
from pathlib import Path
from collate.batch import load_batch
from collate.batch.job import peak_mb, run_job
plan = load_batch(Path({str(manifest)!r}), Path({str(out)!r}))
start, cpu = time.perf_counter(), time.process_time()
outcomes = [run_job(j.name, str(j.project), str(j.out)) for j in plan.jobs[:{count}]]
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
characters = sum(o.characters for o in outcomes)
print(json.dumps({{"seconds": seconds, "cpu": cpu, "characters": characters, "peak": peak_mb()}}))
"""
    child = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True)
    if child.returncode != 0:
        raise SystemExit(f"the baseline failed:\n{child.stderr[-2000:]}")
    data = json.loads(child.stdout.splitlines()[-1])
    cpu = data["cpu"] / count
    return Measured("one process, no Dask", 1, data["seconds"], data["characters"], count, (data["peak"],), cpu)


def main() -> None:
    """Write the jobs, measure each configuration, print (and optionally write) the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=100, help="how many jobs (default 100)")
    parser.add_argument("--write", action="store_true", help="write the table into bench/README.md")
    opts = parser.parse_args()
    cpus = os.cpu_count() or 1
    counts = sorted({1, 2, cpus})
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        manifest = write_jobs(root / "corpus", opts.jobs)
        made = time.perf_counter() - start
        print(f"{opts.jobs} jobs written in {made:.1f} s", flush=True)
        load = [os.getloadavg()[0]]
        first = min(opts.jobs, max(5, opts.jobs // 5))
        base = baseline(manifest, root / "baseline", first)
        print(f"baseline: {base.rate:,.0f} characters/s", flush=True)
        results = []
        ceilings: dict[int, list[float]] = {n: [] for n in counts}
        for n in counts:
            label = f"{n} worker{'s' if n > 1 else ''}" + (" (all)" if n == cpus else "")
            for m in counts[1:]:
                ceilings[m].append(ceiling(m))
            results.append(run_batch(manifest, root / f"out-{n}", n, label))
            load.append(os.getloadavg()[0])
            print(f"{label}: {results[-1].seconds:.1f} s", flush=True)
    one = results[0]
    lines = [
        f"Measured {time.strftime('%Y-%m-%d')}: {opts.jobs} jobs of {WITNESSES} witnesses × {SIZE:,} characters "
        f"(all jobs {one.characters:,} characters), {cpus} CPUs, load average {min(load):.1f}–{max(load):.1f} "
        "(the machine is shared).",
        "",
        "| run | jobs | wall s | characters / s | speed-up over 1 worker | speed-up per worker | ratio to one process "
        "| CPU s a job | peak MB per worker | the machine's ceiling |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        f"| {base.label} (first {first} jobs) | {first} | {base.seconds:.1f} | {base.rate:,.0f} | – | – | 1.00× "
        f"| {base.cpu:.2f} | {base.peaks[0]:,.0f} | – |",
    ]
    for r in results:
        speed = r.rate / one.rate
        peaks = ", ".join(f"{p:,.0f}" for p in r.peaks)
        lines.append(
            f"| batch, {r.label} | {r.done} | {r.seconds:.1f} | {r.rate:,.0f} | {speed:.2f}× "
            f"| {speed / r.workers:.2f}× | {r.rate / base.rate:.2f}× | {r.cpu:.2f} | {peaks} "
            f"| {_ceiling(ceilings[r.workers]) if r.workers > 1 else '–'} |"
        )
    lines += [
        "",
        f"With 1 worker, {one.seconds / max(one.done, 1):.2f} s of wall time a job, the start of the cluster and "
        f"of each worker's imports included; in one plain process, {base.seconds / first:.2f} s. The machine's "
        "ceiling: how much faster a pure-Python loop ran in that many processes than in one, timed before each "
        "configuration (lowest–highest): no batch can beat it.",
    ]
    print("\n".join(lines))
    if opts.write:
        text = README.read_text(encoding="utf-8")
        head, _, rest = text.partition(TABLE_START)
        _, _, tail = rest.partition(TABLE_END)
        README.write_text(head + "\n".join([TABLE_START, *lines, TABLE_END]) + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
