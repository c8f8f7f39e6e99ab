"""The benchmark's measurements: child processes timed as a user runs them, and the baselines.

Each measurement is a child process (``collate run`` as a user runs it, a command after it, a
baseline), timed on the wall clock, its peak RSS taken from the kernel's rusage of that child
(``os.wait4``) and from its workers'. A second child runs a project in-process with
``time.perf_counter`` around each stage (:data:`STAGES`). Children run with Python's bytecode
cache as a user has it (PYTHONDONTWRITEBYTECODE is not passed on).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from bookgen import ROOT, Book

COLLATE = [sys.executable, "-m", "collate.cli"]
# CollateX-Java 1.7.1 (core) compiled beside the project with a small driver (one token a
# character, whitespace dropped): a baseline of the same run, never a dependency. Found there, or
# where COLLATEX_JAVA_CLASSES points; skipped, with a message, without it or without `java`.
JAVA_CLASSES = Path(
    os.environ.get("COLLATEX_JAVA_CLASSES", ROOT.parent / "shared" / "bench" / "collatex-java" / "classes")
)
JAVA_UP_TO = 10_000  # characters per witness: CollateX-Java takes 80 s and 4 GB at 3 × 10,000
LIMIT_S = 300.0  # a run longer than this is killed, and ends its series


@dataclass(frozen=True, slots=True)
class Run:
    """One child process: wall seconds, CPU seconds, peak RSS in MB, and whether it finished."""

    seconds: float
    cpu: float
    rss_mb: float
    ok: bool
    stdout: str = ""


def _tree_rss_kb(pid: int) -> int:
    """The resident memory of ``pid`` and its descendants together, in KB (0 where /proc is not).

    A run writes its largest outputs in forked workers: the kernel's rusage gives the peak of the
    largest process, not of all at once, so the tree is summed (the pages a worker still shares with
    its parent counted in each: an upper bound).
    """
    total, todo = 0, [pid]
    page_kb = os.sysconf("SC_PAGE_SIZE") // 1024 if hasattr(os, "sysconf") else 4
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm", encoding="ascii") as statm:
                total += int(statm.read().split()[1]) * page_kb
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children", encoding="ascii") as children:
                    todo += [int(c) for c in children.read().split()]
        except (OSError, ValueError):
            continue
    return total


# A user's Python keeps the bytecode of what it imported (``__pycache__``); a shell that forbids it
# (PYTHONDONTWRITEBYTECODE, as some CI images set) would charge every run the compiling of the program.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run_child(argv: Sequence[str], cwd: Path, limit: float = LIMIT_S) -> Run:
    """Run ``argv``; kill it (its process group) after ``limit`` seconds. Its own rusage, via wait4;
    its peak memory the larger of the kernel's and the sampled sum over its process tree."""
    start = time.perf_counter()
    tree_kb = 0
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, cwd=cwd, stdout=out, stderr=err, start_new_session=True, env=CHILD_ENV)
        polls = 0
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            polls += 1
            if polls % 5 == 0:
                tree_kb = max(tree_kb, _tree_rss_kb(proc.pid))
            if time.perf_counter() - start > limit:
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        proc.returncode = os.waitstatus_to_exitcode(status)  # so Popen does not wait for it again
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    ok = proc.returncode == 0
    if not ok and seconds <= limit:
        sys.stderr.write(f"{' '.join(argv)} failed:\n{stderr[-2000:]}\n")
    return Run(seconds, usage.ru_utime + usage.ru_stime, max(usage.ru_maxrss, tree_kb) / 1024, ok, stdout)


