"""A book's HTML: an index page, and its text in parts beside it, each part a page as the one page is.

A collation larger than a page can bear (:func:`~collate.exporters.html.parts.one_page`) is written
as files side by side, so that a browser opens the index or one part, never the whole book:

* ``touhu.html``, the index (:mod:`.contents`): the title bar, the witnesses, the filters with the
  book's counts, a table of the parts and a search of them all;
* ``touhu.part-001.html`` …, a page a part (:mod:`.parts` cuts them): the bar with the way to the
  index and the parts either side, the text, the synopsis, the 校勘記 and a panel for each locus of
  its stretch of the base, with the same tools as the one page;
* ``touhu.part-001.js`` …, what the search looks in, a script a part (:mod:`.search`);
* ``touhu.part-000.css`` and ``touhu.part-000.js``, the stylesheet (the index's too) and the
  scripts every part has, written once and loaded by each rather than inlined into each: a book of
  32 parts would carry them 32 times.

Side by side rather than in a folder: the output set (:mod:`collate.runs.outputs`) names its files,
renames each into place and hashes each in its manifest, and a part named after the output is one
more such file (:func:`collate.exporters.part_name`); a folder would be a tree to swap whole.

Each part stands alone. Its loci are numbered as the book numbers them: its print's counters begin
where the parts before it end (:meth:`Book.before`, kept right by parts.js as the filters change);
links under a note to a locus of another part, and a page of another part chosen in the jump, lead
to that part.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterator, Sequence
from copy import deepcopy
from dataclasses import dataclass, replace
from itertools import groupby
from urllib.parse import quote

from collate.apparatus import LayerResult, Locus
from collate.exporters import part_name
from collate.exporters.html.common import LOOKALIKE_CSS, Element, css, display_class, el, lookalike, witnesses_shown
from collate.exporters.html.context import Context, base_tokens, raw_range
from collate.exporters.html.page import FOLDED, Tally
from collate.exporters.html.parts import cut_paragraphs, divide, rejoin
from collate.exporters.html.printing import number_marks
from collate.exporters.html.synopsis import PartViews
from collate.exporters.html.text import Block, base_blocks
from collate.exporters.html.tools import page_targets, tools
from collate.model import Layer
from collate.model.citation import HTML
from collate.normalize.tokenize import is_token_char


@dataclass(frozen=True)
class Part:
    """A part of a book: its number (from 1), its blocks, its context (the book's, with the part's loci
    shown), its loci in the order the print numbers them (with their work), where it begins in the
    base's raw text, its headings and its pages, its characters."""

    number: int
    blocks: tuple[Block, ...]
    ctx: Context
    order: tuple[tuple[str, str], ...]
    start: int
    title: str
    pages: str
    chars: int
    tally: Tally


class Book:
    """A collation cut into parts, ready to write (:func:`~.contents.write_book` writes it)."""

    def __init__(self, ctx: Context, stem: str, parts: list[Part], synopsis: PartViews, bar_tools: Element) -> None:
        self.ctx = ctx
        self.stem = stem
        self.parts = parts
        self.synopsis = synopsis
        self.tools = bar_tools
        # Each witness's pages in the jump, with the part each is in: (key, label, part), filled by _link.
        self.pages: dict[str, list[tuple[str, str, int]]] = {}
        self.tally = Tally.of(locus for _, locus in ctx.shown)
        # Each part's numbered loci by what can hide them from the print's count (see before()).
        by_id = {locus.id: locus for _, locus in ctx.shown}
        # What can hide each numbered locus, worked out once: the numbering and the search both read it.
        self.hiding = {locus: _kind(by_id[locus], work) for part in parts for locus, work in part.order}
        self.kinds = [Counter(self.hiding[locus] for locus, _ in part.order) for part in parts]

    def tools_for(self, number: int) -> Element:
        """The bar's tools of page ``number`` (0: the index), the jump listing where it goes (:func:`_options`)."""
        copy = deepcopy(self.tools)
        for select in copy.xpath(".//select[@data-for]"):
            select.extend(_options(self.pages.get(select.get("data-for"), []), number))
        return copy

    def file(self, number: int) -> str:
        """The file name of part ``number``; 0 is the index."""
        return f"{self.stem}.html" if number == 0 else part_name(self.stem, number, ".html")

    def shared(self, suffix: str) -> str:
        """The file of what every part shares, written once beside them (part 0): its stylesheet
        (``.css``) or its scripts (``.js``)."""
        return part_name(self.stem, 0, suffix)

    def href(self, number: int, fragment: str = "") -> str:
        """A link to part ``number`` (0: the index), at ``fragment`` if given."""
        return quote(self.file(number)) + (f"#{quote(fragment)}" if fragment else "")

    def before(self, part: Part) -> list[tuple[str, str, int]]:
        """The loci the parts before ``part`` number, grouped by what can hide them from the count: the
        classes a filter hides (class, 形近, layer, quoted work) and the witnesses shown there; and how many.
        """
        counts: Counter[tuple[str, str]] = Counter()
        for earlier in self.parts[: part.number - 1]:
            counts.update(self.kinds[earlier.number - 1])
        return [(names, wits, n) for (names, wits), n in counts.items()]

    def body(self, number: int) -> dict[str, str]:
        """The body's attributes of page ``number`` (0: the index): the folded classes hidden, what
        the scripts read (the book's files, this page's place), and where the print's numbers begin."""
        attrs = {"class": " ".join(f"hide-{css(c)}" for c in FOLDED)} if self.tally.folded else {}
        attrs |= {"data-book": self.stem, "data-part": str(number), "data-parts": str(len(self.parts))}
        if number:
            before = self.before(self.parts[number - 1])
            folded = {css(c) for c in FOLDED}
            start = sum(n for names, _, n in before if folded.isdisjoint(names.split()))
            attrs["data-before"] = json.dumps(before, ensure_ascii=False, separators=(",", ":"))
            attrs["style"] = f"counter-reset: jkj {start} jkj-e {start}"
        return attrs

    def hides(self, part: Part) -> dict[str, str]:
        """The filter classes that hide each locus of ``part`` (class, layer, work, 形近), by id."""
        by_id = {locus.id: locus for _, locus in part.ctx.shown}
        out = {x: css(display_class(locus)) + f" l-{locus.layer.value}" for x, locus in by_id.items()}
        out.update((x, self.hiding[x][0]) for x, _ in part.order if x in by_id)
        return out

    def label(self, part: Part) -> str:
        """第3部分 (of the book's parts)."""
        return f"第{part.number}部分"


