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
import math
import statistics
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# Run as a script (python bench/bench_book.py): its folder is on sys.path, its modules beside it.
from bookgen import ROOT, write_book
from bookrun import (
    AS_RUN,
    COLLATE,
    JAVA_UP_TO,
    LIMIT_S,
    Run,
    after_run,
    collatex_java,
    in_process,
    input_bytes,
    outputs,
    plain_collatex,
    run_child,
    stages,
)

README = Path(__file__).resolve().parent / "README.md"
TABLE_START = "<!-- book table start -->"
TABLE_END = "<!-- book table end -->"
HEADER = (
    "| witnesses | chars per witness (file chars, all) | wall s | CPU s | peak RSS MB "
    "| JSON MB | JSON bytes / input char | outputs / input (bytes) | other outputs (KB) |"
)


def fit_exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) over log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


@dataclass
class Report:
    """The lines of the report, printed as they come and kept for the README."""

    lines: list[str]

    def add(self, line: str = "") -> None:
        """Print ``line`` and keep it."""
        print(line, flush=True)
        self.lines.append(line)


def verdict(ok: bool) -> str:
    """'met' or 'NOT met'."""
    return "met" if ok else "NOT met"


@dataclass(frozen=True, slots=True)
class Startup:
    """The small measures: the default project, 2 × 2,000 against the baselines, start-up itself."""

    default_s: float
    small_s: float
    small_inside: float
    startup: float
    python_s: float
    collatex_s: float
    java_small: float | None


def measure_startup(root: Path) -> Startup:
    """The default project (median of 3 after a warm-up), 2 × 2,000 end to end against plain CollateX
    and CollateX-Java on the same two texts, `collate --help` and `python -c pass`."""
    run_child([*COLLATE, "run", "--out", str(root / "default")], ROOT)
    default = [run_child([*COLLATE, "run", "--out", str(root / "default")], ROOT) for _ in range(3)]
    small = write_book(root / "small", 2, 2_000, readings=False)
    run_child([*COLLATE, "run", "-c", str(small.config)], ROOT)
    small_runs = [run_child([*COLLATE, "run", "-c", str(small.config)], ROOT) for _ in range(3)]
    return Startup(
        default_s=statistics.median(r.seconds for r in default),
        small_s=statistics.median(r.seconds for r in small_runs),
        small_inside=in_process(small, root / "small-inside"),
        startup=statistics.median(run_child([*COLLATE, "--help"], ROOT).seconds for _ in range(3)),
        python_s=statistics.median(run_child([sys.executable, "-c", "pass"], ROOT).seconds for _ in range(3)),
        collatex_s=plain_collatex(small),
        java_small=collatex_java(small),
    )


