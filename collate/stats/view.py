"""The statistics in the terminal: agreement tables per layer, counts by class and cause, the places
where a witness stands alone, and the tree.

A cell of an agreement table is the rate and the places it is over (``60% 12/20``); over fewer than
:data:`~collate.stats.records.MIN_PLACES` places it is no rate but how few they are (``too few: 3``),
and where the two are compared with no third witness, how often (``only the two: 79``). Every
string from the data is passed through :func:`~collate.model.inert.inert` and given as
:class:`~rich.text.Text`, never as markup.
"""

from __future__ import annotations

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text
from rich.tree import Tree as RichTree

from collate.model import ReadingClass
from collate.model.inert import inert
from collate.stats.records import ALL_LAYERS, MIN_PLACES, Agreement, Node, Stats, by_pair, pair_key

# How many places where a witness stands alone are listed (``--json`` has them all).
ALONE_SHOWN = 20


def _t(text: str, style: str = "") -> Text:
    return Text(inert(text, keep=""), style=style)


def percent(rate: float | None) -> str:
    """A rate as the tables show it: ``87%``, or ``–`` where there is none."""
    return "–" if rate is None else f"{100 * rate:.0f}%"


def unmeasured(x: Agreement) -> tuple[str, str] | None:
    """Why a pair has no rate to show: a short label and a sentence; None if its rate is over enough places."""
    if x.measured:
        return None
    alone = (
        f" At {x.only_two} more they are the only two compared, and differ there by construction." if x.only_two else ""
    )
    if not x.compared:
        return "only the two", f"{x.a} and {x.b} are never compared beside a third witness.{alone}"
    return (
        "too few",
        f"{x.a} and {x.b} are compared beside a third witness at {x.compared} places only (fewer than "
        f"{MIN_PLACES}): they agree at {x.agreed}, too few for a rate to mean anything.{alone}",
    )


def _style(rate: float | None) -> str:
    if rate is None:
        return "dim"
    return "green" if rate >= 0.8 else "yellow" if rate >= 0.5 else "red"


def agreement_table(stats: Stats, layer: str) -> Table | None:
    """The table of every pair compared in ``layer``: rate and places; None if no pair is."""
    index = by_pair(stats)
    pairs = [x for x in stats.agreements if x.layer == layer]
    if not pairs:
        return None
    sigla = [s for s in stats.labels if any(s in (x.a, x.b) for x in pairs)]
    title = "all layers" if layer == ALL_LAYERS else layer
    table = Table(
        title=f"agreement at places of substance: {title} ({stats.places.get(layer, 0)} places)",
        caption=f"rate over the places where a third witness is compared too; no rate over fewer than {MIN_PLACES}",
    )
    table.add_column("")
    for s in sigla:
        table.add_column(_t(s), justify="right")
    for a in sigla:
        cells: list[RenderableType] = [_t(f"{a} {stats.labels[a]}")]
        for b in sigla:
            x = index.get(pair_key(a, b, layer)) if a != b else None
            if a == b:
                cells.append(Text("·", style="dim"))
            elif x is None:
                cells.append(Text("", style="dim"))
            elif (short := unmeasured(x)) is not None:
                cells.append(Text(f"{short[0]}: {x.compared or x.only_two}", style="dim italic"))
            else:
                cells.append(Text(f"{percent(x.rate)} {x.agreed}/{x.compared}", style=_style(x.rate)))
        table.add_row(*cells)
    return table


def counts_table(stats: Stats) -> Table:
    """Each witness's readings by class and cause, per layer, and its places alone."""
    classes = [c.value for c in ReadingClass if any(c.value in w.classes for w in stats.counts)]
    table = Table(title="readings by class and cause")
    for header in ("witness", "layer", *classes, "causes", "alone"):
        table.add_column(header, justify="left" if header in ("witness", "layer", "causes") else "right")
    for w in stats.counts:
        causes = ", ".join(f"{k} {v}" for k, v in sorted(w.causes.items()))
        table.add_row(
            _t(w.siglum),
            _t(w.layer),
            *(str(w.classes.get(c, "")) for c in classes),
            _t(causes),
            str(w.alone or ""),
        )
    return table


def _branch(node: Node, length: float | None, into: RichTree) -> None:
    shown = f" {length:.3f}" if length is not None else ""
    if node.name is not None:
        into.add(_t(f"{node.name}{shown}"))
        return
    inner = into.add(Text(f"┐{shown}", style="dim"))
    for child, child_length in node.children:
        _branch(child, child_length, inner)


def tree_view(stats: Stats) -> RenderableType:
    """The witnesses the tree leaves out and why, then the tree (branch lengths 1 - agreement) and its Newick."""
    left_out = [_t(f"left out of the tree: {x.siglum}: {x.why}", "yellow") for x in stats.left_out]
    tree = stats.tree
    if tree is None:
        return Group(*left_out, Text("no tree: fewer than two witnesses are left to compare", style="dim"))
    top = RichTree(Text("witness tree (neighbour joining, unrooted; drawn from its last join)"))
    for child, length in tree.root.children:
        _branch(child, length, top)
    return Group(*left_out, top, _t(tree.newick))


def print_stats(console: Console, stats: Stats) -> None:
    """Everything ``collate stats`` shows in the terminal."""
    places = " · ".join(
        f"{layer} {stats.places.get(layer, 0)} ({stats.reviewed.get(layer, 0)} reviewed)"
        for layer in (*stats.layers, ALL_LAYERS)
    )
    console.print(_t(f"{len(stats.runs)} collation{'' if len(stats.runs) == 1 else 's'}: {', '.join(stats.runs)}"))
    console.print(_t(f"places of substance: {places}"))
    for layer in (ALL_LAYERS, *stats.layers):
        table = agreement_table(stats, layer)
        if table is not None:
            console.print(table)
    console.print(counts_table(stats))
    if stats.alone:
        console.print(Text("places where a witness stands alone", style="bold"))
        for a in stats.alone[:ALONE_SHOWN]:
            # The base alone: its own text against every other reading.
            reading = (
                f"{a.lemma or '∅'} (the base, against all)"
                if a.cls == "lemma"
                else f"{a.lemma or '∅'} → {a.text or '∅'}"
            )
            console.print(_t(f"{a.siglum}  {a.run} {a.locus}  {reading}  {a.ref or ''}"))
        if len(stats.alone) > ALONE_SHOWN:
            console.print(_t(f"… and {len(stats.alone) - ALONE_SHOWN} more (--json lists them all)", "dim"))
    console.print(tree_view(stats))
    for note in stats.notes:
        console.print(_t(f"note: {note}", "yellow"))


__all__ = ["agreement_table", "counts_table", "percent", "print_stats", "tree_view", "unmeasured"]
