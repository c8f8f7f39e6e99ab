"""A book's pages written: the index (its table of parts and a search of them all) and each part.

A part's page is the one page's (``_write_document`` in the package) for its stretch of the base:
the same head, bar, views, 校勘記, panel and scripts, with the way to the index and to the parts
either side; book-search.js searches the whole book, and parts.js keeps the numbering and filters
one with the other pages'. The index has the bar's search and jump, the filters with the book's counts,
and the table of the parts.

What every part has alike, the stylesheet and the scripts (some 70 KB), is written once beside the
parts (:meth:`Book.shared`) and loaded by a relative ``<link>`` and ``<script src>``: the book stays
a folder that opens from disk with no network, and does not carry them once a part. The index links
the same stylesheet; its scripts, not the parts' (it has no text for tools.js to search), stay inline.
"""

from __future__ import annotations

from collections.abc import Callable
from copy import deepcopy
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote

from lxml import etree

from collate.apparatus import Locus
from collate.exporters import part_name
from collate.exporters.html.book import Book, Part, index_tools, make_book, text_chars
from collate.exporters.html.common import Element, el
from collate.exporters.html.context import Context
from collate.exporters.html.page import (
    SCRIPTS,
    STYLES,
    bar,
    fold_note,
    head,
    panel,
    script_text,
    scripts,
    stylesheet,
    write_details,
    write_views,
)
from collate.exporters.html.parts import one_page
from collate.exporters.html.printing import apparatus, print_head
from collate.exporters.html.search import part_script
from collate.files import write_atomic, write_atomic_with

# A book's pages add their own rules and scripts to the one page's: the search of every part, and the
# way between the pages (which steps a part's own search to a hit, and so comes after it).
BOOK_STYLES = (*STYLES, "parts.css")
BOOK_SCRIPTS = ("book-search.js", "parts.js")


def write_book(ctx: Context, path: Path) -> list[Path] | None:
    """Write the collation of ``ctx`` as a book: the index at ``path``, the parts beside it; their paths.

    None, and nothing written, where the collation is one page (:func:`~.parts.one_page`) or makes
    one part only.
    """
    if one_page(len(ctx.shown), text_chars(ctx)):
        return None
    stem = path.name.removesuffix(".html")
    book = make_book(ctx, stem)
    if book is None:
        return None
    written = _write_shared(book, path)
    for part in book.parts:
        page = path.with_name(book.file(part.number))
        write_atomic_with(page, partial(_document, write=partial(write_part, book=book, part=part)))
        script = path.with_name(part_name(stem, part.number, ".js"))
        blocks = [(str(b.element.get("id")), b.element) for b in part.blocks]
        write_atomic(script, part_script(part.number, part.title, part.pages, blocks, _loci(part), book.hides(part)))
        written += [page, script]
    write_atomic_with(path, partial(_document, write=partial(write_index, book=book)))
    return written


def _write_shared(book: Book, path: Path) -> list[Path]:
    """Write what the pages share beside the index at ``path``: the stylesheet, the parts' scripts; their paths."""
    style = path.with_name(book.shared(".css"))
    # Named, a linked stylesheet's encoding holds wherever it is opened (its page's is only a fallback).
    write_atomic(style, f'@charset "utf-8";\n{stylesheet(book.ctx, BOOK_STYLES)}\n')
    script = path.with_name(book.shared(".js"))
    write_atomic(script, script_text((*SCRIPTS, *BOOK_SCRIPTS)) + "\n")
    return [style, script]


def _stylesheet(book: Book) -> Element:
    return el("link", {"rel": "stylesheet", "href": quote(book.shared(".css"))})


def _document(out: BinaryIO, write: Callable[[Any], None]) -> None:
    """A page written into ``out`` by ``write`` (given lxml's incremental writer), ended as the one page is."""
    with etree.htmlfile(out, encoding="utf-8") as page:
        write(page)
    out.write(b"\n")


def _loci(part: Part) -> list[Locus]:
    return [locus for _, locus in part.ctx.shown]


def write_part(page: Any, book: Book, part: Part) -> None:
    """Write the page of ``part`` with lxml's incremental writer ``page``."""
    ctx, tally = part.ctx, part.tally
    page.write_doctype("<!DOCTYPE html>")
    with page.element("html", {"lang": "zh-Hant"}):
        page.write(head(ctx, f"{ctx.collation.title} 校勘記 · {book.label(part)}", _stylesheet(book)))
        with page.element("body", book.body(part.number)):
            page.write(bar(ctx, book.tools_for(part.number), _nav(book, part)))
            with page.element("div", {"class": "page"}):
                with page.element("main"):
                    heading = print_head(ctx)
                    heading.append(el("p", {"class": "part-of"}, f"{book.label(part)}　{part.title}　{part.pages}"))
                    page.write(heading)
                    write_views(page, (b.element for b in part.blocks), book.synopsis.views(part.number - 1))
                    page.write(_foot(book, part))
                    page.write(apparatus(ctx, list(part.order), tally.folded))
                page.write(panel(ctx, tally, book.tally))
            write_details(page, ctx)
            page.write(el("div", {"id": "book-hits", "class": "book-hits pop", "hidden": "", "aria-live": "polite"}))
            page.write(el("script", {"src": quote(book.shared(".js"))}))