@dataclass
class Series:
    """The runs of the table: each size's row, its stages, the commands after it, the baselines on it."""

    quick: bool
    no_stages: bool
    after_size: int  # the size (3 witnesses) whose saved run the commands after the run are timed on
    rows: list[str] = field(default_factory=lambda: [HEADER, "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"])
    ratios: dict[tuple[int, int], float] = field(default_factory=dict)  # outputs (no run state) / input, bytes
    java: dict[tuple[int, int], float] = field(default_factory=dict)  # CollateX-Java's wall seconds, same files
    stage_rows: list[tuple[str, dict[str, float]]] = field(default_factory=list)
    results: dict[tuple[int, int], Run] = field(default_factory=dict)
    after: list[tuple[str, Run, dict[str, Run]]] = field(default_factory=list)
    walls: list[float] = field(default_factory=list)
    fitted: list[int] = field(default_factory=list)
    killed: int | None = None  # the size whose run passed LIMIT_S, which ends the series

    def measure(self, root: Path, count: int, size: int) -> Run:
        """Run ``count`` witnesses of ``size`` characters as a user would; add its row (and what goes with it)."""
        book = write_book(root / f"w{count}-{size}", count, size)
        out = book.folder / "output"
        run = run_child([*COLLATE, "run", "-c", str(book.config), "--out", str(out)], ROOT)
        self.results[(count, size)] = run
        total = sum(book.sizes)
        if run.ok:
            files = outputs(out)
            self.ratios[(count, size)] = sum(v for k, v in files.items() if k != ".collate/") / input_bytes(book)
            json_bytes = files.pop("book.json", 0)
            others = ", ".join(f"{k} {v / 1024:,.0f}" for k, v in files.items())
            cells = [
                f"{run.seconds:.2f}",
                f"{run.cpu:.2f}",
                f"{run.rss_mb:,.0f}",
                f"{json_bytes / 2**20:,.1f}",
                f"{json_bytes / total:,.0f}",
                f"{self.ratios[(count, size)]:.1f}×",
                others,
            ]
        else:
            cells = [f"> {LIMIT_S:.0f} (killed)", "–", f"{run.rss_mb:,.0f}", "–", "–", "–", "–"]
        if run.ok and not self.quick and size <= JAVA_UP_TO:
            found = collatex_java(book, repeat=1)  # 80 s a run at 3 × 10,000
            if found is not None:
                self.java[(count, size)] = found
        self.rows.append(f"| {count} | {size:,} ({book.sizes[0]:,}, {total:,}) | " + " | ".join(cells) + " |")
        print(self.rows[-1], flush=True)
        if run.ok and count == 3 and size == self.after_size:
            self.after.append((f"{count} × {size:,}", run, after_run(book)))
        if run.ok and not self.no_stages:
            timed = stages(book, book.folder / "staged")
            if timed:
                self.stage_rows.append((f"{count} × {size:,}", timed))
        return run

    def run_all(self, root: Path, sizes: list[int], counts: list[int], beside: int) -> None:
        """The main series of 3 witnesses (ended by a run killed for time), then ``counts`` at ``beside``."""
        print("\n".join(self.rows), flush=True)
        for size in sizes:
            run = self.measure(root, 3, size)
            if not run.ok:
                self.killed = size
                break
            self.walls.append(run.seconds)
            self.fitted.append(size)
        for count in counts:
            self.measure(root, count, beside)


def report_startup(report: Report, s: Startup, series: Series) -> None:
    """The lines on the small measures and CollateX-Java, above the table."""
    report.add(f"Default project (`collate run`, start-up included, median of 3): {s.default_s:.2f} s wall.")
    report.add(
        f"2 × 2,000 characters end to end (median of 3): {s.small_s:.2f} s; plain CollateX on the same two "
        f"whole texts (alignment call alone): {s.collatex_s:.2f} s; ratio {s.collatex_s / s.small_s:.1f}×. "
        f"Of the {s.small_s:.2f} s, starting Python and loading the program takes {s.startup:.2f} s "
        f"(`collate --help`); the run itself, in a process that has run once, {s.small_inside:.3f} s "
        f"(ratio {s.collatex_s / s.small_inside:.0f}×)."
    )
    if s.java_small is not None:
        report.add(
            f"CollateX-Java 1.7.1 on the same two files (its driver, JVM start included, median of 3): "
            f"{s.java_small:.2f} s; collate is {s.java_small / s.small_s:.2f}× as fast."
        )
    for (count, size), seconds in series.java.items():
        run = series.results[(count, size)]
        report.add(
            f"CollateX-Java on {count} × {size:,} (the files of the table's row, once): {seconds:.1f} s; "
            f"collate is {seconds / run.seconds:.1f}× as fast."
        )
    report.add(
        f"Start-up: `python -c pass` {s.python_s:.3f} s, `collate --help` {s.startup:.3f} s "
        f"({s.startup / s.python_s:.1f}×); the default project's run is {s.default_s / s.startup:.1f}× "
        "`collate --help`."
    )


