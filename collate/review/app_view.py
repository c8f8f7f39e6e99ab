"""What the review draws: the status line and one locus (its witnesses in context, notes, decisions).

Functions of the :class:`~collate.review.session.ReviewSession` and the locus on screen, so the
app (:mod:`collate.review.app`) only keeps the place and turns keys into decisions. Every string
of the data (texts, labels, notes, comments, names) is drawn inert (:func:`~collate.views.inert.inert`):
a control character in a witness is shown as its escape, never sent to the terminal.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from collate.apparatus import Locus
from collate.review.records import DecisionAction
from collate.review.session import ReviewSession, pair_of
from collate.views.diff import CLASS_STYLE, EMPTY, cite
from collate.views.inert import inert

ACTION_LABEL = {
    DecisionAction.KEEP: "keep the base reading",
    DecisionAction.ADOPT: "adopt",
    DecisionAction.RECLASSIFY: "reclassify",
    DecisionAction.DOUBT: "存疑 doubtful",
}
CONTEXT_WIDTH = 14


def shown(text: str) -> str:
    """A reading as the screen shows it: empty (an omission, an insertion point) as ∅, controls escaped."""
    return inert(text, keep="") or EMPTY


def render_status(session: ReviewSession, index: int, batch: bool) -> Text:
    """The status line: the title, the place among the loci, the counts, the editor, batch mode."""
    report = session.report
    return Text.assemble(
        (f" {inert(session.raw.title, keep='')} ", "bold"),
        f"· {index + 1 if session.loci else 0}/{len(session.loci)} · decided {len(report.decided)}",
        f" · undecided {len(report.undecided)}",
        (f" · orphaned {len(report.orphans)}", "yellow" if report.orphans else ""),
        f" · editor {inert(session.editor, keep='')}",
        (" · BATCH", "bold reverse") if batch else "",
    )


def render_locus(session: ReviewSession, locus: Locus | None) -> RenderableType:
    """The locus on screen: heading, each witness in context, notes, decisions."""
    if locus is None:
        return Text("No variant loci to review.")
    style = CLASS_STYLE.get(locus.cls, "")
    heading = Text.assemble(
        (f"{locus.layer.chinese} {locus.layer.value}", "bold"),
        f"  {inert(locus.id, keep='')}  ",
        (locus.cls.value.replace("_", " "), style),
        f"  {inert(session.raw.base, keep='')} {cite(locus.lemma.location)}",
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for name in ("siglum", "text at this place", "class", "place"):
        table.add_column(name, no_wrap=name != "text at this place")
    labels = {w.siglum: w.label for w in session.raw.witnesses}
    for siglum in locus.sigla:
        reading = locus.reading_of(siglum)
        ctx = session.context(locus, siglum, CONTEXT_WIDTH)
        cls = reading.cls if reading is not None else None
        mark = CLASS_STYLE.get(cls, "") if cls else "bold"
        text = Text.assemble((inert(ctx.before), "dim"), ("〔", "dim"), (shown(ctx.text), mark), ("〕", "dim"))
        text.append(inert(ctx.after), style="dim")
        if ctx.note:
            text.append(inert(f"  ({ctx.note})"), style="italic dim")
        what = "= base" if reading is None else reading.cls.value.replace("_", " ")
        if reading is not None and reading.cause:
            what += inert(f" ({reading.cause})", keep="")
        name = inert(f"{siglum} {labels.get(siglum, '')}".strip(), keep="")
        table.add_row(Text(name, style="bold"), text, Text(what, style=mark), Text(cite(ctx.location)))
    parts: list[RenderableType] = [heading, Text(""), table]
    for note in locus.notes:
        parts.append(Text(""))
        parts.append(
            Text.assemble((inert(f"{note.resp}: "), "bold"), inert(note.text), (f"  {cite(note.location)}", "dim"))
        )
        parts.extend(Text(inert(f"  · {claim}"), style="italic") for claim in note.claims)
    parts.append(Text(""))
    parts.append(render_decision(session, locus))
    same = session.same_pair(locus)
    if len(same) > 1:
        lemma, texts = pair_of(locus)
        pair = f"{shown(lemma)}/{'/'.join(shown(t) for t in texts)}"
        parts.append(Text(f"{len(same)} loci read {pair}: b applies the next decision to all.", style="dim"))
    return Group(*parts)


def render_decision(session: ReviewSession, locus: Locus) -> Text:
    """The decision in force at ``locus`` and the decisions behind it."""
    decision = locus.decision
    if decision is None:
        return Text("undecided", style="bold yellow")
    lemma = f"lemma {shown(decision.lemma)}" + (f" ({inert(decision.siglum)})" if decision.siglum else " (base)")
    out = Text.assemble(("decided: ", "bold green"), lemma)
    if decision.doubtful:
        out.append("  存疑", style="bold yellow")
    for d in session.decisions_at(locus):
        what = ACTION_LABEL[d.action]
        if d.action is DecisionAction.ADOPT:
            what += f" {inert(d.siglum or '', keep='')} {shown(d.reading or '')}"
        elif d.action is DecisionAction.RECLASSIFY and d.cls is not None:
            what += f" {shown(d.reading or '')} as {d.cls.value.replace('_', ' ')}"
        line = f"  {d.when} {d.editor}: {what}" + (f": {d.comment}" if d.comment else "")
        out.append("\n" + inert(line, keep=""), style="dim")
    return out
