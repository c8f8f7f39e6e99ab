"""What a long run is doing: each stage on its own line with its time, on a terminal only.

The pipeline reports its stages as messages (``reading SK``, ``shu: aligning ZS with SK``,
``writing html``); each message starts a line, the stage before it is marked done with the
time it took, and the finished lines stay on screen, so a book-size run shows where its
minutes go, layer by layer. The commands draw it on stderr, and only when stderr is a
terminal: piped or redirected, nothing is drawn, and stdout is the command's output alone.
A command whose output follows on the same screen (``collate diff``) asks for the lines to go
when it is done (``transient``).
"""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn

from collate.model.inert import inert


class StageProgress:
    """A callback for the pipeline's progress messages that draws them as stages (a context manager)."""

    def __init__(self, console: Console, *, transient: bool = False) -> None:
        self.progress = Progress(
            SpinnerColumn(finished_text="[green]✓[/]"),
            TimeElapsedColumn(),
            # A message names sigla and paths: never markup, never a control character obeyed.
            TextColumn("{task.description}", markup=False),
            console=console,
            disable=not console.is_terminal,
            transient=transient,
            # The drawing is on stderr: what goes to stdout meanwhile is output, never moved there.
            redirect_stdout=False,
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
        if kind is not None and self.current is not None:
            # The stage that raised is not done: it is not ticked, and its line says so.
            task = self.progress.tasks[-1]
            self.progress.update(self.current, description=f"{task.description}: failed")
            self.progress.stop_task(self.current)
            self.current = None
        self._finish()
        self.progress.stop()
