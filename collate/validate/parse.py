"""Reading a TEI file safely: no entity resolved, no DTD loaded, no network; and warnings for
what was therefore left unread."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lxml import etree

from collate.errors import ValidationError
from collate.validate.problems import Problem, Severity, local_name


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


def text_of(path: Path, tree: Any) -> str | None:
    """The document's text, to find columns in (None if it cannot be read again)."""
    try:
        return path.read_bytes().decode(tree.docinfo.encoding or "utf-8", errors="replace")
    except (OSError, LookupError):
        return None


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
                local_name(first.getparent()) if first.getparent() is not None else "?",
                f"{len(refs)} entity reference(s) left as written, not replaced: " + ", ".join(f"&{n};" for n in shown),
                "dtd",
                Severity.WARNING,
            )
        )
    return found
