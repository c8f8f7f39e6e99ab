"""Benchmark of the alignment engine against plain CollateX (not a test; run by hand).

    python bench/bench_align.py            # the full table (plain CollateX at 4k takes minutes)
    python bench/bench_align.py --quick    # small sizes only
    python bench/bench_align.py --write    # also write the table into bench/README.md

Every measurement runs in a child process of its own, so that its peak RSS
(``resource.getrusage``) is its own. The child builds its input (deterministically, from the
seed texts and a seeded RNG) and reports the RSS before aligning too, so that the cost of the
input itself (the token objects) can be told from the cost of aligning it.

Texts larger than the seeds are made by repeating pieces of the seed texts with three characters
in ten replaced by random CJK characters: repeated pieces would otherwise make most k-grams
occur many times and the anchors ambiguous, which real witnesses of one work are not. So mixed,
88-99% of the 6-grams of a text occur once in it (more in small texts, fewer in large ones);
in the seed texts themselves it is 91%. Witnesses are
the base with edits: substitutions, insertions, deletions, and moves of 8-16 characters.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import resource
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SEEDS = ROOT / "seeds"
README = Path(__file__).resolve().parent / "README.md"
CJK = re.compile(r"[\u4e00-\u9fff]")
MIX = 0.3  # share of the characters of a seed piece replaced by random CJK characters
TABLE_START = "<!-- bench table start -->"
TABLE_END = "<!-- bench table end -->"


def seed_text() -> str:
    """The CJK characters of all seed files, in order."""
    return "".join("".join(CJK.findall(p.read_text(encoding="utf-8"))) for p in sorted(SEEDS.glob("0*.txt")))


def base_text(size: int, rng: random.Random) -> str:
    """``size`` characters: pieces of the seed texts, three characters in ten replaced at random."""
    seed = seed_text()
    out: list[str] = []
    total = 0
    while total < size:
        start = rng.randrange(len(seed) - 400)
        piece = list(seed[start : start + rng.randint(50, 400)])
        for i in range(len(piece)):
            if rng.random() < MIX:
                piece[i] = chr(rng.randint(0x4E00, 0x9FA5))
        out.append("".join(piece))
        total += len(piece)
    return "".join(out)[:size]


def edit(text: str, rate: float, rng: random.Random) -> str:
    """A witness: ``text`` with about ``rate`` of its positions edited."""
    chars = list(text)
    out: list[str] = []
    i = 0
    moved: list[tuple[int, str]] = []  # (position in text before which it goes, passage)
    while i < len(chars):
        if moved and moved[0][0] == i:
            out.append(moved.pop(0)[1])
        r = rng.random()
        if r < rate:
            kind = rng.random()
            if kind < 0.4:
                out.append(chr(rng.randint(0x4E00, 0x9FA5)))
            elif kind < 0.65:
                out.append(chr(rng.randint(0x4E00, 0x9FA5)))
                out.append(chars[i])
            elif kind < 0.9:
                pass
            else:
                length = rng.randint(8, 16)
                dest = i + length + rng.randint(3 * length, 6 * length)
                if dest < len(chars) and not moved:
                    moved.append((dest, "".join(chars[i : i + length])))
                    i += length
                    continue
                out.append(chars[i])
        else:
            out.append(chars[i])
        i += 1
    out.extend(p for _, p in moved)
    return "".join(out)


def witnesses(count: int, size: int, rate: float, seed: int) -> list[str]:
    """The base and ``count - 1`` edited witnesses of it."""
    rng = random.Random(seed)
    base = base_text(size, rng)
    return [base] + [edit(base, rate, rng) for _ in range(count - 1)]


def rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux reports KB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(engine: str, count: int, size: int, rate: float, seed: int) -> dict[str, float]:
    """Run one alignment in this process and report its time and memory."""
    texts = witnesses(count, size, rate, seed)
    if engine == "collatex":
        from collate.align.collatex_adapter import collatex_columns

        seqs = [list(t) for t in texts]
        collatex_columns([["a"], ["a"]])  # import CollateX before the clock starts
        before = rss_mb()
        start, cpu = time.perf_counter(), time.process_time()
        columns = len(collatex_columns(seqs))
    else:
        from collate.align.collatex_adapter import collatex_columns
        from collate.align.engine import align_layer
        from collate.model import Layer, Token

        collatex_columns([["a"], ["a"]])  # import CollateX before the clock starts

        interned: dict[str, str] = {}
        streams = {
            f"W{w}": [
                Token(f"W{w}", Layer.JING, i, i, i + 1, c, c)
                for i, c in enumerate(interned.setdefault(c, c) for c in text)
            ]
            for w, text in enumerate(texts)
        }
        before = rss_mb()
        start, cpu = time.perf_counter(), time.process_time()
        columns = len(align_layer(Layer.JING, streams, "W0").columns)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return {"seconds": seconds, "cpu": cpu, "rss_mb": rss_mb(), "input_mb": before, "columns": columns}


@dataclass(frozen=True)
class Case:
    """One measurement: an engine on ``count`` witnesses of ``size`` characters."""

    engine: str
    count: int
    size: int
    rate: float
    seed: int = 1


def measure(case: Case) -> dict[str, float]:
    """Run ``case`` in a child process."""
    args = [sys.executable, __file__, "--child", case.engine, str(case.count), str(case.size), str(case.rate)]
    args.append(str(case.seed))
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def fit_exponent(sizes: Sequence[float], seconds: Sequence[float]) -> float:
    """Least-squares slope of log(seconds) over log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(t) for t in seconds]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes only")
    parser.add_argument("--write", action="store_true", help="write the table into bench/README.md")
    parser.add_argument("--child", nargs=5, metavar=("ENGINE", "COUNT", "SIZE", "RATE", "SEED"))
    opts = parser.parse_args()
    if opts.child:
        engine, count, size, rate, seed = opts.child
        print(json.dumps(child(engine, int(count), int(size), float(rate), int(seed))))
        return

    pair_sizes = [1000] if opts.quick else [1000, 2000, 4000]
    scale_sizes = [10_000, 30_000, 100_000] if opts.quick else [10_000, 30_000, 100_000, 300_000, 1_000_000]
    extra_rates = [] if opts.quick else [0.01, 0.05]  # at the largest size, beside the 3% of the series
    lines = [
        "| witnesses | chars | edits | engine s (CPU s) | engine peak MB (input) "
        "| CollateX s (CPU s) | CollateX peak MB | speed-up wall (CPU) |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]

    def row(count: int, size: int, rate: float, with_collatex: bool) -> dict[str, float]:
        ours = measure(Case("engine", count, size, rate))
        cells = [str(count), f"{size:,}", f"{rate:.0%}", f"{ours['seconds']:.3f} ({ours['cpu']:.3f})"]
        cells.append(f"{ours['rss_mb']:.0f} ({ours['input_mb']:.0f})")
        if with_collatex:
            plain = measure(Case("collatex", count, size, rate))
            wall, cpu = plain["seconds"] / ours["seconds"], plain["cpu"] / ours["cpu"]
            cells += [f"{plain['seconds']:.1f} ({plain['cpu']:.1f})", f"{plain['rss_mb']:.0f}"]
            cells.append(f"{wall:,.0f}× ({cpu:,.0f}×)")
        else:
            cells += ["–", "–", "–"]
        lines.append("| " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
        return ours

    print("\n".join(lines), flush=True)
    for size in pair_sizes:
        row(2, size, 0.03, True)
    walls, cpus = [], []
    for size in scale_sizes:
        ours = row(3, size, 0.03, False)
        walls.append(ours["seconds"])
        cpus.append(ours["cpu"])
    for rate in extra_rates:
        row(3, scale_sizes[-1], rate, False)
    summary = (
        f"Fitted growth exponent (least squares on log-log, 3 witnesses, 3% edits, "
        f"{scale_sizes[0]:,}…{scale_sizes[-1]:,} chars): {fit_exponent(scale_sizes, walls):.2f} on wall time, "
        f"{fit_exponent(scale_sizes, cpus):.2f} on CPU time."
    )
    print(summary)
    if opts.write:
        text = README.read_text(encoding="utf-8")
        head, _, rest = text.partition(TABLE_START)
        _, _, tail = rest.partition(TABLE_END)
        table = "\n".join([TABLE_START, *lines, "", summary, TABLE_END])
        README.write_text(head + table + tail, encoding="utf-8")


if __name__ == "__main__":
    main()
