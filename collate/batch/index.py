"""The book's index: every 校勘記 entry of every juan, by juan and quoted work, in one table.

A batch of juans (a ``[book]``) writes ``index.tsv`` beside the jobs' folders: one row per entry
of each job's 校勘記, with the job (the juan), the work and chapter of the passage it is in (the
heading the 校勘記 writes before the passage's entries: 《禮記·射義》), and the entry as written. An
editor finds there every reading of the book in one quoted work, or in one juan.
"""

from __future__ import annotations

from pathlib import Path

from collate.batch.manifest import Batch
from collate.exporters.jiaokanji import SCORES

INDEX = "index.tsv"
HEADER = "juan\twork\tentry"


def index_rows(batch: Batch) -> list[str]:
    """The rows of the index, jobs in manifest order, entries in their 校勘記's order."""
    rows = []
    for job in batch.jobs:
        found = sorted(job.out.glob("*.jiaokanji.txt"))
        if not found:
            continue
        work = ""
        for line in found[0].read_text(encoding="utf-8").splitlines():
            if line.startswith("《"):
                work = line[1 : line.index("》")] if "》" in line else line
            elif line.startswith(SCORES):
                work = SCORES
            elif line.startswith(("頁", "第")):
                rows.append(f"{job.name}\t{work}\t{line}")
    return rows


def write_index(batch: Batch) -> Path | None:
    """Write ``index.tsv`` into the batch's folder (None, and nothing written, if no job has a 校勘記)."""
    from collate.files import write_atomic

    rows = index_rows(batch)
    if not rows:
        return None
    path = batch.out / INDEX
    write_atomic(path, "\n".join([HEADER, *rows]) + "\n")
    return path


__all__ = ["INDEX", "index_rows", "write_index"]
