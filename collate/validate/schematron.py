"""The Schematron ``collate validate`` runs, by a Schematron processor: TEI's own constraints and collate's.

The schema is ``collate/data/tei-apparatus.sch`` (built by :mod:`collate.validate.build_schematron` from
``tei_all.rng`` and the project's ODD). It is compiled to XSLT by the ISO Schematron reference
implementation, Rick Jelliffe's "skeleton" stylesheets, in the copy lxml ships (``lxml.isoschematron``),
and the result runs in Saxon-HE (``saxonche``), whose report (SVRL) gives each failed assertion's place
as an XPath; :mod:`collate.validate.locate` turns that into a line and column.

TEI's constraints are written in XPath 2 (query binding ``xslt2``). The skeleton lxml ships is its XSLT 1
edition, which refuses that binding; the only difference that matters is the version of the stylesheet
it writes, so a meta-stylesheet (the skeleton's own extension point) adds the binding and has it write
XSLT 2.0, which Saxon runs. lxml's own ``isoschematron`` runs the same skeleton in libxslt, which knows no
XPath 2: hence Saxon.

Saxon reads the document lxml parsed (entities unresolved, no DTD, no network), serialized again, so the
two trees have the same elements and an XPath of one finds the element in the other.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from lxml import etree
from lxml.builder import ElementMaker

from collate.errors import ValidationError
from collate.validate.problems import Problem, Severity, local_name

SVRL = "http://purl.oclc.org/dsdl/svrl"
ISO = "http://purl.oclc.org/dsdl/schematron"
XSL = "http://www.w3.org/1999/XSL/Transform"
# The roles TEI and collate give advice rather than errors ("nonfatal" is TEI's word).
ADVICE = frozenset({"warning", "warn", "nonfatal", "info", "information"})


@dataclass(frozen=True, slots=True)
class Schematron:
    """A Schematron schema compiled to an XSLT stylesheet, ready to run on documents."""

    path: Path
    stylesheet: Any


def shipped_schematron() -> Path:
    """Where the Schematron collate ships lives: ``tei-apparatus.sch`` in the package's data."""
    from importlib import resources

    return Path(str(resources.files("collate") / "data" / "tei-apparatus.sch"))


def skeleton() -> Path:
    """The folder of the ISO Schematron skeleton stylesheets lxml ships."""
    from importlib import resources

    return Path(str(resources.files("lxml.isoschematron") / "resources" / "xsl" / "iso-schematron-xslt1"))


@cache
def _saxonche() -> Any:
    """The Saxon-HE module, imported on first use: it loads a native library ``collate --help`` does not need."""
    import saxonche  # type: ignore[import-not-found]  # the wheel ships no type information

    return saxonche


@cache
def _saxon() -> Any:
    """Saxon-HE, started once a process."""
    return _saxonche().PySaxonProcessor(license=False)


def _xslt2_binding() -> str:
    """The meta-stylesheet: the skeleton's SVRL stylesheet, plus the ``xslt2`` query binding it lacks.

    It does for ``queryBinding="xslt2"`` what the skeleton's own template does for ``xslt``, but writes
    ``version="2.0"`` so that Saxon evaluates the rules as XPath 2.
    """
    xsl = ElementMaker(
        namespace=XSL, nsmap={"xsl": XSL, "iso": ISO, "axsl": "http://www.w3.org/1999/XSL/TransformAlias"}
    )
    axsl = ElementMaker(namespace="http://www.w3.org/1999/XSL/TransformAlias")
    version = xsl.attribute("2.0", name="version")
    stylesheet = xsl.stylesheet(
        xsl("import", href=(skeleton() / "iso_svrl_for_xslt1.xsl").as_uri()),
        xsl.template(
            axsl.stylesheet(
                xsl("apply-templates", select="iso:ns"),
                version,
                xsl("apply-templates", select=".", mode="stylesheetbody"),
            ),
            match="iso:schema[@queryBinding='xslt2']",
            priority="10",
        ),
        version="1.0",
    )
    return str(etree.tostring(stylesheet, encoding="unicode"))


