"""The collation as one HTML page: the base text by layer, its variant loci marked, a panel per locus.

The page is self-contained (its CSS and JS inlined from ``collate/exporters/html_assets/``;
no font, script or style is fetched) and built from lxml elements, written piece by piece, so a witness's
characters are always text: a witness reading ``<script>`` shows those eight characters.

* :mod:`.text` lays the base witness out as an edition, from its spans in file order;
* :mod:`.panel` makes the section shown for each locus, and the coverage strips;
* :mod:`.synopsis` makes the synoptic view (a column per witness, a row per passage);
* :mod:`.claims` says the notes' claims and their verdicts in Chinese;
* :mod:`.tools` makes the reader's tools: search, a jump to any witness's page, witness switches;
* :mod:`.page` puts a page together: its head, bar, panel and filters, its views written a piece at a time;
* :mod:`.common` holds what they share: labels, safe elements, which loci are shown;
  :mod:`.context` the collation indexed once for the page.

A collation too large for one page (a book) is written as an index and its parts beside it, each
part a page like this one for its stretch of the base: :mod:`.parts` cuts the text, :mod:`.book`
makes the parts, :mod:`.contents` writes the pages (and, once, the stylesheet and scripts every part
loads from beside it), :mod:`.search` the search data of each part.

Readings that differ from the lemma only by script (賓/宾) are never shown as variants.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree

from collate.apparatus import Collation, is_script_only
from collate.exporters.html.common import ClaimCheck, display_class, shown_loci, shown_readings
from collate.exporters.html.contents import write_book
from collate.exporters.html.context import Context
from collate.exporters.html.page import (
    FOLDED,
    SCRIPTS,
    Tally,
    bar,
    body_class,
    head,
    panel,
    scripts,
    write_details,
    write_views,
)
from collate.exporters.html.printing import apparatus, number_marks, print_head
from collate.exporters.html.synopsis import layer_views
from collate.exporters.html.text import base_text
from collate.exporters.html.tools import page_targets, tools
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
    return _page(Context.of(collation, base, witnesses or {base.siglum: base}, decisions or {}, checks, facs))


def _page(ctx: Context) -> str:
    out = io.BytesIO()
    with etree.htmlfile(out, encoding="utf-8") as page:
        _write_document(ctx, page)
    return out.getvalue().decode("utf-8") + "\n"


def run_context(
    data: ExportInput,
    *,
    decisions: Mapping[str, EditorDecision] | None = None,
    checks: Sequence[ClaimCheck] | None = None,
) -> Context:
    """The collation of a run indexed for its pages: on its base witness, every witness as read.

    ``checks`` default to those of the notes stage, if it ran.
    """
    if checks is None:
        checks = data.notes.checks if data.notes is not None else ()
    facs = {siglum: b.facs for siglum, b in data.bibl.items() if b.facs}
    return Context.of(data.collation, data.base, data.witnesses, decisions or {}, checks, facs)


def run_html(
    data: ExportInput,
    *,
    decisions: Mapping[str, EditorDecision] | None = None,
    checks: Sequence[ClaimCheck] | None = None,
) -> str:
    """The page of a run: its collation on its base witness, every witness as read.

    ``checks`` default to those of the notes stage, if it ran.
    """
    return _page(run_context(data, decisions=decisions, checks=checks))


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
    description = (
        "a self-contained HTML page: the base text with its variants marked, a synoptic view, coverage"
        " (a book's: an index, with a page a part beside it)"
    )

    def write(self, data: ExportInput, path: Path) -> list[Path] | None:
        """Write the page to ``path``; a book too large for one page, as its index there and its parts
        beside it (:mod:`.book`), whose paths are returned."""
        ctx = run_context(data)
        parts = write_book(ctx, path)
        if parts is None:
            write_atomic(path, _page(ctx))
        return parts


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
    tally = Tally.of(locus for _, locus in ctx.shown)
    blocks = base_text(ctx, targets.anchors)
    order = number_marks(blocks)  # the loci as the printed text numbers them, for its 校勘記
    with page.element("html", {"lang": "zh-Hant"}):
        page.write(head(ctx, f"{ctx.collation.title} 校勘記"))
        with page.element("body", body_class(tally)):
            page.write(bar(ctx, tools(ctx, targets)))
            with page.element("div", {"class": "page"}):
                with page.element("main"):
                    page.write(print_head(ctx))
                    write_views(page, blocks, layer_views(ctx))
                    page.write(apparatus(ctx, order, tally.folded))
                page.write(panel(ctx, tally))
            write_details(page, ctx)
            page.write(scripts(SCRIPTS))


__all__ = [
    "EXPORTER",
    "FOLDED",
    "ClaimCheck",
    "HtmlExporter",
    "build_html",
    "display_class",
    "is_script_only",
    "run_context",
    "run_html",
    "shown_loci",
    "shown_readings",
    "write_html",
]
