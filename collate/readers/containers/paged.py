"""Blank-line paged e-text: each file line a printed line, a blank line a half-folio break.

Some e-texts of 四庫 prints (seed 000) keep the printed page: a blank line (or several in a
row) ends a half-folio page, labelled ``1a``, ``1b``, ``2a`` … from the file's start. The
blank lines are layout; every other line is a printed line of its page, including a line of
indentation only (an empty printed line, which the layout sees). Blank lines that set apart
paragraphs of any length are not pages: a print's pages hold the same number of lines.
"""

from __future__ import annotations

from collections import Counter

from collate.model import Mark, MarkKind
from collate.model.citation import half_folio
from collate.readers.base import ReadOptions, iter_lines
from collate.readers.body import Body, BodyBuilder


def _blank(raw: str, start: int, end: int) -> bool:
    return not raw[start:end].strip("\r\n")


class PagedContainer:
    """Pages from blank lines, printed lines from file lines."""

    name = "paged"
    description = "blank-line paged e-text: a blank line ends a half-folio page"

    def detect(self, raw: str) -> tuple[float, str]:
        """Several blank-line pages holding several lines each."""
        lengths: list[int] = []
        printed = 0
        for line in iter_lines(raw):
            if not _blank(raw, line.start, line.end):
                printed += 1
            elif printed:
                lengths.append(printed)
                printed = 0
        # A print's pages hold the same number of lines (a half-folio of the 四庫 print: 8);
        # paragraphs set apart by blank lines do not. The last page may be short.
        if len(lengths) >= 2:
            lines, count = Counter(lengths).most_common(1)[0]
            if lines >= 4 and count >= 0.6 * len(lengths):
                return 0.5, f"{len(lengths) + 1} blank-line pages, {count} of them of {lines} lines"
        return 0.0, "no blank-line pages of a regular length"

    def read(self, raw: str, options: ReadOptions) -> Body:
        """Blank lines out as layout; a page mark after each break, a line mark on each line."""
        b = BodyBuilder(raw)
        page, page_line, pending = 0, 0, False
        for line in iter_lines(raw):
            if _blank(raw, line.start, line.end):
                pending = page_line > 0 or pending
                b.drop(line.start, line.end)
                continue
            if pending or not b.marks:
                if pending:
                    page += 1
                b.marks.append(Mark(line.start, MarkKind.PAGE, half_folio(page)))
                page_line, pending = 0, False
            page_line += 1
            b.marks.append(Mark(line.start, MarkKind.LINE, str(page_line)))
            b.keep(line.start, line.end)
        return b.build(self.name, self.description)


CONTAINER = PagedContainer()