def report_growth(report: Report, series: Series) -> tuple[float, float]:
    """The table and the fitted growth exponent; the exponent and its bound with a killed run counted."""
    report.add()
    report.lines.extend(series.rows)
    print("\n".join(series.rows))
    fitted, walls = series.fitted, series.walls
    exponent = fit_exponent(fitted, walls) if len(fitted) >= 2 else float("nan")
    cpu = [series.results[(3, s)].cpu for s in fitted]
    cpu_exponent = fit_exponent(fitted, cpu) if len(fitted) >= 2 else float("nan")
    report.add()
    report.add(
        f"Fitted growth exponent (log-log least squares, 3 witnesses, {fitted[0]:,}…{fitted[-1]:,} chars): "
        f"{exponent:.2f} on wall time, {cpu_exponent:.2f} on CPU time."
    )
    bound = exponent
    if series.killed is not None and fitted:
        # The killed run took at least LIMIT_S: fitted with that, the slope is a lower bound.
        killed = series.killed
        bound = fit_exponent([*fitted, killed], [*walls, LIMIT_S])
        step = math.log(LIMIT_S / walls[-1]) / math.log(killed / fitted[-1])
        report.add(
            f"With the {killed:,} run counted at {LIMIT_S:.0f} s (it was killed then, so these are lower bounds): "
            f"{bound:.2f} over {fitted[0]:,}…{killed:,}, and at least {step:.2f} from {fitted[-1]:,} to {killed:,}."
        )
    return exponent, bound


def report_stages(report: Report, series: Series) -> None:
    """The seconds of each stage per size, and the commands after the run as shares of it."""
    if series.stage_rows:
        rows = series.stage_rows
        names = list(dict.fromkeys(n for _, t in rows for n in t))
        report.add()
        report.add(
            "Seconds per stage (one in-process run per size, `time.perf_counter`; each format written alone, "
            "as `collate run` writes formats, and then all of them together as it does):"
        )
        report.add()
        report.add("| stage | " + " | ".join(label for label, _ in rows) + " |")
        report.add("| --- |" + " --- |" * len(rows))
        for name in names:
            report.add(f"| {name} | " + " | ".join(f"{t.get(name, 0.0):.2f}" for _, t in rows) + " |")
    for label, run, commands in series.after:
        report.add()
        report.add(f"The commands after `collate run` on {label} (the saved run loaded, never collated again):")
        report.add()
        report.add("| command | wall s | share of the run's wall time |")
        report.add("| --- | --- | --- |")
        report.add(f"| collate run | {run.seconds:.2f} | 100% |")
        for name, done in commands.items():
            cell = f"{done.seconds:.2f}" if done.ok else "failed"
            report.add(f"| {name} | {cell} | {done.seconds / run.seconds:.1%} |")


def report_book_targets(report: Report, series: Series, exponent: float, bound: float) -> None:
    """The targets at book size: the commands after the run, time, memory, outputs, writing, growth."""

    def target(label: str, key: tuple[int, int], seconds: float, mb: float) -> None:
        run = series.results.get(key)
        if run is None:
            report.add(f"- {label}: not run (an earlier size passed {LIMIT_S:.0f} s)")
            return
        ok = run.ok and run.seconds <= seconds and run.rss_mb <= mb
        got = f"{run.seconds:.1f} s" if run.ok else f"killed after {LIMIT_S:.0f} s"
        report.add(f"- {label} ≤ {seconds:.0f} s and ≤ {mb / 1000:g} GB: {verdict(ok)} ({got}, {run.rss_mb:,.0f} MB)")

    for label, run, commands in series.after:
        worst = max(commands.items(), key=lambda c: c[1].seconds)
        share = worst[1].seconds / run.seconds
        ok = verdict(share <= 0.1)
        report.add(f"- each command after the run ≤ 10% of the run ({label}): {ok} ({worst[0]}: {share:.1%})")
    if not series.quick:
        target("3 × 300k", (3, 300_000), 30, 1500)
        target("3 × 1M", (3, 1_000_000), 90, 3000)
        if (3, 300_000) in series.ratios:
            got = series.ratios[(3, 300_000)]
            report.add(f"- 3 × 300k outputs ≤ 20× the input (bytes): {verdict(got <= 20)} ({got:.1f}×)")
    writing = [s for label, s in series.stage_rows if label == "3 × 300,000"]
    if writing:
        report_writing(report, writing[0])
    fitted = series.fitted
    if bound == exponent:
        report.add(f"- growth exponent ≤ 1.1 end to end: {verdict(exponent <= 1.1)} ({exponent:.2f})")
    else:
        report.add(
            f"- growth exponent ≤ 1.1 end to end: NOT met over the whole series (≥ {bound:.2f} with the killed "
            f"run; {exponent:.2f} over {fitted[0]:,}…{fitted[-1]:,} only)"
        )


