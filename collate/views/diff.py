"""``collate diff``: the base text with its variant loci inline, layer by layer.

Each locus shows the base's text in the colour of its class followed by the other
witnesses' readings in tortoise-shell brackets, each reading with its class's mark, so the
class is read in plain text as well as in colour: ``哨〔DD 峭 文〕``, ``〔DD +奏投壺之令 衍〕``
for text the base lacks, ``〔ZS ∅ 脫〕`` for text a witness lacks, ``算〔ZS 筭 異〕`` for another
graph of the same character (:data:`CLASS_MARK`). Printed pages of the base are marked where
they begin (``{3a}``), so every place can be cited. Asked for some classes, layers or
witnesses, the view shows only the loci they select, each with a few characters of the base
around it (:func:`excerpts`). ``--list`` gives one row per reading of each witness instead,
with its class and the page and line of base and witness (:func:`loci_table`; piped, as
tab-separated lines, :func:`loci_plain`). Widths are
rich's cell widths, so CJK columns line up; witness text is always wrapped in ``Text`` (never
markup), its control characters escaped (:func:`~collate.model.inert.inert`).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass, WitnessReading
from collate.model import Layer, SourceLocation, Token, Witness
from collate.model.annotations import DecisionAction
from collate.model.inert import inert
from collate.views.terminal import print_paged

# One colour per reading class (the review app uses the same, so an editor learns them once).
CLASS_STYLE: dict[ReadingClass, str] = {
    ReadingClass.SUBSTANTIVE: "bold red",
    ReadingClass.TRANSPOSITION: "bold magenta",
    ReadingClass.OMISSION: "bold yellow",
    ReadingClass.ADDITION: "bold green",
    ReadingClass.SCRIBAL_ERROR: "bold bright_red",
    ReadingClass.LOAN: "bold blue",
    ReadingClass.NOTATION: "magenta",
    ReadingClass.PLACEHOLDER: "bright_black",
    ReadingClass.ORTHOGRAPHIC: "cyan",
    ReadingClass.NOT_EXTANT: "dim",
}
# One character per class, the word a 校勘記 uses for it, after each reading: the class without
# colour (piped, NO_COLOR, a colour-blind reader). Every class has one, the commonest too, so a
# bracket without a mark is never read as one class or another, and grep finds each by its mark.
CLASS_MARK: dict[ReadingClass, str] = {
    ReadingClass.SUBSTANTIVE: "文",  # 異文: other words
    ReadingClass.TRANSPOSITION: "倒",  # 倒文: the same words in another order
    ReadingClass.OMISSION: "脫",  # 脫文: the witness lacks the base's text
    ReadingClass.ADDITION: "衍",  # 衍文: the witness has text the base lacks
    ReadingClass.SCRIBAL_ERROR: "訛",  # 訛字: a copyist's error (an editor's reclassification)
    ReadingClass.LOAN: "借",  # 假借/通假
    ReadingClass.NOTATION: "譜",  # a score's signs (○□) read otherwise
    ReadingClass.PLACEHOLDER: "闕",  # 闕字: a placeholder (□, ?) where a glyph was not transcribed
    ReadingClass.ORTHOGRAPHIC: "異",  # 異體: another graph of the same character
    ReadingClass.NOT_EXTANT: "無",  # the witness does not contain this place at all
}
EMPTY = "∅"  # an empty reading: the witness lacks the text (or the base does, at an addition)
CUT = "⋯"  # where an excerpt cuts the base's paragraph (not "…", which rich uses for text it cut)
CONTEXT = 10  # characters of the base either side of a locus, by default, in an excerpt


@dataclass(frozen=True, slots=True)
class DiffFilter:
    """Which readings to show: of these witnesses, classes and layers (empty: all).

    Readings of witnesses not extant at a place are not variants: they are shown only
    when ``not_extant`` is asked for by class.
    """

    sigla: tuple[str, ...] = ()
    classes: tuple[ReadingClass, ...] = ()
    layers: tuple[Layer, ...] = ()
    causes: tuple[str, ...] = ()  # e.g. look-alike (形近), habit: only readings of these causes

    def readings(self, locus: Locus) -> tuple[Reading, ...]:
        """The readings of ``locus`` this filter shows (each limited to the witnesses asked for).

        Where the base is not extant (text beyond a fragmentary base, a passage a quoting base
        skips) there is no variant to show, unless ``not_extant`` is asked for.
        """
        base_absent = locus.cls is ReadingClass.NOT_EXTANT
        if base_absent and ReadingClass.NOT_EXTANT not in self.classes:
            return ()
        out = []
        for r in locus.readings:
            if self.classes and r.cls not in self.classes and not base_absent:
                continue
            if not self.classes and r.cls is ReadingClass.NOT_EXTANT:
                continue
            if self.causes and (r.cause or "") not in self.causes:
                continue
            if self.sigla:
                ws = tuple(w for w in r.witnesses if w.siglum in self.sigla)
                if not ws:
                    continue
                r = Reading(r.norm, r.cls, ws, r.cause, r.rules, r.source, r.derived)
            out.append(r)
        return tuple(out)

    def shows_layer(self, layer: Layer) -> bool:
        """True if the layer is asked for."""
        return not self.layers or layer in self.layers

    @property
    def narrows(self) -> bool:
        """True if it asks for some witnesses, classes, layers or causes: then only their loci are of interest."""
        return bool(self.sigla or self.classes or self.layers or self.causes)


def cite(loc: SourceLocation | None) -> str:
    """A place as editors cite it: printed page and line (``3b.1``) if known, else the file's ``line:col``."""
    if loc is None:
        return "-"
    if loc.page is not None:
        # A page's name is the file's own (a Mandoku <pb:…> marker): shown inert.
        return inert(f"{loc.page}" + (f".{loc.page_line}" if loc.page_line else ""), keep="")
    return f"{loc.line}:{loc.column}"


