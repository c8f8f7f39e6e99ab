"""The run summary of ``collate run``: per layer and witness, its extent and its variants by class."""

from __future__ import annotations

from collections import Counter

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from collate.apparatus import Collation, LayerResult, ReadingClass
from collate.model.citation import SUMMARY
from collate.model.inert import inert


def class_counts(result: LayerResult, siglum: str) -> Counter[ReadingClass]:
    """A witness's readings by class. The base has none: its text is the lemma of every locus."""
    counts: Counter[ReadingClass] = Counter()
    for locus in result.loci:
        reading = locus.reading_of(siglum)
        if reading is not None:
            counts[reading.cls] += 1
    return counts


def locus_counts(result: LayerResult) -> Counter[ReadingClass]:
    """The layer's loci by class (a locus's class is the strongest of its readings): its totals."""
    return Counter(x.cls for x in result.loci)


def by_class(found: Counter[ReadingClass], lead: str = "") -> Text:
    """``subst 7  omit 2`` / ``add 7  orth 1``: the counts two a line, in the classes' order."""
    cells = Text(lead)
    present = [cls for cls in ReadingClass if found[cls]]
    for i, cls in enumerate(present):
        if i or lead:
            # Two items a line keep the column narrow; the line ends are also where it may wrap.
            cells.append("\n" if i % 2 == 0 else "  ")
        cells.append(f"{cls.short} {found[cls]}", style=_STYLE.get(cls, ""))
    return cells or Text("·", style="dim")


def summary_table(collation: Collation) -> Table:
    """One row per layer and witness: where it is extant, how many characters, its readings by
    class; then the layer's totals, in a row of their own.

    The counts go in one cell (``subst 7  omit 2``) so the table fits an 80-column terminal; every
    column folds rather than cuts, so nothing is lost on a narrower one.
    """
    labels = {w.siglum: w.label for w in collation.witnesses}
    table = Table(title=Text(inert(f"{collation.title}: variant loci by class")), show_lines=False)
    for head in ("layer", "witness", "extant from – to", "chars", "variant loci"):
        table.add_column(head, justify="right" if head == "chars" else "left", overflow="fold")
    for result in collation.layers:
        for k, siglum in enumerate(result.sigla):
            cov = result.coverage_of(siglum)
            if siglum in result.sparse:
                placed = sum(1 for p in result.placements if p.siglum == siglum)
                extent, chars = Text(f"sparse: {placed} placed", style="italic"), "-"
            elif cov is None or cov.first is None:
                extent, chars = Text("not extant", style="dim"), "0"
            else:
                # A line each, so neither place is broken inside (``p. 17b`` / ``l. 6``).
                extent, chars = Text(f"{SUMMARY.cite(cov.first)} –\n{SUMMARY.cite(cov.last)}"), str(cov.tokens)
            name = Text(inert(siglum), style="bold")
            if siglum == collation.base:
                name.append(" (base)")
            name.append(" " + inert(labels.get(siglum, "")))
            # The base reads no variants: its text is every locus's lemma (the totals are below).
            found = Text("lemma", style="dim") if siglum == collation.base else by_class(class_counts(result, siglum))
            table.add_row(Text(result.layer.chinese) if k == 0 else Text(""), name, extent, chars, found)
        total = len(result.loci)
        table.add_row(
            Text(""),
            Text("all loci", style="bold"),
            Text(""),
            "",
            by_class(locus_counts(result), f"{total} {'locus' if total == 1 else 'loci'}:" if total else ""),
            style="bold",
            end_section=True,
        )
    # The columns' heads are cut short (ReadingClass.short), so the table fits an 80-column terminal.
    table.caption = "  ".join(f"{c.short} = {c.value.replace('_', ' ')}" for c in ReadingClass)
    return table


_STYLE: dict[ReadingClass, str] = {
    ReadingClass.SUBSTANTIVE: "bold red",
    ReadingClass.OMISSION: "yellow",
    ReadingClass.ADDITION: "green",
    ReadingClass.TRANSPOSITION: "magenta",
    ReadingClass.ORTHOGRAPHIC: "cyan",
    ReadingClass.NOT_EXTANT: "dim",
}


def summary_view(collation: Collation) -> Group:
    """The table, then a line per layer on what was folded or could not be placed."""
    lines: list[Text] = []
    for result in collation.layers:
        n = result.script_differences
        if n:
            what = "1 column differs" if n == 1 else f"{n} columns differ"
            lines.append(
                Text(
                    f"{result.layer.chinese}: {what} only by script (simplified/traditional); not variants, not listed",
                    style="dim",
                )
            )
    # A layer's diagnostics are usually also the collation's: show each once.
    found = dict.fromkeys([*collation.diagnostics, *(d for r in collation.layers for d in r.diagnostics)])
    for d in found:
        where = str(d.location) if d.location else d.siglum
        lines.append(Text(inert(f"{where}: {d.diagnostic.message} [{d.diagnostic.code}]"), style="yellow"))
    return Group(summary_table(collation), *lines)


def print_summary(console: Console, collation: Collation) -> None:
    """Print the run summary."""
    console.print(summary_view(collation))