STAGES = """
import json, sys, time
from pathlib import Path
from collate.exporters import EXPORTERS, get_exporter
from collate.results import ExportInput
from collate.pipeline import collate_project
from collate.project import load_project
from collate.decisions.file import decisions_path, load_decisions
from collate.runs.saved import run_bytes
from collate.runs.writers import write_formats

marks = []
def progress(msg):
    marks.append((time.perf_counter(), msg))
start = time.perf_counter()
project = load_project(Path(sys.argv[1]))
marks.append((time.perf_counter(), "loading the normalizer"))
result = collate_project(project, progress=progress, decisions=load_decisions(decisions_path(project)))
marks.append((time.perf_counter(), "end"))
out = Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
data = ExportInput.of(result)
writes = {}
# Each format alone, as collate run writes formats (the collector paused), one after another.
for name in EXPORTERS:
    t = time.perf_counter()
    write_formats(data, [(name, out / f"{result.collation.name}{get_exporter(name).suffix}")])
    writes["write " + name] = time.perf_counter() - t
# All of them as collate run writes them: two at a time where the run is large enough.
together = out / "together"
together.mkdir()
t = time.perf_counter()
write_formats(data, [(name, together / f"{result.collation.name}{get_exporter(name).suffix}") for name in EXPORTERS])
as_run = time.perf_counter() - t
t = time.perf_counter()
# The run itself, as collate run saves it beside its outputs for the commands after it.
(out / "run.json.gz").write_bytes(run_bytes(result))
writes["save the run"] = time.perf_counter() - t
print(json.dumps({"start": start, "marks": marks, "writes": writes, "as_run": as_run}))
"""


def stage_name(message: str) -> str:
    """The stage a progress message opens: readers, normalize/tokenize, align, apparatus, notes."""
    if message.startswith("reading"):
        return "read"
    if message.startswith("normalizing"):
        return "normalize + tokenize"
    if "aligning" in message or "transpositions" in message or "stretch" in message:
        return "align"  # the engine's notes on how it aligned belong to its stage
    if "apparatus" in message:
        return "apparatus"
    if message.startswith("anchoring"):
        return "notes + decisions"
    return message


def stages(book: Book, out: Path) -> dict[str, float] | None:
    """Seconds per stage of one in-process run of ``book`` (in a child of its own), or None if it timed out."""
    run = run_child([sys.executable, "-c", STAGES, str(book.config), str(out)], ROOT)
    if not run.ok:
        return None
    data = json.loads(run.stdout)
    times: dict[str, float] = {}
    marks = data["marks"]
    for (t0, msg), (t1, _) in itertools.pairwise(marks):
        name = stage_name(msg)
        times[name] = times.get(name, 0.0) + t1 - t0
    times.update(data["writes"])
    times[AS_RUN] = data["as_run"]
    return times


# The stage table's row of every format written together as `collate run` writes them (two at a
# time at book size): the same work as the `write …` rows, so in no sum of stages.
AS_RUN = "write all, as `collate run` does (the write rows together)"


# The review's start without a terminal: the saved run loaded and a session opened on it.
REVIEW_OPEN = """
import sys
from pathlib import Path
from collate.cli import the_run
from collate.project import load_project
from collate.review.session import open_review
open_review(the_run(load_project(Path(sys.argv[1]))), "bench")
"""


def after_run(book: Book) -> dict[str, Run]:
    """Each command after ``collate run`` on ``book``'s saved run (in ``output/`` beside it), timed as run by a user."""
    config = str(book.config)
    commands = {
        # Nothing changed since the run: export finds its files current and writes none.
        "collate export": [*COLLATE, "export", "-c", config],
        # What an export after a review costs: the saved run loaded, decided, every file written.
        "collate export --force": [*COLLATE, "export", "-c", config, "--force"],
        "collate diff --list": [*COLLATE, "diff", "-c", config, "--list", "--no-pager"],
        "collate notes": [*COLLATE, "notes", "-c", config],
        "collate stats": [*COLLATE, "stats", str(book.folder / "output")],
        "collate review (opening)": [sys.executable, "-c", REVIEW_OPEN, config],
    }
    return {name: run_child(argv, book.folder) for name, argv in commands.items()}


