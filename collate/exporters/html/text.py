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
from itertools import pairwise

from collate.apparatus import Locus
from collate.exporters.html.common import (
    CLASS_LABELS,
    LAYER_LABELS,
    ClaimCheck,
    Context,
    Element,
    Mark,
    append_text,
    css,
    display_class,
    el,
    verdict,
)
from collate.model import Layer, MarkKind, Role, Span

# Small print printed inside a 經 paragraph.
_SMALL_PRINT = (Layer.ZHU, Layer.SHU, Layer.SHIWEN)
# Printed layer markers and the layer each opens (the readers label a marker with its kind).
# What a printed layer marker opens, by how its label or its words begin (注, 郑注, 疏, 文疏『…』,
# 註疏 (疏 on the 注), 正義曰, 釋文 …).
_MARKER_LAYERS = (
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
# Drawn where the base lacks text another witness has.
CARET = "+"


def base_text(ctx: Context) -> list[Element]:
    """The base witness as a list of blocks: front matter, paragraphs, commentators, notes."""
    return _Layout(ctx).build()


class _Layout:
    """Walks the base's spans once, opening a block whenever the kind of text changes."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.w = ctx.base
        self.out: list[Element] = []
        self.front: Element | None = None
        self.block: Element | None = None
        self.key: tuple[str, int] | None = None
        self.small: Element | None = None
        self.block_range: tuple[int, int] | None = None
        self.last_layout = ""
        self.pages = sorted((m for m in self.w.marks if m.kind is MarkKind.PAGE), key=lambda m: m.offset)
        self.page_offsets = [m.offset for m in self.pages]
        self.pending: list[str] = []
        self.seen_pages = 0
        self.points = self._home_points()
        self.subs = sorted(self.w.substitutions, key=lambda x: x.start)
        self.sub_starts = [x.start for x in self.subs]
        # Where the notes of the shown loci and the checked claims stand, for the notes' footers.
        self._footer_loci: tuple[list[int], list[tuple[int, Locus]]] | None = None
        self._footer_checks: tuple[list[int], list[int]] | None = None
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
            footer = self._note_footer(*self.block_range)
            if footer is not None:
                self.block.append(footer)
        self.block = self.key = self.small = self.block_range = None

    def open(self, key: tuple[str, int], element: Element) -> Element:
        self.close()
        self.block, self.key = element, key
        self.out.append(element)
        return element

    def container(self) -> Element:
        if self.small is not None:
            return self.small
        if self.block is None:
            return self.open(("para", -1), el("p", {"class": "para"}))
        return self.block

    def classic(self) -> Element:
        if self.block is None or self.key is None or self.key[0] != "para":
            return self.open(("para", 0), el("p", {"class": "para"}))
        return self.block

    def small_print(self, layer: Layer) -> Element:
        para = self.classic()
        if self.small is None:
            self.small = el("span", {"class": f"sp s-{layer.value}"})
            para.append(self.small)
        return self.small

    # The spans.

    def span(self, k: int, s: Span) -> None:
        text = self.w.text[s.start : s.end]
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
            self.emit(k, s, self.classic())
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
            para = self.open(("para", s.unit), el("p", {"class": "para"}))
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
        head = self.open(("heading", s.unit), el("p", {"class": "heading h-close"}))
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
            parent.append(el("span", {"class": "pb", "title": f"{self.w.label} 頁{label}"}, label))
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
        for a, b in pairwise(sorted(cuts)):
            self.advance(a + 1)
            self.flush_pages(box)
            box.extend(el("span", p.attrs(" ins"), CARET) for p in points if p.start == a)
            mark = next((m for m in marks if m.start <= a < m.end), None)
            target = box if mark is None else el("span", mark.attrs())
            sub = next((x for x in subs if x.start == a), None)
            if sub is not None:
                # A gaiji entity (&KR0002;) reads as its character; the entity stays in the tooltip.
                raw = self.w.text[a:b]
                target.append(el("span", {"class": "gaiji", "title": f"{raw} {sub.source}"}, sub.replacement or "〓"))
            else:
                append_text(target, self.w.text[a:b])
            if mark is not None:
                box.append(target)
        box.extend(el("span", p.attrs(" ins"), CARET) for p in points if p.start >= s.end)

    # Under a note: the loci it judges and its claims checked.

    def _note_footer(self, start: int, end: int) -> Element | None:
        items: list[Element | str] = []
        seen: set[str] = set()
        for locus in self._notes_between(start, end):
            if locus.id not in seen:
                seen.add(locus.id)
                items.append(_link(locus))
        for check in self._checks_between(start, end):
            items.extend((verdict(str(check.verdict.value)), f" {check.claim.summary()} "))
        if not items:
            return None
        return el("p", {"class": "judges"}, "校記：", *items)


    def _notes_between(self, start: int, end: int) -> list[Locus]:
        """The shown loci with a note standing in ``[start, end)``, in the order they are shown."""
        if self._footer_loci is None:
            rows = sorted(
                ((offset, i, locus)
                for i, (_, locus) in enumerate(self.ctx.shown)
                for note in locus.notes
                if (offset := self.ctx.offset_of(note.location)) is not None),
                key=lambda r: (r[0], r[1]),
            )
            self._footer_loci = ([r[0] for r in rows], [(r[1], r[2]) for r in rows])
        offsets, loci = self._footer_loci
        found = loci[bisect_left(offsets, start) : bisect_left(offsets, end)]
        return [locus for _, locus in sorted(found, key=lambda x: x[0])]

    def _checks_between(self, start: int, end: int) -> list[ClaimCheck]:
        """The checks of the claims of notes standing in ``[start, end)``, in their order."""
        if self._footer_checks is None:
            rows = sorted((c.claim.note.start, n) for n, c in enumerate(self.ctx.checks))
            self._footer_checks = ([r[0] for r in rows], [r[1] for r in rows])
        starts, numbers = self._footer_checks
        found = sorted(numbers[bisect_left(starts, start) : bisect_left(starts, end)])
        return [self.ctx.checks[n] for n in found]


def _marker_layer(label: str, word: str) -> Layer | None:
    for name in (label, word):
        for prefix, layer in _MARKER_LAYERS:
            if name.startswith(prefix):
                return layer
    return None


def _is_file_markup(label: str | None) -> bool:
    """A container's own marker (an org line, a page marker, a comment): the file's, not the print's words."""
    return label is not None and (label.startswith("#") or label in ("org", "org heading", "pb", "md", "lacuna"))


def _is_ideograph(char: str) -> bool:
    cp = ord(char)
    return 0x3400 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or cp >= 0x20000 or char == "〇"


def _link(locus: Locus) -> Element:
    c = display_class(locus)
    return el(
        "a",
        {"href": f"#{locus.id}", "data-locus": locus.id, "class": f"link {css(c)}"},
        f"{locus.lemma.text or CARET}（{CLASS_LABELS[c][0]}） ",
    )
