"""The exporters of one output set at work: one after another, or two at a time for a large run.

The formats are independent of each other — each reads the same :class:`~collate.results.ExportInput`
and writes its own file — and at book size writing them is most of a run (the TEI and the HTML
alone outweigh the alignment). On a system that forks (Linux) with more than one core, a large run's
longest formats are therefore written by forked workers, one each, while this process writes the
others: a forked worker inherits the input as it stands in memory, so nothing is pickled but the
names of a format and a file. It does copy each page of the input it touches, and builds its
format's tree while this process builds the others': workers are started only where that second
share of memory is small enough (a run up to about 3 × 300k characters) and the system has it. A
small run is written here, where starting a worker would cost more than it saves; a very large one
too, where memory, not time, is what runs out.

Either way the bytes are the same: each format is the same function of the same input.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from collate.exporters import get_exporter
from collate.results import ExportInput
from collate.runs.manifest import sha256_of

# Characters of text (all witnesses) from which the formats are worth writing in parallel: below
# it, a worker's start (a fork, the exporters' imports) is a fair share of writing everything.
PARALLEL_FROM = 200_000
# Characters of text (all witnesses) up to which workers are started. A worker and this process
# each build their formats' trees at once, and the worker copies the pages of the input it touches:
# the peak grows with the text. Measured on the bench books: 1.0M characters (3 × 300k) 1.0–1.2 GB
# at the peak for a run a fifth shorter; 3.3M (3 × 1M) 3.3 GB, where one after another takes 2.0 GB
# — over what a book of that size may take. Above it, one after another: memory runs out first.
PARALLEL_UNTIL = 2_000_000
# The formats in the order to start them, the longest to write first (measured at book size), so
# that the last to finish is a short one; a format not named here starts last.
_LONGEST_FIRST = ("tei", "html", "json", "jiaokanji", "notes")

# The input of the set being written, for forked workers: they inherit it, it is never pickled.
_INPUT: ExportInput | None = None


def _write(data: ExportInput, name: str, path: Path) -> dict[str, str]:
    """Write the format ``name`` of ``data`` to ``path``; the SHA-256 of each file written, by file name:
    ``path``'s first, then its parts' (a book's HTML is written in parts beside it, all of the set)."""
    parts = get_exporter(name).write(data, path) or ()
    return {p.name: sha256_of(p) for p in (path, *parts)}


def _write_one(name: str, path: Path) -> dict[str, str]:
    """In a worker: write the format ``name`` of the inherited input to ``path``; the SHA-256 of its files."""
    assert _INPUT is not None, "a worker is forked only while a set is written"
    return _write(_INPUT, name, path)


def _detach() -> None:
    """In a worker, first: its own standard streams, so that it never waits on a lock of the parent's.

    A thread of the parent (a progress display) may hold the lock of its ``sys.stdout`` at the
    instant of the fork; a worker that flushed that stream on exit would wait for it forever.
    """
    sys.stdout = open(os.devnull, "w")  # lives as long as the worker
    sys.stderr = open(os.devnull, "w")


def _workers(data: ExportInput, jobs: int) -> int:
    """How many processes to write ``jobs`` formats with: 0 to write them here."""
    if jobs < 2 or sys.platform != "linux" or "fork" not in multiprocessing.get_all_start_methods():
        return 0
    if not PARALLEL_FROM <= sum(len(w.text) for w in data.witnesses.values()) <= PARALLEL_UNTIL:
        return 0
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    if cores < 2 or not _room_for_a_copy():
        return 0
    return min(jobs, cores)


def _room_for_a_copy() -> bool:
    """Whether the system has free memory for a second copy of this process (a worker's worst case:
    better written one after another than pushed into swap)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as info:
            available = next(int(line.split()[1]) for line in info if line.startswith("MemAvailable:"))
        with open("/proc/self/statm", encoding="ascii") as statm:
            resident = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    except (OSError, StopIteration, ValueError):
        return False
    return available > resident


def _here(
    data: ExportInput, files: Sequence[tuple[str, Path]], progress: Callable[[str], None] | None
) -> dict[str, str]:
    digests: dict[str, str] = {}
    for name, path in files:
        if progress:
            progress(f"writing {path.name}")
        digests.update(_write(data, name, path))
    return digests


def write_formats(
    data: ExportInput,
    files: Sequence[tuple[str, Path]],
    progress: Callable[[str], None] | None = None,
    beside: Callable[[], None] | None = None,
) -> dict[str, str]:
    """Write each ``(format, path)`` of ``files`` from ``data``; the SHA-256 of each file, by file name
    (with the parts a format wrote beside its file).

    ``progress`` hears which files are being written. ``beside`` is work of the caller's to do in
    this process once its own formats are written, while a worker may still write the longest
    (saving the run: half a second of a book, otherwise spent after the set). An error of any
    format is raised here, as it would be if that format were written alone; the caller removes
    what was written.
    """
    # The exporters make millions of short-lived objects that hold no cycles: each collection
    # they set off would walk the whole run again (a 3 × 300k book: a fifth of the time to write
    # the set). Paused while they write, and as it was after (a forked worker inherits the pause).
    paused = gc.isenabled()
    gc.disable()
    try:
        return _write_all(data, files, progress, beside)
    finally:
        if paused:
            gc.enable()


def _write_all(
    data: ExportInput,
    files: Sequence[tuple[str, Path]],
    progress: Callable[[str], None] | None,
    beside: Callable[[], None] | None,
) -> dict[str, str]:
    workers = _workers(data, len(files))
    if not workers:
        written = _here(data, files, progress)
        if beside is not None:
            beside()
        return written
    order = sorted(files, key=lambda f: _LONGEST_FIRST.index(f[0]) if f[0] in _LONGEST_FIRST else len(_LONGEST_FIRST))
    # Forked workers take the longest formats, one each; this process writes the others meanwhile.
    # A worker copies each page of the input it touches (a reference count changes), so a worker
    # more than needed is memory spent for nothing.
    away, here = order[: workers - 1], order[workers - 1 :]
    global _INPUT
    _INPUT = data
    # The collector's pass over every object would touch, and so copy, the pages a worker shares
    # with this process; frozen, the objects that exist now are never collected in either.
    gc.freeze()
    try:
        with ProcessPoolExecutor(len(away), multiprocessing.get_context("fork"), initializer=_detach) as pool:
            pending = [pool.submit(_write_one, name, path) for name, path in away]
            try:
                digests = _here(data, here, progress)
                if beside is not None:
                    beside()
                if progress:
                    progress("writing " + ", ".join(p.name for _, p in away))
                for job in pending:
                    digests.update(job.result())
            except BaseException:
                # A format failed (or the user interrupted): what is not begun is not begun.
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    finally:
        _INPUT = None
        gc.unfreeze()
    # In the order of ``files``, each format's main file before its parts.
    mains = [path.name for _, path in files]
    return {name: digests[name] for name in (*mains, *(n for n in digests if n not in mains))}


__all__ = ["PARALLEL_FROM", "PARALLEL_UNTIL", "write_formats"]
