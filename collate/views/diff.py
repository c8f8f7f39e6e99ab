"""``collate diff``: the base text with its variant loci inline, layer by layer.

Each locus shows the base's text in the colour of its class followed by the other
witnesses' readings in tortoise-shell brackets, each reading with its class's mark, so the
class is read in plain text as well as in colour: ``哨〔DD 峭 文〕``, ``〔DD +奏投壺之令 衍〕``
for text the base lacks, ``〔ZS ∅ 脫〕`` for text a witness lacks, ``算〔ZS 筭 異〕`` for another
graph of the same character (:data:`~collate.views.variants.CLASS_MARK`). Printed pages of the
base are marked where they begin (``{3a}``), so every place can be cited. Asked for some classes,
layers or witnesses, the view shows only the loci they select, each with a few characters of the
base around it (:func:`excerpts`). ``--list`` gives one row per reading of each witness instead
(:mod:`collate.views.loci`); how a reading is written, and which are shown, is
:mod:`collate.views.variants`.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.text import Text

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass
from collate.model import Token, Witness
from collate.model.inert import inert
from collate.views.flow import BEFORE_TEXT, BETWEEN_READINGS, BETWEEN_SIGLA, KEEP, Flow
from collate.views.loci import (
    LIST_COLUMNS,
    LIST_HEADS,
    ListRow,
    LociTable,
    list_rows,
    loci_plain,
    loci_table,
    print_loci,
)
from collate.views.variants import (
    CLASS_MARK,
    CLASS_STYLE,
    EMPTY,
    DiffFilter,
    cite,
    decision_mark,
    reading_text,
    shown_layers,
    shown_reading,
)

CUT = "⋯"  # where an excerpt cuts the base's paragraph (not "…", which rich uses for text it cut)
CONTEXT = 10  # characters of the base either side of a locus, by default, in an excerpt


def _bracket(locus: Locus, readings: tuple[Reading, ...]) -> tuple[Text, dict[int, int]]:
    """The bracket, and where a line too narrow for it may break it: after a reading's ；, else
    after a space among its sigla (never inside the text of a reading, unless nothing else fits)."""
    addition = locus.base_start == locus.base_end
    out = Text("〔", style="dim")
    costs: dict[int, int] = {}
    for k, r in enumerate(readings):
        if k:
            out.append("；", style="dim")
            costs[len(out)] = BETWEEN_READINGS
        start = len(out)
        piece = reading_text(r, addition)
        # Sigla have no spaces: the first ones in the piece follow its sigla, the last before its text.
        spaces = [i for i, c in enumerate(piece.plain) if c == " "][: len(r.sigla)]
        for n, i in enumerate(spaces):
            costs[start + i + 1] = BEFORE_TEXT if n == len(spaces) - 1 else BETWEEN_SIGLA
        out.append_text(piece)
    out.append("〕", style="dim")
    out.append_text(decision_mark(locus))
    return out, {k: costs.get(k, KEEP) for k in range(1, len(out))}


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
        self.out = Flow()
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
            self.out.append_kept(Text(inert(f"{{{here}}}", keep=""), style="dim blue"))

    def locus(self, locus: Locus, readings: tuple[Reading, ...]) -> None:
        style = f"{CLASS_STYLE[_strongest(readings)]} underline"
        glue = 0  # the last character of the lemma goes with the bracket, onto its line
        for tok in self.tokens[max(locus.base_start, self.covered_to, 0) : locus.base_end]:
            self.mark_page(tok.start)
            self.out.append(inert(tok.before))
            self.out.append(inert(tok.t), style=style)
            self.out.append(inert(tok.after))
            glue = len(inert(tok.t)) + len(inert(tok.after))
        self.covered_to = max(self.covered_to, locus.base_end)
        text, costs = _bracket(locus, readings)
        self.out.append_kept(text, costs.items(), glue=glue)
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


def layer_text(result: LayerResult, view: DiffFilter, base: Witness | None = None) -> tuple[Flow, int]:
    """The base text of one layer with the loci the filter shows inline; and how many it shows.

    Paragraphs follow the base's logical units (one 經 passage, one 注 run); a page mark
    ``{3a}`` stands where a printed page of the base begins, if ``base`` is given. Drawn on a
    terminal, lines break before a reading's bracket rather than inside it (:mod:`collate.views.flow`).
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
) -> tuple[Flow, int]:
    """Only the loci the filter shows, a line each with ``context`` characters of the base around
    it (``⋯`` where the paragraph goes on), cited by the base's page and line; and how many.

    Loci closer than that share a line, as grep joins the context of neighbouring matches.
    """
    tokens = _base_tokens(result)
    starts = shown_loci(result, view)
    shown = [locus for index in sorted(starts) for locus, _ in starts[index]]
    out = Flow()
    count = 0
    for k, window in enumerate(windows(tokens, shown, context)):
        if k:
            out.append("\n")
        out.append_kept(Text.assemble((cite(window.first.lemma.location), "dim blue"), "  "))
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
        out.append_flow(writer.out)
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
    folded = 0
    for result in shown_layers(collation, view):
        text, shown = layer_text(result, view, base) if context is None else excerpts(result, view, base, context)
        here = sum(1 for locus in result.loci if view.folded(locus))
        heading = f"{result.layer.label}: {shown} of {len(result.loci)} loci shown"
        heading += f"（另有異體 {here} 處）" if here else ""
        parts += [Text(""), Text(heading, style="bold underline")]
        if text:  # a layer with nothing to show is its heading alone
            parts.append(text)
        folded += here
    if folded:
        parts += [Text(""), fold_line(folded)]
    return Group(*parts)


def fold_line(folded: int) -> Text:
    """What the view leaves out by default, and how to see it: ``另有異體 336 處（--class all 顯示）``."""
    return Text(f"另有異體 {folded} 處（--class all 顯示）", style="bold cyan")


# Public here wherever defined: the CLI and the review app import the marks and the --list table from the diff view.
__all__ = [
    "CLASS_MARK",
    "CLASS_STYLE",
    "CONTEXT",
    "CUT",
    "EMPTY",
    "LIST_COLUMNS",
    "LIST_HEADS",
    "DiffFilter",
    "ListRow",
    "LociTable",
    "Shown",
    "Window",
    "cite",
    "decision_mark",
    "diff_view",
    "excerpts",
    "fold_line",
    "layer_text",
    "legend",
    "list_rows",
    "loci_plain",
    "loci_table",
    "print_loci",
    "reading_text",
    "shown_loci",
    "shown_reading",
    "windows",
]
