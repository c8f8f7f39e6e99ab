"""The batch on Dask: the jobs that have anything to do, in parallel, each on one worker process.

The cluster is the embedded one or a running one (:mod:`~collate.batch.cluster`), started only
if some job has anything to do. A job's own error (:class:`~collate.errors.CollateError`) comes
back as its outcome. Another exception is retried once (``retries=1``) and then reported with its
traceback; a job that takes its worker down (killed, out of memory) is tried once more on another
worker — the embedded scheduler allows one such failure per task (``allowed-failures``), an
external one what its own configuration says — and then reported. No job is lost: every one
submitted ends in an outcome. The largest jobs are submitted first, so that a long one does not
start last.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from collate.batch.cluster import BatchError, Ended, Pool, connect
from collate.batch.job import JobError, Outcome, Status, run_job
from collate.batch.manifest import Batch, write_projects
from collate.batch.plan import Planned, plan, write_record

POLL = 0.5
Task = Callable[[str, str, str], Outcome]


@dataclass(frozen=True, slots=True)
class Tally:
    """Where a batch is: jobs done, running, failed, skipped and waiting; seconds left (None: not known yet).

    ``latest`` is the outcome that made this tally, if one did.
    """

    total: int
    done: int
    running: int
    failed: int
    skipped: int
    seconds_left: float | None
    latest: Outcome | None = None

    @property
    def waiting(self) -> int:
        """Jobs not yet started."""
        return self.total - self.done - self.running - self.failed - self.skipped


Listener = Callable[[Tally], None]


@dataclass(frozen=True, slots=True)
class BatchResult:
    """Every job's outcome in manifest order, the batch's wall seconds, and the workers it had."""

    outcomes: tuple[Outcome, ...]
    seconds: float
    workers: int
    scheduler: str | None

    def count(self, status: Status) -> int:
        """How many jobs ended so."""
        return sum(o.status is status for o in self.outcomes)

    @property
    def failed(self) -> tuple[Outcome, ...]:
        """The jobs that failed."""
        return tuple(o for o in self.outcomes if o.status is Status.FAILED)


def _failure(name: str, ended: Ended) -> Outcome:
    """The outcome of a job whose task raised, or whose worker died under it."""
    if ended.crashed:
        error = JobError(
            "the job took its worker down, and again when tried on another (killed, or out of memory?)",
            "crash",
            hint="run it alone with `collate run -c` to see why",
        )
    else:
        error = JobError(
            ended.error, "bug", hint="a bug in collate: the traceback is in batch.json", detail=ended.detail
        )
    return Outcome(name, Status.FAILED, error=error)


def _execute(
    pool: Pool, todo: Sequence[Planned], outcomes: list[Outcome], total: int, listen: Listener, task: Task
) -> None:
    """Submit the jobs of ``todo``, largest first; add each one's outcome to ``outcomes`` as it ends."""
    skipped = len(outcomes)
    threads = max(pool.threads(), 1)
    futures = {
        pool.submit(task, p.job.name, str(p.job.project), str(p.job.out)): p
        for p in sorted(todo, key=lambda p: -p.size)
    }
    pending = set(futures)
    start = time.perf_counter()
    done_bytes = 0
    left_bytes = sum(p.size for p in todo)
    counts = {Status.DONE: 0, Status.FAILED: 0}
    while pending:
        finished, pending = pool.wait(pending, POLL)
        latest: list[Outcome | None] = []
        for future in finished:
            planned = futures[future]
            ended = pool.ended(future)
            outcome = ended.value if isinstance(ended.value, Outcome) else _failure(planned.job.name, ended)
            outcomes.append(outcome)
            latest.append(outcome)
            counts[outcome.status] += 1
            done_bytes += planned.size
            left_bytes -= planned.size
        elapsed = time.perf_counter() - start
        # Throughput so far, in bytes of input a second over every worker: the rest at that rate.
        left = left_bytes * elapsed / done_bytes if done_bytes else None
        running = min(pool.running(), threads, len(pending))
        for ended_now in latest or [None]:
            listen(Tally(total, counts[Status.DONE], running, counts[Status.FAILED], skipped, left, ended_now))


