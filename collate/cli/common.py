"""What every command shares: the group and its one error path, the options, the project, the last run.

Everything here is cheap to import (click and the library's errors): ``collate --help`` imports this
module and no command, and ``collate COMMAND --help`` this and the command's module. What a command
needs to do its work (rich, the project reader, the pipeline) each function imports when it runs.
"""

from __future__ import annotations

import atexit
import gc
from collections.abc import Callable, Iterator, Mapping, MutableMapping
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from collate.errors import CollateError, ProjectError

if TYPE_CHECKING:
    from rich.console import Console

    from collate.project import Project
    from collate.results import RunResult

# The project file's name, as collate.project.PROJECT_FILE has it (a test holds the two equal):
# named here so that the options' help can say it without `--help` loading the project reader.
PROJECT_FILE = "collate.toml"


@dataclass(frozen=True, slots=True)
class LazyCommand:
    """A command as ``collate --help`` lists it: where it is defined (``module:function``), and its line of help."""

    path: str
    help: str

    def load(self) -> click.Command:
        """The command itself, its module imported."""
        module, _, function = self.path.partition(":")
        command: click.Command = getattr(import_module(module), function)
        return command


# Every command: where it is defined, and the first line of its docstring (a test holds each equal
# to the command's own). `collate --help` lists them from here, importing none of their modules.
COMMANDS: dict[str, LazyCommand] = {
    "init": LazyCommand(
        "collate.cli.collating:init",
        "Write a project file (collate.toml) here for the witness FILES, the base first.",
    ),
    "run": LazyCommand(
        "collate.cli.collating:run",
        "Read and collate the project's witnesses (or FILES: the first is the base).",
    ),
    "sources": LazyCommand(
        "collate.cli.collating:sources",
        "For each passage the base quotes, where the shelf holds it: file, share matched, page and line.",
    ),
    "export": LazyCommand(
        "collate.cli.collating:export_",
        "Write outputs of the last run again, from the run it saved, with the decisions of the day.",
    ),
    "validate": LazyCommand(
        "collate.cli.collating:validate",
        "Check the TEI file FILE: its schema and the critical-apparatus rules, by line and element.",
    ),
    "batch": LazyCommand(
        "collate.cli.collating:batch",
        "Collate every job of MANIFEST in parallel on Dask, each into its own folder.",
    ),
    "inspect": LazyCommand(
        "collate.cli.showing:inspect",
        "Show how FILE is read: container, layout, layers, page/line references, diagnostics.",
    ),
    "notes": LazyCommand(
        "collate.cli.showing:notes",
        "Show the editorial notes (蕙田案, 【案…】): what each judges, its claims, and how they check out.",
    ),
    "habits": LazyCommand(
        "collate.cli.showing:habits",
        "List the print habits the collation shows (凡「讓」皆作「譲」), or confirm or reject one.",
    ),
    "diff": LazyCommand(
        "collate.cli.showing:diff",
        "Show the collation: the base text with each variant inline (of the witnesses SIGLUM…, if named).",
    ),
    "review": LazyCommand(
        "collate.cli.showing:review",
        "Review the variant loci full-screen; each decision is saved at once to decisions.toml.",
    ),
    "stats": LazyCommand(
        "collate.cli.showing:stats",
        "What the witnesses of a run's or a batch's output FOLDER tell together.",
    ),
}


class LazyCommands(MutableMapping[str, click.Command]):
    """A group's commands by name, each imported from its module the first time it is looked up.

    click's group finds its commands here (to run one, to list them, to suggest one for a name
    mistyped), so naming them imports nothing, and ``main.commands`` is every command, as a
    group's ``commands`` always is.
    """

    def __init__(self, table: Mapping[str, LazyCommand]) -> None:
        self._table = dict(table)
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            self._loaded[name] = self._table[name].load()
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._table.pop(name, None)
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter({**self._table, **self._loaded})

    def __len__(self) -> int:
        return len({**self._table, **self._loaded})

    def listed(self, name: str) -> click.Command:
        """The command if it is loaded, else a stand-in with its name and its line of help from the table."""
        if name in self._loaded:
            return self._loaded[name]
        return click.Command(name, help=self._table[name].help)


# The collector's thresholds while a command runs (Python's: 700, 10, 10): the youngest objects
# collected every 100,000 allocations, the older generations as rarely in proportion.
COLLECT_EVERY = (100_000, 50, 100)


