"""Benchmark of a compilation against a shelf: index the shelf, find the sources, collate (run by hand).

    python bench/bench_shelf.py               # a juan of ~70,000 characters; shelves of 25, 50 and 100 files
    python bench/bench_shelf.py --write       # also write the table into bench/README.md

The juan: 五禮通考 卷163 of ``../shared/witnesses`` (about 20,000 characters), its body repeated to
about 70,000. The shelf: the other files of ``../shared/witnesses`` (editions of 禮記·射義, 周禮·射人,
儀禮·燕禮, 大戴禮記·投壺), then edited copies of them (a character in 30 changed, each copy its own
seed) and unrelated synthetic chapters (characters drawn from the juan's own), to the size asked.

For each shelf size, in one run (the machine is noisy: ratios against baselines of the same run):
- ``read``: every shelf file read by its reader alone (``read_witness``): the floor of indexing;
- ``index``: the shelf indexed with an empty cache (read, tokenized, keys written), and again from
  the cache;
- ``find``: the juan's articles looked for on the shelf (keys in memory);
- ``run``: ``collate run`` on the juan with the shelf as a user runs it (a child process, cache warm).
Growth: the index time of the largest shelf over the smallest, against the ratio of their sizes.
"""

from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
README = HERE / "README.md"
TABLE_START = "<!-- shelf table start -->"
TABLE_END = "<!-- shelf table end -->"
JUAN = "wuli-tongkao-juan163-kanripo-WYG.txt"
GAIJI = SHARED / "data" / "kanripo-KR-Gaiji-charlist.org.txt"


