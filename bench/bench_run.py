"""End-to-end benchmark: ``collate run`` on the default project (not a test; run by hand).

    python bench/bench_run.py            # 5 runs of each, medians
    python bench/bench_run.py --runs 9

Measures, in the same run and on the same machine, the wall time of

* ``python -c pass`` (the interpreter's own start-up: the floor any command pays),
* ``collate --help`` (start-up of the command line, no work),
* ``collate run`` on the default project (read, normalize, align all layers, notes, apply
  decisions, write TEI/HTML/JSON/校勘記),
* plain CollateX-Python aligning only the 經 of the base with the 經 of 注疏本 (one layer, the
  whole texts handed to CollateX at once through the project's adapter),

each in a child process, and prints medians and ratios. The target is ``collate run`` within
3 s wall including start-up.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLLATE = [sys.executable, "-m", "collate.cli"]

PLAIN_COLLATEX = """
from pathlib import Path
from collate.align.collatex_adapter import collatex_columns
from collate.model import Layer
from collate.normalize import Normalizer
from collate.pipeline import read_project
from collate.project import load_project
from collate.normalize.tokenize import tokenize
import time

project = load_project(Path("collate.toml"))
normalizer = Normalizer.from_project(project)
read = read_project(project, normalizer=normalizer)
w = read.by_siglum()
sk = "".join(t.n for t in tokenize(w["SK"], Layer.JING, normalizer))
zs = "".join(t.n for t in tokenize(w["ZS"], Layer.JING, normalizer))
start = time.perf_counter()
collatex_columns([list(sk), list(zs)])
print(time.perf_counter() - start, len(sk), len(zs))
"""


def wall(argv: list[str], cwd: Path) -> float:
    """Seconds of wall time for one child process, which must succeed."""
    start = time.perf_counter()
    subprocess.run(argv, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def median(argv: list[str], runs: int, cwd: Path) -> float:
    """Median wall time over ``runs`` runs (after one warm-up run that fills the OS caches)."""
    wall(argv, cwd)
    return statistics.median(wall(argv, cwd) for _ in range(runs))


def main() -> None:
    """Run the measurements and print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5, help="runs of each command (median reported)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as out:
        python = median([sys.executable, "-c", "pass"], args.runs, ROOT)
        helped = median([*COLLATE, "--help"], args.runs, ROOT)
        ran = median([*COLLATE, "run", "--out", out], args.runs, ROOT)
    probe = subprocess.run(
        [sys.executable, "-c", PLAIN_COLLATEX], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split()
    collatex, sk_len, zs_len = float(probe[0]), int(probe[1]), int(probe[2])
    print("| what | wall s (median) | ratio |")
    print("| --- | --- | --- |")
    print(f"| `python -c pass` | {python:.3f} | 1.0× |")
    print(f"| `collate --help` | {helped:.3f} | {helped / python:.1f}× start-up |")
    print(f"| `collate run` (default project, all layers, every output) | {ran:.3f} | {ran / python:.1f}× start-up |")
    print(
        f"| plain CollateX, 經 only ({sk_len} × {zs_len} chars), alignment call alone | {collatex:.3f} "
        f"| {collatex / ran:.2f}× the whole `collate run` |"
    )
    print(f"\ntarget: `collate run` ≤ 3 s wall: {'met' if ran <= 3 else 'MISSED'} ({ran:.2f} s)")


if __name__ == "__main__":
    main()
