"""What every page of the HTML view has: its head, the bar, the panel with the filters, its assets.

The page of a collation is one of these; a book's pages (:mod:`.book`: an index and a page a part)
are others, made of the same pieces, so that each looks and behaves as the one page does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

from collate.apparatus import Locus, ReadingClass
from collate.exporters.html.common import (
    CLASS_LABELS,
    LAYER_LABELS,
    LOOKALIKE_CSS,
    Element,
    append_text,
    css,
    display_class,
    el,
    lookalike,
    work_css,
)
from collate.exporters.html.context import Context
from collate.exporters.html.panel import coverage, detail, detail_nav
from collate.exporters.html.synopsis import SynopticLayer, no_layers
from collate.exporters.html.tools import witness_switches

# Classes whose loci the page opens without marking (their box unticked), counted in the panel:
# graphs of one word (異體, 爲/為) are most of the loci of many editions and hide the readings.
FOLDED = (ReadingClass.ORTHOGRAPHIC,)

# The stylesheets and scripts, inlined into the page's one <style> and one <script> in this
# order (a book's pages load them from one file each, :mod:`.contents`): the page, the panel and
# the filters first, then the tools (search, pages, side by side). The scripts talk through DOM
# events, not globals.
STYLES = ("view.css", "tools.css")
SCRIPTS = ("view.js", "tools.js")


@dataclass(frozen=True, slots=True)
class Tally:
    """How many marked loci a page shows of each class, and how many are graphic confusions (形近)."""

    classes: Counter[ReadingClass]
    confusions: int

    @classmethod
    def of(cls, loci: Iterable[Locus]) -> Tally:
        """Count ``loci`` by the class each is marked with."""
        classes: Counter[ReadingClass] = Counter()
        confusions = 0
        for locus in loci:
            classes[display_class(locus)] += 1
            confusions += lookalike(locus)
        return cls(classes, confusions)

    @property
    def folded(self) -> int:
        """How many of the loci the page opens unmarked (:data:`FOLDED`)."""
        return sum(self.classes[c] for c in FOLDED)


def asset(name: str) -> str:
    """A stylesheet or script shipped beside this package, to inline into the page."""
    return (resources.files("collate.exporters") / "html_assets" / name).read_text(encoding="utf-8")


def stylesheet(ctx: Context, styles: Sequence[str] = STYLES) -> str:
    """The page's rules: the stylesheets ``styles``, then the rules of the quoted works."""
    return "\n".join([*(asset(name) for name in styles), _work_rules(ctx)])


