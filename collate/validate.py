"""Validating a TEI document: the RELAX NG schema, plus the apparatus rules RELAX NG cannot see.

The default schema is the one collate ships, ``collate/data/tei-apparatus.rng``: the project's own
grammar for the TEI subset its writer produces, a strict subset of TEI P5 4.12.0 (every document
valid against it is valid against ``tei_all.rng``). Any other RELAX NG schema can be given instead,
such as the official ``tei_all.rng``.

``tei_all.rng`` embeds Schematron rules (XPath 2) that lxml's RELAX NG ignores; the ones
that matter for a critical apparatus are checked here in Python, with the same wording
where TEI has one: the lemma comes first in an ``<app>``, at most one ``<lem>`` per
``<app>``/``<rdgGrp>``, ``<witDetail>`` has ``@wit``, ``<variantEncoding>`` is consistent,
every ``@wit`` points at a ``<witness>`` of the ``<listWit>``, every local pointer
resolves, and no reading is given for a witness where it is not extant.

Files are parsed without resolving entities, loading DTDs or touching the network.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from lxml import etree

from collate.errors import ValidationError

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
NS = {"tei": TEI_NS}

# Attributes holding local pointers (``#id``) that must resolve inside the document.
POINTER_ATTRIBUTES = (
    "wit",
    "edRef",
    "target",
    "corresp",
    "resp",
    "source",
    "ana",
    "ref",
    "exclude",
    "prev",
    "next",
    "sameAs",
    "copyOf",
    "synch",
    "select",
    "spanTo",
    "hand",
    "decls",
)
_MILESTONES = ("witStart", "witEnd", "lacunaStart", "lacunaEnd")
_WITNESSED = ("lem", "rdg", "witDetail", "wit", *_MILESTONES)


class Severity(str, Enum):
    """An error makes the document invalid; a warning is advice for viewers and editors."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: where (line, column, element), what, and which check found it.

    ``column`` counts characters from 1 at the element's ``<``; ``xpath`` is where the element is
    in the tree, by which its column is found in the file's text (:func:`locate`).
    """

    line: int | None
    element: str
    message: str
    check: str
    severity: Severity = Severity.ERROR
    column: int | None = None
    xpath: str = ""

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}" if self.line and self.column else str(self.line or "?")
        return f"{where}: <{self.element}>: {self.message} [{self.check}]"


@dataclass(frozen=True, slots=True)
class Report:
    """What validating one document found. ``schema`` is None if no RELAX NG schema was used."""

    path: str
    problems: tuple[Problem, ...]
    schema: str | None
    checks: int

    @property
    def errors(self) -> tuple[Problem, ...]:
        """The problems that make the document invalid."""
        return tuple(p for p in self.problems if p.severity is Severity.ERROR)

    @property
    def valid(self) -> bool:
        """No errors (warnings allowed)."""
        return not self.errors


# --- parsing and the schema -------------------------------------------------------------


def safe_parser() -> Any:
    """An XML parser that resolves no entities, loads no DTD and never uses the network."""
    return etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)


def parse_tei(path: Path) -> Any:
    """Parse ``path``; a file that is not well-formed XML is a :class:`ValidationError` at line:col."""
    try:
        return etree.parse(str(path), safe_parser())
    except OSError as exc:
        raise ValidationError(f"cannot be read: {exc}", where=str(path)) from None
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (0, 0)
        raise ValidationError(f"not well-formed XML: {exc.msg}", where=f"{path}:{line}:{column}") from None


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


# The TEI release the shipped schema is a subset of.
SUBSET_OF = "TEI P5 4.12.0"


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


# --- checks --------------------------------------------------------------------------------


def _name(element: Any) -> str:
    return etree.QName(element).localname if isinstance(element.tag, str) else "?"


def _tei(element: Any, *names: str) -> bool:
    return isinstance(element.tag, str) and etree.QName(element).namespace == TEI_NS and _name(element) in names


def _problem(element: Any, message: str, check: str, severity: Severity = Severity.ERROR) -> Problem:
    return Problem(element.sourceline, _name(element), message, check, severity, xpath=_xpath(element))


def _xpath(element: Any) -> str:
    try:
        return str(element.getroottree().getpath(element))
    except (ValueError, TypeError):  # an element of no tree
        return ""


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
        element = _name(found[0]) if found and isinstance(found[0], etree._Element) else "?"
        # libxml2 gives no column for a validity error (only for a syntax error): it is found later.
        column = entry.column or None
        where = entry.path or ""
        out.append(Problem(entry.line or None, element, entry.message, "relaxng", column=column, xpath=where))
    return out


def rule_problems(tree: Any) -> tuple[list[Problem], int]:
    """The apparatus rules (see the module docstring): the problems, and how many checks ran."""
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    problems: list[Problem] = []
    checks = 0
    for check in (_variant_encoding, _lemma_first, _wit_detail, _pointers, _extents, _positive):
        found, ran = check(root)
        problems.extend(found)
        checks += ran
    return problems, checks


def _variant_encoding(root: Any) -> tuple[list[Problem], int]:
    apps = root.xpath("//tei:app", namespaces=NS)
    declared = root.xpath("//tei:teiHeader//tei:variantEncoding", namespaces=NS)
    out = []
    if apps and not declared:
        out.append(
            _problem(apps[0], "the document has <app> but its header declares no <variantEncoding>", "variant-encoding")
        )
    for ve in declared:
        method, location = ve.get("method"), ve.get("location")
        if method == "parallel-segmentation" and location == "external":
            out.append(
                _problem(
                    ve,
                    'The @location value "external" is inconsistent with the parallel-segmentation method',
                    "variant-encoding",
                )
            )
        if location == "external" and any(a.get("from") is None and a.get("loc") is None for a in apps):
            out.append(_problem(ve, "an external apparatus needs @from or @loc on each <app>", "variant-encoding"))
    return out, 1 + len(declared)


def _lemma_first(root: Any) -> tuple[list[Problem], int]:
    out = []
    groups = root.xpath("//tei:app | //tei:rdgGrp", namespaces=NS)
    for group in groups:
        children = [c for c in group if isinstance(c.tag, str)]
        lemmas = [c for c in children if _tei(c, "lem")]
        if len(lemmas) > 1:
            out.append(_problem(lemmas[1], f"Only one <lem> element may appear within a <{_name(group)}>", "one-lem"))
        if lemmas and children[0] is not lemmas[0]:
            out.append(_problem(lemmas[0], f"<lem> must come first in <{_name(group)}>", "lem-first"))
    return out, len(groups)


def _wit_detail(root: Any) -> tuple[list[Problem], int]:
    details = root.xpath("//tei:witDetail", namespaces=NS)
    out = [_problem(d, "<witDetail> must have @wit", "witdetail-wit") for d in details if not d.get("wit")]
    out.extend(
        _problem(
            d,
            "<witDetail> has no @target: viewers cannot tell which reading it describes",
            "witdetail-target",
            Severity.WARNING,
        )
        for d in details
        if d.get("wit") and not d.get("target")
    )
    return out, len(details)


def _local_pointers(value: str) -> Iterator[str]:
    for token in value.split():
        if token.startswith("#"):
            yield token[1:]


def _pointers(root: Any) -> tuple[list[Problem], int]:
    witnesses = set(root.xpath("//tei:listWit//tei:witness/@xml:id | //tei:listWit/@xml:id", namespaces=NS))
    ids = set(root.xpath("//@xml:id"))
    out = []
    checks = 0
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        for attr in POINTER_ATTRIBUTES:
            value = element.get(attr)
            if not value:
                continue
            checks += 1
            if attr == "wit" and _tei(element, *_WITNESSED):
                for token in value.split():
                    if not token.startswith("#") or token[1:] not in witnesses:
                        out.append(
                            _problem(element, f"@wit {token!r} does not point at a <witness> of the listWit", "wit")
                        )
                continue
            for target in _local_pointers(value):
                if target not in ids:
                    out.append(
                        _problem(element, f"@{attr} points at #{target}, which is not in the document", "pointer")
                    )
    return out, checks


def _scope(element: Any) -> Any:
    """The layer a reading belongs to: the nearest ancestor with ``@ana`` (else the document)."""
    for ancestor in element.iterancestors():
        if ancestor.get("ana") and not _tei(ancestor, "lem", "rdg", "rdgGrp"):
            return ancestor.get("ana")
    return ""


def _extents(root: Any) -> tuple[list[Problem], int]:
    """No reading for a witness after its ``witEnd``/``lacunaStart`` (until it resumes), in one layer.

    Text a witness does not contain is not an omission: an empty ``<rdg>`` there is wrong.
    """
    stopped: dict[tuple[str, str], Any] = {}
    out = []
    checks = 0
    for element in root.iter(*(f"{{{TEI_NS}}}{n}" for n in ("lem", "rdg", *_MILESTONES))):
        scope = _scope(element)
        wits = [w for w in (element.get("wit") or "").split() if w.startswith("#")]
        name = _name(element)
        if name in _MILESTONES:
            for w in wits:
                if name in ("witEnd", "lacunaStart"):
                    stopped[(scope, w)] = element
                else:
                    stopped.pop((scope, w), None)
            continue
        own = {
            w
            for m in element.iter(*(f"{{{TEI_NS}}}{n}" for n in ("witStart", "lacunaEnd")))
            for w in (m.get("wit") or "").split()
        }
        for w in wits:
            checks += 1
            if (scope, w) in stopped and w not in own:
                end = stopped[(scope, w)]
                out.append(
                    _problem(
                        element,
                        f"reading for {w}, which is not extant here (it stopped at line {end.sourceline})",
                        "not-extant",
                    )
                )
    return out, checks


def _positive(root: Any) -> tuple[list[Problem], int]:
    """Every ``lem``/``rdg`` names its witnesses (the Versioning Machine drops readings without)."""
    readings = root.xpath("//tei:app//tei:lem | //tei:app//tei:rdg", namespaces=NS)
    out = [
        _problem(r, f"<{_name(r)}> has no @wit: a positive apparatus lists every witness", "positive", Severity.WARNING)
        for r in readings
        if not r.get("wit")
    ]
    return out, len(readings)


# --- where in the text: line and column -----------------------------------------------------

# Markup that is no element's start tag, skipped; then a start tag's name. A ``<`` in text or in an
# attribute value is escaped in XML, so each ``<name`` outside these opens the next element.
_MARKUP = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE(?:[^\[>]|\[.*?\])*>|<!|<(?P<name>[^\s/>!?][^\s/>]*)",
    re.DOTALL,
)


def _qualified(element: Any) -> str:
    """The element's name as its start tag writes it (``tei:app``, ``app``)."""
    local = _name(element)
    return f"{element.prefix}:{local}" if element.prefix else local


