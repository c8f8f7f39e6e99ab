"""The collation as one HTML page: the base text by layer, its variant loci marked, a panel per locus.

The page is self-contained (its CSS and JS inlined from ``collate/exporters/html_assets/``;
no font, script or style is fetched) and built as an element tree with lxml, so a witness's
characters are always text: a witness reading ``<script>`` shows those eight characters.

* :mod:`.text` lays the base witness out as an edition, from its spans in file order;
* :mod:`.panel` makes the section shown for each locus, and the coverage strips;
* :mod:`.synopsis` makes the synoptic view (the witnesses interlinear);
* :mod:`.common` holds what they share: labels, safe elements, which loci are shown.

Readings that differ from the lemma only by script (賓/宾) are never shown as variants.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from lxml.html import tostring

from collate.apparatus import Collation, ReadingClass
from collate.exporters.html.common import (
    CLASS_LABELS,
    LAYER_LABELS,
    ClaimCheck,
    Context,
    Element,
    append_text,
    css,
    display_class,
    el,
    is_script_only,
    shown_loci,
    shown_readings,
)
from collate.exporters.html.panel import coverage, detail
from collate.exporters.html.synopsis import synopsis
from collate.exporters.html.text import base_text
from collate.files import write_atomic
from collate.model import Witness

if TYPE_CHECKING:
    from collate.exporters import ExportInput
    from collate.review.records import EditorDecision


def build_html(
    collation: Collation,
    base: Witness,
    *,
    witnesses: Mapping[str, Witness] | None = None,
    decisions: Mapping[str, EditorDecision] | None = None,
    checks: Sequence[ClaimCheck] = (),
) -> str:
    """The collation as a self-contained HTML page, laid out on the base witness's own text.

    ``witnesses`` (every witness as read, by siglum) give the printed places of the witnesses
    that agree with the lemma; ``decisions`` (locus id → the editor's decision) are shown
    over those the loci carry; ``checks`` (the notes' claims checked) are shown under the
    notes and in the loci they concern.
    """
    ctx = Context.of(collation, base, witnesses or {base.siglum: base}, decisions or {}, checks)
    html = tostring(_document(ctx), doctype="<!DOCTYPE html>", encoding="unicode", method="html")
    return str(html) + "\n"


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
    return build_html(data.collation, data.base, witnesses=data.witnesses, decisions=decisions, checks=checks)


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


def _document(ctx: Context) -> Element:
    head = el(
        "head",
        None,
        el("meta", {"charset": "utf-8"}),
        el("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}),
        el("meta", {"name": "generator", "content": "collate"}),
        el("title", None, f"{ctx.collation.title} 校勘記"),
        el("style", None, _asset("view.css")),
    )
    main = el(
        "main",
        None,
        el("section", {"id": "view-text", "class": "view text", "aria-label": "讀本"}, *base_text(ctx)),
        el("section", {"id": "view-syn", "class": "view syn", "aria-label": "對照", "hidden": ""}, *synopsis(ctx)),
    )
    counts = Counter(display_class(locus) for _, locus in ctx.shown)
    panel = el(
        "aside",
        {"id": "panel", "aria-label": "校記"},
        _filters(ctx, counts),
        el(
            "div", {"id": "panel-body", "aria-live": "polite"}, el("div", {"class": "overview"}, _hint(), coverage(ctx))
        ),
    )
    details = el("div", {"id": "details", "hidden": ""}, *(detail(ctx, r, x) for r, x in ctx.shown))
    body = el(
        "body",
        None,
        _bar(ctx),
        el("div", {"class": "page"}, main, panel),
        details,
        el("script", None, _asset("view.js")),
    )
    return el("html", {"lang": "zh-Hant"}, head, body)


def _bar(ctx: Context) -> Element:
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
    return el("header", {"class": "bar"}, el("h1", None, ctx.collation.title), wits, tabs)


def _filters(ctx: Context, counts: Counter[ReadingClass]) -> Element:
    """Checkboxes: one per reading class present (its sample is the legend), one per layer."""
    classes = el("fieldset", None, el("legend", None, "異文"))
    for c in ReadingClass:
        if counts[c]:
            zh, en = CLASS_LABELS[c]
            box = el("input", {"type": "checkbox", "data-hide": css(c), "checked": ""})
            sample = el("span", {"class": f"swatch v {css(c)}"}, zh)
            classes.append(
                el("label", {"title": en}, box, " ", sample, " ", el("span", {"class": "n"}, str(counts[c])))
            )
    layers = el("fieldset", None, el("legend", None, "層次"))
    present = {s.layer for s in ctx.base.spans}
    for layer, zh in LAYER_LABELS.items():
        if layer in present:
            box = el("input", {"type": "checkbox", "data-hide": f"l-{layer.value}", "checked": ""})
            layers.append(el("label", {"title": layer.value}, box, f" {zh}"))
    return el("div", {"class": "filters"}, classes, layers)


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
        " 關閉。",
    )


def _asset(name: str) -> str:
    """A stylesheet or script shipped beside this package, to inline into the page."""
    return (resources.files("collate.exporters") / "html_assets" / name).read_text(encoding="utf-8")


__all__ = [
    "EXPORTER",
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
