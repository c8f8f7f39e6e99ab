"""Benchmark of the whole run at book size: ``collate run`` end to end (not a test; run by hand).

    python bench/bench_book.py                 # the full table (about 10 minutes on 2 CPUs)
    python bench/bench_book.py --quick         # 10k and 30k only (what CI runs)
    python bench/bench_book.py --write         # also write the table into bench/README.md

Each measurement is ``collate run`` as a user runs it: a child process that reads a project
file and writes every output, timed on the wall clock, its peak RSS taken from the kernel's
rusage of that child (``os.wait4``). A second child runs the same project in-process with
``time.perf_counter`` around each stage (the pipeline's progress messages mark the stage
boundaries; each exporter is timed on its own), so that a slow size can be blamed on a stage. On
3 × 300k (30k with ``--quick``) the commands that follow a run — ``export`` (which finds the
files current), ``export --force`` (every file written again from the saved run, as after a
review), ``diff``, ``notes``, ``stats`` and opening a review — are timed too, each as a share of
the run's time: they load the saved run and must never collate again. Beside them, in the same
run: the default project, ``python -c pass`` and ``collate --help`` (start-up), plain CollateX-Python
on 2 × 2,000 characters, and CollateX-Java (its compiled core and driver, JVM start included) on the
same files and on 3 × 10,000, where a Java runtime and the compiled classes are found. Children run
with Python's bytecode cache as a user has it (PYTHONDONTWRITEBYTECODE is not passed on).

The input is real-like: the base is seed 000 (五禮通考 卷165, siku-wltk layout: blank-line pages,
double-column 注/疏, 蕙田案 notes) with its body repeated to the size asked, each copy with a few
random substitutions so that repeats are not identical; witnesses are edited copies of the base
(substitutions, omissions, additions, a few transpositions) in the same layout, one of them turned
into traditional characters with OpenCC ``s2t``; the 大戴禮 readings file is added with its entries
repeated once per copy of the body. Edits touch only CJK characters that are not layer markers, so
every copy keeps the base's notes and layers. The project files go to a temporary folder.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import random
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

ROOT = Path(__file__).resolve().parents[1]
BASE_SEED = ROOT / "seeds" / "000_2cc6d19ca27bf473.txt"
READINGS = ROOT / "witnesses" / "dadai-readings.toml"
README = Path(__file__).resolve().parent / "README.md"
TABLE_START = "<!-- book table start -->"
TABLE_END = "<!-- book table end -->"
COLLATE = [sys.executable, "-m", "collate.cli"]
# CollateX-Java 1.7.1 (core) compiled beside the project with a small driver (one token a
# character, whitespace dropped): a baseline of the same run, never a dependency. Found there, or
# where COLLATEX_JAVA_CLASSES points; skipped, with a message, without it or without `java`.
JAVA_CLASSES = Path(
    os.environ.get("COLLATEX_JAVA_CLASSES", ROOT.parent / "shared" / "bench" / "collatex-java" / "classes")
)
JAVA_UP_TO = 10_000  # characters per witness: CollateX-Java takes 80 s and 4 GB at 3 × 10,000
LIMIT_S = 300.0  # a run longer than this is killed, and ends its series
CJK = re.compile(r"[\u4e00-\u9fff]")
# Characters the siku-wltk layout reads as markers (蕙田案 opens a note, 注/疏 open the commentary
# layers, 右 closes a section): never edited, so that every copy keeps its layers.
PROTECTED = set("蕙田案注疏右")
HEADER_LINES = 4  # 钦定四库全书 / 卷 / 撰者 / 嘉礼三十八: once, at the top
COPY_RATE = 0.003  # substitutions in each copy of the body, so that repeats differ
WITNESS_RATES = (0.01, 0.02, 0.03, 0.02)  # edits of the second, third, … witness


# ---- input ---------------------------------------------------------------------------------------


def _seed_parts() -> tuple[str, str, str]:
    """Seed 000 as header, body (the part repeated) and tail (the blank end pages and the 卷末 line)."""
    lines = BASE_SEED.read_text(encoding="utf-8").splitlines(keepends=True)
    end = len(lines)
    while end > 0 and lines[end - 1].strip("\u3000 \n") in {"", "五礼通考卷一百六十五"}:
        end -= 1
    return "".join(lines[:HEADER_LINES]), "".join(lines[HEADER_LINES:end]), "".join(lines[end:])


def _editable(text: str) -> list[int]:
    """Positions of the CJK characters of ``text`` that may be edited (not layer markers)."""
    return [m.start() for m in CJK.finditer(text) if m.group() not in PROTECTED]


def _pool(text: str) -> list[str]:
    """The CJK characters of ``text`` with repeats: random replacements follow the text's own frequencies."""
    return [c for c in CJK.findall(text) if c not in PROTECTED]


