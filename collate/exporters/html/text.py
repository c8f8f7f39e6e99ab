"""The base witness laid out as an edition: its spans in file order, by layer, its loci marked.

* 經 is set large in paragraphs; a run-in title (礼记投壶) opens the passage it names.
* 注, 疏 and 釋文 follow inline in small print, behind their printed markers, as printed.
* A later commentator is a block of its own, indented, under its name; 蕙田案 and other
  editorial notes are boxed, with links to the loci they judge and their claims' verdicts.
* Headings before the text are the front matter; later ones (右投壶) close a section.
* Layout (brackets, the column break, indentation, line ends) is not drawn, but a layout
  span's punctuation is; printed page breaks are drawn where they fall. In a file that does
  not mark printed lines, a line end ends the paragraph.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import pairwise

from collate.exporters.html.claims import NoteFooters
from collate.exporters.html.common import CARET, LAYER_LABELS, Element, append_text, el, quoted_works, work_css
from collate.exporters.html.context import Context, Mark
from collate.exporters.html.tools import page_key
from collate.model import Layer, MarkerKind, MarkKind, Role, Span
from collate.model.chars import GETA
from collate.model.citation import HTML

# Small print printed inside a 經 paragraph.
_SMALL_PRINT = (Layer.ZHU, Layer.SHU, Layer.SHIWEN)
# The layers a compilation quotes (under a run-in title naming the work).
_QUOTED = (Layer.JING, *_SMALL_PRINT)
# Printed layer markers and the layer each opens (the readers label a marker with its kind).
# What a printed layer marker opens, by how its label or its words begin (注, 郑注, 疏, 文疏『…』,
# 註疏 (疏 on the 注), 正義曰, 釋文 …).
_MARKER_LAYERS = (
    # 注正義曰 opens the 疏 on the 注, not 注: before 注, which it begins with.
    ("注正義", Layer.SHU),
    ("注", Layer.ZHU),
    ("鄭注", Layer.ZHU),
    ("郑注", Layer.ZHU),
    ("疏", Layer.SHU),
    ("文疏", Layer.SHU),
    ("註疏", Layer.SHU),
    ("正義", Layer.SHU),
    ("釋文", Layer.SHIWEN),
    ("音義", Layer.SHIWEN),
)
# Brackets around a marker's words are layout (【注, _{ … }); a marker without words is not drawn.
_MARKER_BRACKETS = "【】_{}<>()（）[]"
# Punctuation a layout span may hold: not text to align, but kept for display.
_PUNCTUATION = frozenset("，。、：；！？「」『』“”《》〈〉．·\u2018\u2019")
# Opening brackets of small print: a commentator's passage behind one is printed small.
_SMALL_OPEN = ("(", "（")


@dataclass(frozen=True, slots=True)
class Block:
    """A block of the text laid out, the raw offset it begins at, and what opens it: ``front``, ``title`` (a
    run-in title), ``close`` (a heading closing a section: 右投壺), ``para``, ``commentary`` or ``note``.
    ``units``: a paragraph's units (a 經 run and its small print) by start, where a long one may be cut."""

    element: Element
    start: int
    kind: str
    units: Mapping[Element, int] = field(default_factory=dict)


def base_text(ctx: Context, anchors: Mapping[int, tuple[tuple[str, str], ...]] | None = None) -> list[Element]:
    """The base witness as a list of blocks: front matter, paragraphs, commentators, notes.

    ``anchors`` are other witnesses' pages placed in the base (raw offset → (siglum, label)):
    each is drawn as an empty anchor where it falls, for the page selector to jump to.
    """
    return _Layout(ctx, anchors or {}).build()


def base_blocks(ctx: Context, anchors: Mapping[int, tuple[tuple[str, str], ...]] | None = None) -> list[Block]:
    """The blocks of :func:`base_text`, each with its place in the base and its kind (a book's parts are cut
    between them)."""
    layout = _Layout(ctx, anchors or {})
    elements = layout.build()
    kinds = ([(0, "front")] if layout.front is not None else []) + layout.kinds
    units: dict[Element, dict[Element, int]] = {}
    for unit, (para, at) in layout.units.items():
        units.setdefault(para, {})[unit] = at
    return [Block(e, start, kind, units.get(e, {})) for e, (start, kind) in zip(elements, kinds, strict=True)]