def _cluster_size(given: int | None, manifest: int | None, notice: Callable[[str], None]) -> int:
    """Worker processes for the embedded cluster: as asked (else one per CPU), at most one per CPU.

    A job is one process busy on one CPU: more workers than CPUs only share them, and each costs
    a process started (a manifest asking for 100,000 would start them for minutes before any job ran).
    """
    cpus = os.cpu_count() or 1
    asked = given or manifest
    if asked is None:
        return cpus
    if asked > cpus:
        said = "--workers" if given else "[cluster] workers"
        notice(f"{said} = {asked:,}, but this machine has {cpus} CPU{'s' if cpus > 1 else ''}: running {cpus} workers")
        return cpus
    return asked


def run_batch(
    batch: Batch,
    *,
    scheduler: str | None = None,
    workers: int | None = None,
    listen: Listener | None = None,
    task: Task = run_job,
    notice: Callable[[str], None] | None = None,
) -> BatchResult:
    """Run every job of ``batch`` whose set is not up to date; write ``batch.json``; return every outcome.

    ``scheduler`` (else the manifest's) is a running Dask scheduler to use; otherwise an embedded
    cluster of ``workers`` processes (else the manifest's, else one per CPU). ``listen`` hears of
    each job as it ends and of the batch every half second. ``task`` is what a worker runs for a
    job (:func:`~collate.batch.job.run_job`; a test gives another).
    """
    start = time.perf_counter()
    where = "--scheduler" if scheduler is not None else batch.cluster.where
    scheduler = scheduler if scheduler is not None else batch.cluster.scheduler
    if scheduler is not None and workers is not None:
        raise BatchError(
            "--workers sizes the embedded cluster: a cluster given by its scheduler is used as it is",
            where=where,
            hint="leave out one of the two",
        )
    size = _cluster_size(workers, batch.cluster.workers, notice or (lambda message: None))
    write_projects(batch)
    planned = plan(batch)
    todo = [p for p in planned if not p.current]
    skipped = [Outcome(p.job.name, Status.SKIPPED) for p in planned if p.current]
    total = len(planned)
    hear: Listener = listen or (lambda tally: None)
    for n, outcome in enumerate(skipped, 1):
        hear(Tally(total, 0, 0, 0, n, None, outcome))
    outcomes: list[Outcome] = list(skipped)
    threads = 0

    def record() -> tuple[Outcome, ...]:
        by_name = {o.name: o for o in outcomes}
        ordered = tuple(by_name[p.job.name] for p in planned if p.job.name in by_name)
        write_record(batch, ordered, time.perf_counter() - start, threads)
        return ordered

    if todo:
        _index_shelves(batch, todo)
        with connect(scheduler, size, where) as pool:
            threads = pool.threads()
            try:
                _execute(pool, todo, outcomes, total, hear, task)
            except BaseException:
                # Interrupted: what was done is recorded; the rest has no set, so it runs next time.
                record()
                raise
    ordered = record()
    from collate.batch.index import write_index

    write_index(batch)
    seconds = time.perf_counter() - start
    return BatchResult(ordered, seconds, threads, scheduler)


def _index_shelves(batch: Batch, todo: Sequence[Planned]) -> None:
    """Read each shelf the jobs name into the batch's cache once, before any worker starts.

    The workers then load every file's keys from the cache (:mod:`collate.shelf`) instead of each
    reading the whole shelf again. A job whose project cannot be loaded is left to fail as it runs.
    """
    from collate.errors import CollateError
    from collate.normalize import Normalizer
    from collate.project import load_project
    from collate.runs.outputs import cache_folder
    from collate.shelf import read_shelf

    done: set[tuple[tuple[str, ...], str]] = set()
    for p in todo:
        try:
            project = load_project(p.job.project)
        except CollateError:
            continue
        if not project.shelf:
            continue
        normalizer = Normalizer.from_project(project)
        folders = [project.resolve(f) for f in project.shelf]
        key = (tuple(str(f.resolve()) for f in folders), repr(normalizer.config))
        if key not in done:
            done.add(key)
            read_shelf(project, folders, normalizer, cache_folder(batch.out, "shelf"))


__all__ = ["BatchError", "BatchResult", "Listener", "Tally", "run_batch"]