def write_juan(folder: Path, size: int) -> Path:
    """The juan, its body (after the header lines) repeated to about ``size`` characters."""
    text = (SHARED / "witnesses" / JUAN).read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    head = [line for line in lines if line.startswith("#")]
    body = "".join(line for line in lines if not line.startswith("#"))
    repeated = body * (size // len(body) + 1)
    # Cut at a line's end near ``size``: the juan stays a file of whole printed lines.
    out = "".join(head) + repeated[: repeated.rfind("\n", 0, size) + 1]
    path = folder / "juan.txt"
    path.write_text(out, encoding="utf-8")
    return path


def write_shelf(folder: Path, count: int, juan_text: str) -> Path:
    """``count`` edition files: the shared ones, edited copies of them, unrelated chapters."""
    shelf = folder / f"shelf-{count}"
    shelf.mkdir()
    real = sorted(p for p in (SHARED / "witnesses").glob("*.txt") if p.name != JUAN and "wuli" not in p.name)
    pool = [c for c in juan_text if "\u4e00" <= c <= "\u9fff"]
    for k in range(count):
        if k < len(real):
            shutil.copy(real[k], shelf / real[k].name)
            continue
        rng = random.Random(k)
        if k % 2:
            source = real[k % len(real)]
            chars = list(source.read_text(encoding="utf-8"))
            for i in range(len(chars)):
                if "\u4e00" <= chars[i] <= "\u9fff" and rng.random() < 1 / 30:
                    chars[i] = rng.choice(pool)
            (shelf / f"copy-{k:03}-{source.name}").write_text("".join(chars), encoding="utf-8")
        else:
            lines = ["".join(rng.choice(pool) for _ in range(24)) + "\n" for _ in range(rng.randrange(200, 800))]
            (shelf / f"chapter-{k:03}.txt").write_text("".join(lines), encoding="utf-8")
    return shelf


def project(folder: Path, juan: Path, shelf: Path) -> Path:
    path = folder / f"collate-{shelf.name}.toml"
    path.write_text(
        "\n".join(
            [
                'title = "五禮通考"',
                f'name = "{shelf.name}"',
                'base = "SK"',
                f'gaiji_table = "{GAIJI}"',
                f'shelf = ["{shelf}"]',
                "",
                "[[witness]]",
                'siglum = "SK"',
                f'path = "{juan}"',
                "",
            ]
        ),
        encoding="utf-8",
    )
    return path


def measure(folder: Path, juan: Path, shelf: Path) -> dict[str, float]:
    """Seconds of each stage for one shelf (see the module docstring)."""
    from collate.normalize import Normalizer
    from collate.normalize.tokenize import tokenize
    from collate.pipeline import read_project
    from collate.project import load_project
    from collate.readers import read_witness
    from collate.shelf import find_sources, read_shelf

    config = project(folder, juan, shelf)
    proj = load_project(config)
    normalizer = Normalizer.from_project(proj)
    files = sorted(p for p in shelf.iterdir() if p.is_file())
    out: dict[str, float] = {"files": len(files), "characters": sum(len(p.read_text(encoding="utf-8")) for p in files)}
    start = time.perf_counter()
    for p in files:
        read_witness(p, gaiji_table=GAIJI)
    out["read"] = time.perf_counter() - start
    cache = folder / f"cache-{shelf.name}"
    start = time.perf_counter()
    indexed, _ = read_shelf(proj, [shelf], normalizer, cache)
    out["index"] = time.perf_counter() - start
    start = time.perf_counter()
    read_shelf(proj, [shelf], normalizer, cache)
    out["cached"] = time.perf_counter() - start
    base = read_project(proj, normalizer=normalizer).base
    streams = {}
    for name in proj.layers:
        from collate.model import Layer

        streams[Layer(name)] = tokenize(base, Layer(name), normalizer)
    start = time.perf_counter()
    sources = find_sources(base, streams, indexed)
    out["find"] = time.perf_counter() - start
    out["joined"] = len({s.siglum for s in sources})
    run_out = folder / f"out-{shelf.name}"
    shutil.copytree(cache, run_out / ".collate" / "shelf")
    start = time.perf_counter()
    subprocess.run(
        [str(Path(sys.executable).parent / "collate"), "run", "-c", str(config), "--out", str(run_out)],
        check=True,
        capture_output=True,
    )
    out["run"] = time.perf_counter() - start
    return out


def table(rows: list[dict[str, float]], juan_chars: int) -> str:
    lines = [
        f"Juan of {juan_chars:,} characters. Seconds (ratios against reading the shelf alone, same run):",
        "",
        "| shelf files | shelf characters | read (floor) | index, cold | index, cached | find sources | joined "
        "| `collate run` |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(
            f"| {int(r['files'])} | {int(r['characters']):,} | {r['read']:.2f} | {r['index']:.2f} "
            f"({r['index'] / r['read']:.1f}×) | {r['cached']:.2f} ({r['cached'] / r['read']:.2f}×) | {r['find']:.2f} "
            f"| {int(r['joined'])} | {r['run']:.1f} |"
        )
    first, last = rows[0], rows[-1]
    size = last["characters"] / first["characters"]
    lines += [
        "",
        f"Growth from {int(first['files'])} to {int(last['files'])} files: the shelf {size:.1f}× larger, "
        f"indexing {last['index'] / first['index']:.1f}× longer, "
        f"finding the sources {last['find'] / max(first['find'], 1e-9):.1f}× longer.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=70_000, help="characters of the juan")
    parser.add_argument("--shelves", default="25,50,100", help="shelf sizes, in files")
    parser.add_argument("--write", action="store_true", help="write the table into bench/README.md")
    args = parser.parse_args()
    if not (SHARED / "witnesses" / JUAN).is_file():
        sys.exit(f"the reference witnesses are not beside the repository ({SHARED}): nothing to measure")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        juan = write_juan(folder, args.size)
        text = juan.read_text(encoding="utf-8")
        rows = [measure(folder, juan, write_shelf(folder, int(n), text)) for n in args.shelves.split(",")]
    result = table(rows, len(text))
    print(result)
    if args.write:
        readme = README.read_text(encoding="utf-8")
        start, end = readme.index(TABLE_START) + len(TABLE_START), readme.index(TABLE_END)
        README.write_text(readme[:start] + "\n" + result + "\n" + readme[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
