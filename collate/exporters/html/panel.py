"""The side panel: one hidden section per locus (shown on a click), and the coverage strips.

A locus's section lists every witness of its layer, base first: its own characters, its
class and cause, its printed place; then the alignment around the locus, the notes that
judge it with their claims' verdicts, and the editor's decision. A sparse witness (a
readings file) that reports nothing here is said to be silent, never to omit.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml.html import fragment_fromstring

from collate.apparatus import LayerResult, Locus, Reading, ReadingClass, WitnessReading
from collate.exporters.html.claims import check_item
from collate.exporters.html.common import (
    ACTION_LABELS,
    CAUSE_LABELS,
    CLASS_LABELS,
    LAYER_LABELS,
    ClaimCheck,
    Element,
    badge,
    class_label,
    css,
    display_class,
    el,
    full_place,
    place,
    witnesses_shown,
)
from collate.exporters.html.context import Context, base_tokens, raw_range
from collate.exporters.html.markup import html_attr, html_text
from collate.model import SourceLocation
from collate.model.annotations import EditorDecision, NoteClaim
from collate.model.claim_words import chinese

# Alignment columns shown around a locus, and at most inside it (its two ends).
CONTEXT = 6
INSIDE = 24
# A reading longer than this is set in smaller type.
LONG = 12


def detail_nav() -> Element:
    """What every panel has alike, written once as a ``<template>`` the page's script puts into the
    panel it shows (a book has thousands of panels): the heading's buttons (the previous, the next,
    close), and after the witnesses' table the links to the locus in the reading text and the
    synoptic view (to the locus the panel shows)."""
    nav = el(
        "span",
        {"class": "nav"},
        el("button", {"type": "button", "data-step": "-1", "title": "上一條 (k)"}, "\u2039"),
        el("button", {"type": "button", "data-step": "1", "title": "下一條 (j)"}, "\u203a"),
        el("button", {"type": "button", "data-close": "", "title": "關閉 (Esc)"}, "×"),
    )
    jump = el(
        "p",
        {"class": "jump"},
        el("a", {"href": "#", "data-goto": "text"}, "在讀本中"),
        el("a", {"href": "#", "data-goto": "syn"}, "在對照中"),
    )
    return el("template", {"id": "detail-nav"}, nav, jump)


def detail(ctx: Context, result: LayerResult, locus: Locus) -> Element:
    """The hidden section the panel shows for ``locus`` (``id="d-<locus id>"``)."""
    c = display_class(locus)
    section = el(
        "section",
        {"class": f"detail {css(c)}", "id": f"d-{locus.id}", "data-locus": locus.id, "hidden": ""},
        el(
            "h2",
            None,
            LAYER_LABELS.get(locus.layer, locus.layer.value),
            badge(c),
            el("span", {"class": "lid"}, locus.id),
        ),
    )
    decision = ctx.decisions.get(locus.id)
    if decision is not None:
        section.append(_decision(ctx, decision))
    section.append(_witnesses(ctx, result, locus))
    section.extend((el("h3", None, "對齊"), el("div", {"class": "window"}, _window(ctx, result, locus))))
    if locus.notes:
        section.append(el("h3", None, "案語"))
        section.extend(_note(n.resp, n.text, n.location, n.claims) for n in locus.notes)
    checks = _checks_at(ctx, result, locus)
    if checks:
        section.append(el("h3", None, "案語所言，核之各本"))
        section.append(el("ul", {"class": "checks"}, *(check_item(ctx, c) for c in checks)))
    return section


def _label(ctx: Context, siglum: str) -> Element:
    label = ctx.label(siglum)
    # The siglum under the label, where the label is not the siglum itself (a row a witness a panel).
    return el("th", {"scope": "row"}, label, *([el("span", {"class": "sig"}, siglum)] if label != siglum else []))


def _where(ctx: Context, siglum: str, loc: SourceLocation | None) -> Element:
    """Where a witness has the reading: its page and line, a link to the page's picture where there is one."""
    url = ctx.page_image(siglum, loc)
    full = full_place(loc)
    attrs = {"class": "where", "title": full} if full else {"class": "where"}
    if url is None:
        return el("td", attrs, place(loc))
    link = el("a", {"href": url, "target": "_blank", "rel": "noopener", "class": "facs"}, place(loc))
    return el("td", attrs, link)


def _text(text: str, cls: ReadingClass | None) -> Element:
    if text:
        # A long reading (a whole passage a witness adds) is set smaller, to stay readable.
        return el("td", {"class": "rd long" if len(text) > LONG else "rd"}, text)
    empty = "不存" if cls is ReadingClass.NOT_EXTANT else "無"
    return el("td", {"class": "rd"}, el("span", {"class": "empty"}, f"〔{empty}〕"))