def _nav(book: Book, part: Part) -> Element:
    """In the bar: the index, the part before, which part this is, the part after."""
    nav = el("nav", {"class": "book-nav", "aria-label": "分部"})
    nav.append(el("a", {"href": book.href(0), "class": "toc-link", "title": "目錄：全書各部分"}, "目錄"))
    nav.append(_step(book, part.number - 1, "\u2039", "prev"))
    nav.append(el("span", {"class": "which", "title": part.title}, f"{part.number}/{len(book.parts)}"))
    nav.append(_step(book, part.number + 1, "\u203a", "next"))
    return nav


def _step(book: Book, number: int, arrow: str, rel: str) -> Element:
    if not 1 <= number <= len(book.parts):
        return el("span", {"class": "step off", "aria-hidden": "true"}, arrow)
    other = book.parts[number - 1]
    title = f"{'上' if rel == 'prev' else '下'}一部分：{book.label(other)} {other.title}"
    return el("a", {"href": book.href(number), "rel": rel, "class": "step", "title": title}, arrow)


def _foot(book: Book, part: Part) -> Element:
    """Under the text: the way on to the next part (or back), as at the end of a chapter."""
    foot = el("nav", {"class": "book-foot", "aria-label": "分部"})
    if part.number > 1:
        other = book.parts[part.number - 2]
        foot.append(
            el("a", {"href": book.href(other.number), "rel": "prev"}, f"\u2039 {book.label(other)} {other.title}")
        )
    foot.append(el("a", {"href": book.href(0), "class": "toc-link"}, "目錄"))
    if part.number < len(book.parts):
        other = book.parts[part.number]
        foot.append(
            el("a", {"href": book.href(other.number), "rel": "next"}, f"{book.label(other)} {other.title} \u203a")
        )
    return foot


def write_index(page: Any, book: Book) -> None:
    """Write the book's index with lxml's incremental writer ``page``."""
    ctx = book.ctx
    body = book.body(0)
    body["class"] = f"{body.get('class', '')} book-index".strip()
    page.write_doctype("<!DOCTYPE html>")
    with page.element("html", {"lang": "zh-Hant"}):
        page.write(head(ctx, f"{ctx.collation.title} 校勘記 · 目錄", _stylesheet(book)))
        with page.element("body", body):
            page.write(bar(ctx, index_tools(book), tabs=False))
            with page.element("div", {"class": "page"}):
                with page.element("main"):
                    front = next((b.element for b in book.parts[0].blocks if b.kind == "front"), None)
                    if front is not None:
                        front = deepcopy(front)
                        del front.attrib["id"]
                        page.write(front)
                    # A search's hits above the table: where the eye is after typing.
                    page.write(el("section", {"id": "book-hits", "class": "book-hits", "aria-live": "polite"}))
                    page.write(_contents(book))
                overview = el("div", {"class": "overview"}, _index_hint(book), fold_note(book.tally))
                page.write(panel(ctx, book.tally, overview=overview))
            page.write(scripts(("view.js", *BOOK_SCRIPTS)))


def _index_hint(book: Book) -> Element:
    return el(
        "p",
        {"class": "hint"},
        f"全書分為 {len(book.parts)} 部分，各為一頁。檢索遍及各部分；篩選所選，各部分皆同。",
    )


def _contents(book: Book) -> Element:
    """The table of the parts: each with its headings, its pages, its characters and its loci."""
    rows = el("tbody")
    for part in book.parts:
        tally = part.tally
        loci = el("td", {"class": "num"}, f"{sum(tally.classes.values()) - tally.folded:,} 條")
        if tally.folded:
            loci.append(el("span", {"class": "folded"}, f"（另異體 {tally.folded:,}）"))
        rows.append(
            el(
                "tr",
                None,
                el("td", None, el("a", {"href": book.href(part.number)}, book.label(part))),
                el("td", {"class": "heads"}, part.title),
                el("td", {"class": "pages"}, part.pages),
                el("td", {"class": "num"}, f"{part.chars:,} 字"),
                loci,
            )
        )
    head_row = el("tr", None, *(el("th", {"scope": "col"}, name) for name in ("部分", "篇目", "底本", "字數", "校記")))
    table = el("table", {"class": "toc-table"}, el("thead", None, head_row), rows)
    return el("section", {"class": "toc", "aria-label": "目錄"}, el("h2", None, "目錄"), table)
