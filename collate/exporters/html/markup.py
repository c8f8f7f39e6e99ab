"""HTML written as text, for the parts of the page that have millions of cells.

The synopsis and the panels' alignment windows hold a cell per witness per column: building
each as an element costs microseconds, millions of times. They are written as HTML text
and parsed by libxml2 in one go, which makes the same elements; these escape what goes in.
"""

from __future__ import annotations

from html import escape

from collate.exporters.html.common import safe


def html_text(text: str) -> str:
    """Text as HTML: XML-safe (see :func:`~collate.exporters.html.common.safe`), markup escaped."""
    if len(text) <= 2:
        # Most are one character of the text, met again and again: each is escaped once.
        known = _SHORT.get(text)
        if known is None:
            known = _SHORT[text] = escape(safe(text), quote=False)
        return known
    return escape(safe(text), quote=False)


_SHORT: dict[str, str] = {}


def html_attr(value: str) -> str:
    """An attribute value as HTML, to stand in double quotes."""
    return escape(safe(value), quote=True)
