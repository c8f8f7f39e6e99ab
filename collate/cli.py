"""The command line: parse options, call one library function, render. One error path."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.text import Text

from collate.apparatus import ReadingClass
from collate.errors import CollateError, ProjectError
from collate.exporters import EXPORTERS, TEI_FLAVOURS, tei_formats
from collate.model import Cause, Layer
from collate.model.inert import inert
from collate.project import PROJECT_FILE, Project, is_siglum, load_project

if TYPE_CHECKING:
    from collate.apparatus.habits import HabitVerdict
    from collate.decisions.file import Decision


class CollateGroup(click.Group):
    """Turns every library error into one clean line and exit code 1 — never a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except CollateError as exc:
            # A message names paths and quotes the files: its control characters are shown, not obeyed.
            raise click.ClickException(inert(str(exc), keep="")) from None


def _console() -> Console:
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


def _editorial(project: Project) -> tuple[tuple[Decision, ...], tuple[HabitVerdict, ...]]:
    """The editor's decisions and verdicts on print habits the project keeps (none before the first review)."""
    from collate.decisions.file import load_editorial

    return load_editorial(project)


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


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--base",
    default=None,
    metavar="SIGLUM|FILE",
    help="The base text: a siglum init gives, or one of FILES (default: the first file).",
)
@click.option("--force", is_flag=True, help=f"Replace a {PROJECT_FILE} that is here already.")
def init(files: tuple[Path, ...], base: str | None, force: bool) -> None:
    """Write a project file (collate.toml) here for the witness FILES, the base first.

    Each witness gets a siglum and a label from its file's header where it names an edition
    (Kanripo's #+PROPERTY: BASEEDITION or page markers: WYG 四庫本, SBCK 四部叢刊本), else from its
    title line or file name. `collate run` runs the project as it is; edit it to taste.
    """
    from collate.init import init_project

    path, project = init_project(list(files), base=base, force=force)
    console = _console()
    count = len(project.witnesses)
    console.print(Text(inert(f"wrote {path}: {count} witnesses, the base {project.base}", keep="")))
    for w in project.witnesses:
        console.print(Text(inert(f"{w.siglum}\t{w.label}\t{w.path}", keep="\t")))


@main.command()
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
    decisions, habits = _editorial(project)
    console = stdout_console()
    folder = out or project.root / "output"
    # A folder another collate is writing into is waited for before collating, saying so (and
    # again, if need be, before writing): no run collates for minutes and then throws its work away.
    wait_for_output(folder, _tell)
    # Progress on stderr, and only on a terminal: piped, stdout is the summary alone.
    with StageProgress(stderr_console()) as progress:
        cache = cache_folder(folder, "shelf") if project.shelf else None
        result = collate_project(project, progress=progress, decisions=decisions, habits=habits, shelf_cache=cache)
        written = write_outputs(result, folder, progress=progress, waiting=_tell)
    print_run(console, result, written)


@main.command()
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


def _tell(message: str) -> None:
    """Tell the user on stderr, piped or not, what the command does otherwise than asked, or why it waits."""
    from collate.views.terminal import stderr_console

    stderr_console().print(Text(inert(message, keep="")))