def shown_reading(text: str, addition: bool) -> str:
    """A reading as the views write it: ``+算`` at an addition, ``∅`` for an empty one (inert)."""
    return inert(f"+{text}" if addition and text else (text or EMPTY))


def reading_text(reading: Reading, addition: bool, *, mark: bool = True) -> Text:
    """``ZS 盤 異`` / ``DD +算 衍`` / ``ZS ∅ 脫``: the witnesses, the reading in its class's colour,
    and the class's mark (unless ``mark`` is False: a table gives the class a column of its own)."""
    style = CLASS_STYLE.get(reading.cls, "")
    out = Text.assemble((inert(" ".join(reading.sigla)), "bold"), " ", (shown_reading(reading.text, addition), style))
    if mark:
        out.append(f" {CLASS_MARK[reading.cls]}", style=style)
    return out


def decision_mark(locus: Locus) -> Text:
    """What the editor decided, after the brackets: ✓ kept, →DD adopted, ✎ reclassified, 存疑 doubtful."""
    d = locus.decision
    out = Text()
    if d is None:
        return out
    if d.adopted is not None and d.siglum:
        out.append(f"→{inert(d.siglum, keep='')}", style="bold green")
    elif DecisionAction.KEEP in d.actions:
        out.append("✓", style="bold green")
    if d.reclassified:
        out.append("✎", style="bold green")
    if d.doubtful:
        out.append("存疑", style="bold yellow")
    return out


def annotation(locus: Locus, readings: tuple[Reading, ...]) -> Text:
    """The bracket after a locus: every reading shown, separated by ；, and the decision."""
    addition = locus.base_start == locus.base_end
    out = Text("〔", style="dim")
    for k, r in enumerate(readings):
        if k:
            out.append("；", style="dim")
        out.append_text(reading_text(r, addition))
    out.append("〕", style="dim")
    out.append_text(decision_mark(locus))
    return out


def _strongest(readings: tuple[Reading, ...]) -> ReadingClass:
    return max((r.cls for r in readings), key=lambda c: c.rank)


Shown = tuple[Locus, tuple[Reading, ...]]  # a locus and the readings the filter shows of it