def plain_collatex(book: Book) -> float:
    """Seconds of plain CollateX aligning the whole texts of the first two witnesses (all layers' tokens)."""
    probe = f"""
import time
from pathlib import Path
from collate.align.collatex_adapter import collatex_columns
from collate.normalize import Normalizer
from collate.pipeline import read_project
from collate.project import load_project
from collate.normalize.tokenize import tokenize_witness

project = load_project(Path({str(book.config)!r}))
normalizer = Normalizer.from_project(project)
read = read_project(project, normalizer=normalizer)
keys = []
for w in read.witnesses[:2]:
    tokens = sorted((t for ts in tokenize_witness(w, normalizer).values() for t in ts), key=lambda t: t.start)
    keys.append([t.n for t in tokens])
collatex_columns([["a"], ["a"]])
start = time.perf_counter()
collatex_columns(keys)
print(time.perf_counter() - start, len(keys[0]), len(keys[1]))
"""
    run = run_child([sys.executable, "-c", probe], ROOT)
    if not run.ok:
        raise SystemExit("plain CollateX failed")
    return float(run.stdout.split()[0])


def in_process(book: Book, out: Path) -> float:
    """Seconds of a second ``collate_project`` + every output in one process (start-up and imports paid once)."""
    probe = f"""
import time
from pathlib import Path
from collate.runs.outputs import write_outputs
from collate.pipeline import collate_project
from collate.project import load_project

project = load_project(Path({str(book.config)!r}))
write_outputs(collate_project(project), Path({str(out)!r}))
start = time.perf_counter()
write_outputs(collate_project(project), Path({str(out)!r}))
print(time.perf_counter() - start)
"""
    run = run_child([sys.executable, "-c", probe], ROOT)
    if not run.ok:
        raise SystemExit("the in-process run failed")
    return float(run.stdout.split()[0])


def outputs(folder: Path) -> dict[str, int]:
    """Bytes of each output file (the run state under .collate/ summed as one)."""
    sizes: dict[str, int] = {}
    for p in sorted(folder.iterdir()):
        if p.is_file():
            # A book's HTML in parts (book.part-001.html, book.part-001.js …): the parts summed as one.
            name = re.sub(r"\.part-[0-9]+\.", ".part-*.", p.name)
            sizes[name] = sizes.get(name, 0) + p.stat().st_size
    for sub in sorted(p for p in folder.iterdir() if p.is_dir()):
        # A format written as several files (a folder of parts), and the run state: each summed as one.
        sizes[f"{sub.name}/"] = sum(p.stat().st_size for p in sub.rglob("*") if p.is_file())
    return sizes


def input_bytes(book: Book) -> int:
    """Bytes of the project's witness files (the readings file included), what the outputs are measured against."""
    return sum(p.stat().st_size for p in book.folder.iterdir() if p.is_file() and p.name != "collate.toml")


def collatex_java(book: Book, repeat: int = 3) -> float | None:
    """Wall seconds of CollateX-Java on ``book``'s witness files (JVM start included; the median of
    ``repeat`` runs after a warm-up, or one run for ``repeat`` 1), or None where no Java runtime or no
    compiled CollateX-Java is found (said on stderr)."""
    if not (JAVA_CLASSES / "CxJava.class").is_file():
        sys.stderr.write(f"CollateX-Java skipped: no CxJava.class in {JAVA_CLASSES} (set COLLATEX_JAVA_CLASSES)\n")
        return None
    java = shutil.which("java")
    if java is None:
        sys.stderr.write("CollateX-Java skipped: no `java` on the PATH\n")
        return None
    files = sorted(p.name for p in book.folder.glob("*.txt"))
    argv = [java, "-cp", str(JAVA_CLASSES), "CxJava", *files]
    if repeat > 1:
        run_child(argv, book.folder)
    runs = [run_child(argv, book.folder) for _ in range(repeat)]
    if not all(r.ok for r in runs):
        return None
    return statistics.median(r.seconds for r in runs)
