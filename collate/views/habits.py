"""The print habits of a run in the terminal: one row a habit, its places and verdict."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from collate.apparatus import Collation
from collate.model.inert import inert


def print_habits(console: Console, collation: Collation) -> None:
    """A table of the habits of ``collation``, or a line saying there are none."""
    if not collation.habits:
        console.print(Text("no print habits: no witness writes one character wherever the base writes another"))
        return
    table = Table(title="print habits (通例)")
    for column in ("witness", "base", "written", "places", "as the base", "dictionaries", "verdict"):
        table.add_column(column)
    for h in collation.habits:
        label = collation.witness(h.siglum)
        name = f"{label.label} {h.siglum}" if label else h.siglum
        table.add_row(
            Text(inert(name, keep="")),
            Text(h.base),
            Text(h.written),
            str(h.places),
            str(h.agrees),
            Text(inert(h.relation, keep="")),
            h.verdict,
        )
    console.print(table)
    console.print(Text("confirm or reject one with `collate habits --confirm|--reject SIGLUM BASE WRITTEN`"))