class _Layout:
    """Walks the base's spans once, opening a block whenever the kind of text changes."""

    def __init__(self, ctx: Context, anchors: Mapping[int, tuple[tuple[str, str], ...]]) -> None:
        self.ctx = ctx
        self.w = ctx.base
        self.anchors = anchors
        self.anchor_offsets = sorted(anchors)
        self.out: list[Element] = []
        self.front: Element | None = None
        self.block: Element | None = None
        self.key: tuple[str, int] | None = None
        self.small: Element | None = None
        self.small_layer: Layer | None = None
        # The 經 run of a paragraph and the small print after it: one unit, read side by side.
        self.unit: tuple[Element, Element] | None = None
        self.block_range: tuple[int, int] | None = None
        self.last_layout = ""
        # A compilation's quoted works: each paragraph of one is marked, for the filter by work.
        self.works = quoted_works(self.w)
        self.work: str | None = None
        self.pages = sorted((m for m in self.w.marks if m.kind is MarkKind.PAGE), key=lambda m: m.offset)
        self.page_offsets = [m.offset for m in self.pages]
        self.pending: list[str] = []
        self.seen_pages = 0
        self.points = self._home_points()
        self.subs = sorted(self.w.substitutions, key=lambda x: x.start)
        self.sub_starts = [x.start for x in self.subs]
        self.footers = NoteFooters(ctx)
        # Where each block and unit begins (base_blocks): ``at``, the start of the span laid out.
        self.at = 0
        self.kinds: list[tuple[int, str]] = []
        self.units: dict[Element, tuple[Element, int]] = {}
        # A file that marks its printed lines breaks lines where the page does: a line end is
        # layout. Without them (punctuated e-texts, web copies), a line end ends a paragraph.
        self.line_paragraphs = not any(m.kind is MarkKind.LINE for m in self.w.marks)
        # Per layer, the marked ranges (disjoint, in order) and their ends, to find them by bisection.
        self.ranges: dict[Layer, tuple[tuple[Mark, ...], list[int]]] = {}
        for layer, marks in ctx.marks.items():
            ranges = tuple(m for m in marks if not m.point)
            self.ranges[layer] = ranges, [m.end for m in ranges]

    def _home_points(self) -> dict[int, list[Mark]]:
        """The insertion points to draw in each span (by span index).

        A point is drawn in the text span of its layer that holds it; a point at the very end
        of a span (or of the layer) in the last span of its layer that ends there or before.
        """
        homes: dict[int, list[Mark]] = {}
        spans = [(k, s) for k, s in enumerate(self.w.spans) if s.role is Role.TEXT]
        for layer, marks in self.ctx.marks.items():
            own = [(k, s) for k, s in spans if s.layer is layer]
            # A layer's spans are disjoint and in file order: found by bisection.
            starts = [s.start for _, s in own]
            ends = [s.end for _, s in own]
            for m in marks:
                if not m.point:
                    continue
                home = None
                at = bisect_right(starts, m.start) - 1
                if at >= 0 and m.start < own[at][1].end:
                    home = own[at][0]
                else:
                    before = bisect_right(ends, m.start) - 1
                    home = own[before][0] if before >= 0 else None
                if home is not None:
                    homes.setdefault(home, []).append(m)
        return homes

    def build(self) -> list[Element]:
        for k, span in enumerate(self.w.spans):
            self.span(k, span)
        # Page breaks after the last text begin pages with nothing on them: not drawn.
        self.close()
        return ([self.front] if self.front is not None else []) + self.out

    # Blocks.

    def close(self) -> None:
        if self.block is not None and self.key is not None and self.key[0] == "note" and self.block_range:
            footer = self.footers.footer(*self.block_range)
            if footer is not None:
                self.block.append(footer)
        self.block = self.key = self.small = self.block_range = self.unit = None

    def open(self, key: tuple[str, int], element: Element, kind: str = "") -> Element:
        self.close()
        if key[0] == "para" and self.work is not None:
            element.set("class", f"{element.get('class')} {work_css(self.works, self.work)}")
        self.block, self.key = element, key
        self.out.append(element)
        self.kinds.append((self.at, kind or key[0]))
        return element

    def container(self) -> Element:
        if self.small is not None:
            return self.small
        if self.block is None:
            return self.open(("para", -1), el("p", {"class": "para"}))
        if self.unit is not None and self.key is not None and self.key[0] == "para":
            return self.unit[0]
        return self.block

    def classic(self) -> Element:
        if self.block is None or self.key is None or self.key[0] != "para":
            return self.open(("para", 0), el("p", {"class": "para"}))
        return self.block

    def jing(self) -> Element:
        """Where 經 goes: the paragraph's open unit, or a new one once small print followed the last."""
        para = self.classic()
        if self.unit is None or len(self.unit[1]):
            self.unit = self._new_unit(para)
        return self.unit[0]

    def small_print(self, layer: Layer) -> Element:
        para = self.classic()
        if self.unit is None:
            # Small print before any 經 of the paragraph: a unit with no 經.
            self.unit = self._new_unit(para)
        if self.small is None or self.small_layer is not layer:
            # A run of one layer: 注 and the 疏 after it are hidden, and set apart, each on its own.
            self.small, self.small_layer = el("span", {"class": f"sp s-{layer.value}"}), layer
            self.unit[1].append(self.small)
        return self.small

    def _new_unit(self, para: Element) -> tuple[Element, Element]:
        # Inline spans: the paragraph reads as printed; the side-by-side view sets them as a grid.
        jing, small = el("span", {"class": "uj"}), el("span", {"class": "uc"})
        unit = el("span", {"class": "u"}, jing, small)
        para.append(unit)
        self.units[unit] = (para, self.at)
        return jing, small

    # The spans.

    def span(self, k: int, s: Span) -> None:
        self.at = s.start
        text = self.w.text[s.start : s.end]
        if s.layer.is_text or s.layer is Layer.HEADING:
            # The work the text is of: a paragraph opened from here on is of it (None: of none).
            self.work = s.work if s.layer in (Layer.HEADING, *_QUOTED) else None
        if s.layer is Layer.MARKUP:
            if s.role is Role.MARKER:
                self.advance(s.start + 1)
                self.marker(s, text)
            else:
                self.advance(s.end)
                self.last_layout = text
                shown = "".join(c for c in text if c in _PUNCTUATION)
                if shown and self.block is not None:
                    append_text(self.container(), shown)
                if self.line_paragraphs and "\n" in text:
                    self.close()
            return
        if s.layer is Layer.HEADING:
            self.advance(s.start + 1)
            self.heading(s, text)
        elif s.layer is Layer.JING:
            self.small = None
            self.emit(k, s, self.jing())
        elif s.layer in _SMALL_PRINT:
            self.emit(k, s, self.small_print(s.layer))
        elif s.layer in (Layer.COMMENTARY, Layer.NOTE):
            self.block_of(s)
            a, b = self.block_range or (s.start, s.end)
            self.block_range = (min(a, s.start), max(b, s.end))
            if s.role is Role.ATTRIBUTION:
                self.advance(s.start + 1)
                self.flush_pages(self.container())
                self.container().append(el("span", {"class": "attr"}, text))
            else:
                self.emit(k, s, self.container())
        else:
            # Boilerplate (web page furniture) is not the work's text: not drawn.
            self.advance(s.end)
        self.last_layout = ""

    def block_of(self, s: Span) -> None:
        kind = "note" if s.layer is Layer.NOTE else "commentary"
        if self.key == (kind, s.unit):
            return
        if kind == "note":
            self.open((kind, s.unit), el("aside", {"class": "note l-note"}))
        else:
            small = " small" if self.last_layout.rstrip("\u3000 ").endswith(_SMALL_OPEN) else ""
            self.open((kind, s.unit), el("div", {"class": f"commentary l-commentary{small}"}))

    def heading(self, s: Span, text: str) -> None:
        if s.work or s.heading:
            # A run-in title (礼记投壶) opens the passage it names.
            para = self.open(("para", s.unit), el("p", {"class": "para"}), "title")
            self.flush_pages(para)
            para.append(el("span", {"class": "title"}, text))
            return
        if not self.out:
            # Front matter: styled by what the reader took it for (collection, title, author …).
            key = next((k for k, v in self.w.metadata if v == text.strip()), "front")
            if self.front is None:
                self.front = el("header", {"class": "front"})
            self.flush_pages(self.front)
            self.front.append(el("p", {"class": f"heading h-{key}"}, text))
            return
        head = self.open(("heading", s.unit), el("p", {"class": "heading h-close"}), "close")
        self.flush_pages(head)
        append_text(head, text)
        self.close()

    def marker(self, s: Span, text: str) -> None:
        """Draw a printed marker (注, 疏, 正義曰, 〇 …) in a small box; brackets and file markup are layout."""
        word = "".join(c for c in text.strip() if c not in _MARKER_BRACKETS)
        if not any(_is_ideograph(c) for c in word) or _is_file_markup(s.marker):
            return
        layer = _marker_layer(s.marker or "", word)
        if layer is not None and (self.key is None or self.key[0] == "para"):
            target, names, title = self.small_print(layer), f"mk m-{layer.value}", LAYER_LABELS[layer]
        else:
            target, names, title = self.container(), "mk", s.marker or word
        self.flush_pages(target)
        target.append(el("span", {"class": names, "title": title}, word))

    def _ranges_in(self, s: Span) -> list[Mark]:
        """The marked ranges of the span's layer that overlap it."""
        ranges, ends = self.ranges.get(s.layer, ((), []))
        found = []
        for m in ranges[bisect_right(ends, s.start) :]:
            if m.start >= s.end:
                break
            found.append(m)
        return found

    # Printed pages.

    def advance(self, limit: int) -> None:
        """Queue the page breaks before ``limit``: drawn before the next thing shown."""
        while self.seen_pages < len(self.pages) and self.pages[self.seen_pages].offset < limit:
            self.pending.append(self.pages[self.seen_pages].label)
            self.seen_pages += 1

    def flush_pages(self, parent: Element) -> None:
        for label in self.pending:
            title = f"{self.w.label} {HTML.page_alone(label)}"
            attrs = {"class": "pb", "title": title, "data-page": page_key(self.w.siglum, label)}
            parent.append(el("span", attrs, label))
        self.pending = []

    # Text with its loci marked.

    def emit(self, k: int, s: Span, parent: Element) -> None:
        """Append the text of span ``s`` to ``parent``: its layer's class, loci marked, pages kept."""
        box = el("span", {"class": f"l-{s.layer.value}"})
        parent.append(box)
        marks = self._ranges_in(s)
        points = self.points.get(k, [])
        cuts = {s.start, s.end}
        cuts.update(x for m in marks for x in (m.start, m.end) if s.start < x < s.end)
        cuts.update(p.start for p in points if s.start < p.start < s.end)
        pages = self.page_offsets
        cuts.update(pages[bisect_right(pages, s.start) : bisect_left(pages, s.end)])
        first, last = bisect_left(self.sub_starts, s.start), bisect_left(self.sub_starts, s.end)
        subs = [x for x in self.subs[first:last] if x.end <= s.end]
        cuts.update(o for x in subs for o in (x.start, x.end))
        anchors = self.anchor_offsets[
            bisect_left(self.anchor_offsets, s.start) : bisect_left(self.anchor_offsets, s.end)
        ]
        cuts.update(anchors)
        for a, b in pairwise(sorted(cuts)):
            self.advance(a + 1)
            self.flush_pages(box)
            for siglum, label in self.anchors.get(a, ()) if a in anchors else ():
                title = f"{self.ctx.label(siglum)} {label}"
                box.append(el("span", {"class": "pg", "data-page": page_key(siglum, label), "title": title}))
            box.extend(el("span", p.attrs(" ins"), CARET) for p in points if p.start == a)
            mark = next((m for m in marks if m.start <= a < m.end), None)
            target = box if mark is None else el("span", mark.attrs())
            sub = next((x for x in subs if x.start == a), None)
            if sub is not None:
                # A gaiji entity (&KR0002;) reads as its character, 〓 where none is known; its
                # code (KR0002) stays in the tooltip.
                code = sub.code or self.w.text[a:b].strip("&;")
                target.append(el("span", {"class": "gaiji", "title": f"{code} {sub.source}"}, sub.replacement or GETA))
            else:
                append_text(target, self.w.text[a:b])
            if mark is not None:
                box.append(target)
        box.extend(el("span", p.attrs(" ins"), CARET) for p in points if p.start >= s.end)


def _marker_layer(label: str, word: str) -> Layer | None:
    for name in (label, word):
        for prefix, layer in _MARKER_LAYERS:
            if name.startswith(prefix):
                return layer
    return None


# The markers a Mandoku container names (the file's own ``#+`` keywords are named as written).
_FILE_MARKUP = frozenset(
    {MarkerKind.ORG, MarkerKind.ORG_HEADING, MarkerKind.PAGE, MarkerKind.MILESTONE, MarkerKind.LACUNA}
)


def _is_file_markup(label: str | None) -> bool:
    """A container's own marker (an org line, a page marker, a comment): the file's, not the print's words."""
    return label is not None and (label.startswith("#") or label in _FILE_MARKUP)


def _is_ideograph(char: str) -> bool:
    cp = ord(char)
    return 0x3400 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or cp >= 0x20000 or char == "〇"
