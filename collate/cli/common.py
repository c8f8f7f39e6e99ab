"""What every command shares: the group and its one error path, the options, the project, the last run."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem
from rich.console import Console
from rich.text import Text

from collate.errors import CollateError, ProjectError
from collate.model import Cause, Layer, ReadingClass
from collate.model.inert import inert
from collate.project import PROJECT_FILE, Project, is_siglum, load_project

if TYPE_CHECKING:
    from collate.results import RunResult

    _ParamType = click.ParamType[Enum]
else:
    # Generic from click 8.4 on: subscripted at run time, it would fail on the older ones we allow.
    _ParamType = click.ParamType


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


class Named(_ParamType):
    """A member of a closed set, named in English or in Chinese (``jing`` or 經), or by the start of a name.

    An editor types what the apparatus shows her: the Chinese names are as good as the English
    ones. A start of a name (``sub``, 異) will do where it begins the names of one member alone;
    where it begins several, they are listed, as every valid name is for a name that is none.
    """

    def __init__(self, name: str, what: str, members: Iterable[Enum], names: Callable[[Any], tuple[str, ...]]) -> None:
        self.name = name
        self._what = what
        # The first two names of each member are shown (English, Chinese); any others are accepted too.
        self._shown = {m: " ".join(names(m)[:2]) for m in members}
        self._names = {_folded(n): m for m in self._shown for n in names(m)}

    @property
    def listing(self) -> str:
        """Every member by its two names, as help and errors list them: ``jing 經, zhu 注, …``."""
        return ", ".join(self._shown.values())

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Enum:
        """The member ``value`` names (or begins the names of, alone); else a usage error listing the candidates."""
        if isinstance(value, Enum) and value in self._shown:
            return value
        key = _folded(str(value))
        if key in self._names:
            return self._names[key]
        found = list(dict.fromkeys(m for n, m in self._names.items() if key and n.startswith(key)))
        if len(found) == 1:
            return found[0]
        if found:
            could = ", ".join(self._shown[m] for m in found[:-1]) + f" or {self._shown[found[-1]]}"
            self.fail(f"{value!r} is ambiguous: it could be {could}; type more of the name", param, ctx)
        self.fail(f"{value!r} is no {self._what}: choose from {self.listing}", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        """The names that begin with what is typed, both languages."""
        key = _folded(incomplete)
        return [CompletionItem(n) for n in self._names if n.startswith(key)]


def _folded(name: str) -> str:
    # `scribal error`, `scribal-error` and `Scribal_Error` are one name; Chinese has no case to fold.
    return re.sub(r"[\s_-]+", "_", name.strip()).casefold()


# The text layers by value (jing), Chinese name (經) and the name over the edition's section (諸家說).
LAYER = Named("layer", "text layer", (x for x in Layer if x.is_text), lambda x: (x.value, x.chinese, x.edition_name))
# Reading classes by value (scribal_error), Chinese name (訛誤) and the English interface's (score notation).
READING_CLASS = Named("class", "reading class", ReadingClass, lambda c: (c.value, c.chinese, c.english))
CAUSE = Named("cause", "cause", Cause, lambda c: (c.value, c.chinese))

# Readings of some classes, loci of some layers alone, in diff.
class_option = click.option(
    "--class",
    "classes",
    multiple=True,
    type=READING_CLASS,
    help=f"Show only readings of this class (repeatable; a name or its start): {READING_CLASS.listing}.",
)
layer_option = click.option(
    "--layer",
    "layers",
    multiple=True,
    type=LAYER,
    help=f"Show only this layer (repeatable; a name or its start): {LAYER.listing}.",
)
# Readings of one cause alone (look-alike: the graphic confusions, 形近), in diff and review.
cause_option = click.option(
    "--cause",
    "causes",
    multiple=True,
    type=CAUSE,
    help=f"Only the places with a reading of this cause (repeatable; a name or its start): {CAUSE.listing}.",
)


@click.group(cls=CollateGroup)
@click.version_option(package_name="collate")
def main() -> None:
    """Collate classical Chinese witnesses and build a critical apparatus."""



def tell(message: str) -> None:
    """Tell the user on stderr, piped or not, what the command does otherwise than asked, or why it waits."""
    from collate.views.terminal import stderr_console

    stderr_console().print(Text(inert(message, keep="")))