@cache
def load_schematron(path: Path) -> Schematron:
    """The Schematron schema at ``path``, compiled once per process (about a quarter of a second)."""
    if not path.is_file():
        raise ValidationError("Schematron schema cannot be read: no such file", where=str(path))
    processor = _saxon()
    xslt = processor.new_xslt30_processor()
    try:
        # The skeleton's pipeline: inclusions, abstract patterns, then the schema to a stylesheet. The
        # schema is read from its file, so that an sch:include finds its parts beside it.
        include = xslt.compile_stylesheet(stylesheet_file=str(skeleton() / "iso_dsdl_include.xsl"))
        expand = xslt.compile_stylesheet(stylesheet_file=str(skeleton() / "iso_abstract_expand.xsl"))
        to_xslt = xslt.compile_stylesheet(stylesheet_text=_xslt2_binding())
        included = include.transform_to_string(xdm_node=processor.parse_xml(xml_file_name=str(path)))
        expanded = expand.transform_to_string(xdm_node=processor.parse_xml(xml_text=included, encoding="UTF-8"))
        compiled = to_xslt.transform_to_string(xdm_node=processor.parse_xml(xml_text=expanded, encoding="UTF-8"))
        return Schematron(path, xslt.compile_stylesheet(stylesheet_text=compiled, encoding="UTF-8"))
    except _saxonche().PySaxonApiError as exc:
        message = " ".join(str(exc).split())
        raise ValidationError(f"not a usable Schematron schema: {message}", where=str(path)) from None


def _source(root: Any) -> str:
    """The document for Saxon: the tree lxml parsed, without its DTD.

    The safe parser leaves an entity reference as a node; it is written as plain text (``&x;`` as the
    characters ``&``, ``x``, ``;``), since Saxon would reject an undeclared one or resolve a declared one.
    """
    if any(True for _ in root.iter(etree.Entity)):
        root = copy.deepcopy(root)
        for entity in list(root.iter(etree.Entity)):
            written = str(entity.text or "") + (entity.tail or "")
            before, parent = entity.getprevious(), entity.getparent()
            if before is not None:
                before.tail = (before.tail or "") + written
            else:
                parent.text = (parent.text or "") + written
            parent.remove(entity)
    return str(etree.tostring(root, encoding="unicode"))


def check_name(pattern: str) -> str:
    """How a problem names the constraint it broke: collate's by their ODD ident, TEI's as ``tei:spec-rule``.

    TEI's compiled grammars name each pattern ``<schema>-<spec>-<constraint>-constraint-rule-<n>``.
    """
    found = re.fullmatch(r"tei_all-(.+)-constraint-rule-\d+", pattern)
    if found:
        return f"tei:{found.group(1)}"
    return pattern or "schematron"


def _problem(finding: Any, pattern: str, tree: Any) -> Problem:
    """One failed assertion or successful report, placed at its element in ``tree``."""
    location = finding.get("location") or ""
    try:
        found = tree.xpath(location) if location else []
    except etree.XPathError:
        found = []
    element = found[0] if found and isinstance(found[0], etree._Element) else None
    text = finding.find(f"{{{SVRL}}}text")
    message = " ".join("".join(text.itertext()).split()) if text is not None else ""
    severity = Severity.WARNING if (finding.get("role") or "").lower() in ADVICE else Severity.ERROR
    return Problem(
        element.sourceline if element is not None else None,
        local_name(element) if element is not None else "?",
        message,
        finding.get("id") or check_name(pattern),
        severity,
        xpath=location if element is not None else "",
    )


def schematron_problems(tree: Any, schematron: Schematron) -> tuple[list[Problem], int]:
    """What ``schematron`` finds in ``tree``: the problems, and how many rule checks fired."""
    document = tree if hasattr(tree, "getroot") else tree.getroottree()
    processor = _saxon()
    try:
        node = processor.parse_xml(xml_text=_source(document.getroot()), encoding="UTF-8")
        report = schematron.stylesheet.transform_to_string(xdm_node=node)
    except _saxonche().PySaxonApiError as exc:  # a rule that fails to evaluate on this document
        message = " ".join(str(exc).split())
        raise ValidationError(f"the Schematron could not be run: {message}", where=str(schematron.path)) from None
    svrl = etree.fromstring(report.encode("utf-8"))
    problems: list[Problem] = []
    fired = 0
    pattern = ""
    # SVRL lists each pattern, then the rules it fired and what they found, in order.
    for finding in svrl:
        kind = etree.QName(finding).localname if isinstance(finding.tag, str) else ""
        if kind == "active-pattern":
            pattern = finding.get("id") or finding.get("name") or ""
        elif kind == "fired-rule":
            fired += 1
        elif kind in ("failed-assert", "successful-report"):
            problems.append(_problem(finding, pattern, document))
    return problems, fired


def rule_problems(tree: Any) -> tuple[list[Problem], int]:
    """The apparatus rules: the shipped Schematron (TEI's and collate's constraints) on ``tree``."""
    return schematron_problems(tree, load_schematron(shipped_schematron()))
