"""Where in the text a problem is: the line and column of its element's start tag."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from lxml import etree

from collate.validate.problems import Problem, local_name

# Markup that is no element's start tag, skipped; then a start tag's name. A ``<`` in text or in an
# attribute value is escaped in XML, so each ``<name`` outside these opens the next element.
_MARKUP = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<!DOCTYPE(?:[^\[>]|\[.*?\])*>|<!|<(?P<name>[^\s/>!?][^\s/>]*)",
    re.DOTALL,
)


def _qualified(element: Any) -> str:
    """The element's name as its start tag writes it (``tei:app``, ``app``)."""
    local = local_name(element)
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
