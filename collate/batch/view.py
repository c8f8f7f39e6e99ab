"""A batch in the terminal: its progress on stderr as jobs end, its summary on stdout.

Each job that ends is a line on stderr (done with its time, or failed with its error), followed on
a terminal by one live line of the whole batch: done, running, failed, skipped, waiting, and the
time left at the rate so far. Piped, each job's line carries the tally itself, so a log shows
where the batch was. Skipped jobs are counted, not listed: a second run of a large batch would
otherwise print a line per job to say it did nothing.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from collate.batch.job import Outcome, Status
from collate.batch.run import BatchResult, Tally
from collate.model.inert import inert


def duration(seconds: float | None) -> str:
    """Seconds as a person reads a time left: ``40 s``, ``3 min``, ``1 h 20 min``; ``?`` if not known."""
    if seconds is None:
        return "?"
    if seconds < 90:
        return f"{seconds:.0f} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes // 60} h {minutes % 60} min"


def tally_line(t: Tally) -> str:
    """The batch in one line: ``100 jobs: 12 done · 2 running · 1 failed · 5 skipped · 80 waiting · …``.

    The time left is left out until a job has ended (there is no rate yet) and once all have.
    """
    parts = [
        f"{t.done} done",
        f"{t.running} running",
        f"{t.failed} failed",
        f"{t.skipped} skipped",
        f"{t.waiting} waiting",
    ]
    if t.seconds_left is not None and t.done + t.failed + t.skipped < t.total:
        parts.append(f"about {duration(t.seconds_left)} left")
    return f"{t.total} jobs: " + " · ".join(parts)


def outcome_line(o: Outcome) -> str:
    """One job's end: ``done juan001 (3.2 s, 90,112 characters)`` or ``failed juan002: why``."""
    name = inert(o.name, keep="")
    if o.status is Status.FAILED:
        return f"failed {name}: {inert(str(o.error), keep='')}"
    if o.status is Status.SKIPPED:
        return f"skipped {name} (up to date)"
    return f"done {name} ({o.seconds:.1f} s, {o.characters:,} characters)"


class BatchProgress:
    """A :data:`~collate.batch.run.Listener` that draws the batch on ``console`` (a context manager)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live = console.is_terminal
        self.progress = Progress(
            SpinnerColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.description}", markup=False),
            console=console,
            disable=not self.live,
            transient=True,
            redirect_stdout=False,
        )
        self.task: TaskID | None = None

    def __enter__(self) -> BatchProgress:
        self.progress.start()
        self.task = self.progress.add_task("starting", total=None)
        return self

    def __call__(self, tally: Tally) -> None:
        """Show the job that ended, if one did, and the batch's tally."""
        line = tally_line(tally)
        latest = tally.latest
        if latest is not None and latest.status is not Status.SKIPPED:
            text = outcome_line(latest)
            # On a terminal the tally is the live line; in a log, each job's line carries it.
            shown = Text(text if self.live else f"{text} [{line}]")
            if latest.status is Status.FAILED:
                shown.stylize("red")
            (self.progress.console if self.live else self.console).print(shown, soft_wrap=True)
        if self.task is not None:
            self.progress.update(self.task, description=line)

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.progress.stop()


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def print_batch(console: Console, result: BatchResult, out: str) -> None:
    """The batch's jobs in a table (status, time, characters, error) and its totals."""
    table = Table(show_edge=False, pad_edge=False)
    for header in ("job", "status", "s", "characters", "error"):
        table.add_column(header, justify="right" if header in ("s", "characters") else "left")
    for o in result.outcomes:
        ran = o.status is not Status.SKIPPED
        table.add_row(
            Text(inert(o.name, keep="")),
            Text(o.status.value, style="red" if o.status is Status.FAILED else ""),
            f"{o.seconds:.1f}" if ran else "",
            f"{o.characters:,}" if o.characters else "",
            Text(inert(str(o.error), keep="")) if o.error else "",
        )
    console.print(table)
    characters = sum(o.characters for o in result.outcomes)
    counts = ", ".join(f"{result.count(s)} {s.value}" for s in Status)
    where = f" on {_count(result.workers, 'worker')}" if result.workers else ""
    rate = f", {characters / result.seconds:,.0f} characters/s" if characters and result.seconds else ""
    console.print(
        Text(
            f"{_count(len(result.outcomes), 'job')}: {counts} in {result.seconds:.1f} s{where}{rate}; outputs in {out}"
        )
    )


__all__ = ["BatchProgress", "duration", "outcome_line", "print_batch", "tally_line"]
