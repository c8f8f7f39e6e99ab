"""The commands that show a collation: ``inspect``, ``notes``, ``habits``, ``diff``, ``review``, ``stats``.

Every one but ``inspect`` shows the last run, loaded (:func:`~collate.cli.common.the_run`).
Imported for a command's help as well as to run it, this module loads click and the model alone
(the options' help lists the model's layers, classes and causes); each command imports the rest.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

from collate.cli.common import config_option, files_and_sigla, files_argument, load, output_console, the_run
from collate.cli.names import cause_option, class_option, layer_option
from collate.errors import ProjectError
from collate.model import Layer, ReadingClass
from collate.model.inert import inert

if TYPE_CHECKING:
    _AnyParamType = click.ParamType[Any]
else:
    # Generic from click 8.4 on: subscripted at run time, it would fail on the older ones we allow.
    _AnyParamType = click.ParamType


@click.command()
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
    console = output_console()
    if show_tokens:
        from collate.normalize import Normalizer
        from collate.normalize.tokenize import tokenize_witness
        from collate.views.tokens import print_tokens

        print_tokens(console, witness, tokenize_witness(witness, Normalizer()))
        return
    console.print(inspect_view(witness, color=console.is_terminal))


@click.command()
@config_option
@files_argument
def notes(config: Path | None, files: tuple[Path, ...]) -> None:
    """Show the editorial notes (蕙田案, 【案…】): what each judges, its claims, and how they check out.

    Of the project, of FILES (as `collate run FILES…` takes them), or of the files the last run collated.
    """
    from collate.pipeline import project_notes
    from collate.runs.manifest import MANIFEST
    from collate.views.notes import print_notes

    project = load(config, files, last_run=True)
    # The notes of the saved run; without one, the notes stage alone (it needs no alignment).
    saved = (project.root / "output" / MANIFEST).is_file()
    notes = the_run(project).notes if saved else project_notes(project)
    if notes is not None:
        print_notes(output_console(), notes)


@click.command()
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
@click.option("--editor", default=None, help="Who decides (default: the project's [review] editor, else no name).")
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
    from rich.text import Text

    from collate.project import is_siglum
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
        output_console().print(
            Text(
                inert(
                    f"{verdict.verdict}ed: {siglum} 凡「{base}」作「{written}」 (run `collate run` to apply)", keep=""
                )
            )
        )
        return
    from collate.runs.saved import decided

    print_habits(output_console(), decided(the_run(project)).collation)


# `diff --class all`: every class, the orthographic ones too, which the view otherwise folds into a count.
ALL_CLASSES = ("all", "全部")


class _OrAll(_AnyParamType):
    """The option's own type (a class by any of its names), or ``all`` (全部): every class, none folded."""

    def __init__(self, inner: _AnyParamType) -> None:
        self.inner = inner
        self.name = inner.name

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """``all`` for ``all`` or 全部 (as typed), else what the option's type makes of ``value``."""
        if isinstance(value, str) and value.strip().casefold() in ALL_CLASSES:
            return ALL_CLASSES[0]
        try:
            return self.inner.convert(value, param, ctx)
        except click.BadParameter as exc:
            self.fail(f"{exc.message}, or {' '.join(ALL_CLASSES)} (every class)", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        """``all`` as well as the option's own names."""
        own = [CompletionItem(n) for n in ALL_CLASSES if n.startswith(incomplete.casefold())]
        return own + self.inner.shell_complete(ctx, param, incomplete)


def _with_all_classes(command: click.Command) -> click.Command:
    # Wrapped after the option is made, so that the option (its names, its help) stays as defined.
    for param in command.params:
        if param.name == "classes":
            param.type = _OrAll(param.type)
    return command


@_with_all_classes
@click.command()
@config_option
@click.argument("sigla", nargs=-1, metavar="[FILE]... [SIGLUM]...")
@class_option
@layer_option
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
    "--synoptic",
    is_flag=True,
    help="A table: a row for each locus, a column for each witness (「同」 where it agrees with the base).",
)
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
    synoptic: bool,
    no_pager: bool,
) -> None:
    """Show the collation: the base text with each variant inline (of the witnesses SIGLUM…, if named).

    Of the project, of the witness FILEs (as `collate run FILE…` takes them), or of the files the
    last run collated; a FILE without a dot or a / is written ./NAME (NAME alone is a siglum).

    Each reading ends with its class's mark (a legend says what each means). Asked for some
    witnesses, classes or layers, only their loci are shown, each with some base text around it.
    Loci where the witnesses differ only in graphs (異體: 爲/為) are counted, not shown, unless a
    class is asked for: `--class all` shows every class. `--synoptic` gives a column per witness.
    Paged on a terminal; whole lines, no colour, when piped (and no colour if NO_COLOR is set).
    """
    from collate.runs.saved import decided
    from collate.views.diff import CONTEXT, DiffFilter, diff_view, print_loci
    from collate.views.progress import StageProgress
    from collate.views.terminal import print_paged, stderr_console, stdout_console

    if synoptic and as_list:
        # Said before anything is read or collated.
        raise click.UsageError("give --list or --synoptic, not both")
    files, sigla = files_and_sigla(sigla)
    project = load(config, files, last_run=True)
    for siglum in sigla:
        project.witness(siglum)
    console = stdout_console()
    # The stages go when done: the view follows on the same screen.
    with StageProgress(stderr_console(), transient=True) as progress:
        result = decided(the_run(project, progress))
    collation = result.collation
    chosen = tuple(ReadingClass(c) for c in classes if c != ALL_CLASSES[0])
    # The list is a record of every reading: only the views that show the text fold.
    fold = ALL_CLASSES[0] not in classes and not as_list
    view = DiffFilter(sigla, chosen, tuple(Layer(x) for x in layers), causes, fold=fold)
    if synoptic:
        from collate.views.synoptic import synoptic_view

        print_paged(console, synoptic_view(collation, view), pager=not no_pager)
        return
    if as_list:
        print_loci(console, collation, view, pager=not no_pager)
        return
    if full:
        context = None
    elif context is None and view.narrows:
        context = CONTEXT
    print_paged(console, diff_view(collation, view, result.read.by_siglum(), context), pager=not no_pager)


@click.command()
@config_option
@click.option(
    "--editor",
    default=None,
    help="Your name, recorded with each decision (default: the project's [review] editor, else none).",
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
    from rich.text import Text

    from collate.decisions import decision_counts
    from collate.review.app import run_review
    from collate.review.session import default_editor, open_review
    from collate.review.texts import Words, default_lang

    # The project first: what is wrong with its files is said whether or not there is a terminal.
    project = load(config, files, last_run=True)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.ClickException("collate review needs a terminal (try `collate diff` for printable output)")
    console = output_console()
    with console.status("loading the last run…") as status:
        # A status is markup: each message is given as Text, inert.
        run = the_run(project, progress=lambda msg: status.update(Text(inert(msg, keep=""))))
    session = open_review(run, editor or default_editor(project), causes=frozenset(causes))
    words = Words("en" if lang == "en" else "zh" if lang == "zh" else default_lang(project.title))
    run_review(session, words.lang)
    counts = decision_counts(session.report)
    shown = inert(str(session.path), keep="")
    console.print(
        Text(words("summary", decided=counts.decided, undecided=counts.undecided, orphaned=counts.orphaned, path=shown))
    )


@click.command()
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
    from rich.text import Text

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


