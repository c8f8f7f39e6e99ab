"""Where terminal output goes, as git and ripgrep send it: the consoles and the pager.

- Colour only on a terminal, and never when ``NO_COLOR`` is set (https://no-color.org): then
  no escape codes at all, since the views say everything in text as well (a class has its mark).
- Piped or redirected, output is whole lines: a table as wide as its rows need, a paragraph
  a line, never cut or wrapped at 80 columns, so grep and diff see whole records.
- Progress goes to stderr, and only when stderr is a terminal (:mod:`collate.views.progress`).
- A long view is paged on a terminal only, through ``$COLLATE_PAGER``, else ``$PAGER``, else
  ``less``, with ``LESS=FRX`` unless ``LESS`` is set: less then quits at once on a view that fits
  the screen (``-F``), shows colours (``-R``) and leaves the view on screen when it quits (``-X``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from rich.console import Console, RenderableType

# Wide enough for any row of a table or any paragraph a line: a longer one still folds in its cell
# rather than being cut. Not unbounded, since rich pads a table's title to the table's width.
PIPED_WIDTH = 10_000

DEFAULT_PAGER = "less"
# What git sets for its pager when the user has not: less quits on a short view, shows colours and
# leaves the view on screen; lv (a pager some CJK users prefer) shows colours with -c.
PAGER_ENVIRONMENT = {"LESS": "FRX", "LV": "-c"}


def no_color(environ: Mapping[str, str] | None = None) -> bool:
    """True if ``NO_COLOR`` asks for no colour: set and not empty, as no-color.org defines it."""
    return (os.environ if environ is None else environ).get("NO_COLOR", "") != ""


def stdout_console() -> Console:
    """The console for a command's output: styled on a terminal, whole plain lines when piped."""
    console = Console(highlight=False, color_system=None if no_color() else "auto")
    if console.is_terminal:
        return console
    return Console(highlight=False, color_system=None, width=PIPED_WIDTH, soft_wrap=True)


def stderr_console() -> Console:
    """The console progress draws on: stderr, so what is piped from stdout stays the output alone."""
    return Console(stderr=True, highlight=False, color_system=None if no_color() else "auto")


def pager_command(environ: Mapping[str, str]) -> tuple[str, dict[str, str]] | None:
    """The pager to run and its environment, chosen as git chooses its own; None for no pager.

    ``COLLATE_PAGER`` (as ``GIT_PAGER``), else ``PAGER``, else ``less``; an empty value or ``cat``
    means no pager. ``LESS`` and ``LV`` are given git's defaults only where the user set none.
    """
    command = environ.get("COLLATE_PAGER")
    if command is None:
        command = environ.get("PAGER", DEFAULT_PAGER)
    command = command.strip()
    if not command or command == "cat":
        return None
    env = dict(environ)
    for name, value in PAGER_ENVIRONMENT.items():
        env.setdefault(name, value)
    return command, env


def print_paged(console: Console, renderable: RenderableType, *, pager: bool = True) -> None:
    """Print through the pager on a terminal (unless ``pager`` is False); whole lines when piped."""
    if not console.is_terminal:
        # A paragraph a line, so grep and diff see whole passages.
        console.print(renderable, soft_wrap=True)
        return
    chosen = pager_command(os.environ) if pager else None
    if chosen is None or not _found(chosen[0]):
        console.print(renderable)
        return
    with console.capture() as captured:
        console.print(renderable)
    command, env = chosen
    spawn_pager(command, env, captured.get().encode(console.encoding, errors="replace"))


def _found(command: str) -> bool:
    """False only if the pager's program is surely missing: the view is then printed, not lost."""
    try:
        words = shlex.split(command)
    except ValueError:
        return True  # the shell will say what is wrong with it
    # ``VAR=value less`` and the like: the shell knows better than a lookup.
    return not words or "=" in words[0] or shutil.which(words[0]) is not None


def spawn_pager(command: str, env: Mapping[str, str], data: bytes) -> None:
    """Run the pager through the shell (as git does) on ``data`` and wait for it to quit.

    Quitting before the end is no error (the pipe breaks; ``communicate`` allows for it).
    """
    with _interrupts_to_the_pager():
        # The setting is a command line (``less -S``, ``most``), as for git: the shell reads it.
        process = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=dict(env))
        process.communicate(data)


@contextmanager
def _interrupts_to_the_pager() -> Iterator[None]:
    # Ctrl-C in less stops a search; were it to stop us too, less would be left drawing over the
    # shell's prompt. git ignores it while its pager runs, for the same reason.
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
