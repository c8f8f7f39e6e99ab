"""Plain or punctuated text (Wikisource style): every line is 經, headings are structure.

Punctuation stays inside the text spans (the tokenizer sets it aside); line ends and
leading indentation are layout. A heading line such as ``=== 15 | 投壺 ===`` is structure.
"""

from __future__ import annotations

import re

from collate.model import Layer, Span
from collate.readers.base import Parsed, ReadOptions

_HEADING = re.compile(r"^\s*(=+).*\1\s*$")
_LINE = re.compile(r"[^\r\n]*(\r\n|\r|\n)?")


class PlainReader:
    """Reads plain or punctuated text: each line is 經 unless it is a heading."""

    name = "plain"
    description = "plain or punctuated text; `=== … ===` lines are headings"

    def detect(self, text: str) -> tuple[float, str]:
        """Plain text fits anything a little: it is the fallback."""
        return 0.01, "no other layout's markers"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split into lines; each line's body is 經 (or heading), the rest layout."""
        spans: list[Span] = []
        unit = 0
        for m in _LINE.finditer(text):
            if m.start() == m.end():
                continue
            line = m.group(0)
            eol = m.group(1) or ""
            body = line[: len(line) - len(eol)]
            stripped = body.lstrip(" \t\u3000\u00a0")
            indent = len(body) - len(stripped)
            stripped_end = len(stripped.rstrip(" \t\u3000\u00a0"))
            pos = m.start()
            if indent:
                spans.append(Span(pos, pos + indent, Layer.MARKUP, role="layout"))
            if stripped_end:
                unit += 1
                layer = Layer.HEADING if _HEADING.match(body) else Layer.JING
                spans.append(Span(pos + indent, pos + indent + stripped_end, layer, unit))
            rest = pos + indent + stripped_end
            if rest < m.end():
                spans.append(Span(rest, m.end(), Layer.MARKUP, role="layout"))
        return Parsed(spans=tuple(_merge(spans)))


def _merge(spans: list[Span]) -> list[Span]:
    """Join adjacent layout spans so the partition stays small."""
    out: list[Span] = []
    for s in spans:
        if out and s.layer is Layer.MARKUP and out[-1].layer is Layer.MARKUP and out[-1].end == s.start:
            out[-1] = Span(out[-1].start, s.end, Layer.MARKUP, role="layout")
        else:
            out.append(s)
    return out


READER = PlainReader()