class CollateGroup(click.Group):
    """Every library error one clean line and exit code 1, never a traceback; each command imported on first use.

    The commands are ``lazy``'s (click's lazily loaded subcommands): made the group's ``commands``,
    each is imported as click looks it up, and the help lists them all from the table, importing none.
    """

    def __init__(self, name: str | None = None, *, lazy: Mapping[str, LazyCommand], **kwargs: Any) -> None:
        self.lazy = LazyCommands(lazy)
        super().__init__(name, commands=self.lazy, **kwargs)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands and their lines of help, laid out as click lays them out, none imported."""
        shown = [(n, c) for n in self.list_commands(ctx) if not (c := self.lazy.listed(n)).hidden]
        if not shown:
            return
        # click's layout: the help column starts three times the default spacing after the longest name.
        limit = formatter.width - 6 - max(len(n) for n, _ in shown)
        with formatter.section("Commands"):
            formatter.write_dl([(n, c.get_short_help_str(limit)) for n, c in shown])

    def invoke(self, ctx: click.Context) -> object:
        """Run the command; a library error becomes a :class:`click.ClickException`, said as one line.

        While it runs, the cyclic garbage collector looks at new objects a hundred times less often
        (:data:`COLLECT_EVERY`): a run builds millions of objects that live to its end and hold no
        cycles worth collecting, and each full collection walks them all again — a fifth of a book's
        run (3 × 300k characters: 25 s, 20 s with these thresholds, the same peak memory). For the
        same reason the interpreter's exit does not walk them either (:func:`freeze_at_exit`).
        """
        thresholds = gc.get_threshold()
        gc.set_threshold(*COLLECT_EVERY)
        freeze_at_exit()
        try:
            return super().invoke(ctx)
        except CollateError as exc:
            from collate.model.inert import inert

            # A message names paths and quotes the files: its control characters are shown, not obeyed.
            raise click.ClickException(inert(str(exc), keep="")) from None
        finally:
            gc.set_threshold(*thresholds)


def freeze_at_exit() -> None:
    """Have the collector's objects frozen (:func:`gc.freeze`) when the interpreter exits, before it finalizes.

    Python's exit collects the garbage again and again as it takes the modules apart, each time
    walking every object still alive: after a small run (OpenCC's tables, the variant classes, the
    run itself) that is a tenth of a second spent freeing memory the system takes back anyway.
    Frozen, they are left out of those walks. It happens only at exit, so a process that goes on
    (a test, an embedding program) collects as before; registered once, however many commands run.
    """
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


@click.group(cls=CollateGroup, lazy=COMMANDS)
@click.version_option(package_name="collate")
def main() -> None:
    """Collate classical Chinese witnesses and build a critical apparatus."""


def output_console() -> Console:
    """A console on stdout for a command's output: on a terminal as rich draws it, piped one record a line."""
    from rich.console import Console

    # Piped output is plain text with one record per line: never wrap it at 80 columns.
    console = Console(highlight=False)
    if not console.is_terminal:
        console.soft_wrap = True
    return console


def load(config: Path | None, files: tuple[Path, ...] = (), *, last_run: bool = False, alone: bool = False) -> Project:
    """The project: FILES named, else ``--config``, else ``collate.toml`` here.

    With ``last_run``, where there is none of these, the project of the last run in ``output/``:
    a run of files given on the command line records them there, so that ``diff``, ``notes`` and
    ``review`` show what ``collate run a.txt b.txt`` collated.
    """
    if files:
        from collate.init import project_from_files

        return project_from_files(list(files), alone=alone)
    from collate.project import load_project

    if config is not None:
        return load_project(config)
    here = Path(PROJECT_FILE)
    if here.exists() or here.is_symlink():
        return load_project(here)
    if last_run:
        from collate.runs.manifest import last_run_project

        project = last_run_project(Path("output"))
        if project is not None:
            return project
    raise ProjectError(
        "no project file here",
        where=PROJECT_FILE,
        hint="write one with `collate init FILES…`, pass --config, or name the witness files",
    )


def files_and_sigla(args: tuple[str, ...]) -> tuple[tuple[Path, ...], tuple[str, ...]]:
    """Split arguments into witness files and sigla: what cannot be a siglum (``a.txt``, ``./SK``) is a file."""
    from collate.project import is_siglum

    files = tuple(Path(a) for a in args if not is_siglum(a))
    return files, tuple(a for a in args if is_siglum(a))


def the_run(project: Project, progress: Callable[[str], None] | None = None) -> RunResult:
    """The project's last run, before the editor's decisions: loaded from its output folder, not collated again.

    Collated (and the user told why) only where no run of the project is saved there or an input
    changed since (:func:`collate.runs.saved.last_run`).
    """
    from collate.runs.manifest import MANIFEST
    from collate.runs.saved import last_run

    folder = project.root / "output"
    if (folder / MANIFEST).is_file():
        return last_run(folder, project, progress, tell)
    from collate.decisions.file import decisions_path, load_habit_verdicts
    from collate.pipeline import collate_project

    tell(f"no run saved in {folder}: collating (`collate run` saves one for the commands after it)")
    return collate_project(project, progress, habits=load_habit_verdicts(decisions_path(project)))


config_option = click.option(
    "--config",
    "-c",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help=f"Project file (default: ./{PROJECT_FILE}).",
)
files_argument = click.argument("files", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
out_option = click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Folder for outputs (default: output/ beside the project file).",
)
# A folder of edition files: those holding passages the base quotes join the witnesses.
shelf_option = click.option(
    "--shelf",
    "shelf",
    multiple=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="A folder of edition files (repeatable): those holding passages the base quotes are collated too.",
)


def tell(message: str) -> None:
    """Tell the user on stderr, piped or not, what the command does otherwise than asked, or why it waits."""
    from rich.text import Text

    from collate.model.inert import inert
    from collate.views.terminal import stderr_console

    stderr_console().print(Text(inert(message, keep="")))