def _witnesses(ctx: Context, result: LayerResult, locus: Locus) -> Element:
    table = el("table", {"class": "wits"})
    sigla = [s for s in ctx.order if s in result.sigla] + [s for s in result.sigla if s not in ctx.order]
    for siglum in sigla:
        reading = locus.reading_of(siglum)
        if siglum in locus.lemma_witnesses:
            own = _agreeing(ctx, result, locus, siglum)
            is_base = siglum == ctx.collation.base
            mark = el("span", {"class": "badge lemma"}, "底本" if is_base else "同底本")
            row = el("tr", {"class": "base" if is_base else "agree", "data-w": siglum}, _label(ctx, siglum))
            row.append(_text(own.text, None))
            row.extend((el("td", {"class": "cls"}, mark), _where(ctx, siglum, own.location)))
        elif reading is not None:
            row = _reading_row(ctx, reading, next(w for w in reading.witnesses if w.siglum == siglum))
        else:
            row = el("tr", {"class": "silent", "data-w": siglum}, _label(ctx, siglum))
            row.append(el("td", {"colspan": "3"}, "此處無記載"))
        table.append(row)
    return table


def _reading_row(ctx: Context, reading: Reading, wr: WitnessReading) -> Element:
    cls = el("td", {"class": "cls"}, badge(reading.cls))
    if reading.cause:
        cls.append(el("span", {"class": "cause"}, " " + CAUSE_LABELS.get(reading.cause, reading.cause)))
    if reading.rules:
        cls.append(el("span", {"class": "src"}, "、".join(reading.rules)))
    text = _text(wr.text, reading.cls)
    if reading.source:
        text.append(el("span", {"class": "src"}, f"據 {reading.source}"))
    # Where a witness is not extant there is no place in it to cite.
    where = _where(ctx, wr.siglum, None if reading.cls is ReadingClass.NOT_EXTANT else wr.location)
    return el("tr", {"class": css(reading.cls), "data-w": wr.siglum}, _label(ctx, wr.siglum), text, cls, where)


def _agreeing(ctx: Context, result: LayerResult, locus: Locus, siglum: str) -> WitnessReading:
    """What a witness agreeing with the lemma has at the locus, in its own characters."""
    if siglum == ctx.collation.base:
        return locus.lemma
    if siglum not in result.alignment.sigla:
        return WitnessReading(siglum, locus.lemma.text)
    j = result.alignment.sigla.index(siglum)
    cells = result.alignment.columns[locus.col_start : locus.col_end]
    tokens = sorted((tok for col in cells if (tok := col[j]) is not None), key=lambda t: t.index)
    witness = ctx.witnesses.get(siglum)
    location = witness.locate(tokens[0].start) if tokens and witness is not None else None
    return WitnessReading(siglum, "".join(t.t for t in tokens), tuple(tokens), location)


