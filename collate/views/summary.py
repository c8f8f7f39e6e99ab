"""The run summary of ``collate run``: per layer and witness, its extent and its variants by class."""

from __future__ import annotations

from collections import Counter

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from collate.apparatus import Collation, LayerResult, ReadingClass
from collate.model import SourceLocation

# The classes shown as columns, in the order an editor reads them; the others only if present.
SHOWN = (
    ReadingClass.SUBSTANTIVE,
    ReadingClass.TRANSPOSITION,
    ReadingClass.OMISSION,
    ReadingClass.ADDITION,
    ReadingClass.PLACEHOLDER,
    ReadingClass.ORTHOGRAPHIC,
    ReadingClass.NOT_EXTANT,
)


def place(loc: SourceLocation | None) -> str:
    """A place as editors cite it: the printed page and line if known, else the file's line."""
    if loc is None:
        return "-"
    if loc.page is not None:
        return f"p. {loc.page}" + (f" l. {loc.page_line}" if loc.page_line else f" ({loc.line}:{loc.column})")
    return f"{loc.line}:{loc.column}"


def class_counts(result: LayerResult, siglum: str) -> Counter[ReadingClass]:
    """Loci by class for one witness: the loci's classes for the base, its readings' for the others."""
    if siglum == result.alignment.sigla[0]:
        return Counter(x.cls for x in result.loci)
    counts: Counter[ReadingClass] = Counter()
    for locus in result.loci:
        reading = locus.reading_of(siglum)
        if reading is not None:
            counts[reading.cls] += 1
    return counts


def summary_table(collation: Collation) -> Table:
    """One row per layer and witness: where it is extant, how many characters, its loci by class."""
    counts = {(r.layer, s): class_counts(r, s) for r in collation.layers for s in r.sigla}
    extra = [c for c in ReadingClass if c not in SHOWN and any(n[c] for n in counts.values())]
    classes = [*SHOWN, *extra]
    table = Table(title=Text(f"{collation.title}: variant loci by class"), show_lines=False)
    for name in ("layer", "siglum", "label", "extant from", "to", "chars"):
        table.add_column(name, justify="right" if name == "chars" else "left", no_wrap=True)
    for cls in classes:
        table.add_column(cls.value.replace("_", " "), justify="right")
    labels = {w.siglum: w.label for w in collation.witnesses}
    for result in collation.layers:
        for k, siglum in enumerate(result.sigla):
            cov = result.coverage_of(siglum)
            if siglum in result.sparse:
                placed = sum(1 for p in result.placements if p.siglum == siglum)
                extent = [Text("sparse", style="italic"), Text(f"{placed} placed"), Text("-")]
            elif cov is None or cov.first is None:
                extent = [Text("not extant", style="dim"), Text("-"), Text("0")]
            else:
                extent = [Text(place(cov.first)), Text(place(cov.last)), Text(str(cov.tokens))]
            name = siglum + (" (base)" if siglum == collation.base else "")
            cells = [
                Text(str(counts[result.layer, siglum][c]) if counts[result.layer, siglum][c] else "·") for c in classes
            ]
            table.add_row(
                Text(f"{result.layer.chinese} {result.layer.value}") if k == 0 else Text(""),
                Text(name, style="bold"),
                Text(labels.get(siglum, "")),
                *extent,
                *cells,
                end_section=k == len(result.sigla) - 1,
            )
    return table


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
        lines.append(Text(f"{where}: {d.diagnostic.message} [{d.diagnostic.code}]", style="yellow"))
    return Group(summary_table(collation), *lines)


def print_summary(console: Console, collation: Collation) -> None:
    """Print the run summary."""
    console.print(summary_view(collation))