@main.command()
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--layout", default="auto", show_default=True, help="Print layout to read the file with.")
@click.option("--container", default="auto", show_default=True, help="Container of the file (mandoku, paged, plain).")
@click.option("--gaiji", type=click.Path(path_type=Path, dir_okay=False), default=None, help="Kanripo gaiji table.")
@click.option(
    "--encoding",
    default=None,
    help="Encoding of FILE, as a Python codec name (e.g. gb18030, big5); default: detected.",
)
@click.option(
    "--tokens", "show_tokens", is_flag=True, help="Print the token table instead: t, n, rules, layer, line:col."
)
@click.option("--json", "as_json", is_flag=True, help="Print the reading as JSON: container, layout, layers, pages.")
def inspect(
    file: Path,
    layout: str,
    container: str,
    gaiji: Path | None,
    encoding: str | None,
    show_tokens: bool,
    as_json: bool,
) -> None:
    """Show how FILE is read: container, layout, layers, page/line references, diagnostics."""
    from collate.errors import InputError
    from collate.readers import read_witness
    from collate.views.witness import inspect_view

    if not file.exists() and not file.is_symlink():
        # Said here: the reader's message speaks of a project file, and inspect reads none.
        raise InputError("no such file", where=str(file), hint="check the file's name and folder")

    # A file with no text is shown (with a diagnostic saying so): finding out why is what inspect is for.
    witness = read_witness(
        file, layout=layout, container=container, encoding=encoding, gaiji_table=gaiji, require_text=False
    )
    if as_json:
        from collate.exporters.report import reading_report
        from collate.files import json_text
        from collate.model.inert import inert_json

        click.echo(inert_json(json_text(reading_report(witness), indent=2)))
        return
    console = _console()
    if show_tokens:
        from collate.normalize import Normalizer
        from collate.normalize.tokenize import tokenize_witness
        from collate.views.tokens import print_tokens

        print_tokens(console, witness, tokenize_witness(witness, Normalizer()))
        return
    console.print(inspect_view(witness, color=console.is_terminal))


@main.command()
@config_option
@files_argument
def notes(config: Path | None, files: tuple[Path, ...]) -> None:
    """Show the editorial notes (蕙田案, 【案…】): what each judges, its claims, and how they check out.

    Of the project, of FILES (as `collate run FILES…` takes them), or of the files the last run collated.
    """
    from collate.pipeline import project_notes
    from collate.views.notes import print_notes

    print_notes(_console(), project_notes(load(config, files, last_run=True)))


@main.command()
@config_option
@click.option(
    "--confirm",
    "confirm",
    nargs=3,
    metavar="SIGLUM BASE WRITTEN",
    default=None,
    help="Confirm a habit: the witness writes WRITTEN wherever the base writes BASE (applied however few the places).",
)
@click.option(
    "--reject",
    "reject",
    nargs=3,
    metavar="SIGLUM BASE WRITTEN",
    default=None,
    help="Reject a habit: its places are classed as they would be without it (readings, unless a dictionary "
    "relates the two).",
)
@click.option("--editor", default=None, help="Who decides (default: the project's [review] editor, else $USER).")
@click.option("--comment", default="", help="Why, as the decisions file keeps it.")
@files_argument
def habits(
    config: Path | None,
    confirm: tuple[str, str, str] | None,
    reject: tuple[str, str, str] | None,
    editor: str | None,
    comment: str,
    files: tuple[Path, ...],
) -> None:
    """List the print habits the collation shows (凡「讓」皆作「譲」), or confirm or reject one.

    A verdict is kept in the decisions file beside the project, as the editor's other decisions
    are, and the next `collate run` applies it.
    """
    from collate.views.habits import print_habits

    project = load(config, files, last_run=True)
    if confirm and reject:
        raise click.UsageError("give --confirm or --reject, not both")
    chosen = confirm or reject
    if chosen:
        from collate.apparatus.habits import HabitVerdict
        from collate.decisions.anchors import now
        from collate.decisions.file import change_habit_verdict, decisions_path
        from collate.review.session import default_editor

        siglum, base, written = chosen
        if not is_siglum(siglum) or siglum not in {w.siglum for w in project.witnesses}:
            raise ProjectError(
                f"no witness {siglum!r} in the project",
                where=str(project.source or project.root),
                hint="the sigla are " + ", ".join(w.siglum for w in project.witnesses),
            )
        if len(base) != 1 or len(written) != 1:
            raise click.UsageError("BASE and WRITTEN are one character each")
        verdict = HabitVerdict(
            siglum, base, written, "confirm" if confirm else "reject", editor or default_editor(project), now(), comment
        )
        change_habit_verdict(decisions_path(project), verdict, project.title)
        _console().print(
            Text(
                inert(
                    f"{verdict.verdict}ed: {siglum} 凡「{base}」作「{written}」 (run `collate run` to apply)", keep=""
                )
            )
        )
        return
    from collate.pipeline import collate_project

    decisions, verdicts = _editorial(project)
    print_habits(_console(), collate_project(project, decisions=decisions, habits=verdicts).collation)


