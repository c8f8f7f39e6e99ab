"""The command line: parse options, call one library function, render. One error path."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.console import Console
from rich.text import Text

from collate.apparatus import ReadingClass
from collate.errors import CollateError
from collate.model import Layer
from collate.project import PROJECT_FILE, Project, load_project, project_from_files
from collate.views.inert import inert

if TYPE_CHECKING:
    from collate.review.decisions import Decision


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


def load(config: Path | None, files: tuple[Path, ...] = ()) -> Project:
    """The project: named files, else ``--config``, else ``collate.toml`` here."""
    if files:
        return project_from_files(list(files))
    return load_project(config or Path(PROJECT_FILE))


def _decisions(project: Project) -> tuple[Decision, ...]:
    """The editor's decisions the project keeps (none before the first review)."""
    from collate.review.decisions import decisions_path, load_decisions

    return load_decisions(decisions_path(project))


config_option = click.option(
    "--config",
    "-c",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help=f"Project file (default: ./{PROJECT_FILE}).",
)
out_option = click.option(
    "--out",
    "-o",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="Folder for outputs (default: output/ beside the project file).",
)


@click.group(cls=CollateGroup)
@click.version_option(package_name="collate")
def main() -> None:
    """Collate classical Chinese witnesses and build a critical apparatus."""


@main.command()
@config_option
@out_option
@click.option(
    "--gaiji",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Kanripo gaiji table for &KR…; entities (overrides the project's gaiji_table).",
)
@click.argument("files", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
def run(config: Path | None, out: Path | None, gaiji: Path | None, files: tuple[Path, ...]) -> None:
    """Read and collate the project's witnesses (or FILES: the first is the base).

    Writes the results to the output folder and prints a summary per witness.
    """
    from dataclasses import replace

    from collate.outputs import write_outputs
    from collate.pipeline import collate_project
    from collate.views.progress import StageProgress
    from collate.views.run import print_run

    project = load(config, files)
    if gaiji is not None:
        project = replace(project, gaiji_table=gaiji.resolve())
    decisions = _decisions(project)
    console = _console()
    folder = out or project.root / "output"
    with StageProgress(console) as progress:
        result = collate_project(project, progress=progress, decisions=decisions)
        written = write_outputs(result, folder, progress=progress)
    print_run(console, result, written)


@main.command()
@click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
@click.option("--layout", default="auto", show_default=True, help="Print layout to read the file with.")
@click.option(
    "--container", default="auto", show_default=True, help="Container of the file (mandoku, paged, plain)."
)
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
    from collate.readers import read_witness
    from collate.views.witness import inspect_view

    # A file with no text is shown (with a diagnostic saying so): finding out why is what inspect is for.
    witness = read_witness(
        file, layout=layout, container=container, encoding=encoding, gaiji_table=gaiji, require_text=False
    )
    if as_json:
        from collate.files import json_text
        from collate.readers.report import reading_report
        from collate.views.inert import inert_json

        click.echo(inert_json(json_text(reading_report(witness), indent=2)))
        return
    console = _console()
    if show_tokens:
        from collate.normalize import Normalizer
        from collate.tokenize import tokenize_witness
        from collate.views.tokens import print_tokens

        print_tokens(console, witness, tokenize_witness(witness, Normalizer()))
        return
    console.print(inspect_view(witness, color=console.is_terminal))


@main.command()
@config_option
def notes(config: Path | None) -> None:
    """Show the editorial notes (蕙田案, 【案…】): what each judges, its claims, and how they check out."""
    from collate.pipeline import project_notes
    from collate.views.notes import print_notes

    print_notes(_console(), project_notes(load(config)))


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
    help="Output format (repeatable): see `collate export --help` for the list; default: all.",
)
def export_(config: Path | None, out: Path | None, formats: tuple[str, ...]) -> None:
    """Write outputs of the last run again: its inputs, unchanged, are collated again into its output set."""
    from collate.outputs import export_outputs

    folder = out or (config.parent if config else Path()) / "output"
    for path in export_outputs(folder, formats or None, load(config) if config else None):
        _console().print(f"wrote {path}", markup=False)


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

    console = _console()
    if schema is None and default_schema() is None:
        console.print(
            "no RELAX NG schema given: pass --schema path/to/tei_all.rng for a full check "
            "(TEI P5: https://tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng); "
            "checking the apparatus rules only",
            markup=False,
        )
    report = validate_file(file, schema)
    for line in summary(report):
        console.print(inert(line, keep=""), markup=False)
    if not report.valid:
        sys.exit(1)


@main.command()
@config_option
@click.argument("sigla", nargs=-1)
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
@click.option("--list", "as_list", is_flag=True, help="One row per locus, with the page and line of every reading.")
def diff(
    config: Path | None, sigla: tuple[str, ...], classes: tuple[str, ...], layers: tuple[str, ...], as_list: bool
) -> None:
    """Show the collation: the base text with each variant inline (of the witnesses SIGLA, if named)."""
    from collate.pipeline import collate_project
    from collate.views.diff import DiffFilter, diff_view, loci_table, print_paged

    project = load(config)
    for siglum in sigla:
        project.witness(siglum)
    console = _console()
    result = collate_project(project, decisions=_decisions(project))
    collation = result.collation
    view = DiffFilter(sigla, tuple(ReadingClass(c) for c in classes), tuple(Layer(x) for x in layers))
    shown = loci_table(collation, view) if as_list else diff_view(collation, view, result.read.by_siglum())
    print_paged(console, shown)


@main.command()
@config_option
@click.option(
    "--editor",
    default=None,
    help="Your name, recorded with each decision (default: the project's [review] editor, else $USER).",
)
def review(config: Path | None, editor: str | None) -> None:
    """Review the variant loci full-screen; each decision is saved at once to decisions.toml."""
    from collate.review import decision_counts
    from collate.review.app import run_review
    from collate.review.session import default_editor, open_review

    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.ClickException("collate review needs a terminal (try `collate diff` for printable output)")
    project = load(config)
    console = _console()
    with console.status("collating…") as status:
        # A status is markup: each message is given as Text, inert.
        session = open_review(
            project, editor or default_editor(project), progress=lambda msg: status.update(Text(inert(msg, keep="")))
        )
    run_review(session)
    counts = decision_counts(session.report)
    console.print(
        Text(
            f"{counts.decided} loci decided, {counts.undecided} undecided, "
            f"{counts.orphaned} orphaned decisions: {inert(str(session.path), keep='')}"
        )
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
