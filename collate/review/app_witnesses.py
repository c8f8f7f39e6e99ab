"""The witnesses at a locus as the review draws them: one line for each reading that differs, the rest named together.

The base and every witness whose reading differs from it get a line: the witness's name, its own
text around the place with the reading in 〔〕, the reading's class and its place. The witnesses
that read as the base are named together in one line under them, as a 校勘記 says 「餘並同」
(``集說本、TLS本 同底本``), and so are those silent here and those not extant here: a locus of
many witnesses still shows every reading that differs on a 24-line terminal.

The lines are laid out for the width rich gives them (:meth:`WitnessLines.__rich_console__`), so
one locus fits 80 columns and uses 200: the names are siglum and label where they fit, else the
labels, else the sigla; each context is cut at both ends to one line, the reading kept whole
(cut with its length said only if it alone is too long for the line) and its 〔 in the same
column in every line, the readings centred. With ``e`` (the look's ``full``) every witness has
its line and its whole unit, folded over as many lines as it takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from collate.apparatus import Locus, Reading, ReadingClass, WitnessInfo
from collate.model.inert import inert
from collate.review.context import Context, Shown
from collate.review.look import Look, head, tail
from collate.review.session import ReviewSession
from collate.views.diff import CLASS_STYLE, cite

# The characters fetched either side of a reading; the width of the line decides how many are shown.
CONTEXT_WIDTH = 20
# The cells of the brackets around a reading: full-width, two each.
BRACKETS = cell_len("〔〕")
# Cells between two columns: the table pads each column by one either side, not at its edges.
GAP = 2
# The cells a line keeps for the text, the class and the place (with the gaps) before the names
# grow from sigla to labels: a reading and some ten characters either side, ``異體 (variant)``
# and ``062-1a.6``. Fixed, not measured per locus, so the names stay the same from locus to locus.
LINE_CELLS = 44 + 30
# Why a witness without a line of its own is named in the line under them: its group's words.
GROUPS = ("agree", "silent", "absent")
_NOTES = {Shown.SILENT: "silent", Shown.REPORTED: "reported", Shown.NOT_EXTANT: "not_extant"}


def witness_names(witnesses: Sequence[WitnessInfo], cells: int) -> dict[str, str]:
    """Each witness's name (inert), the most a name column of ``cells`` cells holds for every witness.

    ``WYG-jishuo 集說本`` (siglum and label) where every such name fits; else the labels, if each
    fits and no two are alike; else the sigla, which are short and always tell the witnesses apart.
    """
    labels = {w.siglum: inert(w.label or w.siglum, keep="") for w in witnesses}
    both = {s: f"{inert(s, keep='')} {label}" if label != inert(s, keep="") else label for s, label in labels.items()}
    for names in (both, labels):
        if all(cell_len(n) <= cells for n in names.values()) and len(set(names.values())) == len(names):
            return names
    return {w.siglum: inert(w.siglum, keep="") for w in witnesses}


@dataclass(frozen=True, slots=True)
class Line:
    """One witness's line: its text at the place (:class:`~collate.review.context.Context`), what its
    reading is (the class in words) and the style of the reading."""

    context: Context
    what: str
    style: str


def _group(is_base: bool, reading: Reading | None, ctx: Context) -> str:
    """The group of a witness named in the line under the others, or '' for one with a line of its own."""
    if is_base:
        return ""
    if ctx.shown is Shown.SILENT:
        return "silent"
    if reading is None:
        return "agree"
    return "absent" if reading.cls is ReadingClass.NOT_EXTANT else ""


class WitnessLines:
    """The witnesses at ``locus``, laid out for the width they are drawn at (a rich renderable)."""

    def __init__(self, session: ReviewSession, locus: Locus, look: Look) -> None:
        self.look = look
        self.witnesses = session.raw.witnesses
        self.lines: list[Line] = []
        self.groups: dict[str, list[str]] = {g: [] for g in GROUPS}
        # In full mode the others have lines too: after the readings that differ, as they are named.
        named: list[Line] = []
        w = look.words
        pending = {siglum for siglum, _ in session.pending_at(locus)}
        for siglum in locus.sigla:
            reading = locus.reading_of(siglum)
            ctx = session.context(locus, siglum, None if look.full else CONTEXT_WIDTH)
            is_base = siglum == session.raw.base
            group = _group(is_base, reading, ctx)
            if group:
                self.groups[group].append(siglum)
            if reading is None:
                what, style = w("base_row" if is_base else "same_as_base"), "bold"
            else:
                what, style = w.cls(reading.cls), CLASS_STYLE.get(reading.cls, "")
                # The cause in the interface's words: 異體（避諱）, orthographic (taboo).
                if reading.cause:
                    what += inert(w.pick(("（{}）", " ({})")).format(w.cause(reading.cause)), keep="")
                what += w.pick(("・規整", " · regularized")) if siglum in pending else ""
            (named if group else self.lines).append(Line(ctx, what, style))
        if look.full:
            self.lines += named
            self.groups = {g: [] for g in GROUPS}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        w = self.look.words
        headers = (w("col_siglum"), w("col_text"), w("col_class"), w("col_place"))
        places = [cite(x.context.location) for x in self.lines]
        what_w = max([cell_len(headers[2]), *(cell_len(x.what) for x in self.lines)])
        place_w = max([cell_len(headers[3]), *map(cell_len, places)])
        rest = width - what_w - place_w - 3 * GAP
        names = witness_names(self.witnesses, width - LINE_CELLS)
        rows = [
            (names.get(x.context.siglum, inert(x.context.siglum, keep="")), x.what, p)
            for x, p in zip(self.lines, places, strict=True)
        ]
        name_w = max([cell_len(headers[0]), *(cell_len(r[0]) for r in rows)])
        yield self.table(headers, rows, (name_w, max(rest - name_w, 1), what_w, place_w))
        others = self.others(names)
        if others.plain:
            yield others

    def table(self, headers: Sequence[str], rows: Sequence[tuple[str, str, str]], widths: Sequence[int]) -> Table:
        """The lines of the base and of each witness that differs: ``rows`` of (name, class, place),
        the columns ``widths`` wide (the text's at most: a fitted text is cut to it)."""
        name_w, room, what_w, place_w = widths
        texts = [self.whole(x) for x in self.lines] if self.look.full else self.fitted(room)
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        table.add_column(headers[0], width=name_w, no_wrap=True)
        # Chinese has no spaces to wrap at: a text too long for its line (a whole unit, with ``e``;
        # a reported reading's note) folds at any character rather than being cut. Fitted, the
        # column is as wide as its longest line: no blank band before the class on a wide screen.
        text_w = None if self.look.full else min(room, max([cell_len(headers[1]), *(t.cell_len for t in texts)]))
        table.add_column(headers[1], width=text_w, overflow="fold")
        table.add_column(headers[2], width=what_w, no_wrap=True)
        table.add_column(headers[3], width=place_w, no_wrap=True)
        for (name, what, place), line, text in zip(rows, self.lines, texts, strict=True):
            table.add_row(Text(name, style="bold"), text, Text(what, style=line.style), Text(place))
        return table

    def fitted(self, room: int) -> list[Text]:
        """Each line's context cut to ``room`` cells: the reading whole, every 〔 in one column, the readings centred.

        The column is as far right as the longest context before needs, but no further than
        centres the longest reading, unless the contexts after leave it room.
        """
        readings = [self.look.fit(x.context.text, room - BRACKETS) for x in self.lines]
        widest = max(cell_len(r) + BRACKETS for r in readings)
        before = max(cell_len(inert(x.context.before, keep="")) for x in self.lines)
        after = max(cell_len(inert(x.context.after, keep="")) for x in self.lines)
        left = max(0, min(before, max((room - widest) // 2, room - widest - after)))
        out = []
        for line, reading in zip(self.lines, readings, strict=True):
            ctx = line.context
            shown_before = tail(ctx.before, left)
            pad = " " * (left - cell_len(shown_before))
            shown_after = head(ctx.after, room - left - cell_len(reading) - BRACKETS)
            out.append(self.text(line, pad + shown_before, reading, shown_after))
        return out

    def whole(self, line: Line) -> Text:
        """A line's context as it is (its whole unit, in full mode), to fold over as many lines as it takes."""
        ctx = line.context
        return self.text(line, inert(ctx.before, keep=""), self.look.cut(ctx.text), inert(ctx.after, keep=""))

    def text(self, line: Line, before: str, reading: str, after: str) -> Text:
        """A context drawn: the text around dim, the reading in its class's style, a note of why it is what it is."""
        ctx = line.context
        out = Text.assemble((before, "dim"), ("〔", "dim"), (reading, line.style), ("〕", "dim"), (after, "dim"))
        if ctx.shown in _NOTES:
            note = self.look.words(_NOTES[ctx.shown]) + (f"：{ctx.source}" if ctx.source else "")
            out.append(inert(f"  （{note}）", keep=""), style="italic dim")
        return out

    def others(self, names: dict[str, str]) -> Text:
        """The witnesses without a line of their own, named together by group: ``TLS、集說本 同底本``."""
        w = self.look.words
        out = Text()
        for group in GROUPS:
            sigla = self.groups[group]
            if not sigla:
                continue
            if out.plain:
                out.append(w.pick(("；", "; ")))
            out.append(w.pick(("、", ", ")).join(names.get(s, inert(s, keep="")) for s in sigla), style="bold")
            out.append(w(f"group_{group}"))
        return out
