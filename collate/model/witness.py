"""A witness as read: its raw text, untouched, and the stand-off annotations over it.

Every later record (token, reading, diagnostic) names an offset into the text; the witness
turns an offset into ``file:line:col`` and the printed page (:class:`SourceLocation`).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property

from collate.model.citation import MESSAGE, page_before
from collate.model.enums import Layer, MarkKind
from collate.model.readings import SparseReading
from collate.model.spans import Diagnostic, Mark, Span, Substitution, Unsettled


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """A place in a witness file: 1-based line and column, and the printed page/line if known.

    ``str()`` gives it as messages cite it (``f.txt:23:4 (p. 3a, l. 5)``; see :mod:`collate.model.citation`).
    """

    path: str
    line: int
    column: int
    page: str | None = None
    page_line: int | None = None

    def __str__(self) -> str:
        return MESSAGE.cite(self)


_NEWLINE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Witness:
    """One witness file as read: raw text plus stand-off annotations.

    Not slotted because it caches the line index (``cached_property``).
    """

    siglum: str
    label: str
    path: str
    text: str
    layout: str
    layout_reason: str = ""
    container: str = "plain"
    container_reason: str = ""
    encoding: str = "utf-8"
    spans: tuple[Span, ...] = ()
    marks: tuple[Mark, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    metadata: tuple[tuple[str, str], ...] = field(default=())
    readings: tuple[SparseReading, ...] = ()
    # Layer boundaries the print does not mark, as the reader cut them (see :class:`Unsettled`).
    unsettled: tuple[Unsettled, ...] = ()
    # A sparse witness (a readings file): extant only at its entries, silent (never omitting) elsewhere.
    # Its layout says so (collate.readers: a layout's ``sparse``).
    sparse: bool = False

    @cached_property
    def line_starts(self) -> list[int]:
        """The offset where each file line starts (line 1 at 0)."""
        return [0] + [m.end() for m in _NEWLINE.finditer(self.text)]

    @cached_property
    def _pages(self) -> tuple[list[int], list[str]]:
        pages = [m for m in self.marks if m.kind is MarkKind.PAGE]
        return [m.offset for m in pages], [m.label for m in pages]

    @cached_property
    def _printed_lines(self) -> list[int]:
        return [m.offset for m in self.marks if m.kind is MarkKind.LINE]

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based file line and column of ``offset``."""
        starts = self.line_starts
        i = bisect.bisect_right(starts, offset) - 1
        return i + 1, offset - starts[i] + 1

    def page_at(self, offset: int) -> tuple[str | None, int | None]:
        """The printed page holding ``offset`` and the printed line within it, if the layout tells."""
        offsets, labels = self._pages
        i = bisect.bisect_right(offsets, offset) - 1
        if i < 0:
            return self._page_before_first(offset)
        lines = self._printed_lines
        if not lines:
            return labels[i], None
        lo = bisect.bisect_left(lines, offsets[i])
        hi = bisect.bisect_right(lines, offset)
        return labels[i], (hi - lo) if hi > lo else None

    def _page_before_first(self, offset: int) -> tuple[str | None, int | None]:
        """Where ``offset`` is that stands before the file's first page marker: an excerpt that
        begins inside a page (…⏎<pb:…_008-4a>) begins on the page before it, and its lines are that
        page's last ones, counted back from the page's length as the print's other pages have it.
        None where the print counts no lines or the lines before the marker fill more than a page."""
        offsets, labels = self._pages
        lines = self._printed_lines
        length = self._page_length
        label = page_before(labels[0]) if labels else None
        at = bisect.bisect_right(lines, offset) - 1
        if label is None or length is None or at < 0:
            return None, None
        line = length - (bisect.bisect_left(lines, offsets[0]) - at) + 1
        return (label, line) if line >= 1 else (None, None)

    @cached_property
    def _page_length(self) -> int | None:
        """How many printed lines the print's pages have: the most of its whole pages have (None: untold)."""
        offsets, _ = self._pages
        lines = self._printed_lines
        counts = Counter(
            bisect.bisect_left(lines, b) - bisect.bisect_left(lines, a) for a, b in itertools.pairwise(offsets)
        )
        counts.pop(0, None)
        return counts.most_common(1)[0][0] if counts else None

    def locate(self, offset: int) -> SourceLocation:
        """Where ``offset`` is, for messages and the apparatus."""
        line, col = self.line_col(offset)
        page, page_line = self.page_at(offset)
        return SourceLocation(self.path, line, col, page, page_line)

    def layer_text(self, layer: Layer) -> str:
        """The text of one layer: its spans joined in file order."""
        return "".join(self.text[s.start : s.end] for s in self.spans if s.layer is layer)

    def layers(self) -> list[Layer]:
        """The layers present, in the order of the enum."""
        present = {s.layer for s in self.spans}
        return [layer for layer in Layer if layer in present]

    def meta(self, key: str) -> str | None:
        """A metadata value the reader recorded (title, juan …), if any."""
        for k, v in self.metadata:
            if k == key:
                return v
        return None
