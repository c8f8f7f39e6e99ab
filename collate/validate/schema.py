"""The RELAX NG schema: the one collate ships (a strict subset of TEI P5) or any other given,
compiled once a process, and its verdict as problems."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from lxml import etree

from collate.errors import ValidationError
from collate.validate.parse import safe_parser
from collate.validate.problems import Problem, local_name

# The TEI release the shipped schema is a subset of.
SUBSET_OF = "TEI P5 4.12.0"


@cache
def load_schema(path: Path) -> Any:
    """The RELAX NG schema at ``path``, compiled once per process (tei_all takes 5–10 s)."""
    try:
        doc = etree.parse(str(path), safe_parser())
        return etree.RelaxNG(doc)
    except OSError as exc:
        raise ValidationError(f"schema cannot be read: {exc}", where=str(path)) from None
    except (etree.XMLSyntaxError, etree.RelaxNGParseError) as exc:
        raise ValidationError(f"not a usable RELAX NG schema: {exc}", where=str(path)) from None


def shipped_schema() -> Path:
    """Where the schema collate ships lives: ``tei-apparatus.rng`` in the package's data."""
    from importlib import resources

    return Path(str(resources.files("collate") / "data" / "tei-apparatus.rng"))


def default_schema() -> Path | None:
    """The schema used when none is given: the shipped TEI subset (None if the file is missing)."""
    schema = shipped_schema()
    return schema if schema.is_file() else None


def describe_schema(path: str | Path) -> str:
    """How a report names its schema: the shipped subset by what it is, any other by its path."""
    if Path(path) == shipped_schema():
        return f"the TEI subset shipped with collate ({path}; a strict subset of {SUBSET_OF})"
    return str(path)


def schema_problems(tree: Any, schema: Any) -> list[Problem]:
    """The RELAX NG verdict, one problem per error lxml reports (line and element)."""
    if schema.validate(tree):
        return []
    out = []
    for entry in schema.error_log:
        # libxml2 gives a path of ``*`` steps for namespaced elements: find the element to name it.
        try:
            found = tree.xpath(entry.path) if entry.path else []
        except etree.XPathError:
            found = []
        element = local_name(found[0]) if found and isinstance(found[0], etree._Element) else "?"
        # libxml2 gives no column for a validity error (only for a syntax error): it is found later.
        column = entry.column or None
        where = entry.path or ""
        out.append(Problem(entry.line or None, element, entry.message, "relaxng", column=column, xpath=where))
    return out