def edit(text: str, rate: float, rng: random.Random, *, substitutions_only: bool = False) -> str:
    """``text`` with about ``rate`` of its editable characters edited.

    Substitutions 45%, omissions 25%, additions 25%, transpositions 5% (a run of 3–8 characters
    swapped with the run after it, inside one stretch of CJK characters so that no marker,
    bracket or line break moves).
    """
    pool = _pool(text)
    chars = list(text)
    positions = _editable(text)
    count = round(len(positions) * rate)
    done: set[int] = set()
    for i in sorted(rng.sample(positions, min(count, len(positions))), reverse=True):
        if i in done:
            continue
        kind = 0.0 if substitutions_only else rng.random()
        if kind < 0.45:
            chars[i] = rng.choice(pool)
        elif kind < 0.70:
            chars[i] = ""
        elif kind < 0.95:
            chars[i] = chars[i] + rng.choice(pool)
        else:
            length = rng.randint(3, 8)
            span = range(i, i + 2 * length)
            if span.stop <= len(text) and all(CJK.match(text[j]) and text[j] not in PROTECTED for j in span):
                first, second = chars[i : i + length], chars[i + length : i + 2 * length]
                chars[i : i + 2 * length] = second + first
                done.update(span)
    return "".join(chars)


def base_text(size: int, rng: random.Random) -> tuple[str, int]:
    """The base: header, copies of the body (each lightly edited) to ``size`` characters, tail.

    Returns the text and how many copies of the body it holds (the last one cut at a line end).
    """
    header, body, tail = _seed_parts()
    room = max(size - len(header) - len(tail), 0)
    copies: list[str] = []
    total = 0
    while total < room:
        copy = edit(body, COPY_RATE, rng, substitutions_only=True) if copies else body
        if total + len(copy) > room:
            cut = copy.rfind("\n", 0, room - total)
            copies.append(copy[: cut + 1] if cut > 0 else copy[: room - total] + "\n")
            break
        copies.append(copy)
        total += len(copy)
    return header + "".join(copies) + tail, len(copies)


def s2t(text: str) -> str:
    """``text`` in traditional characters (OpenCC ``s2t``), line breaks and layout kept."""
    import opencc

    return str(opencc.OpenCC("s2t").convert(text))


def readings_file(copies: int) -> str:
    """The 大戴禮 readings file with its entries repeated ``copies`` times (the [witness] table once)."""
    text = READINGS.read_text(encoding="utf-8")
    first = text.index("[[reading]]")
    head, entries = text[:first], text[first:].rstrip("\n") + "\n"
    return head + "\n".join(entries for _ in range(max(copies, 1)))


PROJECT = """title = "benchmark: 投壺 ×{copies}"
name = "book"
base = "A"
work = "投壺"
{witnesses}
[[witness]]
siglum = "DD"
label = "大戴禮"
path = "dadai.toml"
layout = "readings"

[notes.lexicon]
"大戴礼" = "DD"

[normalize]
rules = ["placeholder", "artifact", "taboo", "variant-graph", "script"]
semantic = false
taboo_eras = ["qing"]
"""

WITNESS = """
[[witness]]
siglum = "{siglum}"
label = "{siglum}"
path = "{siglum}.txt"
layout = "siku-wltk"
"""


@dataclass(frozen=True, slots=True)
class Book:
    """A benchmark project written to ``folder``: its witnesses' sizes and how many body copies."""

    folder: Path
    sizes: tuple[int, ...]
    copies: int

    @property
    def config(self) -> Path:
        """The project file."""
        return self.folder / "collate.toml"


def write_book(folder: Path, count: int, size: int, seed: int = 1, *, readings: bool = True) -> Book:
    """Write a project of ``count`` full-text witnesses of about ``size`` characters (and the readings)."""
    rng = random.Random(seed)
    base, copies = base_text(size, rng)
    folder.mkdir(parents=True, exist_ok=True)
    texts = [base]
    for k in range(1, count):
        text = edit(base, WITNESS_RATES[(k - 1) % len(WITNESS_RATES)], rng)
        texts.append(s2t(text) if k == 2 else text)
    sigla = [chr(ord("A") + k) for k in range(count)]
    for siglum, text in zip(sigla, texts, strict=True):
        (folder / f"{siglum}.txt").write_text(text, encoding="utf-8")
    config = PROJECT.format(copies=copies, witnesses="".join(WITNESS.format(siglum=s) for s in sigla))
    if readings:
        (folder / "dadai.toml").write_text(readings_file(copies), encoding="utf-8")
    else:
        # Without the readings witness its lexicon entry would name no witness (an error): both go.
        config = config[: config.index('[[witness]]\nsiglum = "DD"')] + config[config.index("[normalize]") :]
    (folder / "collate.toml").write_text(config, encoding="utf-8")
    return Book(folder, tuple(len(t) for t in texts), copies)


