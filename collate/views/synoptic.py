"""``collate diff --synoptic``: the loci as a table, a row a locus and a column a witness.

The base's column holds the lemma; every other witness's cell holds what it has there in its
own characters, with its class's mark, or 「同」 (dim) where it agrees with the base, 不存 where
it is not extant, nothing where a sparse witness (a readings file) is silent. The loci are those
the filter shows (orthographic ones folded into a count by default, as inline); a table a layer,
as wide as the terminal (rich folds a cell's text rather than cutting it), as wide as its rows
need when piped.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from collate.apparatus import Collation, LayerResult, Locus, ReadingClass
from collate.model.inert import inert
from collate.views.diff import fold_line, legend
from collate.views.variants import (
    CLASS_MARK,
    CLASS_STYLE,
    DiffFilter,
    cite,
    decision_mark,
    shown_layers,
    shown_reading,
)

SAME = "同"  # a witness that agrees with the base here
ABSENT = "不存"  # a witness not extant here (a fragment, a quotation)


def synoptic_view(collation: Collation, view: DiffFilter) -> Group:
    """The collation as tables, one a layer: a row for each locus the filter shows, a column for
    the base and one for each witness (those of ``view.sigla`` alone, if it names some)."""
    classes = view.classes or [c for c in ReadingClass if c is not ReadingClass.NOT_EXTANT]
    labels = {w.siglum: w.label for w in collation.witnesses}
    sigla = Text(" · ", style="dim").join(
        Text.assemble((inert(s, keep=""), "bold"), " ", inert(label, keep="")) for s, label in labels.items()
    )
    parts: list[RenderableType] = [
        Text.assemble((inert(collation.title), "bold"), inert(f"  base {collation.base}")),
        legend([c for c in ReadingClass if c in classes]),
        sigla,
    ]
    folded = 0
    for result in shown_layers(collation, view):
        table, shown = layer_table(result, view)
        here = sum(1 for locus in result.loci if view.folded(locus))
        heading = f"{result.layer.label}: {shown} of {len(result.loci)} loci shown"
        heading += f"（另有異體 {here} 處）" if here else ""
        parts += [Text(""), Text(heading, style="bold underline")]
        if shown:
            parts.append(table)
        folded += here
    if folded:
        parts += [Text(""), fold_line(folded)]
    return Group(*parts)


def layer_table(result: LayerResult, view: DiffFilter) -> tuple[Table, int]:
    """One layer's table, and how many loci (rows) it shows."""
    base = result.alignment.sigla[0]
    columns = [base, *(s for s in result.sigla[1:] if not view.sigla or s in view.sigla)]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, padding=(0, 1), collapse_padding=True)
    # The place whole (it is how the row is cited); a reading with its mark where there is room for both.
    table.add_column("place", style="dim blue", no_wrap=True)
    for siglum in columns:
        table.add_column(Text(inert(siglum, keep=""), style="bold"), overflow="fold", min_width=4)
    rows = 0
    for locus in result.loci:
        readings = view.readings(locus)
        if not readings:
            continue
        shown = {w.siglum for r in readings for w in r.witnesses}
        table.add_row(Text(cite(locus.lemma.location)), *(_cell(locus, s, s == base, shown) for s in columns))
        rows += 1
    return table, rows


def _cell(locus: Locus, siglum: str, base: bool, shown: set[str]) -> Text:
    """What ``siglum`` has at ``locus``: the lemma in the base's column, else its reading."""
    addition = locus.base_start == locus.base_end
    if base:
        style = f"{CLASS_STYLE[locus.cls]} underline" if locus.cls in CLASS_STYLE else ""
        return Text.assemble((shown_reading(locus.lemma.text, False), style), decision_mark(locus))
    reading = locus.reading_of(siglum)
    if reading is None:
        # A sparse witness is silent where it reports nothing: neither agreement nor omission.
        return Text(SAME if siglum in locus.lemma_witnesses else "", style="dim")
    if reading.cls is ReadingClass.NOT_EXTANT:
        return Text(ABSENT, style="dim")
    own = next(w.text for w in reading.witnesses if w.siglum == siglum)
    text = shown_reading(own, addition)
    if siglum not in shown:
        # A reading the filter leaves out (another class than asked for): there, but quiet.
        return Text(text, style="dim")
    style = CLASS_STYLE[reading.cls]
    return Text.assemble((text, style), " ", (CLASS_MARK[reading.cls], style))
