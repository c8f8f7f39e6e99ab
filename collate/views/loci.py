"""``collate diff --list``: one row per witness's reading at each locus shown.

Each row gives the locus, the reading's class, the layer, the page and line of base and
witness, the lemma, the witness's reading and the editor's decision (:func:`loci_table`; piped,
as tab-separated lines, :func:`loci_plain`). Widths are rich's cell widths, so CJK columns line
up; witness text is always wrapped in ``Text`` (never markup), its control characters escaped.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from collate.apparatus import Collation, Locus, Reading, ReadingClass, WitnessReading
from collate.model.inert import inert
from collate.views.terminal import print_paged
from collate.views.variants import (
    CLASS_MARK,
    CLASS_STYLE,
    EMPTY,
    DiffFilter,
    cite,
    decision_mark,
    shown_layers,
    shown_reading,
)

LIST_COLUMNS = ("locus", "class", "layer", "base place", "lemma", "witness", "reading", "witness place", "decision")


@dataclass(frozen=True, slots=True)
class ListRow:
    """One row of ``--list``: a witness's reading at a locus."""

    locus: Locus
    reading: Reading
    witness: WitnessReading

    def cells(self) -> tuple[str, ...]:
        """The row as display strings, in the order of :data:`LIST_COLUMNS` (control characters escaped)."""
        locus, cls = self.locus, self.reading.cls
        return (
            inert(locus.id, keep=""),
            f"{CLASS_MARK[cls]} {cls.value.replace('_', ' ')}",
            locus.layer.chinese,
            cite(locus.lemma.location),
            inert(locus.lemma.text or EMPTY, keep=""),
            inert(self.witness.siglum, keep=""),
            inert(shown_reading(self.witness.text, locus.base_start == locus.base_end), keep=""),
            cite(self.witness.location),
            decision_mark(locus).plain,
        )


def list_rows(collation: Collation, view: DiffFilter) -> Iterator[ListRow]:
    """Every reading the filter shows, a row for each of its witnesses, in the order of the loci."""
    for result in shown_layers(collation, view):
        for locus in result.loci:
            for r in view.readings(locus):
                for w in r.witnesses:
                    yield ListRow(locus, r, w)


def _class_legend(classes: Collection[ReadingClass]) -> Text:
    return Text(" · ").join(Text(f"{CLASS_MARK[c]} {c.value.replace('_', ' ')}", style=CLASS_STYLE[c]) for c in classes)


LIST_HEADS = ("locus", "class", "layer", "base", "lemma", "witness", "reading", "place", "decision")
_TEXTS = ("lemma", "reading")  # the columns that wrap; the others hold short ids, marks and places
_TEXT_ROOM = 8  # cells each text column keeps at least before the short ones give way too


class LociTable:
    """``--list`` on a terminal: one row per witness's reading at each locus shown (see
    :func:`loci_table`), as wide as the terminal it is drawn on.

    rich narrows the widest columns first, down to the next widest: left to it, the short
    columns (ids, places) would fold along with the texts. So they are as wide as their longest
    cell, and only lemma and reading wrap, wherever that leaves those room; on a narrower
    terminal the rows are lines of text instead, which wrap. Nothing is ever cut.
    """

    def __init__(self, title: str, rows: Sequence[ListRow]) -> None:
        self.title = inert(title)
        self.decided = any(row.locus.decision is not None for row in rows)
        self.heads = LIST_HEADS if self.decided else LIST_HEADS[:-1]
        self.rows = [self._cells(row) for row in rows]
        caption = _class_legend(sorted({row.reading.cls for row in rows}, key=list(ReadingClass).index))
        caption.append(" · base: page.line of the lemma · place: of the reading in the witness", style="dim")
        self.caption = caption

    def _cells(self, row: ListRow) -> list[Text]:
        style = CLASS_STYLE[row.reading.cls]
        cells = row.cells()
        return [
            Text(cells[0]),
            Text(CLASS_MARK[row.reading.cls], style=style),
            *(Text(c) for c in cells[2:4]),
            Text(cells[4], style=CLASS_STYLE[row.locus.cls]),
            Text(cells[5], style="bold"),
            Text(cells[6], style=style),
            Text(cells[7]),
            *([decision_mark(row.locus)] if self.decided else []),
        ]

    def table(self, max_width: int) -> Table | None:
        """The table for a terminal ``max_width`` cells wide; None if it is too narrow for one."""
        widths = {
            head: max([len(head), *(cells[k].cell_len for cells in self.rows)]) for k, head in enumerate(self.heads)
        }
        # Each column has a cell of padding either side and a rule after it; the table one more.
        short = sum(w + 3 for head, w in widths.items() if head not in _TEXTS) + 1
        if max_width - short < len(_TEXTS) * (_TEXT_ROOM + 3):
            return None
        table = Table(title=Text(self.title), caption=self.caption, show_lines=False)
        for head in self.heads:
            table.add_column(head, overflow="fold", width=None if head in _TEXTS else widths[head])
        for cells in self.rows:
            table.add_row(*cells)
        return table

    def lines(self) -> Text:
        """The rows as lines, the cells two spaces apart: they wrap and fold as text on any width,
        where a column one cell wide would lose every CJK character (two cells each) put in it."""
        out = Text(self.title + "\n", style="bold")
        for cells in self.rows:
            out.append_text(Text("  ").join(c for c in cells if c.plain))
            out.append("\n")
        out.append_text(self.caption)
        return out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table(options.max_width)
        yield self.lines() if table is None else table


def loci_table(collation: Collation, view: DiffFilter) -> LociTable:
    """One row per witness's reading at each locus shown: the locus, the reading's class (its
    mark; the caption says what each means), the layer, the base's page and line, the lemma, the
    witness, its reading and its own page and line, the editor's decision (if any was made)."""
    return LociTable(f"{collation.title}: variant loci", list(list_rows(collation, view)))


def loci_plain(collation: Collation, view: DiffFilter) -> str:
    """The rows as tab-separated lines under a header, for pipes: one reading a line, whole."""
    lines = ["\t".join(LIST_COLUMNS)]
    lines.extend("\t".join(row.cells()) for row in list_rows(collation, view))
    return "\n".join(lines) + "\n"


def print_loci(console: Console, collation: Collation, view: DiffFilter, *, pager: bool = True) -> None:
    """The table on a terminal (paged unless ``pager`` is False); tab-separated lines when piped."""
    if console.is_terminal:
        print_paged(console, loci_table(collation, view), pager=pager)
    else:
        console.file.write(loci_plain(collation, view))