# ---- measuring -----------------------------------------------------------------------------------


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


def fit_exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) over log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


# ---- the table -----------------------------------------------------------------------------------


@dataclass
class Report:
    """The lines of the report, printed as they come and kept for the README."""

    lines: list[str]

    def add(self, line: str = "") -> None:
        """Print ``line`` and keep it."""
        print(line, flush=True)
        self.lines.append(line)


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


def verdict(ok: bool) -> str:
    """'met' or 'NOT met'."""
    return "met" if ok else "NOT met"


def main() -> None:
    """Build the inputs, run the measurements, print (and optionally write) the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10k and 30k characters only")
    parser.add_argument("--write", action="store_true", help="write the report into bench/README.md")
    parser.add_argument("--no-stages", action="store_true", help="skip the in-process per-stage runs")
    opts = parser.parse_args()
    sizes = [10_000, 30_000] if opts.quick else [10_000, 30_000, 100_000, 300_000, 1_000_000]
    counts = [2, 4, 5]  # beside the main series of 3, at 100k (30k with --quick)
    report = Report([])
    header = (
        "| witnesses | chars per witness (file chars, all) | wall s | CPU s | peak RSS MB "
        "| JSON MB | JSON bytes / input char | outputs / input (bytes) | other outputs (KB) |"
    )
    rows = [header, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    ratios: dict[tuple[int, int], float] = {}  # outputs (the run state left out) over input, in bytes
    java: dict[tuple[int, int], float] = {}  # CollateX-Java's wall seconds on the same files
    stage_rows: list[tuple[str, dict[str, float]]] = []
    results: dict[tuple[int, int], Run] = {}

    with tempfile.TemporaryDirectory(prefix="bench-book-") as tmp:
        root = Path(tmp)

        # The default project, start-up included: median of 3 after a warm-up.
        run_child([*COLLATE, "run", "--out", str(root / "default")], ROOT)
        default = [run_child([*COLLATE, "run", "--out", str(root / "default")], ROOT) for _ in range(3)]
        default_s = statistics.median(r.seconds for r in default)

        # 2 × 2,000 end to end against plain CollateX on the same two whole texts.
        small = write_book(root / "small", 2, 2_000, readings=False)
        run_child([*COLLATE, "run", "-c", str(small.config)], ROOT)
        small_runs = [run_child([*COLLATE, "run", "-c", str(small.config)], ROOT) for _ in range(3)]
        small_s = statistics.median(r.seconds for r in small_runs)
        small_inside = in_process(small, root / "small-inside")
        startup = statistics.median(run_child([*COLLATE, "--help"], ROOT).seconds for _ in range(3))
        python_s = statistics.median(run_child([sys.executable, "-c", "pass"], ROOT).seconds for _ in range(3))
        collatex_s = plain_collatex(small)
        java_small = collatex_java(small)

        after: list[tuple[str, Run, dict[str, Run]]] = []

        def measure(count: int, size: int) -> Run:
            book = write_book(root / f"w{count}-{size}", count, size)
            out = book.folder / "output"
            run = run_child([*COLLATE, "run", "-c", str(book.config), "--out", str(out)], ROOT)
            results[(count, size)] = run
            total = sum(book.sizes)
            if run.ok:
                files = outputs(out)
                ratios[(count, size)] = sum(v for k, v in files.items() if k != ".collate/") / input_bytes(book)
                json_bytes = files.pop("book.json", 0)
                others = ", ".join(f"{k} {v / 1024:,.0f}" for k, v in files.items())
                cells = [
                    f"{run.seconds:.2f}",
                    f"{run.cpu:.2f}",
                    f"{run.rss_mb:,.0f}",
                    f"{json_bytes / 2**20:,.1f}",
                    f"{json_bytes / total:,.0f}",
                    f"{ratios[(count, size)]:.1f}×",
                    others,
                ]
            else:
                cells = [f"> {LIMIT_S:.0f} (killed)", "–", f"{run.rss_mb:,.0f}", "–", "–", "–", "–"]
            if run.ok and not opts.quick and size <= JAVA_UP_TO:
                found = collatex_java(book, repeat=1)  # 80 s a run at 3 × 10,000
                if found is not None:
                    java[(count, size)] = found
            rows.append(f"| {count} | {size:,} ({book.sizes[0]:,}, {total:,}) | " + " | ".join(cells) + " |")
            print(rows[-1], flush=True)
            if run.ok and count == 3 and size == (sizes[-1] if opts.quick else 300_000):
                after.append((f"{count} × {size:,}", run, after_run(book)))
            if run.ok and not opts.no_stages:
                timed = stages(book, book.folder / "staged")
                if timed:
                    stage_rows.append((f"{count} × {size:,}", timed))
            return run

        print("\n".join(rows), flush=True)
        walls: list[float] = []
        fitted: list[int] = []
        killed: int | None = None  # the size whose run passed LIMIT_S, which ends the series
        for size in sizes:
            run = measure(3, size)
            if not run.ok:
                killed = size
                break
            walls.append(run.seconds)
            fitted.append(size)
        for count in counts:
            run = measure(count, 30_000 if opts.quick else 100_000)

    report.add(f"Default project (`collate run`, start-up included, median of 3): {default_s:.2f} s wall.")
    report.add(
        f"2 × 2,000 characters end to end (median of 3): {small_s:.2f} s; plain CollateX on the same two "
        f"whole texts (alignment call alone): {collatex_s:.2f} s; ratio {collatex_s / small_s:.1f}×. "
        f"Of the {small_s:.2f} s, starting Python and loading the program takes {startup:.2f} s "
        f"(`collate --help`); the run itself, in a process that has run once, {small_inside:.3f} s "
        f"(ratio {collatex_s / small_inside:.0f}×)."
    )
    if java_small is not None:
        report.add(
            f"CollateX-Java 1.7.1 on the same two files (its driver, JVM start included, median of 3): "
            f"{java_small:.2f} s; collate is {java_small / small_s:.2f}× as fast."
        )
    for (count, size), seconds in java.items():
        run = results[(count, size)]
        report.add(
            f"CollateX-Java on {count} × {size:,} (the files of the table's row, once): {seconds:.1f} s; "
            f"collate is {seconds / run.seconds:.1f}× as fast."
        )
    report.add(
        f"Start-up: `python -c pass` {python_s:.3f} s, `collate --help` {startup:.3f} s "
        f"({startup / python_s:.1f}×); the default project's run is {default_s / startup:.1f}× `collate --help`."
    )
    report.add()
    report.lines.extend(rows)
    print("\n".join(rows))
    exponent = fit_exponent(fitted, walls) if len(fitted) >= 2 else float("nan")
    cpu_exponent = fit_exponent(fitted, [results[(3, s)].cpu for s in fitted]) if len(fitted) >= 2 else float("nan")
    report.add()
    report.add(
        f"Fitted growth exponent (log-log least squares, 3 witnesses, {fitted[0]:,}…{fitted[-1]:,} chars): "
        f"{exponent:.2f} on wall time, {cpu_exponent:.2f} on CPU time."
    )
    bound = exponent
    if killed is not None and fitted:
        # The killed run took at least LIMIT_S: fitted with that, the slope is a lower bound.
        bound = fit_exponent([*fitted, killed], [*walls, LIMIT_S])
        step = math.log(LIMIT_S / walls[-1]) / math.log(killed / fitted[-1])
        report.add(
            f"With the {killed:,} run counted at {LIMIT_S:.0f} s (it was killed then, so these are lower bounds): "
            f"{bound:.2f} over {fitted[0]:,}…{killed:,}, and at least {step:.2f} from {fitted[-1]:,} to {killed:,}."
        )
    if stage_rows:
        names = list(dict.fromkeys(n for _, t in stage_rows for n in t))
        report.add()
        report.add(
            "Seconds per stage (one in-process run per size, `time.perf_counter`; each format written alone, "
            "as `collate run` writes formats, and then all of them together as it does):"
        )
        report.add()
        report.add("| stage | " + " | ".join(label for label, _ in stage_rows) + " |")
        report.add("| --- |" + " --- |" * len(stage_rows))
        for name in names:
            report.add(f"| {name} | " + " | ".join(f"{t.get(name, 0.0):.2f}" for _, t in stage_rows) + " |")
    for label, run, commands in after:
        report.add()
        report.add(f"The commands after `collate run` on {label} (the saved run loaded, never collated again):")
        report.add()
        report.add("| command | wall s | share of the run's wall time |")
        report.add("| --- | --- | --- |")
        report.add(f"| collate run | {run.seconds:.2f} | 100% |")
        for name, done in commands.items():
            cell = f"{done.seconds:.2f}" if done.ok else "failed"
            report.add(f"| {name} | {cell} | {done.seconds / run.seconds:.1%} |")
    report.add()
    report.add("Targets:")
    report.add()

    def target(label: str, key: tuple[int, int], seconds: float, mb: float) -> None:
        run = results.get(key)
        if run is None:
            report.add(f"- {label}: not run (an earlier size passed {LIMIT_S:.0f} s)")
            return
        ok = run.ok and run.seconds <= seconds and run.rss_mb <= mb
        got = f"{run.seconds:.1f} s" if run.ok else f"killed after {LIMIT_S:.0f} s"
        report.add(f"- {label} ≤ {seconds:.0f} s and ≤ {mb / 1000:g} GB: {verdict(ok)} ({got}, {run.rss_mb:,.0f} MB)")

    for label, run, commands in after:
        worst = max(commands.items(), key=lambda c: c[1].seconds)
        share = worst[1].seconds / run.seconds
        ok = verdict(share <= 0.1)
        report.add(f"- each command after the run ≤ 10% of the run ({label}): {ok} ({worst[0]}: {share:.1%})")
    if not opts.quick:
        target("3 × 300k", (3, 300_000), 30, 1500)
        target("3 × 1M", (3, 1_000_000), 90, 3000)
        if (3, 300_000) in ratios:
            got = ratios[(3, 300_000)]
            report.add(f"- 3 × 300k outputs ≤ 20× the input (bytes): {verdict(got <= 20)} ({got:.1f}×)")
    writing = [s for label, s in stage_rows if label == "3 × 300,000"]
    if writing:
        timed = {k: v for k, v in writing[0].items() if k != AS_RUN}
        rest = sum(v for k, v in timed.items() if not k.startswith("write "))
        serial = sum(timed.values()) - rest
        share = serial / (serial + rest)
        together = writing[0].get(AS_RUN)
        if together is None:
            ok = verdict(share <= 0.35)
            report.add(f"- writing the outputs ≤ 35% of a 3 × 300k run (stage seconds): {ok} ({share:.0%})")
        else:
            as_run = together / (together + rest)
            report.add(
                f"- writing the outputs ≤ 35% of a 3 × 300k run (stage seconds): {verdict(as_run <= 0.35)} "
                f"({as_run:.0%} written as `collate run` writes them, two at a time; {share:.0%} one after another)"
            )
    if bound == exponent:
        report.add(f"- growth exponent ≤ 1.1 end to end: {verdict(exponent <= 1.1)} ({exponent:.2f})")
    else:
        report.add(
            f"- growth exponent ≤ 1.1 end to end: NOT met over the whole series (≥ {bound:.2f} with the killed "
            f"run; {exponent:.2f} over {fitted[0]:,}…{fitted[-1]:,} only)"
        )
    report.add(f"- default project ≤ 1 s wall: {verdict(default_s <= 1)} ({default_s:.2f} s)")
    report.add(
        f"- default project ≤ 4× `collate --help`: {verdict(default_s <= 4 * startup)} ({default_s / startup:.1f}×)"
    )
    ok = verdict(startup <= 2 * python_s)
    report.add(f"- `collate --help` ≤ 2× `python -c pass`: {ok} ({startup / python_s:.1f}×)")
    ratio = collatex_s / small_s
    report.add(f"- 2 × 2,000 ≥ 50× faster than plain CollateX: {verdict(ratio >= 50)} ({ratio:.1f}×)")
    if java_small is not None:
        report.add(
            f"- 2 × 2,000 ≥ 2× faster than CollateX-Java, JVM start included: "
            f"{verdict(java_small >= 2 * small_s)} ({java_small / small_s:.2f}×)"
        )
    else:
        report.add("- 2 × 2,000 ≥ 2× faster than CollateX-Java: not measured (no Java runtime or CollateX-Java found)")

    # A command after the run that fails (not one killed for time) is broken code: CI hears of it.
    broken = [n for _, _, commands in after for n, done in commands.items() if not done.ok and done.seconds < LIMIT_S]
    if opts.write:
        text = README.read_text(encoding="utf-8")
        head, _, rest = text.partition(TABLE_START)
        _, _, tail = rest.partition(TABLE_END)
        README.write_text(head + "\n".join([TABLE_START, *report.lines, TABLE_END]) + tail, encoding="utf-8")
    if broken:
        sys.exit("failed after the run: " + ", ".join(broken))


if __name__ == "__main__":
    main()
