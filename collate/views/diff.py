"""``collate diff``: the base text with its variant loci inline, layer by layer.

Each locus shows the base's text in the colour of its class followed by the other
witnesses' readings in tortoise-shell brackets: ``哨〔DD 峭〕``, ``〔DD +奏投壺之令〕`` for
text the base lacks, ``〔ZS ∅〕`` for text a witness lacks. Printed pages of the base are
marked where they begin (``{3a}``), so every place can be cited. ``--list`` gives one row
per locus instead, with the page and line of each reading. Widths are rich's cell widths,
so CJK columns line up; witness text is always wrapped in ``Text`` (never markup), its
control characters escaped (:func:`~collate.views.inert.inert`).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass
from collate.model import Layer, SourceLocation, Witness
from collate.review.records import DecisionAction
from collate.views.inert import inert

# One colour per reading class (the review app uses the same, so an editor learns them once).
CLASS_STYLE: dict[ReadingClass, str] = {
    ReadingClass.SUBSTANTIVE: "bold red",
    ReadingClass.TRANSPOSITION: "bold magenta",
    ReadingClass.OMISSION: "bold yellow",
    ReadingClass.ADDITION: "bold green",
    ReadingClass.SCRIBAL_ERROR: "bold bright_red",
    ReadingClass.LOAN: "bold blue",
    ReadingClass.PLACEHOLDER: "bright_black",
    ReadingClass.ORTHOGRAPHIC: "cyan",
    ReadingClass.NOT_EXTANT: "dim",
}
EMPTY = "∅"  # an empty reading: the witness lacks the text (or the base does, at an addition)


@dataclass(frozen=True, slots=True)
class DiffFilter:
    """Which readings to show: of these witnesses, classes and layers (empty: all).

    Readings of witnesses not extant at a place are not variants: they are shown only
    when ``not_extant`` is asked for by class.
    """

    sigla: tuple[str, ...] = ()
    classes: tuple[ReadingClass, ...] = ()
    layers: tuple[Layer, ...] = ()

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


def cite(loc: SourceLocation | None) -> str:
    """A place as editors cite it: printed page and line (``3b.1``) if known, else the file's ``line:col``."""
    if loc is None:
        return "-"
    if loc.page is not None:
        # A page's name is the file's own (a Mandoku <pb:…> marker): shown inert.
        return inert(f"{loc.page}" + (f".{loc.page_line}" if loc.page_line else ""), keep="")
    return f"{loc.line}:{loc.column}"


def reading_text(reading: Reading, addition: bool) -> Text:
    """``ZS 盤`` / ``DD +算`` / ``ZS ∅``: the witnesses, then the reading in its class's colour."""
    style = CLASS_STYLE.get(reading.cls, "")
    text = reading.text
    shown = inert(f"+{text}" if addition and text else (text or EMPTY))
    return Text.assemble((inert(" ".join(reading.sigla)), "bold"), " ", (shown, style))


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


def layer_text(result: LayerResult, view: DiffFilter, base: Witness | None = None) -> tuple[Text, int]:
    """The base text of one layer with the loci the filter shows inline; and how many it shows.

    Paragraphs follow the base's logical units (one 經 passage, one 注 run); a page mark
    ``{3a}`` stands where a printed page of the base begins, if ``base`` is given.
    """
    tokens = sorted(result.alignment.base.tokens, key=lambda t: t.index)
    by_index = {t.index: t for t in tokens}
    starts: dict[int, list[Locus]] = {}
    for locus in result.loci:
        starts.setdefault(locus.base_start, []).append(locus)
    for group in starts.values():
        group.sort(key=lambda x: x.base_end - x.base_start)  # insertions before the text they precede
    out = Text()
    shown = 0
    page: str | None = None
    unit: int | None = None
    covered_to = -1  # base tokens before this index are already written (inside a locus)

    def mark_page(offset: int) -> None:
        nonlocal page
        if base is None:
            return
        here, _ = base.page_at(offset)
        if here is not None and here != page:
            page = here
            out.append(inert(f"{{{here}}}", keep=""), style="dim blue")

    def write_locus(locus: Locus, readings: tuple[Reading, ...]) -> None:
        nonlocal covered_to, shown
        lemma = [by_index[i] for i in range(max(locus.base_start, covered_to), locus.base_end) if i in by_index]
        for tok in lemma:
            mark_page(tok.start)
            out.append(inert(tok.before))
            out.append(inert(tok.t), style=f"{CLASS_STYLE[_strongest(readings)]} underline")
            out.append(inert(tok.after))
        covered_to = max(covered_to, locus.base_end)
        out.append_text(annotation(locus, readings))
        shown += 1

    for tok in tokens:
        if unit is not None and tok.unit != unit:
            out.append("\n")
        unit = tok.unit
        if tok.index >= covered_to:
            mark_page(tok.start)  # before an insertion here: it belongs to this token's page
        for locus in starts.get(tok.index, ()):
            readings = view.readings(locus)
            if readings:
                write_locus(locus, readings)
        if tok.index < covered_to:
            continue
        mark_page(tok.start)
        out.append(inert(tok.before + tok.t + tok.after))
    # Text the base lacks after its last token.
    for locus in starts.get(len(tokens), ()):
        readings = view.readings(locus)
        if readings:
            write_locus(locus, readings)
    return out, shown