def _window(ctx: Context, result: LayerResult, locus: Locus) -> Element:
    """The alignment around the locus: a row a witness, a cell a column (-1: the middle left out).

    Written as HTML and parsed once: a book has tens of thousands of panels of a hundred
    cells each, and libxml2 makes the same elements many times faster than building each.
    """
    columns = result.alignment.columns
    inside = list(range(locus.col_start, locus.col_end))
    if len(inside) > INSIDE:
        inside = [*inside[: INSIDE // 2], -1, *inside[-INSIDE // 2 :]]
    before = list(range(max(0, locus.col_start - CONTEXT), locus.col_start))
    after = list(range(locus.col_end, min(len(columns), locus.col_end + CONTEXT)))
    rows: list[str] = []
    for j, siglum in enumerate(result.alignment.sigla):
        extent = result.alignment.extent(siglum)
        label = ctx.label(siglum)
        # The siglum, and the label as its title where it says more (a book has a row a witness a panel).
        title = f' title="{html_attr(label)}"' if label != siglum else ""
        head = f'<tr data-w="{html_attr(siglum)}"><th{title}>{html_text(siglum)}</th>'
        cells = [head]
        for i in before + inside + after:
            if i < 0:
                cells.append('<td class="more">…</td>')
                continue
            names = ["in"] if locus.col_start <= i < locus.col_end else []
            tok = columns[i][j]
            if not extent.covers(i):
                cells.append(f'<td class="{" ".join([*names, "ne"])}" title="不存"></td>')
                continue
            if tok is None:
                names.append("gap")
            elif names and siglum not in locus.lemma_witnesses:
                names.append("d")
            # A plain cell has no class at all: a book has millions of them (class="" was 1.8 MB of 3 × 300k).
            klass = f' class="{" ".join(names)}"' if names else ""
            cells.append(f'<td{klass}>{"—" if tok is None else html_text(tok.t)}</td>')
        rows.append("".join(cells) + "</tr>")
    for siglum in result.sparse:
        reading = locus.reading_of(siglum)
        if reading is None:
            continue
        span = str(max(1, len(inside)))
        rows.append(
            f'<tr data-w="{html_attr(siglum)}"><th title="{html_attr(ctx.label(siglum))}">{html_text(siglum)}</th>'
            + "<td></td>" * len(before)
            + f'<td class="derived in d" colspan="{span}">{html_text(reading.text or "〔無〕")}</td>'
            + "<td></td>" * len(after)
            + "</tr>"
        )
    table: Element = fragment_fromstring(f'<table class="align">{"".join(rows)}</table>')
    return table


def _note(resp: str, text: str, loc: SourceLocation | None, claims: Iterable[NoteClaim]) -> Element:
    box = el(
        "div", {"class": "notebox"}, el("div", {"class": "resp", "title": full_place(loc)}, f"{resp} · {place(loc)}")
    )
    box.append(el("div", None, text))
    items = [el("li", None, chinese(c)) for c in claims]
    if items:
        box.append(el("ul", None, *items))
    return box


def _checks_at(ctx: Context, result: LayerResult, locus: Locus) -> list[ClaimCheck]:
    """The checked claims whose place in the base touches the locus."""
    span = raw_range(locus, base_tokens(result))
    if span is None:
        return []
    return ctx.check_index.touching(span)


def _decision(ctx: Context, decision: EditorDecision) -> Element:
    actions = "、".join(ACTION_LABELS.get(a, a.value) for a in decision.actions)
    lemma = decision.lemma or "〔無〕"
    if decision.siglum:
        lemma += f"（從{ctx.label(decision.siglum)}）"
    box = el(
        "div",
        {"class": "decision" + (" doubt" if decision.doubtful else "")},
        el("strong", None, f"校定：{actions}"),
        f" 定作 {lemma}",
    )
    if decision.comment:
        box.append(el("div", None, decision.comment))
    who = " ".join(p for p in ("、".join(decision.resp), decision.when) if p)
    if who:
        box.append(el("div", {"class": "who"}, who))
    return box


# --- Coverage ------------------------------------------------------------------------------------


def coverage(ctx: Context) -> Element:
    """Per collated layer: where the loci are, and where each witness is extant.

    Positions are alignment columns, so the strips of one layer line up; a sparse witness
    has no extent, only the places it reports. The loci are those the page shows (a book's part: its own).
    """
    box = el("section", {"class": "coverage", "aria-label": "存佚"}, el("h3", None, "各本存佚"))
    for result in ctx.collation.layers:
        n = len(result.alignment.columns)
        if not n:
            continue
        loci = [locus for shown, locus in ctx.shown if shown is result]
        box.append(el("h3", None, f"{LAYER_LABELS.get(result.layer, result.layer.value)} · {n} 字 · {len(loci)} 條"))
        ticks = el("div", {"class": "strip loci", "title": "校記所在"}, *(_tick(x, n) for x in loci))
        box.append(el("div", {"class": "cov-row"}, el("span", {"class": "who"}, "校記"), ticks))
        for siglum in result.alignment.sigla:
            extent = result.alignment.extent(siglum)
            strip = el("div", {"class": "strip"})
            if extent.first is not None and extent.last is not None:
                left, width = 100 * extent.first / n, 100 * (extent.last + 1 - extent.first) / n
                strip.append(el("div", {"class": "ext", "style": f"left:{left:.2f}%;width:{width:.2f}%"}))
            box.append(_row(ctx, siglum, strip, _extent_words(result, siglum)))
        for siglum in result.sparse:
            reported = [x for x in loci if any(siglum in r.sigla for r in x.readings)]
            strip = el("div", {"class": "strip"}, *(_tick(x, n) for x in reported))
            box.append(_row(ctx, siglum, strip, f"只存案語所引 {len(reported)} 處"))
    return box


def _tick(locus: Locus, n: int) -> Element:
    c = display_class(locus)
    return el(
        "button",
        {
            "type": "button",
            "class": f"tick {css(c)}",
            "data-locus": locus.id,
            "data-wits": witnesses_shown(locus),
            "style": f"left:{100 * locus.col_start / n:.2f}%",
            "title": f"{locus.lemma.text or '+'} · {CLASS_LABELS[c][0]}",
            "aria-label": f"{locus.id} {class_label(c)}",
        },
    )


def _row(ctx: Context, siglum: str, strip: Element, words: str) -> Element:
    who = el(
        "span", {"class": "who", "title": ctx.label(siglum)}, ctx.label(siglum), el("span", {"class": "sig"}, siglum)
    )
    return el("div", {"class": "cov-row", "data-w": siglum}, who, strip, el("span", {"class": "cov-where"}, words))


def _extent_words(result: LayerResult, siglum: str) -> str:
    cov = result.coverage_of(siglum)
    if cov is None or cov.first is None:
        return "不存"
    return f"{place(cov.first)} – {place(cov.last)} · {cov.tokens} 字"
