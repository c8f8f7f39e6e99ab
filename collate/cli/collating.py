"""The commands that write: ``init``, ``run``, ``sources``, ``export``, ``validate``, ``batch``.

Imported for a command's help as well as to run it, this module loads click and the exporters'
registry alone (names, for ``export --format``); each command imports the rest.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from collate.cli.common import (
    PROJECT_FILE,
    config_option,
    files_argument,
    load,
    out_option,
    output_console,
    shelf_option,
    tell,
)
from collate.exporters import EXPORTERS, TEI_FLAVOURS, tei_formats

if TYPE_CHECKING:
    from rich.console import Console


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--base",
    default=None,
    metavar="SIGLUM|FILE",
    help="The base text: a siglum init gives, or one of FILES (default: the first file).",
)
@click.option("--force", is_flag=True, help=f"Replace a {PROJECT_FILE} that is here already.")
@click.option(
    "--gaiji",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Kanripo gaiji table for &KR…; entities (default: one found beside the files or in ../data/).",
)
def init(files: tuple[Path, ...], base: str | None, force: bool, gaiji: Path | None) -> None:
    """Write a project file (collate.toml) here for the witness FILES, the base first.

    Each witness gets a siglum and a label from its file's header where it names an edition
    (Kanripo's #+PROPERTY: BASEEDITION or page markers: WYG 四庫本, SBCK 四部叢刊本), else from its
    title line or file name; the title is the chapter the files share, in its work (禮記·射義).
    Where the files hold gaiji entities the table is named with --gaiji or found beside them.
    `collate run` runs the project as it is; edit it to taste.
    """
    from rich.text import Text

    from collate.init import GaijiChoice, init_project
    from collate.model.inert import inert

    done = init_project(list(files), base=base, force=force, gaiji=gaiji)
    project = done.project
    console = output_console()
    count = len(project.witnesses)
    console.print(Text(inert(f"wrote {done.path}: {count} witnesses, the base {project.base}", keep="")))
    console.print(Text(inert(f"title {project.title}", keep="")))
    for w in project.witnesses:
        console.print(Text(inert(f"{w.siglum}\t{w.label}\t{w.path}", keep="\t")))
    table = inert(str(project.gaiji_table), keep="")
    said = {
        GaijiChoice.GIVEN: f"gaiji table {table}",
        GaijiChoice.FOUND: f"gaiji table {table} (found beside the witness files)",
        GaijiChoice.MISSING: "the files hold gaiji entities (&KR…;) and no gaiji table was found: "
        f"name one with --gaiji, or set gaiji_table in {PROJECT_FILE}",
    }
    if done.gaiji in said:
        console.print(Text(said[done.gaiji]))


@click.command()
@config_option
@out_option
@click.option(
    "--gaiji",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Kanripo gaiji table for &KR…; entities (overrides the project's gaiji_table).",
)
@shelf_option
@click.argument("files", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
def run(
    config: Path | None, out: Path | None, gaiji: Path | None, shelf: tuple[Path, ...], files: tuple[Path, ...]
) -> None:
    """Read and collate the project's witnesses (or FILES: the first is the base).

    Writes the results to the output folder and prints a summary per witness. With a shelf, the
    edition files there that hold passages the base quotes join the witnesses.
    """
    from dataclasses import replace

    from collate.pipeline import collate_project
    from collate.runs.outputs import cache_folder, wait_for_output, write_outputs
    from collate.views.progress import StageProgress
    from collate.views.run import print_run
    from collate.views.terminal import stderr_console, stdout_console

    # A base alone will do with a shelf: its other witnesses are found there.
    project = load(config, files, alone=bool(shelf))
    if gaiji is not None:
        project = replace(project, gaiji_table=gaiji.resolve())
    if shelf:
        project = replace(project, shelf=(*project.shelf, *(p.resolve() for p in shelf)))
    from collate.decisions.file import load_editorial

    decisions, habits = load_editorial(project)
    console = stdout_console()
    folder = out or project.root / "output"
    # A folder another collate is writing into is waited for before collating, saying so (and
    # again, if need be, before writing): no run collates for minutes and then throws its work away.
    wait_for_output(folder, tell)
    # Progress on stderr, and only on a terminal: piped, stdout is the summary alone.
    with StageProgress(stderr_console()) as progress:
        cache = cache_folder(folder, "shelf") if project.shelf else None
        result = collate_project(project, progress=progress, decisions=decisions, habits=habits, shelf_cache=cache)
        written = write_outputs(result, folder, progress=progress, waiting=tell)
    print_run(console, result, written)


@click.command()
@config_option
@shelf_option
@files_argument
def sources(config: Path | None, shelf: tuple[Path, ...], files: tuple[Path, ...]) -> None:
    """For each passage the base quotes, where the shelf holds it: file, share matched, page and line.

    Of the project (its `shelf`, and any --shelf), or of FILES (the first is the base).
    """
    from dataclasses import replace

    from collate.normalize import Normalizer
    from collate.pipeline import read_project, shelve_project
    from collate.views.sources import print_sources

    project = load(config, files, alone=bool(shelf))
    project = replace(project, shelf=(*project.shelf, *(p.resolve() for p in shelf)))
    normalizer = Normalizer.from_project(project)
    # The project's own witnesses are read first: what is wrong with them is said as by every command.
    read_project(project, normalizer=normalizer)
    if not project.shelf:
        raise click.UsageError("no shelf: give --shelf DIR, or set shelf = [\"DIR\"] in the project")
    joined, report = shelve_project(project, normalizer)
    print_sources(click.echo, joined, report)


@click.command(name="export")
@click.option(
    "--config",
    "-c",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Project file of the run (default: the one the last run read).",
)
@click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    default=None,
    help="Folder to write into (default: output/ beside the project file). One holding no run gets the "
    "outputs of the last run, a new set of its own; one holding a run has that run's written again.",
)
@click.option(
    "--format",
    "-f",
    "formats",
    multiple=True,
    type=click.Choice(list(EXPORTERS)),
    help="Output format (repeatable): " + ", ".join(EXPORTERS) + "; default: all.",
)
@click.option(
    "--tei",
    "tei",
    multiple=True,
    type=click.Choice(list(TEI_FLAVOURS)),
    help="Which TEI to write (repeatable): lossless (each witness's own text; the default), edition "
    "(publication form: an entry per variant, none for script), edition-regularized (none for "
    "orthographic variants either).",
)
@click.option("--force", is_flag=True, help="Write the files even where nothing changed since they were written.")
@files_argument
def export_(
    config: Path | None,
    out: Path | None,
    formats: tuple[str, ...],
    tei: tuple[str, ...],
    force: bool,
    files: tuple[Path, ...],
) -> None:
    """Write outputs of the last run again, from the run it saved, with the decisions of the day.

    The last run is the one whose record is in the output folder, of a project or of files given
    on the command line; --config or FILES say which it must be. An input changed since is said,
    and the project collated again. Files that nothing changed since they were written (inputs,
    decisions, collate) are left as they are; --force writes them again.

    --out DIR writes into DIR: the last run's outputs, as a new set of DIR's own, where DIR holds
    no run yet; where it holds one (a `collate run --out DIR`), that run's.
    """
    from collate.runs.manifest import records_project_file
    from collate.runs.outputs import export_into, export_outputs, holds_run

    project = load(config, files) if config or files else None
    # Files given are relative to here, as a project file's are to its folder.
    runs = (config.parent if config else Path()) / "output"
    fresh = out if out is not None and not holds_run(out) else None
    folder = out if out is not None and fresh is None else runs
    if project is None and Path(PROJECT_FILE).is_file() and records_project_file(folder, Path(PROJECT_FILE)):
        # The last run is of the project file here, the user's own: read as it is now, edited or
        # not (a table named since, a witness added), as --config would read it.
        project = load(Path(PROJECT_FILE))
    chosen = tei_formats(formats, tei) or None
    console = output_console()
    if project is None:
        _say_which_run(console, folder)
    if fresh is not None:
        done = export_into(fresh, runs, chosen, project, waiting=tell)
    else:
        done = export_outputs(folder, chosen, project, waiting=tell, force=force)
    for path in done.paths:
        console.print(f"{'wrote' if done.written else 'current'} {path}", markup=False, emoji=False)
    if not done.written:
        console.print("nothing changed since these were written (--force writes them again)", markup=False)


def _say_which_run(console: Console, folder: Path) -> None:
    """Say so where the last run in ``folder`` collated files given, not the project file here."""
    from rich.text import Text

    from collate.model.inert import inert
    from collate.runs.manifest import MANIFEST, read_manifest

    if not (Path(PROJECT_FILE).is_file() and (folder / MANIFEST).is_file()):
        return
    files = read_manifest(folder).source.files
    if files:
        console.print(
            Text(
                inert(
                    f"{folder}: the last run collated {', '.join(files)}, not {PROJECT_FILE}: export is of "
                    f"that run (`collate run` collates {PROJECT_FILE})",
                    keep="",
                )
            )
        )


@click.command()
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--schema",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="RELAX NG schema, e.g. TEI P5 tei_all.rng (default: the TEI subset shipped with collate).",
)
def validate(file: Path, schema: Path | None) -> None:
    """Check the TEI file FILE: its schema and the critical-apparatus rules, by line and element."""
    from collate.model.inert import inert
    from collate.validate import default_schema, summary, validate_file
    from collate.views.progress import StageProgress
    from collate.views.terminal import stderr_console, stdout_console

    console = stdout_console()
    if schema is None and default_schema() is None:
        console.print(
            "no RELAX NG schema given: pass --schema path/to/tei_all.rng for a full check "
            "(TEI P5: https://tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng); "
            "checking the apparatus rules only",
            markup=False,
        )
    # tei_all takes seconds to compile: each step is shown (on a terminal's stderr) as it runs.
    with StageProgress(stderr_console()) as progress:
        report = validate_file(file, schema, progress=progress)
    for line in summary(report):
        # Not emoji either: rich would show `file.xml:100:5` as `file.xml💯5`.
        console.print(inert(line, keep=""), markup=False, emoji=False)
    if not report.valid:
        sys.exit(1)


@click.command()
@click.argument("manifest", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    default=None,
    help="Address of a running Dask scheduler (tcp://HOST:8786), used as it is (default: an embedded cluster).",
)
@click.option(
    "--workers",
    metavar="N",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes of the embedded cluster (default: the manifest's [cluster] workers, else one per CPU).",
)
@click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path, file_okay=False),
    metavar="DIR",
    default=None,
    help="Folder of the output tree, one folder per job (default: MANIFEST's name with -output, beside it).",
)
def batch(manifest: Path, scheduler: str | None, workers: int | None, out: Path | None) -> None:
    """Collate every job of MANIFEST in parallel on Dask, each into its own folder.

    A job whose inputs, settings and collate are those of its last set is skipped; a failed job is
    reported and the others go on; running again retries the failed ones. Progress on stderr.
    """
    from collate.batch import BatchError, load_batch, run_batch
    from collate.batch.view import BatchProgress, print_batch
    from collate.views.terminal import stderr_console, stdout_console

    plan = load_batch(manifest, out)
    with BatchProgress(stderr_console()) as progress:
        result = run_batch(plan, scheduler=scheduler, workers=workers, listen=progress, notice=tell)
    print_batch(stdout_console(), result, str(plan.out))
    if result.failed:
        names = [o.name for o in result.failed]
        shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        raise BatchError(
            f"{len(names)} of {len(result.outcomes)} jobs failed: {shown}",
            where=str(plan.out / "batch.json"),
            hint="correct what each error says and run the batch again: only the failed jobs run",
        )