def start_tags(text: str, root: Any) -> dict[Any, int]:
    """The offset in ``text`` of each element's start tag, in one pass over the text.

    Start tags come in document order, the order of ``root.iter()``. A name that differs from
    the element's (a document this scan misreads) ends the pairing there: no column is guessed.
    """
    elements = (e for e in root.iter() if isinstance(e.tag, str))
    tags = (m for m in _MARKUP.finditer(text) if m.group("name"))
    found: dict[Any, int] = {}
    for element, tag in zip(elements, tags, strict=False):
        if tag.group("name") != _qualified(element):
            break
        found[element] = tag.start()
    return found


def locate(problems: Iterable[Problem], tree: Any, text: str) -> list[Problem]:
    """``problems`` with the line and column of their element's start tag in ``text``, where found.

    lxml gives an element's line but not its column, and a TEI file's lines are long (a book's
    apparatus holds thousands of characters a line): the column is what finds the place.
    """
    problems = list(problems)
    if not any(p.xpath and not p.column for p in problems):
        return problems
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    starts = start_tags(text, root)
    newlines = [m.start() for m in re.finditer("\n", text)]
    out = []
    for p in problems:
        offset = None
        if p.xpath and not p.column:
            try:
                found = tree.xpath(p.xpath)
            except etree.XPathError:
                found = []
            offset = starts.get(found[0]) if found and isinstance(found[0], etree._Element) else None
        if offset is None:
            out.append(p)
            continue
        line = bisect.bisect_left(newlines, offset)
        column = offset - (newlines[line - 1] + 1 if line else 0) + 1
        out.append(replace(p, line=line + 1, column=column))
    return out