def _kind(locus: Locus, work: str) -> tuple[str, str]:
    """What can hide a numbered locus from the print's count: the classes a filter hides (its class, 形近,
    its layer, its quoted work), and the witnesses whose readings it shows."""
    names = [css(display_class(locus)), f"l-{locus.layer.value}", work, LOOKALIKE_CSS if lookalike(locus) else ""]
    return " ".join(n for n in names if n), witnesses_shown(locus)


def text_chars(ctx: Context) -> int:
    """The characters of the base's text (its text layers and headings): what a page sets."""
    return sum(s.end - s.start for s in ctx.base.spans if s.layer.is_text or s.layer is Layer.HEADING)


def base_chars(ctx: Context, starts: Sequence[int]) -> list[int]:
    """The characters of the base's text between each of ``starts`` and the next (the last: to the end).

    What an editor counts as a part's 字數: the characters of its text and headings, each one a
    token would be (not punctuation, not layout, not what the page prints beside them).
    """
    bounds = [*starts[1:], len(ctx.base.text)]
    counts = [0] * len(starts)
    text = ctx.base.text
    known: dict[str, bool] = {}  # a book is a few thousand distinct characters, met again and again
    for span in ctx.base.spans:
        if not (span.layer.is_text or span.layer is Layer.HEADING):
            continue
        k = max(bisect_right(starts, span.start) - 1, 0)
        for i in range(span.start, span.end):
            while i >= bounds[k]:
                k += 1
            char = text[i]
            counted = known.get(char)
            if counted is None:
                counted = known[char] = is_token_char(char)
            counts[k] += counted
    return counts


def make_book(ctx: Context, stem: str) -> Book | None:
    """The collation cut into parts (:func:`~.parts.divide`), numbered, linked; None if it makes one part."""
    targets = page_targets(ctx)
    blocks, weights, origin = cut_paragraphs(base_blocks(ctx, targets.anchors))
    ranges = divide([b.kind for b in blocks], weights)
    if len(ranges) < 2:
        return None
    order = number_marks([b.element for b in blocks])  # the book's numbering: each part takes its share
    part_of = {locus: k for k, r in enumerate(ranges) for i in r for locus in weights[i].loci}
    starts = [blocks[r.start].start if k else 0 for k, r in enumerate(ranges)]
    for result, locus in ctx.shown:
        if locus.id not in part_of:
            # Not drawn (no base character to hang it on): in the part its place falls in, else the last.
            span = raw_range(locus, base_tokens(result))
            part_of[locus.id] = _part_at(starts, span[0]) if span is not None else len(ranges) - 1
    grouped = [rejoin([blocks[i] for i in r], origin) for r in ranges]
    for number, block in enumerate(b for group in grouped for b in group):
        block.element.set("id", f"b-{number}")  # what a search's hit links to
    shown: list[list[tuple[LayerResult, Locus]]] = [[] for _ in ranges]
    for x in ctx.shown:
        shown[part_of[x[1].id]].append(x)
    heads = _headings(grouped)
    counted = base_chars(ctx, starts)
    parts = [
        Part(
            k + 1,
            tuple(group),
            replace(ctx, shown=tuple(shown[k])),
            tuple(x for x in order if part_of.get(x[0]) == k),
            starts[k],
            heads[k],
            _pages(ctx, starts[k], starts[k + 1] if k + 1 < len(starts) else len(ctx.base.text)),
            counted[k],
            Tally.of(locus for _, locus in shown[k]),
        )
        for k, group in enumerate(grouped)
    ]
    book = Book(ctx, stem, parts, PartViews(ctx, starts), tools(ctx, targets))
    _link(book, part_of, grouped)
    return book


