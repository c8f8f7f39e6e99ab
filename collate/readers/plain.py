"""Plain or punctuated text (Wikisource style): every line is 經, headings are structure.

Punctuation stays inside the text spans (the tokenizer sets it aside); line ends and
leading indentation are layout. A heading line such as ``=== 15 | 投壺 ===`` is structure.
"""

from __future__ import annotations

import re

from collate.model import Layer
from collate.readers.base import Parsed, ReadOptions, SpanList, iter_lines

_HEADING = re.compile(r"^\s*(=+).*\1\s*$")


class PlainReader:
    """Reads plain or punctuated text: each line is 經 unless it is a heading."""

    name = "plain"
    description = "plain or punctuated text; `=== … ===` lines are headings"

    def detect(self, text: str) -> tuple[float, str]:
        """Plain text fits anything a little: it is the fallback."""
        return 0.01, "no other layout's markers"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split into lines; each line's body is 經 (or heading), the rest layout."""
        spans = SpanList()
        unit = 0
        for line in iter_lines(text):
            spans.layout(line.start, line.body_start)
            if line.body_end > line.body_start:
                unit += 1
                whole = text[line.start : line.end].rstrip("\r\n")
                spans.add(line.body_start, line.body_end, Layer.HEADING if _HEADING.match(whole) else Layer.JING, unit)
            spans.layout(line.body_end, line.end)
        return Parsed(spans=spans.freeze())


READER = PlainReader()