def _text_of(path: Path, tree: Any) -> str | None:
    """The document's text, to find columns in (None if it cannot be read again)."""
    try:
        return path.read_bytes().decode(tree.docinfo.encoding or "utf-8", errors="replace")
    except (OSError, LookupError):
        return None


# --- one entry point ---------------------------------------------------------------------------


Progress = Callable[[str], None]


def dtd_problems(tree: Any, text: str | None = None) -> list[Problem]:
    """Warnings for what the safe parser left unread: a DTD named, entities declared or referred to.

    Nothing is loaded or resolved (an external entity could read a file or the network), so a
    document with them is checked as written: its schema validity may not be what its author meant.
    Each warning is placed at the document type declaration, or at the first reference.
    """
    info = tree.docinfo
    line = None
    if text is not None and "<!DOCTYPE" in text:
        line = text.count("\n", 0, text.index("<!DOCTYPE")) + 1
    found: list[Problem] = []
    if info.system_url or info.public_id:
        named = info.system_url or info.public_id
        found.append(
            Problem(
                line,
                "!DOCTYPE",
                f"the document names a DTD ({named}); it was not loaded or checked",
                "dtd",
                Severity.WARNING,
                1 if line else None,
            )
        )
    declared = [e for e in (info.internalDTD.iterentities() if info.internalDTD is not None else ())]
    if declared:
        names = ", ".join(f"{e.name} (external: {e.system_url})" if e.system_url else str(e.name) for e in declared)
        found.append(
            Problem(
                line,
                "!DOCTYPE",
                f"entity declarations were not resolved: {names}",
                "dtd",
                Severity.WARNING,
                1 if line else None,
            )
        )
    refs = [x for x in tree.iter() if isinstance(x, etree._Entity)]
    if refs:
        first = refs[0]
        shown = sorted({str(x.name) for x in refs})
        found.append(
            Problem(
                first.sourceline,
                _name(first.getparent()) if first.getparent() is not None else "?",
                f"{len(refs)} entity reference(s) left as written, not replaced: " + ", ".join(f"&{n};" for n in shown),
                "dtd",
                Severity.WARNING,
            )
        )
    return found


def _quiet(message: str) -> None:
    """No progress to report to."""


def validate_tree(
    tree: Any, schema: Any | None = None, path: str = "", progress: Progress | None = None, *, text: str | None = None
) -> Report:
    """Check a parsed TEI document: the schema (if given) and the apparatus rules.

    ``progress`` is told of each step as it starts: against tei_all each takes seconds.
    ``text``, the document's text, gives each problem its line and column there (:func:`locate`).
    """
    say = progress or _quiet
    problems = []
    if schema is not None:
        say("checking against the schema")
        problems = schema_problems(tree, schema)
    say("checking the apparatus rules")
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
    text = _text_of(path, tree)
    schema_path = schema_path or default_schema()
    schema = None
    if schema_path is not None:
        # Compiled once a process: a second file against the same schema starts at once.
        say(f"compiling the schema {schema_path.name}")
        schema = load_schema(schema_path)
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