def shown_loci(result: LayerResult, view: DiffFilter) -> dict[int, list[Shown]]:
    """The loci the filter shows, by the base token they start at (the filter asked once each).

    Insertions come before the text they precede.
    """
    starts: dict[int, list[Shown]] = {}
    for locus in result.loci:
        readings = view.readings(locus)
        if readings:
            starts.setdefault(locus.base_start, []).append((locus, readings))
    for group in starts.values():
        group.sort(key=lambda x: x[0].base_end - x[0].base_start)
    return starts


class _Writer:
    """Writes base tokens and loci into one ``Text``, marking where a printed page of the base begins."""

    def __init__(self, tokens: Sequence[Token], base: Witness | None, page: str | None = None) -> None:
        self.out = Text()
        self.tokens = tokens
        self.base = base
        self.page = page
        self.covered_to = -1  # base tokens before this index are already written (inside a locus)
        self.shown = 0

    def mark_page(self, offset: int) -> None:
        if self.base is None:
            return
        here, _ = self.base.page_at(offset)
        if here is not None and here != self.page:
            self.page = here
            self.out.append(inert(f"{{{here}}}", keep=""), style="dim blue")

    def locus(self, locus: Locus, readings: tuple[Reading, ...]) -> None:
        style = f"{CLASS_STYLE[_strongest(readings)]} underline"
        for tok in self.tokens[max(locus.base_start, self.covered_to, 0) : locus.base_end]:
            self.mark_page(tok.start)
            self.out.append(inert(tok.before))
            self.out.append(inert(tok.t), style=style)
            self.out.append(inert(tok.after))
        self.covered_to = max(self.covered_to, locus.base_end)
        self.out.append_text(annotation(locus, readings))
        self.shown += 1

    def token(self, tok: Token, loci: Sequence[Shown]) -> None:
        """The loci that start at ``tok``, then the token itself unless a locus wrote it."""
        if tok.index >= self.covered_to:
            self.mark_page(tok.start)  # before an insertion here: it belongs to this token's page
        for locus, readings in loci:
            self.locus(locus, readings)
        if tok.index < self.covered_to:
            return
        self.mark_page(tok.start)
        self.out.append(inert(tok.before + tok.t + tok.after))


def _base_tokens(result: LayerResult) -> list[Token]:
    # A token's index is its place in the layer's stream: the list is indexed by it.
    return sorted(result.alignment.base.tokens, key=lambda t: t.index)


def layer_text(result: LayerResult, view: DiffFilter, base: Witness | None = None) -> tuple[Text, int]:
    """The base text of one layer with the loci the filter shows inline; and how many it shows.

    Paragraphs follow the base's logical units (one 經 passage, one 注 run); a page mark
    ``{3a}`` stands where a printed page of the base begins, if ``base`` is given.
    """
    tokens = _base_tokens(result)
    starts = shown_loci(result, view)
    writer = _Writer(tokens, base)
    unit: int | None = None
    for tok in tokens:
        if unit is not None and tok.unit != unit:
            writer.out.append("\n")
        unit = tok.unit
        writer.token(tok, starts.get(tok.index, ()))
    for locus, readings in starts.get(len(tokens), ()):  # text the base lacks after its last token
        writer.locus(locus, readings)
    return writer.out, writer.shown


@dataclass(frozen=True, slots=True)
class Window:
    """A stretch of the base, tokens [start, end), within one paragraph [unit_start, unit_end)."""

    start: int
    end: int
    unit_start: int
    unit_end: int
    first: Locus  # the first locus shown in it: the excerpt is cited by its place


def _paragraphs(tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """For each token, the range of the paragraph (run of one unit) it stands in."""
    bounds: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(tokens) + 1):
        if i == len(tokens) or tokens[i].unit != tokens[start].unit:
            bounds.extend([(start, i)] * (i - start))
            start = i
    return bounds


