"""Terminal views of witnesses as read: the per-witness table and ``collate inspect``."""

from __future__ import annotations

import re
from collections import Counter

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from collate.model import Layer, MarkKind, Role, Severity, Witness
from collate.model.citation import LISTING
from collate.model.inert import inert

LAYER_STYLE: dict[Layer, str] = {
    Layer.JING: "bold white",
    Layer.ZHU: "cyan",
    Layer.SHU: "green",
    Layer.SHIWEN: "magenta",
    Layer.COMMENTARY: "yellow",
    Layer.NOTE: "bold red",
    Layer.HEADING: "bold blue",
    Layer.MARKUP: "dim",
    Layer.BOILERPLATE: "dim italic",
}


def _chars(w: Witness, layer: Layer) -> int:
    """Characters of a layer: its words for a text layer, everything for markup and the like."""
    return sum(s.end - s.start for s in w.spans if s.layer is layer and (s.role is Role.TEXT or not layer.is_text))


def page_count(w: Witness) -> int:
    """How many printed pages the witness marks."""
    return sum(1 for m in w.marks if m.kind is MarkKind.PAGE)


def witnesses_table(witnesses: tuple[Witness, ...], base: str) -> Table:
    """One row per witness and layer: characters, units, pages, diagnostics.

    Sized for an 80-column terminal: the witness and its label, the layout and its container
    each take two lines (``SK (base)`` / ``四庫本``, ``siku-wltk`` / ``(paged)``), a layer's name
    breaks at its space; on a narrower one every column folds, none is cut.
    """
    table = Table(title="Witnesses as read", show_lines=False)
    for col in ("witness", "layout", "layer", "chars", "units", "pages", "diagnostics"):
        numeric = col in ("chars", "units", "pages", "diagnostics")
        table.add_column(col, justify="right" if numeric else "left", overflow="fold")
    for w in witnesses:
        first = True
        diags = Counter(d.severity for d in w.diagnostics)
        diag_text = ", ".join(f"{n} {sev.value}" for sev, n in sorted(diags.items())) or "0"
        layers = [layer for layer in w.layers() if layer.is_text or layer is Layer.HEADING]
        if w.sparse:
            layers = []
        rows: list[tuple[str, str, str]] = []
        for layer in layers:
            units = len({s.unit for s in w.spans if s.layer is layer})
            rows.append((layer.label, str(_chars(w, layer)), str(units)))
        if w.sparse:
            rows.append(("readings", str(len(w.readings)), str(len(w.readings))))
        # Two lines each, so the columns are narrow enough for the table to fit 80 columns whole.
        name = Text(inert(w.siglum) + (" (base)" if w.siglum == base else ""), style="bold")
        name.append("\n" + inert(w.label, keep=""), style="")
        for layer_name, chars, unit_count in rows or [("-", "0", "0")]:
            table.add_row(
                name if first else Text(""),
                Text(inert(f"{w.layout}\n({w.container})", keep="\n")) if first else Text(""),
                Text(layer_name),
                chars,
                unit_count,
                str(page_count(w)) if first else "",
                diag_text if first else "",
            )
            first = False
    return table


def inspect_view(w: Witness, *, color: bool) -> Group:
    """How a file was read: layout and reason, the text coloured by layer, diagnostics."""
    parts: list[Table | Text] = []
    head = Text()
    # The path and the reasons can quote the file: every string from the data is made inert.
    head.append(inert(w.path, keep="") + "\n", style="bold")
    head.append(
        inert(f"container: {w.container} ({w.container_reason}); layout: {w.layout} ({w.layout_reason}); ", keep="")
    )
    head.append(inert(f"encoding: {w.encoding}", keep="") + "\n")
    parts.append(head)
    summary = Table(title="Layers")
    for col in ("layer", "chars", "units"):
        summary.add_column(col)
    for layer in w.layers():
        units = len({s.unit for s in w.spans if s.layer is layer})
        name = Text(layer.label, style=LAYER_STYLE[layer])
        summary.add_row(name, str(_chars(w, layer)), str(units))
    parts.append(summary)
    body = Text()
    if color:
        for s in w.spans:
            body.append(inert(w.text[s.start : s.end]), style=LAYER_STYLE[s.layer])
    else:
        body.append(_plain_listing(w))
    parts.append(body)
    diags = Text("\nDiagnostics\n", style="bold")
    if not w.diagnostics:
        diags.append("none\n")
    for d in w.diagnostics:
        style = "red" if d.severity is Severity.ERROR else "yellow" if d.severity is Severity.WARNING else ""
        line = inert(f"{w.locate(d.start)}: {d.severity.value}: [{d.code}] {d.message}", keep="")
        diags.append(line + "\n", style=style)
    parts.append(diags)
    return Group(*parts)


def _plain_listing(w: Witness) -> str:
    """One line per layer unit: page/line reference, layer, text — for pipes and tests."""
    lines: list[str] = []
    current: tuple[Layer, int] | None = None
    buf: list[str] = []
    start = 0

    def flush() -> None:
        if current is not None and buf:
            loc = w.locate(start)
            # One listing line per unit, tab-separated: the unit's own line ends and tabs are spaces in it.
            text = inert(re.sub("\r\n?|[\n\t]", " ", "".join(buf)), keep="")
            lines.append(f"{LISTING.cite(loc)}\t{current[0].value}\t{text}")

    # A listing line per printed line (or per unit where the layout marks no lines), so
    # every line of the listing carries its own page/line reference.
    breaks = sorted({m.offset for m in w.marks if m.kind in (MarkKind.LINE, MarkKind.PAGE)})
    b = 0
    for s in w.spans:
        if not s.layer.is_text and s.layer is not Layer.HEADING:
            continue
        crossed = False
        while b < len(breaks) and breaks[b] <= s.start:
            b += 1
            crossed = True
        key = (s.layer, s.unit)
        if key != current or crossed:
            flush()
            current, buf, start = key, [], s.start
        buf.append(w.text[s.start : s.end])
    flush()
    return "\n".join(lines) + "\n"


def print_witness_table(console: Console, witnesses: tuple[Witness, ...], base: str) -> None:
    """Print the per-witness table."""
    console.print(witnesses_table(witnesses, base))