def _legend(classes: Collection[ReadingClass]) -> Text:
    out = Text("classes: ", style="dim")
    for k, cls in enumerate(classes):
        if k:
            out.append(" ")
        out.append(cls.value.replace("_", " "), style=CLASS_STYLE[cls])
    out.append(f"\n{EMPTY} lacks · +x has in addition · {{3a}} page of the base", style="dim")
    out.append(" · decisions: ✓ kept, →X adopted, ✎ reclassified, 存疑 doubtful", style="dim")
    return out


def _layers(collation: Collation, view: DiffFilter) -> Iterator[LayerResult]:
    return (r for r in collation.layers if view.shows_layer(r.layer))


def diff_view(collation: Collation, view: DiffFilter, witnesses: Mapping[str, Witness] | None = None) -> Group:
    """The whole collation as running base text with variants inline, layer by layer."""
    base = (witnesses or {}).get(collation.base)
    parts: list[RenderableType] = [
        Text.assemble((inert(collation.title), "bold"), inert(f"  base {collation.base}")),
        _legend([c for c in ReadingClass if c is not ReadingClass.NOT_EXTANT or c in view.classes]),
    ]
    for result in _layers(collation, view):
        text, shown = layer_text(result, view, base)
        heading = f"{result.layer.chinese} {result.layer.value}: {shown} of {len(result.loci)} loci shown"
        parts += [Text(""), Text(heading, style="bold underline"), text]
    return Group(*parts)


def loci_table(collation: Collation, view: DiffFilter) -> Table:
    """One row per locus shown: id, the base's page and line, lemma, readings with their places."""
    table = Table(title=Text(inert(f"{collation.title}: variant loci")), show_lines=False)
    for name in ("locus", "base place", "lemma", "readings", "places", "decision"):
        table.add_column(name, no_wrap=name in ("locus", "base place"))
    for result in _layers(collation, view):
        for locus in result.loci:
            readings = view.readings(locus)
            if not readings:
                continue
            addition = locus.base_start == locus.base_end
            lemma = Text(inert(locus.lemma.text or EMPTY), style=CLASS_STYLE[_strongest(readings)])
            listed = Text("；").join(reading_text(r, addition) for r in readings)
            places = Text("；").join(
                Text(inert(f"{w.siglum} {cite(w.location)}")) for r in readings for w in r.witnesses
            )
            table.add_row(
                Text(inert(locus.id)), Text(cite(locus.lemma.location)), lemma, listed, places, decision_mark(locus)
            )
    return table


def print_paged(console: Console, renderable: RenderableType) -> None:
    """Print through a pager on a terminal (colours kept); plain, unwrapped lines when piped."""
    if console.is_terminal:
        # less shows colours only with -R; a user's own LESS setting wins.
        os.environ.setdefault("LESS", "-R")
        with console.pager(styles=True):
            console.print(renderable)
    else:
        # Piped: a paragraph a line, so grep and diff see whole passages.
        console.print(renderable, soft_wrap=True)
