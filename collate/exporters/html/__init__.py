"""The collation as one HTML page: the base text by layer, its variant loci marked, a panel per locus.

The page is self-contained (its CSS and JS inlined from ``collate/exporters/html_assets/``;
no font, script or style is fetched) and built from lxml elements, written piece by piece, so a witness's
characters are always text: a witness reading ``<script>`` shows those eight characters.

* :mod:`.text` lays the base witness out as an edition, from its spans in file order;
* :mod:`.panel` makes the section shown for each locus, and the coverage strips;
* :mod:`.synopsis` makes the synoptic view (a column per witness, a row per passage);
* :mod:`.claims` says the notes' claims and their verdicts in Chinese;
* :mod:`.tools` makes the reader's tools: search, a jump to any witness's page, witness switches;
* :mod:`.common` holds what they share: labels, safe elements, which loci are shown;
  :mod:`.context` the collation indexed once for the page.

Readings that differ from the lemma only by script (賓/宾) are never shown as variants.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from collate.apparatus import Collation, ReadingClass, is_script_only
from collate.exporters.html.common import (
    CLASS_LABELS,
    LAYER_LABELS,
    LOOKALIKE_CSS,
    ClaimCheck,
    Element,
    append_text,
    css,
    display_class,
    el,
    lookalike,
    quoted_works,
    shown_loci,
    shown_readings,
    work_css,
)
from collate.exporters.html.context import Context
from collate.exporters.html.panel import coverage, detail
from collate.exporters.html.printing import apparatus, number_marks, print_head
from collate.exporters.html.synopsis import layer_views, no_layers
from collate.exporters.html.text import base_text
from collate.exporters.html.tools import PageTargets, page_targets, tools, witness_switches
from collate.files import write_atomic
from collate.model import Witness

if TYPE_CHECKING:
    from collate.model.annotations import EditorDecision
    from collate.results import ExportInput


def build_html(
    collation: Collation,
    base: Witness,
    *,
    witnesses: Mapping[str, Witness] | None = None,
    decisions: Mapping[str, EditorDecision] | None = None,
    checks: Sequence[ClaimCheck] = (),
    facs: Mapping[str, str] | None = None,
) -> str:
    """The collation as a self-contained HTML page, laid out on the base witness's own text.

    ``witnesses`` (every witness as read, by siglum) give the printed places of the witnesses
    that agree with the lemma; ``decisions`` (locus id → the editor's decision) are shown
    over those the loci carry; ``checks`` (the notes' claims checked) are shown under the
    notes and in the loci they concern; ``facs`` (a page-image pattern by siglum) links each
    reading's page to its picture.
    """
    ctx = Context.of(collation, base, witnesses or {base.siglum: base}, decisions or {}, checks, facs)
    out = io.BytesIO()
    with etree.htmlfile(out, encoding="utf-8") as page:
        _write_document(ctx, page)
    return out.getvalue().decode("utf-8") + "\n"


def run_html(
    data: ExportInput,
    *,
    decisions: Mapping[str, EditorDecision] | None = None,
    checks: Sequence[ClaimCheck] | None = None,
) -> str:
    """The page of a run: its collation on its base witness, every witness as read.

    ``checks`` default to those of the notes stage, if it ran.
    """
    if checks is None:
        checks = data.notes.checks if data.notes is not None else ()
    facs = {siglum: b.facs for siglum, b in data.bibl.items() if b.facs}
    return build_html(
        data.collation, data.base, witnesses=data.witnesses, decisions=decisions, checks=checks, facs=facs
    )


def write_html(
    data: ExportInput,
    path: Path,
    *,
    decisions: Mapping[str, EditorDecision] | None = None,
    checks: Sequence[ClaimCheck] | None = None,
) -> None:
    """Write the page to ``path`` atomically (temporary file, then rename)."""
    write_atomic(path, run_html(data, decisions=decisions, checks=checks))


class HtmlExporter:
    """The registry's handle on this format."""

    name = "html"
    suffix = ".html"
    description = "a self-contained HTML page: the base text with its variants marked, a synoptic view, coverage"

    def write(self, data: ExportInput, path: Path) -> None:
        """Write the page to ``path``."""
        write_html(data, path)


EXPORTER = HtmlExporter()


# --- The page --------------------------------------------------------------------------------


def _write_document(ctx: Context, page: Any) -> None:
    """Write the page piece by piece: only one block, group or panel is a tree at a time.

    A book's page has millions of elements; built whole before writing, the tree took more
    memory than the rest of the run. lxml's incremental writer gives the same text.
    """
    page.write_doctype("<!DOCTYPE html>")
    targets = page_targets(ctx)
    # The 異體 box starts unticked (FOLDED): the page opens on the readings; without the script too.
    folded = sum(1 for _, locus in ctx.shown if display_class(locus) in FOLDED)
    blocks = base_text(ctx, targets.anchors)
    order = number_marks(blocks)  # the loci as the printed text numbers them, for its 校勘記
    with page.element("html", {"lang": "zh-Hant"}):
        page.write(_head(ctx))
        with page.element("body", {"class": " ".join(f"hide-{css(c)}" for c in FOLDED)} if folded else {}):
            page.write(_bar(ctx, targets))
            with page.element("div", {"class": "page"}):
                with page.element("main"):
                    page.write(print_head(ctx))
                    with page.element("section", {"id": "view-text", "class": "view text", "aria-label": "讀本"}):
                        for block in blocks:
                            page.write(block)
                    syn = {"id": "view-syn", "class": "view syn", "aria-label": "對照", "hidden": ""}
                    with page.element("section", syn):
                        empty = True
                        for attrs, head, columns, groups in layer_views(ctx):
                            empty = False
                            with page.element("section", attrs):
                                page.write(head)
                                with page.element("table", {"class": "syn-table"}):
                                    page.write(columns)
                                    for group in groups:
                                        page.write(group)
                        if empty:
                            page.write(no_layers())
                    page.write(apparatus(ctx, order, folded))
                page.write(_panel(ctx))
            with page.element("div", {"id": "details", "hidden": ""}):
                for result, locus in ctx.shown:
                    page.write(detail(ctx, result, locus))
            page.write(el("script", None, "\n".join(_asset(name) for name in _SCRIPTS)))


def _head(ctx: Context) -> Element:
    return el(
        "head",
        None,
        el("meta", {"charset": "utf-8"}),
        el("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}),
        el("meta", {"name": "generator", "content": "collate"}),
        el("title", None, f"{ctx.collation.title} 校勘記"),
        el("style", None, "\n".join([*(_asset(name) for name in _STYLES), _work_rules(ctx)])),
    )


def _work_rules(ctx: Context) -> str:
    """The rules of the filter by quoted work: a work's box unticked hides its passages."""
    works = quoted_works(ctx.base)
    return "\n".join(f".hide-{c} .{c} {{ display: none; }}" for c in (work_css(works, w) for w in works))


def _panel(ctx: Context) -> Element:
    counts = Counter(display_class(locus) for _, locus in ctx.shown)
    # On a narrow screen the panel is a sheet at the bottom of the screen: this opens and shuts it.
    handle = el(
        "button",
        {"type": "button", "class": "sheet-handle", "data-sheet": "", "aria-expanded": "false"},
        "校記 · 篩選",
    )
    return el(
        "aside",
        {"id": "panel", "aria-label": "校記"},
        handle,
        _filters(ctx, counts),
        el(
            "div",
            {"id": "panel-body", "aria-live": "polite"},
            el("div", {"class": "overview"}, _hint(), _fold_note(counts), coverage(ctx)),
        ),
    )


def _fold_note(counts: Counter[ReadingClass]) -> Element | None:
    """What the page does not mark at first, and how to see it: shown while the box is unticked."""
    n = sum(counts[c] for c in FOLDED)
    if not n:
        return None
    names = "、".join(CLASS_LABELS[c][0] for c in FOLDED)
    return el("p", {"class": "fold-note"}, f"另有{names} {n} 處未標出（勾選「{names}」顯示）。")


def _bar(ctx: Context, targets: PageTargets) -> Element:
    wits = el("span", {"class": "wits"})
    for i, info in enumerate(ctx.collation.witnesses):
        role = "底本" if info.siglum == ctx.collation.base else "案語所引" if info.sparse else "校本"
        if i:
            append_text(wits, " · ")
        wits.append(el("span", {"title": info.path}, f"{role} ", el("b", None, info.label), f" {info.siglum}"))
    tabs = el(
        "nav",
        {"class": "tabs", "role": "tablist"},
        el("button", {"type": "button", "data-view": "text", "aria-selected": "true", "role": "tab"}, "讀本"),
        el("button", {"type": "button", "data-view": "syn", "aria-selected": "false", "role": "tab"}, "對照"),
    )
    return el("header", {"class": "bar"}, el("h1", None, ctx.collation.title), wits, tools(ctx, targets), tabs)


def _filters(ctx: Context, counts: Counter[ReadingClass]) -> Element:
    """Checkboxes: one per reading class present (its sample is the legend), one for the
    graphic confusions (形近) if any, one per layer."""
    classes = el("fieldset", None, el("legend", None, "異文"))
    for c in ReadingClass:
        if counts[c]:
            zh, en = CLASS_LABELS[c]
            box = el("input", {"type": "checkbox", "data-hide": css(c)} | ({} if c in FOLDED else {"checked": ""}))
            sample = el("span", {"class": f"swatch v {css(c)}"}, zh)
            classes.append(
                el("label", {"title": en}, box, " ", sample, " ", el("span", {"class": "n"}, str(counts[c])))
            )
    confusions = sum(1 for _, locus in ctx.shown if lookalike(locus))
    if confusions:
        box = el("input", {"type": "checkbox", "data-hide": LOOKALIKE_CSS, "checked": ""})
        sample = el("span", {"class": f"swatch v {css(ReadingClass.SUBSTANTIVE)}"}, "形近")
        title = "graphic confusions (look-alike characters)"
        n = el("span", {"class": "n"}, str(confusions))
        classes.append(el("label", {"title": title}, box, " ", sample, " ", n))
    works = quoted_works(ctx.base)
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


# Classes whose loci the page opens without marking (their box unticked), counted in the panel:
# graphs of one word (異體, 爲/為) are most of the loci of many editions and hide the readings.
FOLDED = (ReadingClass.ORTHOGRAPHIC,)

# The stylesheets and scripts, inlined into the page's one <style> and one <script> in this
# order: the page, the panel and the filters first, then the tools (search, pages, side by
# side). The scripts talk through DOM events, not globals.
_STYLES = ("view.css", "tools.css")
_SCRIPTS = ("view.js", "tools.js")


def _asset(name: str) -> str:
    """A stylesheet or script shipped beside this package, to inline into the page."""
    return (resources.files("collate.exporters") / "html_assets" / name).read_text(encoding="utf-8")


__all__ = [
    "EXPORTER",
    "FOLDED",
    "ClaimCheck",
    "HtmlExporter",
    "build_html",
    "display_class",
    "is_script_only",
    "run_html",
    "shown_loci",
    "shown_readings",
    "write_html",
]
