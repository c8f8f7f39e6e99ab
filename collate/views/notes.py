"""The terminal view of the notes stage: each note, where it is anchored, its claims and their checks.

A rich table on a terminal; plain tab-separated lines, one claim a line, when piped.
Witness text is always wrapped in ``Text`` (rich would read ``[…]`` as markup), its control
characters escaped (:func:`~collate.model.inert.inert`).
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from collate.model.citation import NOTES
from collate.model.inert import inert
from collate.notes import Check, Note, NotesResult, Verdict

_STYLE = {
    Verdict.CONFIRMED: "green",
    Verdict.PARTLY: "yellow",
    Verdict.CONTRADICTED: "red",
    Verdict.NOT_CHECKABLE: "dim",
}


def _short(text: str, size: int = 24) -> str:
    return text if len(text) <= size else text[: size - 1] + "…"


def print_notes(console: Console, result: NotesResult) -> None:
    """Show the notes stage: a table on a terminal, plain lines when piped."""
    if console.is_terminal:
        console.print(notes_table(result))
        console.print(Text(summary_line(result)))
        for difference in result.differences:
            console.print(Text(inert(f"{difference.siglum}: {difference.message}")))
    else:
        # Written as is: rich would expand the tabs that make the lines easy to cut.
        lines = plain_lines(result) + [inert(f"{d.siglum}: {d.message}", keep="") for d in result.differences]
        console.file.write("".join(line + "\n" for line in lines))


def notes_table(result: NotesResult) -> Table:
    """One row per claim (a note without claims gets one row): note, anchor, claim, verdict, evidence."""
    table = Table(title="Editorial notes", show_lines=True)
    for name in ("note", "anchor", "claim", "verdict", "evidence"):
        table.add_column(name, overflow="fold")
    for note in result.notes:
        rows = _rows(result, note)
        for k, (claim, check) in enumerate(rows):
            first = k == 0
            note_cell = (
                Text(inert(f"{note.id} {NOTES.cite(note.location)}\n{_short(note.text, 40)}")) if first else Text("")
            )
            anchor_cell = Text(inert(_anchor_words(result, note))) if first else Text("")
            verdict = Text(check.verdict.value, style=_STYLE[check.verdict]) if check else Text("")
            evidence = Text(inert(f"{check.evidence} {NOTES.cite(check.location)}".strip())) if check else Text("")
            table.add_row(note_cell, anchor_cell, Text(inert(claim)), verdict, evidence)
    return table


def _rows(result: NotesResult, note: Note) -> list[tuple[str, Check | None]]:
    rows: list[tuple[str, Check | None]] = []
    for claim in result.claims_of(note):
        checks = result.checks_of(claim) or (None,)
        rows.extend((claim.summary(), check) for check in checks)
    return rows or [("", None)]


def _anchor_words(result: NotesResult, note: Note) -> str:
    anchor = result.anchor_of(note)
    if anchor is None:
        return "not anchored"
    return f"{anchor.method.value} {NOTES.cite(anchor.location)}\n{_short(anchor.text)}"


def plain_lines(result: NotesResult) -> list[str]:
    """Tab-separated lines: note id, page, anchor method and words, claim, verdict, evidence."""
    lines = []
    for note in result.notes:
        anchor = result.anchor_of(note)
        where = NOTES.cite(anchor.location) if anchor else ""
        anchored = f"{anchor.method.value}\t{where}\t{_cell(anchor.text)}" if anchor else "none\t\t"
        for claim, check in _rows(result, note):
            verdict = check.verdict.value if check else ""
            evidence = _cell(f"{check.evidence} {NOTES.cite(check.location)}".strip()) if check else ""
            fields = (_cell(note.id), NOTES.cite(note.location), anchored, _cell(claim), verdict, evidence)
            lines.append("\t".join(fields))
    lines.append(summary_line(result))
    return lines


def _cell(text: str) -> str:
    """A field of a tab-separated line: no tab, line end or other control character of the data in it."""
    return inert(text, keep="")


def summary_line(result: NotesResult) -> str:
    """Counts: notes, anchored, claims, and each verdict."""
    counts = result.counts()
    verdicts = ", ".join(f"{n} {v.value}" for v, n in counts.items())
    return (
        f"{len(result.notes)} notes ({len(result.unanchored)} not tied to a passage), "
        f"{len(result.claims)} claims ({len(result.unplaced)} unplaced); checks: {verdicts}"
    )