def _part_at(starts: Sequence[int], offset: int) -> int:
    return max(0, bisect_right(starts, offset) - 1)


def _headings(grouped: Sequence[Sequence[Block]]) -> list[str]:
    """Each part's headings (its run-in titles, 、-joined; the first four), or the one it continues (（續）)."""
    out: list[str] = []
    last = ""
    for group in grouped:
        titles: list[str] = []
        for block in group:
            if block.kind == "title":
                title = next((t for t in block.element.iter("span") if t.get("class") == "title"), None)
                if title is not None and title.text:
                    titles.append(title.text.strip())
        titles = list(dict.fromkeys(titles))
        if titles:
            out.append("、".join(titles[:4]) + ("等" if len(titles) > 4 else ""))
            last = titles[-1]
        else:
            out.append(f"{last}（續）" if last else "")
    return out


def _pages(ctx: Context, start: int, end: int) -> str:
    """The base's pages a part spans (頁1a – 頁16b), or its file's lines where it prints none."""
    first, last = ctx.base.locate(start), ctx.base.locate(max(start, end - 1))
    if first.page is None or last.page is None:
        return f"行{first.line} – 行{last.line}"
    a, b = HTML.page_alone(first.page), HTML.page_alone(last.page)
    return a if a == b else f"{a} – {b}"


def _link(book: Book, part_of: dict[str, int], grouped: Sequence[Sequence[Block]]) -> None:
    """Lead what points into another part there: a note's links to the loci it judges, the jump's pages."""
    page_part: dict[str, int] = {}
    for k, group in enumerate(grouped):
        for block in group:
            for node in block.element.iter("span", "a"):
                key = node.get("data-page")
                if key is not None:
                    page_part.setdefault(key, k + 1)
                locus = node.get("data-locus") if node.tag == "a" else None
                if locus is not None and part_of.get(locus, k) != k:
                    # The page's script opens a locus of this page; one of another part is a link there.
                    node.set("href", book.href(part_of[locus] + 1, locus))
                    del node.attrib["data-locus"]
    for select in book.tools.xpath(".//select[@data-for]"):
        # Each witness's pages with the part each is in (the part of the page before, for one not drawn).
        last = 1
        for option in list(select):
            last = page_part.get(option.get("value") or "", last)
            book.pages.setdefault(select.get("data-for"), []).append((option.get("value"), option.text, last))
            select.remove(option)
    for search in book.tools.xpath(".//span[@class='search']"):
        search.append(el("button", {"type": "button", "id": "q-book", "title": "檢索全書各部分"}, "全書"))


def _options(pages: Sequence[tuple[str, str, int]], number: int) -> Iterator[Element]:
    """A witness's pages in the jump of page ``number``: on the index (0) every page, its part marked where
    it changes (parts.js reads the last mark); on a part its own pages, and one entry for each other part
    it has pages in, which opens that part at the first of them."""
    last = 0
    for part, run in groupby(pages, key=lambda page: page[2]):
        run_pages = list(run)
        if number in (0, part):
            for key, label, _ in run_pages:
                marked = {"data-part": str(part)} if part != last or number else {}
                attrs = {"value": key} | marked | ({"selected": ""} if number and key == run_pages[0][0] else {})
                yield el("option", attrs, label)
                last = part
        else:
            first, end = run_pages[0][1], run_pages[-1][1]
            words = f"第{part}部分（{first}）" if first == end else f"第{part}部分（{first}–{end}）"
            yield el("option", {"value": run_pages[0][0], "data-part": str(part)}, words)
            last = part


def index_tools(book: Book) -> Element:
    """The index's tools: the search (of every part) and the jump to a page, without what reads a text."""
    copy = book.tools_for(0)
    for node in list(copy.iter("button")):
        if node.get("id") in ("parallel", "q-book") or node.get("data-hit") is not None:
            node.getparent().remove(node)
    return copy
