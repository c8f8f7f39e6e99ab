"""One job, as a worker runs it: the ordinary pipeline on a project file, the ordinary output set.

:func:`run_job` is what the batch submits to Dask. It is ``collate run -c PROJECT --out OUT``
without the terminal: load the project and the editor's decisions, :func:`collate_project`,
:func:`write_outputs`. A :class:`~collate.errors.CollateError` (a witness that cannot be read, a
base with no text) is the job's own failure, the same on any worker: it comes back as data, not
raised, so that Dask does not try it again. Anything else is raised, and Dask retries it once.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

try:
    import resource
except ImportError:  # pragma: no cover - Windows: no peak figure
    resource = None  # type: ignore[assignment]


class Status(str, Enum):
    """What became of a job in a batch."""

    DONE = "done"  # collated, its set written
    SKIPPED = "skipped"  # its set is of the same inputs, settings and collate: nothing to do
    FAILED = "failed"  # its error is reported; the set of an earlier run, if any, is left as it was


@dataclass(frozen=True, slots=True)
class JobError:
    """Why a job failed: the message, where (``file:line:col``), what to do, and what kind of failure.

    ``kind`` is the error's code for a :class:`~collate.errors.CollateError` (``input``,
    ``project`` …), ``crash`` for a job that took its worker down, ``bug`` for any other exception.
    """

    message: str
    kind: str
    where: str | None = None
    hint: str | None = None
    detail: str = ""

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        return f"{text} ({self.hint})" if self.hint else text


@dataclass(frozen=True, slots=True)
class Outcome:
    """A job's result: its status, how long it took and how much text it collated, or its error.

    ``cpu`` is the CPU seconds of the worker process while it ran the job (on a loaded machine, wall
    time says more of the load than of the job); ``peak_mb`` the peak resident memory of that
    process over its life so far (the kernel keeps no other figure); ``worker`` its process id.
    """

    name: str
    status: Status
    seconds: float = 0.0
    characters: int = 0
    peak_mb: float = 0.0
    worker: int = 0
    error: JobError | None = None
    cpu: float = 0.0


def peak_mb() -> float:
    """The peak resident memory of this process, in MB (0 where the system does not say)."""
    if resource is None:  # pragma: no cover - Windows
        return 0.0
    # ru_maxrss is in kilobytes on Linux (bytes on macOS, where the figure is then 1024 times too large).
    return float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024


def run_job(name: str, project_file: str, out: str) -> Outcome:
    """Collate the project at ``project_file`` and write its whole output set into ``out``."""
    from collate.decisions.file import load_editorial
    from collate.errors import CollateError
    from collate.pipeline import collate_project
    from collate.project import load_project
    from collate.runs.outputs import cache_folder, write_outputs

    start, cpu = time.perf_counter(), time.process_time()
    try:
        project = load_project(Path(project_file))
        decisions, habits = load_editorial(project)
        # The shelf's keys are kept once for the whole batch, beside the jobs' folders.
        cache = cache_folder(Path(out).parent, "shelf") if project.shelf else None
        result = collate_project(project, decisions=decisions, habits=habits, shelf_cache=cache)
        write_outputs(result, Path(out))
    except CollateError as exc:
        error = JobError(exc.message, exc.code, exc.where, exc.hint)
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        return Outcome(name, Status.FAILED, seconds, 0, peak_mb(), os.getpid(), error, cpu)
    characters = sum(len(w.text) for w in result.read.witnesses)
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    return Outcome(name, Status.DONE, seconds, characters, peak_mb(), os.getpid(), cpu=cpu)


__all__ = ["JobError", "Outcome", "Status", "peak_mb", "run_job"]
