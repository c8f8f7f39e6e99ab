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
from typing import TYPE_CHECKING

from collate.model.inert import inert

if TYPE_CHECKING:
    from rich.console import Console
    from rich.progress import Progress, TaskID


class StageProgress:
    """A callback for the pipeline's progress messages that draws them as stages (a context manager).

    Off a terminal it draws nothing and is nothing: ``progress`` is None, and rich's live display
    is not even imported, for a run piped or redirected never shows it.
    """

    def __init__(self, console: Console, *, transient: bool = False) -> None:
        self.progress: Progress | None = None
        self.current: TaskID | None = None
        if not console.is_terminal:
            return
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            SpinnerColumn(finished_text="[green]✓[/]"),
            TimeElapsedColumn(),
            # A message names sigla and paths: never markup, never a control character obeyed.
            TextColumn("{task.description}", markup=False),
            console=console,
            transient=transient,
            # The drawing is on stderr: what goes to stdout meanwhile is output, never moved there.
            redirect_stdout=False,
        )

    def __enter__(self) -> StageProgress:
        if self.progress is not None:
            self.progress.start()
        return self

    def __call__(self, message: str) -> None:
        """Start the stage ``message`` names; the one before it is done."""
        if self.progress is None:
            return
        self._finish(self.progress)
        self.current = self.progress.add_task(inert(message, keep=""), total=1)

    def _finish(self, progress: Progress) -> None:
        if self.current is not None:
            progress.update(self.current, completed=1)
            progress.stop_task(self.current)
            self.current = None

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        progress = self.progress
        if progress is None:
            return
        if kind is not None and self.current is not None:
            # The stage that raised is not done: it is not ticked, and its line says so.
            task = progress.tasks[-1]
            progress.update(self.current, description=f"{task.description}: failed")
            progress.stop_task(self.current)
            self.current = None
        self._finish(progress)
        progress.stop()