@main.command(name="export")
@click.option(
    "--config",
    "-c",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Project file to collate again (default: the one the last run read).",
)
@out_option
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
@files_argument
def export_(
    config: Path | None, out: Path | None, formats: tuple[str, ...], tei: tuple[str, ...], files: tuple[Path, ...]
) -> None:
    """Write outputs of the last run again: its inputs, unchanged, are collated again into its output set.

    The last run is the one whose record is in the output folder, of a project or of files given
    on the command line; --config or FILES say which it must be.
    """
    from collate.runs.outputs import export_outputs

    project = load(config, files) if config or files else None
    # Files given are relative to here, as a project file's are to its folder.
    folder = out or (config.parent if config else Path()) / "output"
    console = _console()
    if project is None:
        _say_which_run(console, folder)
    for path in export_outputs(folder, tei_formats(formats, tei) or None, project, waiting=_tell):
        console.print(f"wrote {path}", markup=False, emoji=False)


def _say_which_run(console: Console, folder: Path) -> None:
    """Say so where the last run in ``folder`` collated files given, not the project file here."""
    from collate.runs.manifest import MANIFEST, read_manifest

    if not (Path(PROJECT_FILE).is_file() and (folder / MANIFEST).is_file()):
        return
    files = read_manifest(folder).source.files
    if files:
        console.print(
            Text(
                inert(
                    f"{folder}: the last run collated {', '.join(files)}, not {PROJECT_FILE}: its outputs are "
                    f"written again (`collate run` collates {PROJECT_FILE})",
                    keep="",
                )
            )
        )


@main.command()
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--schema",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="RELAX NG schema, e.g. TEI P5 tei_all.rng (default: the TEI subset shipped with collate).",
)
def validate(file: Path, schema: Path | None) -> None:
    """Check the TEI file FILE: its schema and the critical-apparatus rules, by line and element."""
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


@main.command()
@config_option
@click.argument("sigla", nargs=-1, metavar="[FILE]... [SIGLUM]...")
@click.option(
    "--class",
    "classes",
    multiple=True,
    type=click.Choice([c.value for c in ReadingClass]),
    help="Show only readings of this class (repeatable).",
)
@click.option(
    "--layer",
    "layers",
    multiple=True,
    type=click.Choice([x.value for x in Layer if x.is_text]),
    help="Show only this layer (repeatable).",
)
@cause_option
@click.option(
    "--list",
    "as_list",
    is_flag=True,
    help="One row per reading: class, layer, base and witness page/line (tab-separated when piped).",
)
@click.option(
    "--context",
    type=click.IntRange(min=0),
    default=None,
    help="Characters of base text either side of each locus shown "
    "(default: 10 with a SIGLUM, --class or --layer, else whole paragraphs).",
)
@click.option("--full", is_flag=True, help="Whole paragraphs of the base even with a SIGLUM, --class or --layer.")
@click.option(
    "--no-pager",
    "no_pager",
    is_flag=True,
    help="Print straight to the terminal (default there: $COLLATE_PAGER, else $PAGER, else less -FRX).",
)
def diff(
    config: Path | None,
    sigla: tuple[str, ...],
    classes: tuple[str, ...],
    layers: tuple[str, ...],
    causes: tuple[str, ...],
    as_list: bool,
    context: int | None,
    full: bool,
    no_pager: bool,
) -> None:
    """Show the collation: the base text with each variant inline (of the witnesses SIGLUM…, if named).

    Of the project, of the witness FILEs (as `collate run FILE…` takes them), or of the files the
    last run collated; a FILE without a dot or a / is written ./NAME (NAME alone is a siglum).

    Each reading ends with its class's mark (a legend says what each means). Asked for some
    witnesses, classes or layers, only their loci are shown, each with some base text around it.
    Paged on a terminal; whole lines, no colour, when piped (and no colour if NO_COLOR is set).
    """
    from collate.pipeline import collate_project
    from collate.views.diff import CONTEXT, DiffFilter, diff_view, print_loci
    from collate.views.progress import StageProgress
    from collate.views.terminal import print_paged, stderr_console, stdout_console

    files, sigla = files_and_sigla(sigla)
    project = load(config, files, last_run=True)
    for siglum in sigla:
        project.witness(siglum)
    console = stdout_console()
    # The stages go when done: the view follows on the same screen.
    with StageProgress(stderr_console(), transient=True) as progress:
        decisions, habits = _editorial(project)
        result = collate_project(project, progress=progress, decisions=decisions, habits=habits)
    collation = result.collation
    view = DiffFilter(sigla, tuple(ReadingClass(c) for c in classes), tuple(Layer(x) for x in layers), causes)
    if as_list:
        print_loci(console, collation, view, pager=not no_pager)
        return
    if full:
        context = None
    elif context is None and view.narrows:
        context = CONTEXT
    print_paged(console, diff_view(collation, view, result.read.by_siglum(), context), pager=not no_pager)


