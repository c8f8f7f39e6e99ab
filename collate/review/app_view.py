"""What the review draws: the status line, one locus (its witnesses in context, notes, decisions), the keys.

Functions of the :class:`~collate.review.session.ReviewSession`, the locus on screen and the
words of the interface (:class:`~collate.review.texts.Words`), so the app
(:mod:`collate.review.app`) only keeps the place and turns keys into decisions. The witnesses'
lines, fitted to the screen's width, are :mod:`collate.review.app_witnesses`. Every string
of the data (texts, labels, notes, comments, names) is drawn inert
(:func:`~collate.model.inert.inert`): a control character in a witness is shown as its escape,
never sent to the terminal. A long text is cut only with a note of its length and of the key
that shows it whole (``e``), never with a bare ``…`` (:mod:`collate.review.look`).
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.text import Text

from collate.apparatus import Locus, ReadingClass
from collate.decisions.anchors import Decision
from collate.model import Layer
from collate.model.annotations import DecisionAction
from collate.model.inert import inert
from collate.normalize.regularizations import Regularization
from collate.review.app_witnesses import WitnessLines
from collate.review.filters import LocusFilter
from collate.review.look import LONG_NOTE, LONG_PASSAGE, Look, OneLine, shown
from collate.review.session import ReviewSession, pair_of
from collate.review.texts import KEYS, LAST_KEYS, Words
from collate.views.diff import CLASS_STYLE, cite


def render_status(
    session: ReviewSession,
    index: int,
    batch: bool = False,
    *,
    view: LocusFilter | None = None,
    shown_at: tuple[int, ...] | None = None,
    look: Look | None = None,
) -> Text:
    """The status line: the title, the place among the loci shown, the counts, the editor, the filter.

    ``shown_at`` are the indices of the loci ``view`` shows (all of them, without a filter).
    """
    view = view or LocusFilter()
    shown_at = tuple(range(len(session.loci))) if shown_at is None else shown_at
    look = look or Look(Words())
    w = look.words
    report = session.report
    place = f"{shown_at.index(index) + 1}" if index in shown_at else "–"
    total = w.pick(("（{}）", " ({})")).format(w("of_all", n=len(session.loci)))
    where = f"{place}/{len(shown_at)}" + (total if view.active else "")
    # Said in the header, as `collate diff` ends with it: what the review leaves out unasked.
    hidden = session.hidden_graphs(view)
    return Text.assemble(
        (f" {inert(session.raw.title, keep='')} ", "bold"),
        f"· {where if session.loci else '0/0'}",
        # Next to the place it qualifies, before what a narrow screen may cut.
        (f" · {w('hidden_graphs', n=hidden)}", "cyan") if hidden else "",
        f" · {w('decided')} {len(report.decided)}",
        f" · {w('undecided')} {len(report.undecided)}",
        (f" · {w('orphaned')} {len(report.orphans)}", "yellow" if report.orphans else ""),
        # No name is said as none (the project declares no editor): never a bare label.
        f" · {w('editor')} {inert(session.editor, keep='')}" if session.editor else "",
        (f" · {inert(describe(view, w), keep='')}", "bold cyan") if view.active else "",
        (f" · {w('batch_mode')}", "bold reverse") if batch else "",
        (f" · {w('full_mode')}", "bold") if look.full else "",
    )


def describe(view: LocusFilter, w: Words) -> str:
    """A filter in a few words: ``異文 · 經 · DD · 未決 · 搜「枉矢」``."""
    parts = [w.cls(c) for c in sorted(view.classes, key=lambda c: -c.rank)]
    parts += [w.layer(x) for x in sorted(view.layers, key=lambda x: x.value)]
    parts += sorted(view.sigla)
    parts += [w("undecided")] if view.undecided else []
    parts += [w("filter_noted", now=w("on"))] if view.noted else []
    parts += [w("search_is", q=view.search)] if view.search else []
    parts += [w("graphs_shown")] if view.graphs and not view.classes else []
    return " · ".join(parts)


def render_keys(look: Look, width: int) -> Text:
    """The key bar at the bottom: as many keys as ``width`` holds, help and quit always in full."""
    w = look.words
    last = "  ".join(f"{key} {w.pick((zh, en))}" for key, zh, en in LAST_KEYS)
    room = width - cell_len(last) - 2
    shown_keys: list[str] = []
    for key, zh, en in KEYS:
        item = f"{key} {w.pick((zh, en))}"
        if cell_len("  ".join([*shown_keys, item])) + 2 > room:
            break
        shown_keys.append(item)
    return Text("  ".join([*shown_keys, last]), style="reverse")


def render_locus(session: ReviewSession, locus: Locus | None, look: Look | None = None) -> RenderableType:
    """The locus on screen: heading, the 經 it explains, each witness in context, notes, suggestion, decisions."""
    look = look or Look(Words())
    w = look.words
    if locus is None:
        return Text(w("no_loci"))
    style = CLASS_STYLE.get(locus.cls, "")
    heading = Text.assemble(
        (w.layer(locus.layer), "bold"),
        f"  {inert(locus.id, keep='')}  ",
        (w.cls(locus.cls), style),
        f"  {inert(session.raw.base, keep='')} {cite(locus.lemma.location)}",
    )
    parts: list[RenderableType] = [heading]
    passage = session.glossed(locus)
    if passage is not None:
        label = Text(f"{w('glossed')} {cite(passage.location)}{w.pick(('：', ': '))}", style="bold")
        parts.append(OneLine(look, label, passage.text, LONG_PASSAGE))
    parts += [Text(""), WitnessLines(session, locus, look)]
    for siglum, pending in session.pending_at(locus):
        rule = pending.rule
        line = w(
            "pending_rule",
            siglum=inert(siglum, keep=""),
            variant=shown(rule.variant),
            standard=shown(rule.standard),
            scope=rule_scope(rule, w),
        )
        parts.append(Text(line, style="cyan"))
    for note in locus.notes:
        parts.append(Text(""))
        text = look.cut(note.text, LONG_NOTE)
        resp = inert(note.resp) + w.pick(("：", ": "))
        parts.append(Text.assemble((resp, "bold"), text, (f"  {cite(note.location)}", "dim")))
        for claim in note.claims:
            parts.append(Text(inert(f"  · {w.claim(claim, look.cut)}"), style="italic"))
    suggestion = session.suggestion(locus)
    if suggestion is not None:
        if suggestion.action is DecisionAction.KEEP:
            what = w("suggest_keep")
        else:
            reading = look.cut(suggestion.reading.text if suggestion.reading else "")
            what = w("suggest_adopt", siglum=inert(suggestion.siglum or "", keep=""), reading=reading)
        line = w("suggest", what=what, resp=inert(suggestion.resp, keep=""), words=inert(suggestion.words, keep=""))
        parts += [Text(""), Text(line, style="bold magenta")]
    parts += [Text(""), render_decision(session, locus, look)]
    same = session.same_pair(locus)
    if len(same) > 1:
        lemma, texts = pair_of(locus)
        pair = f"{shown(lemma)}/{'/'.join(shown(t) for t in texts)}"
        parts.append(Text(w("same_pair", n=len(same), pair=pair), style="dim"))
    return Group(*parts)


def rule_scope(rule: Regularization, w: Words) -> str:
    """Where a regularization holds, in a few words: ``全部校本、只經``, ``ZS only, every layer``."""
    layers = [w.layer(Layer(x)) for x in rule.layers]
    witnesses = w("rule_only", name=" ".join(rule.witnesses)) if rule.witnesses else w("rule_all_witnesses")
    where = w("rule_only", name=" ".join(layers)) if layers else w("rule_all_layers")
    return w.pick(("、", ", ")).join((inert(witnesses, keep=""), where))


def describe_decision(d: Decision, look: Look) -> str:
    """What one decision did, in a few words (``改從 DD 峭``, ``合併``)."""
    w = look.words
    what = w.action(d.action)
    if d.action is DecisionAction.ADOPT:
        what += f" {inert(d.siglum or '', keep='')} {look.cut(d.reading or '')}"
    elif d.action is DecisionAction.RECLASSIFY and d.cls is not None:
        what += w.pick(("：", " ")) + w("as_class", reading=look.cut(d.reading or ""), cls=w.cls(d.cls))
    elif d.action is DecisionAction.MERGE:
        what = w("merged_with")
    elif d.action is DecisionAction.SPLIT:
        what = w("split_at", at=d.at)
    return what


def render_decision(session: ReviewSession, locus: Locus, look: Look) -> Text:
    """The decision in force at ``locus`` and the decisions behind it."""
    w = look.words
    decision = locus.decision
    if decision is None:
        out = Text(w("undecided_here"), style="bold yellow")
    else:
        lemma = look.cut(decision.lemma)
        if decision.siglum:
            line = w("lemma_adopted", lemma=lemma, siglum=inert(decision.siglum, keep=""))
        else:
            line = w("lemma_base", lemma=lemma)
        out = Text(line, style="bold green")
        if decision.doubtful:
            out.append("  存疑", style="bold yellow")
    colon = w.pick(("：", ": "))
    for d in session.decisions_at(locus):
        line = f"  {d.when} {d.editor}{colon}{describe_decision(d, look)}" + (
            f"{colon}{d.comment}" if d.comment else ""
        )
        out.append("\n" + inert(line, keep=""), style="dim")
    return out


def class_options(look: Look, classes: tuple[ReadingClass, ...]) -> list[Text]:
    """The classes offered to reclassify a reading, each in its colour."""
    return [Text(look.words.cls(c), style=CLASS_STYLE[c]) for c in classes]


def reading_option(look: Look, sigla: str, text: str, cls: ReadingClass) -> Text:
    """A reading offered in a picker: its witnesses, its text in its class's colour, its class."""
    return Text.assemble(
        (inert(sigla), "bold"), " ", (look.cut(text), CLASS_STYLE.get(cls, "")), f"  {look.words.cls(cls)}"
    )
