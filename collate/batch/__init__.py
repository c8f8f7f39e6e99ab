"""A corpus at scale: many projects collated in parallel on Dask, each skipped while its inputs stand.

The stages, in order: :mod:`~collate.batch.manifest` reads the manifest (its jobs, its defaults,
its cluster) and checks everything it names; :mod:`~collate.batch.plan` finds the jobs whose
output set is not of their inputs as they are now; :mod:`~collate.batch.run` runs those on a Dask
cluster, each through :mod:`~collate.batch.job` — the ordinary pipeline and the ordinary output
set, one folder per job — and records what became of every job; :mod:`~collate.batch.view` shows
it in the terminal. Details: ``docs/batch.md``.
"""

from __future__ import annotations

from collate.batch.job import JobError, Outcome, Status, run_job
from collate.batch.manifest import Batch, Job, load_batch
from collate.batch.run import BatchError, BatchResult, Tally, run_batch

__all__ = [
    "Batch",
    "BatchError",
    "BatchResult",
    "Job",
    "JobError",
    "Outcome",
    "Status",
    "Tally",
    "load_batch",
    "run_batch",
    "run_job",
]