@main.command()
@config_option
@click.option(
    "--editor",
    default=None,
    help="Your name, recorded with each decision (default: the project's [review] editor, else $USER).",
)
@click.option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default=None,
    help="The interface's language (default: Chinese for an edition with a Chinese title, else English).",
)
@cause_option
@files_argument
def review(
    config: Path | None, editor: str | None, lang: str | None, causes: tuple[str, ...], files: tuple[Path, ...]
) -> None:
    """Review the variant loci full-screen; each decision is saved at once to decisions.toml.

    Of the project, of FILES (as `collate run FILES…` takes them), or of the files the last run collated.
    """
    from collate.decisions import decision_counts
    from collate.review.app import run_review
    from collate.review.session import default_editor, open_review
    from collate.review.texts import Words, default_lang

    # The project first: what is wrong with its files is said whether or not there is a terminal.
    project = load(config, files, last_run=True)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.ClickException("collate review needs a terminal (try `collate diff` for printable output)")
    console = _console()
    with console.status("collating…") as status:
        # A status is markup: each message is given as Text, inert.
        session = open_review(
            project,
            editor or default_editor(project),
            progress=lambda msg: status.update(Text(inert(msg, keep=""))),
            causes=frozenset(causes),
        )
    words = Words("en" if lang == "en" else "zh" if lang == "zh" else default_lang(project.title))
    run_review(session, words.lang)
    counts = decision_counts(session.report)
    shown = inert(str(session.path), keep="")
    console.print(
        Text(words("summary", decided=counts.decided, undecided=counts.undecided, orphaned=counts.orphaned, path=shown))
    )


@main.command()
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
        result = run_batch(plan, scheduler=scheduler, workers=workers, listen=progress, notice=_tell)
    print_batch(stdout_console(), result, str(plan.out))
    if result.failed:
        names = [o.name for o in result.failed]
        shown = ", ".join(names[:10]) + (f" and {len(names) - 10} more" if len(names) > 10 else "")
        raise BatchError(
            f"{len(names)} of {len(result.outcomes)} jobs failed: {shown}",
            where=str(plan.out / "batch.json"),
            hint="correct what each error says and run the batch again: only the failed jobs run",
        )


@main.command()
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON (schema collate-stats/1).")
@click.option(
    "--html",
    "html_path",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Where to write the heat-map page (default: FOLDER/stats.html).",
)
def stats(folder: Path, as_json: bool, html_path: Path | None) -> None:
    """What the witnesses of a run's or a batch's output FOLDER tell together.

    Per pair of witnesses and per layer, how often they agree at places of substance; readings by
    class and cause; where each witness stands alone; a neighbour-joining tree. Read from the JSON
    outputs: nothing is collated again.
    """
    from collate.stats import collation_stats
    from collate.stats.html import write_stats_page
    from collate.views.terminal import stderr_console, stdout_console

    result = collation_stats(folder)
    page = html_path or folder / "stats.html"
    write_stats_page(result, page)
    if as_json:
        from collate.files import json_text
        from collate.model.inert import inert_json
        from collate.stats import stats_json

        click.echo(inert_json(json_text(stats_json(result), indent=1)))
        stderr_console().print(Text(f"wrote {inert(str(page), keep='')}"))
        return
    from collate.stats.view import print_stats

    console = stdout_console()
    print_stats(console, result)
    console.print(Text(f"wrote {inert(str(page), keep='')}"))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
