"""What every command shares: the group and its one error path, the options, the project, the last run."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.text import Text

from collate.errors import CollateError, ProjectError
from collate.model import Cause
from collate.model.inert import inert
from collate.project import PROJECT_FILE, Project, is_siglum, load_project

if TYPE_CHECKING:
    from collections.abc import Callable

    from collate.results import RunResult


class CollateGroup(click.Group):
    """Turns every library error into one clean line and exit code 1 — never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except CollateError as exc:
            # A message names paths and quotes the files: its control characters are shown, not obeyed.
            raise click.ClickException(inert(str(exc), keep="")) from None


def output_console() -> Console:
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
# Readings of one cause alone (look-alike: the graphic confusions, 形近), in diff and review.
cause_option = click.option(
    "--cause",
    "causes",
    multiple=True,
    type=click.Choice([c.value for c in Cause]),
    help="Only the places with a reading of this cause (repeatable): look-alike (形近), habit (a print's 通例), loan …",
)


@click.group(cls=CollateGroup)
@click.version_option(package_name="collate")
def main() -> None:
    """Collate classical Chinese witnesses and build a critical apparatus."""



def tell(message: str) -> None:
    """Tell the user on stderr, piped or not, what the command does otherwise than asked, or why it waits."""
    from collate.views.terminal import stderr_console

    stderr_console().print(Text(inert(message, keep="")))