def windows(tokens: Sequence[Token], loci: Sequence[Locus], context: int) -> list[Window]:
    """The stretches of the base around ``loci`` (in base order): ``context`` tokens either side,
    cut at the paragraph's ends; stretches that meet or overlap in one paragraph are one."""
    bounds = _paragraphs(tokens)
    out: list[Window] = []
    for locus in loci:
        if not tokens:
            out.append(Window(0, 0, 0, 0, locus))
            continue
        # Text the base lacks goes with the token it precedes (after its last: with the last).
        lo, hi = bounds[min(locus.base_start, len(tokens) - 1)]
        start = max(lo, locus.base_start - context)
        end = max(min(hi, locus.base_end + context), locus.base_end)
        last = out[-1] if out else None
        if last is not None and (last.unit_start, last.unit_end) == (lo, hi) and start <= last.end:
            out[-1] = Window(last.start, max(last.end, end), lo, hi, last.first)
        else:
            out.append(Window(start, end, lo, hi, locus))
    return out


def excerpts(
    result: LayerResult, view: DiffFilter, base: Witness | None = None, context: int = CONTEXT
) -> tuple[Text, int]:
    """Only the loci the filter shows, a line each with ``context`` characters of the base around
    it (``⋯`` where the paragraph goes on), cited by the base's page and line; and how many.

    Loci closer than that share a line, as grep joins the context of neighbouring matches.
    """
    tokens = _base_tokens(result)
    starts = shown_loci(result, view)
    shown = [locus for index in sorted(starts) for locus, _ in starts[index]]
    out = Text()
    count = 0
    for k, window in enumerate(windows(tokens, shown, context)):
        if k:
            out.append("\n")
        out.append(cite(window.first.lemma.location), style="dim blue")
        out.append("  ")
        if window.start > window.unit_start:
            out.append(CUT, style="dim")
        first = tokens[window.start] if window.start < len(tokens) else None
        # The line is cited by its place: a page mark only where a page begins inside it.
        page = base.page_at(first.start)[0] if base is not None and first is not None else None
        writer = _Writer(tokens, base, page)
        for tok in tokens[window.start : window.end]:
            writer.token(tok, starts.get(tok.index, ()))
        if window.end == len(tokens):
            for locus, readings in starts.get(len(tokens), ()):
                writer.locus(locus, readings)
        out.append_text(writer.out)
        if window.end < window.unit_end:
            out.append(CUT, style="dim")
        count += writer.shown
    return out, count


def legend(classes: Collection[ReadingClass], *, cut: bool = False) -> Text:
    """What the marks mean: each class's mark and name in its colour, then the other signs."""
    out = Text("marks: ", style="dim")
    for k, cls in enumerate(classes):
        if k:
            out.append(" · ", style="dim")
        out.append(f"{CLASS_MARK[cls]} {cls.value.replace('_', ' ')}", style=CLASS_STYLE[cls])
    out.append(f"\n{EMPTY} lacks · +x has in addition · {{3a}} page of the base", style="dim")
    if cut:
        out.append(f" · 3a.5 page and line of the base · {CUT} the paragraph goes on", style="dim")
    out.append(" · decisions: ✓ kept, →X adopted, ✎ reclassified, 存疑 doubtful", style="dim")
    return out


def _layers(collation: Collation, view: DiffFilter) -> Iterator[LayerResult]:
    return (r for r in collation.layers if view.shows_layer(r.layer))


def diff_view(
    collation: Collation,
    view: DiffFilter,
    witnesses: Mapping[str, Witness] | None = None,
    context: int | None = None,
) -> Group:
    """The collation layer by layer: the whole base text with variants inline, or (given
    ``context``) only the loci the filter shows, each with that many characters around it."""
    base = (witnesses or {}).get(collation.base)
    classes = view.classes or [c for c in ReadingClass if c is not ReadingClass.NOT_EXTANT]
    parts: list[RenderableType] = [
        Text.assemble((inert(collation.title), "bold"), inert(f"  base {collation.base}")),
        legend([c for c in ReadingClass if c in classes], cut=context is not None),
    ]
    for result in _layers(collation, view):
        text, shown = layer_text(result, view, base) if context is None else excerpts(result, view, base, context)
        heading = f"{result.layer.chinese} {result.layer.value}: {shown} of {len(result.loci)} loci shown"
        parts += [Text(""), Text(heading, style="bold underline")]
        if text:  # a layer with nothing to show is its heading alone
            parts.append(text)
    return Group(*parts)


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
    for result in _layers(collation, view):
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
