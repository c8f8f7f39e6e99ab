"""Which jobs of a batch have anything to do, and the record of what a batch did (``batch.json``).

A job is skipped when its output folder holds a whole set (:mod:`collate.runs.outputs`) whose manifest
(:mod:`collate.runs.manifest`) was written by this collate from the inputs the job has now: the same
SHA-256 for the project file (which holds every setting: an inline job's is written from the
manifest), the witnesses, the gaiji and variant tables and the decisions; and whose files still
match their hashes. Nothing else is compared — a run is deterministic, so the same inputs make the
same set. A job that failed left no new manifest, so it runs again; so does one whose set was
changed or partly deleted since.

``batch.json`` in the output tree says what the last batch did with each job, its time and its
error; it is a report, never read to decide anything.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

from collate import __version__
from collate.batch.job import Outcome
from collate.batch.manifest import Batch, Job
from collate.errors import CollateError, ExportError
from collate.project import Project, load_project

RECORD = "batch.json"
RECORD_SCHEMA = "collate-batch/1"


@dataclass(frozen=True, slots=True)
class Planned:
    """A job with its project read, how many bytes of input it has, and whether its set is up to date."""

    job: Job
    project: Project
    size: int
    current: bool


def is_current(project: Project, out: Path) -> bool:
    """True if ``out`` holds a whole set written by this collate from ``project``'s inputs as they are now."""
    from collate.exporters import EXPORTERS, get_exporter
    from collate.runs.manifest import input_hashes, read_manifest
    from collate.runs.outputs import check_set
    from collate.runs.parts import parts_among

    try:
        manifest = read_manifest(out)
    except ExportError:
        return False
    if manifest.collate != __version__ or manifest.inputs != input_hashes(project, out):
        return False
    wanted = {project.name + get_exporter(name).suffix for name in EXPORTERS}
    wanted.update(parts_among(manifest.outputs, project.name, None))  # a book's HTML: its parts too
    if not wanted <= set(manifest.outputs) or not all((out / name).is_file() for name in wanted):
        return False
    try:
        check_set(out, manifest)
    except ExportError:
        return False
    return True


def plan(batch: Batch) -> list[Planned]:
    """Every job of the batch, read, sized and checked against its output folder (in manifest order)."""
    planned = []
    for job in batch.jobs:
        try:
            project = load_project(job.project)
        except CollateError as exc:
            # A project file changed between reading the manifest and now: said where the job is.
            raise type(exc)(f"job {job.name!r}: {exc.message}", where=exc.where or job.where, hint=exc.hint) from None
        size = sum(_size(project.resolve(w.path)) for w in project.witnesses)
        planned.append(Planned(job, project, size, is_current(project, job.out)))
    return planned


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def record_text(batch: Batch, outcomes: Sequence[Outcome], seconds: float, workers: int) -> str:
    """The record of a batch, as ``batch.json`` holds it."""
    jobs = []
    for o in outcomes:
        entry = asdict(o)
        entry["status"] = o.status.value
        entry["folder"] = o.name
        jobs.append(entry)
    data = {
        "schema": RECORD_SCHEMA,
        "collate": __version__,
        "manifest": str(batch.path),
        "finished": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "seconds": round(seconds, 3),
        "workers": workers,
        "jobs": jobs,
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def write_record(batch: Batch, outcomes: Sequence[Outcome], seconds: float, workers: int) -> Path:
    """Write ``batch.json`` into the output tree; return its path."""
    from collate.files import write_atomic

    path = batch.out / RECORD
    try:
        batch.out.mkdir(parents=True, exist_ok=True)
        write_atomic(path, record_text(batch, outcomes, seconds, workers))
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    return path


__all__ = ["RECORD", "Planned", "is_current", "plan", "write_record"]