def head(ctx: Context, title: str, style: Element | None = None) -> Element:
    """The page's head: its title and its stylesheet, ``style`` if given (a book's pages link the one
    file they share), else the one page's inlined (:func:`stylesheet`)."""
    return el(
        "head",
        None,
        el("meta", {"charset": "utf-8"}),
        el("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}),
        el("meta", {"name": "generator", "content": "collate"}),
        el("title", None, title),
        style if style is not None else el("style", None, stylesheet(ctx)),
    )


def _work_rules(ctx: Context) -> str:
    """The rules of the filter by quoted work: a work's box unticked hides its passages."""
    works = ctx.works
    return "\n".join(f".hide-{c} .{c} {{ display: none; }}" for c in (work_css(works, w) for w in works))


def panel(ctx: Context, tally: Tally, boxes: Tally | None = None, overview: Element | None = None) -> Element:
    """The side panel: the filters, then the overview (the hint, what is folded, the coverage strips).

    ``tally`` counts the loci of the page; ``boxes`` those that decide which boxes there are (a
    book's, so that a part has the filters every other has; default ``tally``); ``overview``, if
    given, is the overview instead.
    """
    # On a narrow screen the panel is a sheet at the bottom of the screen: this opens and shuts it.
    handle = el(
        "button",
        {"type": "button", "class": "sheet-handle", "data-sheet": "", "aria-expanded": "false"},
        "校記 · 篩選",
    )
    if overview is None:
        overview = el("div", {"class": "overview"}, _hint(), fold_note(tally), coverage(ctx))
    return el(
        "aside",
        {"id": "panel", "aria-label": "校記"},
        handle,
        _filters(ctx, tally, boxes or tally),
        el("div", {"id": "panel-body", "aria-live": "polite"}, overview),
    )


def fold_note(tally: Tally) -> Element | None:
    """What the page does not mark at first, and how to see it: shown while the box is unticked."""
    n = tally.folded
    if not n:
        return None
    names = "、".join(CLASS_LABELS[c][0] for c in FOLDED)
    return el("p", {"class": "fold-note"}, f"另有{names} {n} 處未標出（勾選「{names}」顯示）。")


def bar(ctx: Context, tools: Element, nav: Element | None = None, tabs: bool = True) -> Element:
    """The bar: the title (with ``nav``, a book's way between its pages), the witnesses, ``tools``, the tabs."""
    wits = el("span", {"class": "wits"})
    for i, info in enumerate(ctx.collation.witnesses):
        role = "底本" if info.siglum == ctx.collation.base else "案語所引" if info.sparse else "校本"
        if i:
            append_text(wits, " · ")
        wits.append(el("span", {"title": info.path}, f"{role} ", el("b", None, info.label), f" {info.siglum}"))
    views = el(
        "nav",
        {"class": "tabs", "role": "tablist"},
        el("button", {"type": "button", "data-view": "text", "aria-selected": "true", "role": "tab"}, "讀本"),
        el("button", {"type": "button", "data-view": "syn", "aria-selected": "false", "role": "tab"}, "對照"),
    )
    title = el("h1", None, ctx.collation.title)
    return el("header", {"class": "bar"}, title, nav, wits, tools, views if tabs else None)


def _filters(ctx: Context, tally: Tally, boxes: Tally) -> Element:
    """Checkboxes: one per reading class present (its sample is the legend), one for the
    graphic confusions (形近) if any, one per layer."""
    classes = el("fieldset", None, el("legend", None, "異文"))
    for c in ReadingClass:
        if boxes.classes[c]:
            zh, en = CLASS_LABELS[c]
            box = el("input", {"type": "checkbox", "data-hide": css(c)} | ({} if c in FOLDED else {"checked": ""}))
            sample = el("span", {"class": f"swatch v {css(c)}"}, zh)
            n = el("span", {"class": "n"}, str(tally.classes[c]))
            classes.append(el("label", {"title": en}, box, " ", sample, " ", n))
    if boxes.confusions:
        box = el("input", {"type": "checkbox", "data-hide": LOOKALIKE_CSS, "checked": ""})
        sample = el("span", {"class": f"swatch v {css(ReadingClass.SUBSTANTIVE)}"}, "形近")
        title = "graphic confusions (look-alike characters)"
        n = el("span", {"class": "n"}, str(tally.confusions))
        classes.append(el("label", {"title": title}, box, " ", sample, " ", n))
    works = ctx.works
    quoted = el("fieldset", None, el("legend", None, "出處"))
    for work in works:
        box = el("input", {"type": "checkbox", "data-hide": work_css(works, work), "checked": ""})
        quoted.append(el("label", {"title": work}, box, f" {work}"))
    layers = el("fieldset", None, el("legend", None, "層次"))
    present = {s.layer for s in ctx.base.spans}
    for layer, zh in LAYER_LABELS.items():
        if layer in present:
            box = el("input", {"type": "checkbox", "data-hide": f"l-{layer.value}", "checked": ""})
            layers.append(el("label", {"title": layer.value}, box, f" {zh}"))
    # How the page prints (its 校勘記): in vertical lines, as a book sets one.
    printing = el(
        "fieldset",
        {"class": "printing"},
        el("legend", None, "列印"),
        el(
            "label",
            {"title": "print in vertical lines"},
            el("input", {"type": "checkbox", "data-print": "vertical"}),
            " 直排",
        ),
    )
    if len(works) > 1:
        # A compilation quoting several works: its passages shown or hidden by work.
        return el("div", {"class": "filters"}, classes, quoted, layers, witness_switches(ctx), printing)
    return el("div", {"class": "filters"}, classes, layers, witness_switches(ctx), printing)


def _hint() -> Element:
    return el(
        "p",
        {"class": "hint"},
        "點擊加線的文字，看各本異文。",
        el("kbd", None, "j"),
        " ",
        el("kbd", None, "k"),
        " 下一條、上一條，",
        el("kbd", None, "Esc"),
        " 關閉，",
        el("kbd", None, "/"),
        " 檢索（繁簡通檢）。",
    )


def body_class(tally: Tally) -> dict[str, str]:
    """The body's attributes as the page opens: the folded classes hidden (without the script too)."""
    return {"class": " ".join(f"hide-{css(c)}" for c in FOLDED)} if tally.folded else {}


# --- Written piece by piece -------------------------------------------------------------------------


def write_views(page: Any, blocks: Iterable[Element], synopsis: Iterable[SynopticLayer]) -> None:
    """Write the two views into ``page`` (lxml's incremental writer): 讀本, the ``blocks`` of the
    text, and 對照, each layer's table a passage at a time."""
    with page.element("section", {"id": "view-text", "class": "view text", "aria-label": "讀本"}):
        for block in blocks:
            page.write(block)
    syn = {"id": "view-syn", "class": "view syn", "aria-label": "對照", "hidden": ""}
    with page.element("section", syn):
        empty = True
        for attrs, title, columns, groups in synopsis:
            empty = False
            with page.element("section", attrs):
                page.write(title)
                with page.element("table", {"class": "syn-table"}):
                    page.write(columns)
                    for group in groups:
                        page.write(group)
        if empty:
            page.write(no_layers())


def write_details(page: Any, ctx: Context) -> None:
    """Write the hidden section of each locus the page shows, for the panel to show."""
    with page.element("div", {"id": "details", "hidden": ""}):
        page.write(detail_nav())
        for result, locus in ctx.shown:
            page.write(detail(ctx, result, locus))


def script_text(names: Sequence[str]) -> str:
    """The scripts ``names`` as one, in this order (each keeps to itself: they share no globals)."""
    return "\n".join(asset(name) for name in names)


def scripts(names: Sequence[str]) -> Element:
    """The page's one script: ``names``, inlined in this order."""
    return el("script", None, script_text(names))