def report_writing(report: Report, timed_all: dict[str, float]) -> None:
    """The share of a 3 × 300k run spent writing its outputs: as `collate run` writes them, and one by one."""
    timed = {k: v for k, v in timed_all.items() if k != AS_RUN}
    rest = sum(v for k, v in timed.items() if not k.startswith("write "))
    serial = sum(timed.values()) - rest
    share = serial / (serial + rest)
    together = timed_all.get(AS_RUN)
    if together is None:
        ok = verdict(share <= 0.35)
        report.add(f"- writing the outputs ≤ 35% of a 3 × 300k run (stage seconds): {ok} ({share:.0%})")
    else:
        as_run = together / (together + rest)
        report.add(
            f"- writing the outputs ≤ 35% of a 3 × 300k run (stage seconds): {verdict(as_run <= 0.35)} "
            f"({as_run:.0%} written as `collate run` writes them, two at a time; {share:.0%} one after another)"
        )


def report_startup_targets(report: Report, s: Startup) -> None:
    """The targets of the small measures: the default project, start-up, 2 × 2,000 against the baselines."""
    report.add(f"- default project ≤ 1 s wall: {verdict(s.default_s <= 1)} ({s.default_s:.2f} s)")
    report.add(
        f"- default project ≤ 4× `collate --help`: {verdict(s.default_s <= 4 * s.startup)} "
        f"({s.default_s / s.startup:.1f}×)"
    )
    ok = verdict(s.startup <= 2 * s.python_s)
    report.add(f"- `collate --help` ≤ 2× `python -c pass`: {ok} ({s.startup / s.python_s:.1f}×)")
    ratio = s.collatex_s / s.small_s
    report.add(f"- 2 × 2,000 ≥ 50× faster than plain CollateX: {verdict(ratio >= 50)} ({ratio:.1f}×)")
    if s.java_small is not None:
        report.add(
            f"- 2 × 2,000 ≥ 2× faster than CollateX-Java, JVM start included: "
            f"{verdict(s.java_small >= 2 * s.small_s)} ({s.java_small / s.small_s:.2f}×)"
        )
    else:
        report.add("- 2 × 2,000 ≥ 2× faster than CollateX-Java: not measured (no Java runtime or CollateX-Java found)")


def main() -> None:
    """Build the inputs, run the measurements, print (and optionally write) the report."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="10k and 30k characters only")
    parser.add_argument("--write", action="store_true", help="write the report into bench/README.md")
    parser.add_argument("--no-stages", action="store_true", help="skip the in-process per-stage runs")
    opts = parser.parse_args()
    sizes = [10_000, 30_000] if opts.quick else [10_000, 30_000, 100_000, 300_000, 1_000_000]
    counts = [2, 4, 5]  # beside the main series of 3, at 100k (30k with --quick)
    series = Series(opts.quick, opts.no_stages, sizes[-1] if opts.quick else 300_000)
    with tempfile.TemporaryDirectory(prefix="bench-book-") as tmp:
        root = Path(tmp)
        small = measure_startup(root)
        series.run_all(root, sizes, counts, 30_000 if opts.quick else 100_000)
    report = Report([])
    report_startup(report, small, series)
    exponent, bound = report_growth(report, series)
    report_stages(report, series)
    report.add()
    report.add("Targets:")
    report.add()
    report_book_targets(report, series, exponent, bound)
    report_startup_targets(report, small)
    # A command after the run that fails (not one killed for time) is broken code: CI hears of it.
    after = series.after
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
