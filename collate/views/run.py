"""What ``collate run`` prints: the witnesses as read, the rules' work, the apparatus summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from collate.model.annotations import Verdict
from collate.model.citation import SUMMARY
from collate.model.inert import inert
from collate.results import RunResult
from collate.views.summary import print_summary
from collate.views.witness import print_witness_table


def rules_table(result: RunResult) -> Table:
    """How many tokens each normalization rule changed, per witness."""
    rules = [r.name for r in result.collation.rules if r.enabled]
    table = Table(title="Normalization: tokens changed by each rule")
    # Folded, never cut, on a narrow terminal: a count cut to ``1…`` would be wrong, not short.
    table.add_column("siglum", overflow="fold")
    table.add_column("tokens", justify="right", overflow="fold")
    for name in rules:
        table.add_column(name, justify="right", overflow="fold")
    for siglum, by_layer in result.tokens.items():
        total = sum(len(t) for t in by_layer.values())
        counts = result.rule_counts.get(siglum, {})
        table.add_row(Text(inert(siglum)), str(total), *(str(counts.get(name, 0)) for name in rules))
    return table


def notes_line(result: RunResult) -> Text:
    """One line on the editorial notes: how many anchored, claims and their verdicts."""
    notes = result.notes
    if notes is None or not notes.notes:
        return Text("Editorial notes: none", style="dim")
    anchored = len(notes.notes) - len(notes.unanchored)
    attached = sum(len(x.notes) for x in result.collation.loci())
    verdicts = ", ".join(f"{n} {v.value}" for v, n in _verdicts(result).items() if n)
    line = Text("Editorial notes: ", style="bold")
    line.append(
        f"{len(notes.notes)} notes, {anchored} anchored to a passage, {attached} attached to variant loci; "
        f"{len(notes.claims)} claims" + (f"; their checks against the witnesses: {verdicts}" if verdicts else "")
    )
    if notes.derived:
        line.append(
            f"; where only a readings file is at hand, the claims form a derived witness: "
            f"{len(notes.differences)} differences from the readings file (collate notes)"
        )
    return line


def _verdicts(result: RunResult) -> Counter[Verdict]:
    """How the notes' claims fared: as the notes stage checked them, or, for a note of another witness
    (a web edition's 一作「繁」), as the entry it stands at checked it against the aligned witnesses.
    """
    assert result.notes is not None
    base = result.collation.base
    at_entry: dict[str, tuple[Verdict, ...]] = {}
    for locus in result.collation.loci():
        for note in locus.notes:
            if note.witness not in ("", base) and note.verdicts:
                at_entry.setdefault(note.id, tuple(v.verdict for v in note.verdicts))
    counts = Counter(c.verdict for c in result.notes.checks if c.claim.note.id not in at_entry)
    counts.update(v for verdicts in at_entry.values() for v in verdicts)
    return counts


def decisions_line(result: RunResult) -> Text:
    """One line on the editor's decisions: loci decided, undecided, decisions orphaned."""
    if result.decisions is None:
        return Text("Decisions: not applied", style="dim")
    from collate.decisions.apply import decision_counts

    c = decision_counts(result.decisions)
    line = Text("Decisions: ", style="bold")
    line.append(f"{c.decided} loci decided, {c.undecided} undecided, ")
    line.append(f"{c.orphaned} orphaned", style="bold red" if c.orphaned else "")
    if c.moved:
        line.append(f" ({c.moved} re-anchored after the texts changed)")
    if c.orphaned:
        line.append("; orphans are kept in the decisions file: see `collate review`")
    return line


def coverage_lines(result: RunResult) -> list[str]:
    """Per work a compilation base quotes: against which witnesses it was collated, and how much.

    ``禮記射義: 1,234 characters, collated against ZS (98%), WY (96%)``; a work no witness
    holds: ``not collated: 詩小雅, 3,562 characters (no witness)``. Shown as printed (inert).
    """
    lines = []
    shelf = result.shelf
    if shelf is not None:
        joined = ", ".join(inert(s, keep="") for s in shelf.joined) or "none"
        lines.append(f"shelf: {len(shelf.files)} edition files read; holding passages of the base: {joined}")
        lines += [f"shelf: {inert(p, keep='')}" for p in shelf.problems]
    for work in result.coverage:
        title = inert(work.title, keep="")
        if not work.collated:
            lines.append(f"not collated: {title}, {work.chars:,} characters (no witness)")
            continue
        shares = ", ".join(f"{inert(s, keep='')} ({100 * n // work.chars}%)" for s, n in work.collated)
        lines.append(f"{title}: {work.chars:,} characters, collated against {shares}")
    base = result.read.base
    for d in result.disagreements:
        where = SUMMARY.cite(base.locate(d.article.start))
        opening = "".join(ch for ch in base.text[d.article.start : d.article.end] if ch.isalnum())[:10]
        holders = ", ".join(inert(s, keep="") for s in d.sigla)
        lines.append(
            inert(
                f"{where}: 「{opening}…」 is titled {d.article.title} but its text is {d.text_title}'s "
                f"(held by {holders}): collated with them",
                keep="",
            )
        )
    return lines


def print_run(console: Console, result: RunResult, written: Sequence[Path]) -> None:
    """Print the run: witnesses, normalization counts, apparatus summary, files written."""
    print_witness_table(console, result.read.witnesses, result.read.project.base)
    console.print(rules_table(result))
    print_summary(console, result.collation)
    for line in coverage_lines(result):
        console.print(Text(line))
    console.print(notes_line(result))
    console.print(decisions_line(result))
    for path in written:
        console.print(Text(inert(f"wrote {path}", keep="")))
