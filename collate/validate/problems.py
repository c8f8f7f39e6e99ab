"""What validating finds: a problem (where, what, which check), the report on one document, and the
helpers every check uses to name and place an element."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from lxml import etree

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
NS = {"tei": TEI_NS}


class Severity(str, Enum):
    """An error makes the document invalid; a warning is advice for viewers and editors."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Problem:
    """One finding: where (line, column, element), what, and which check found it.

    ``column`` counts characters from 1 at the element's ``<``; ``xpath`` is where the element is
    in the tree, by which its column is found in the file's text (:func:`~collate.validate.locate`).
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


def local_name(element: Any) -> str:
    """The element's name without its namespace (``?`` for a comment or processing instruction)."""
    return etree.QName(element).localname if isinstance(element.tag, str) else "?"


def is_tei(element: Any, *names: str) -> bool:
    """Whether ``element`` is a TEI element named one of ``names``."""
    return isinstance(element.tag, str) and etree.QName(element).namespace == TEI_NS and local_name(element) in names


def problem_at(element: Any, message: str, check: str, severity: Severity = Severity.ERROR) -> Problem:
    """A problem placed at ``element``: its line now, its column later from its xpath."""
    return Problem(element.sourceline, local_name(element), message, check, severity, xpath=xpath_of(element))


def xpath_of(element: Any) -> str:
    """Where ``element`` is in its tree ("" for an element of no tree)."""
    try:
        return str(element.getroottree().getpath(element))
    except (ValueError, TypeError):  # an element of no tree
        return ""
