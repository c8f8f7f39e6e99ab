"""What a long run is doing: each stage on its own line with its time, on a terminal only.

The pipeline reports its stages as messages (``reading SK``, ``shu: aligning ZS with SK``,
``writing html``); each message starts a line, the stage before it is marked done with the
time it took, and the finished lines stay on screen, so a book-size run shows where its
minutes go, layer by layer. Piped or redirected, nothing is drawn: the output stays the
run's summary alone.
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from collate.views.inert import inert


class StageProgress:
    """A callback for the pipeline's progress messages that draws them as stages (a context manager)."""

    def __init__(self, console: Console) -> None:
        self.progress = Progress(
            SpinnerColumn(finished_text="[green]✓[/]"),
            TimeElapsedColumn(),
            # A message names sigla and paths: never markup, never a control character obeyed.
            TextColumn("{task.description}", markup=False),
            console=console,
            disable=not console.is_terminal,
        )
        self.current: TaskID | None = None

    def __enter__(self) -> StageProgress:
        self.progress.start()
        return self

    def __call__(self, message: str) -> None:
        """Start the stage ``message`` names; the one before it is done."""
        self._finish()
        self.current = self.progress.add_task(inert(message, keep=""), total=1)

    def _finish(self) -> None:
        if self.current is not None:
            self.progress.update(self.current, completed=1)
            self.progress.stop_task(self.current)
            self.current = None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self._finish()
        self.progress.stop()
