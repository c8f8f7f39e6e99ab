"""Validating a TEI document: the RELAX NG schema, plus the Schematron rules RELAX NG cannot see.

The default schema is the one collate ships, ``collate/data/tei-apparatus.rng``: the project's own
grammar for the TEI subset its writer produces, a strict subset of TEI P5 4.12.0 (every document
valid against it is valid against ``tei_all.rng``). Any other RELAX NG schema can be given instead,
such as the official ``tei_all.rng``.

Whichever grammar is used, the apparatus rules run: ``collate/data/tei-apparatus.sch``, TEI's own
Schematron (which ``tei_all.rng`` embeds and lxml's RELAX NG ignores) with collate's constraints from
its ODD, ``collate/data/tei-apparatus.odd``, run by a Schematron processor (:mod:`collate.validate.schematron`).

Files are parsed without resolving entities, loading DTDs or touching the network
(:mod:`collate.validate.parse`); the schema is :mod:`collate.validate.schema`; each problem is
placed at its line and column by :mod:`collate.validate.locate`. This module is the one entry point.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from collate.validate.locate import locate, start_tags
from collate.validate.parse import dtd_problems, parse_tei, safe_parser, text_of
from collate.validate.problems import NS, TEI_NS, XML_ID, Problem, Report, Severity
from collate.validate.schema import (
    SUBSET_OF,
    default_schema,
    describe_schema,
    load_schema,
    schema_problems,
    shipped_schema,
)
from collate.validate.schematron import (
    Schematron,
    load_schematron,
    rule_problems,
    schematron_problems,
    shipped_schematron,
)

__all__ = [
    "NS",
    "SUBSET_OF",
    "TEI_NS",
    "XML_ID",
    "Problem",
    "Progress",
    "Report",
    "Schematron",
    "Severity",
    "default_schema",
    "describe_schema",
    "dtd_problems",
    "load_schema",
    "load_schematron",
    "locate",
    "parse_tei",
    "rule_problems",
    "safe_parser",
    "schema_problems",
    "schematron_problems",
    "shipped_schema",
    "shipped_schematron",
    "start_tags",
    "summary",
    "validate_file",
    "validate_tree",
]

Progress = Callable[[str], None]


def _quiet(message: str) -> None:
    """No progress to report to."""


def validate_tree(
    tree: Any, schema: Any | None = None, path: str = "", progress: Progress | None = None, *, text: str | None = None
) -> Report:
    """Check a parsed TEI document: the schema (if given) and the apparatus rules (the shipped Schematron).

    ``progress`` is told of each step as it starts: against tei_all each takes seconds.
    ``text``, the document's text, gives each problem its line and column there (:func:`locate`).
    """
    say = progress or _quiet
    problems = []
    if schema is not None:
        say("checking against the schema")
        problems = schema_problems(tree, schema)
    say("checking the apparatus rules (Schematron)")
    found, checks = rule_problems(tree)
    located = locate([*problems, *found], tree, text) if text is not None else [*problems, *found]
    located = [*dtd_problems(tree, text), *located]
    return Report(path, tuple(located), "given" if schema is not None else None, checks)


def validate_file(path: Path, schema_path: Path | None = None, progress: Progress | None = None) -> Report:
    """Validate the TEI file at ``path`` against ``schema_path`` (default: the shipped TEI subset).

    If the shipped schema is missing (a broken installation) and none is given, only the
    apparatus rules run; ``Report.schema`` is then None. ``progress`` is told of each step
    as it starts (reading, compiling the schema, checking), for a command to show.
    """
    say = progress or _quiet
    say(f"reading {path}")
    tree = parse_tei(path)
    text = text_of(path, tree)
    schema_path = schema_path or default_schema()
    schema = None
    if schema_path is not None:
        # Compiled once a process: a second file against the same schema starts at once.
        say(f"compiling the schema {schema_path.name}")
        schema = load_schema(schema_path)
    # Compiled once a process too (a quarter of a second); said, as a broken one is an error of its own.
    say(f"compiling the Schematron {shipped_schematron().name}")
    load_schematron(shipped_schematron())
    report = validate_tree(tree, schema, str(path), progress, text=text)
    return Report(report.path, report.problems, str(schema_path) if schema_path else None, report.checks)


def summary(report: Report) -> Iterable[str]:
    """Plain lines describing the report, for the command line."""
    for p in report.problems:
        yield f"{report.path}:{p}"
    errors, warnings = len(report.errors), len(report.problems) - len(report.errors)
    verdict = "valid" if report.valid else "NOT valid"
    against = "without a schema (apparatus rules only)"
    if report.schema:
        against = f"against {describe_schema(report.schema)}"
    yield f"{report.path}: {verdict} {against}; {report.checks} rule checks, {errors} errors, {warnings} warnings"
