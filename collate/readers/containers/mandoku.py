"""Kanseki Repository "Mandoku" files (``KR1d0076_012.txt`` and the like).

- Org lines (``# -*- mode: mandoku-view -*-``, ``#+TITLE: 大戴禮記``, ``#+PROPERTY: JUAN 12``,
  and mid-file ones such as ``#+PROPERTY: JUAN 卷六十二考證``) are markers; their values are
  metadata, the title's value a heading. Comment lines (``# src: …``, ``# dating: …``, an
  image name) are markers; ``# page missing`` marks a lacuna: the pages between the page
  marker before it and the next one are lost (``Mark(offset, MarkKind.LACUNA, "006-14a, 2 pages")``,
  a ``lacuna`` marker span), never text and never an omission. Org headings
  (``** 47 射義``) are headings.
- Two page markers with nothing between them but layout (``¶``, blank printed lines, blank
  lines, comment lines) are a leaf whose text is not in the file: a lacuna too, labelled the
  same way and marked at the first empty page's marker (``Mark(offset, MarkKind.LACUNA,
  "006-14a, 1 page")``), with a ``lacuna`` diagnostic. A run of empty leaves is one lacuna. A
  comment that says the leaf is blank (``# blank page``, ``# 空白``) says otherwise: no lacuna.
  Either way it is harmless where the print lacks nothing: downstream a lacuna only makes the
  columns where the witness has no text not extant.
- ``<pb:KR1d0076_SBCK_012-7a>`` (text, edition, juan-leaf side) opens a printed page:
  ``Mark(offset, MarkKind.PAGE, "012-7a")``. ``<md:KR1d0076_WYG_012-8a>`` points at the page of another
  edition: ``Mark(offset, MarkKind.MILESTONE, "WYG 012-8a")``. Both are marker spans.
- The file's own lines follow the print whose pages ``<pb:>`` marks: each body line is a printed
  line, ``Mark(offset, MarkKind.LINE, n)`` counted from its page's start. ``¶`` is layout: at a line's
  end it repeats the line end; inside a line (the SBCK branch) it marks the line ends of the
  print the ``<md:>`` milestones point at, and its place is kept as a body ``break``.
  A line holding nothing but markers is taken out whole; ``　¶`` (a blank printed line) stays.
- ``&KR0002;`` is a gaiji entity: one body character, resolved through the table
  ``options.gaiji_table`` names (unresolved: ``〓`` and an ``unresolved-entity`` diagnostic).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from collate.model import EMPTY_LEAF, Diagnostic, HeadingKind, Layer, Mark, MarkerKind, MarkKind, Role
from collate.model.chars import GAIJI_ENTITY
from collate.model.citation import pages_between
from collate.readers.base import LINE_SPACE, ReadOptions, iter_lines
from collate.readers.body import Body, BodyBuilder
from collate.readers.gaiji import load_gaiji_tables

_KEYWORD = re.compile(r"#\+(?P<key>[A-Za-z_]+):[ \t]*(?P<value>.*)")
_HEADING = re.compile(r"(?P<stars>\*+[ \t]+)(?P<title>.*)")
_LACUNA = re.compile(r"#\s*page\s+missing\s*", re.I)
# The file's word that a leaf is blank in the print itself: empty, and nothing lost.
_BLANK = re.compile(
    r"#\s*(?:(?:this\s+)?page\s+(?:is\s+)?)?(?:blank|empty)(?:\s+page)?\s*|#\s*(?:空白頁?|白頁|空頁)\s*", re.I
)
# A marker's id holds no ``<``: else a line of unclosed ``<pb:`` rescans to its end from each one.
_PIECE = re.compile(r"<pb:(?P<pb>[^<>\n]*)>|<md:(?P<md>[^<>\n]*)>|(?P<pilcrow>¶)|&(?P<entity>[A-Za-z][A-Za-z0-9]*);")
_PAGE_ID = re.compile(r"(?P<text>[^_]+)_(?P<edition>[^_]+)_(?P<page>[^_]+)")


class MandokuContainer:
    """Reads the Mandoku wrapping: org lines, page markers, ``¶``, gaiji entities."""

    name = "mandoku"
    description = "Kanseki Repository Mandoku file: #+ header, <pb:…> pages, ¶ print lines, &KR…; gaiji"

    def detect(self, raw: str) -> tuple[float, str]:
        """``<pb:…>`` page markers, an org header, ``¶`` and ``&KR…;`` entities."""
        pages = len(re.findall(r"<pb:[^<>\n]+>", raw))
        header = bool(re.search(r"^#\+(TITLE|PROPERTY):", raw, re.M))
        if not pages and not header:
            return 0.0, "no <pb:…> page markers or #+TITLE header"
        found = []
        score = 0.0
        if pages:
            score += 0.6
            found.append(f"{pages} <pb:…>")
        if header:
            score += 0.3
            found.append("#+TITLE" if "#+TITLE:" in raw else "#+PROPERTY")
        if "¶" in raw:
            score += 0.1
            found.append("¶ line ends")
        entities = len(GAIJI_ENTITY.findall(raw))
        if entities:
            found.append(f"{entities} &KR…; entities")
        return min(score, 1.0), ", ".join(found)

    def read(self, raw: str, options: ReadOptions) -> Body:
        """Org lines and markers out; body lines with entities resolved."""
        return _Reading(raw, options).run()


class _Reading:
    def __init__(self, raw: str, options: ReadOptions) -> None:
        self.raw = raw
        self.b = BodyBuilder(raw)
        self.table: Mapping[str, str] | None = None
        self.described: Mapping[str, str] = {}
        if options.gaiji_table is not None:
            self.table, self.described = load_gaiji_tables(options.gaiji_table)
        self.source = options.gaiji_table.name if options.gaiji_table is not None else "no gaiji table"
        self.page_line = 0
        self.page: str | None = None
        self.lacunae: list[tuple[int, int, str | None]] = []  # (start, end, page before)
        self.marked = False
        # The page being read: where its marker is, whether it holds text, whether the file
        # says what became of it (# page missing, # blank page).
        self.page_start = 0
        self.page_end = 0
        self.filled = False
        self.said = False
        # Empty leaves so far: (marker start, marker end, first page, page after the last).
        self.empty: tuple[int, int, str, str] | None = None

    def run(self) -> Body:
        raw, b = self.raw, self.b
        for line in iter_lines(raw):
            if raw.startswith("#", line.start):
                self.org(line.start, line.body_end, line.end)
            elif _HEADING.fullmatch(raw, line.start, line.body_end):
                m = _HEADING.fullmatch(raw, line.start, line.body_end)
                assert m is not None
                self.fill()
                b.drop(line.start, m.end("stars"), Layer.MARKUP, Role.MARKER, marker=MarkerKind.ORG_HEADING)
                b.drop(m.start("title"), line.body_end, Layer.HEADING, Role.TEXT, heading=HeadingKind.ORG_HEADING)
                b.drop(line.body_end, line.end)
            else:
                self.body_line(line.start, line.body_end, line.end)
        self.close_lacunae(None)
        self.close_empty()
        return b.build(CONTAINER.name, CONTAINER.description)

    def org(self, start: int, body_end: int, end: int) -> None:
        raw, b = self.raw, self.b
        keyword = _KEYWORD.match(raw, start, body_end)
        if _LACUNA.fullmatch(raw, start, body_end):
            b.drop(start, body_end, Layer.MARKUP, Role.MARKER, marker=MarkerKind.LACUNA)
            self.lacunae.append((start, body_end, self.page))
            self.say()
        elif _BLANK.fullmatch(raw, start, body_end):
            b.drop(start, body_end, Layer.MARKUP, Role.MARKER, marker=MarkerKind.BLANK_PAGE)
            self.say()
        elif keyword is None:
            b.drop(start, body_end, Layer.MARKUP, Role.MARKER, marker=MarkerKind.ORG)
        else:
            key, value = keyword.group("key").upper(), keyword.group("value").strip()
            if key == "PROPERTY" and value:
                name, _, value = value.partition(" ")
                b.metadata.append((name.lower(), value.strip()))
                b.drop(start, body_end, Layer.MARKUP, Role.MARKER, marker=f"#+PROPERTY {name}")
            elif key == "TITLE" and value:
                b.metadata.append(("title", value))
                b.drop(start, keyword.start("value"), Layer.MARKUP, Role.MARKER, marker="#+TITLE")
                b.drop(keyword.start("value"), body_end, Layer.HEADING, Role.TEXT, heading=HeadingKind.TITLE)
            else:
                b.metadata.append((key.lower(), value))
                b.drop(start, body_end, Layer.MARKUP, Role.MARKER, marker=f"#+{key}")
        b.drop(body_end, end)

    def body_line(self, start: int, body_end: int, end: int) -> None:
        raw, b = self.raw, self.b
        pieces = list(_PIECE.finditer(raw, start, body_end))
        rest = _PIECE.sub(lambda m: "x" if m.lastgroup == "entity" else "", raw[start:body_end])
        if not rest:
            # Markers only: the line is the container's, line end and all (a blank printed
            # line, ``　¶``, keeps its indentation and stays a line of its page).
            self.markers(start, body_end, pieces, keep=False)
            b.drop(body_end, end)
            return
        self.page_line += 1
        self.marked = False
        self.markers(start, body_end, pieces, keep=True)
        b.keep(body_end, end)

    def markers(self, start: int, end: int, pieces: list[re.Match[str]], keep: bool) -> None:
        raw, b = self.raw, self.b
        pos = start
        for m in pieces:
            self.text(pos, m.start(), keep)
            kind = m.lastgroup
            if kind == "pb":
                page = _page_label(m.group("pb"), b.metadata)
                self.close_lacunae(page)
                self.turn(page, m.start(), m.end())
                self.page = page
                b.marks.append(Mark(m.start(), MarkKind.PAGE, page, m.group("pb")))
                b.drop(m.start(), m.end(), Layer.MARKUP, Role.MARKER, marker=MarkerKind.PAGE)
                self.page_line = 0
            elif kind == "md":
                b.marks.append(Mark(m.start(), MarkKind.MILESTONE, _milestone_label(m.group("md"))))
                b.drop(m.start(), m.end(), Layer.MARKUP, Role.MARKER, marker=MarkerKind.MILESTONE)
            elif kind == "pilcrow":
                if raw[m.end() : end].strip(LINE_SPACE + "¶") and b.body_length:
                    b.breaks.add(b.body_length)
                b.drop(m.start(), m.end(), Layer.MARKUP, Role.LAYOUT, marker="¶")
            else:
                self.line_mark(m.start())
                self.entity(m)
            pos = m.end()
        self.text(pos, end, keep)

    def text(self, start: int, end: int, keep: bool) -> None:
        if end <= start:
            return
        if not keep:
            self.b.drop(start, end)
            return
        if self.raw[start:end].strip(LINE_SPACE):
            self.fill()
        self.line_mark(start)
        self.b.keep(start, end)

    def line_mark(self, offset: int) -> None:
        """The printed line's mark, at its first character the body keeps."""
        if not self.marked:
            self.marked = True
            self.b.marks.append(Mark(offset, MarkKind.LINE, str(self.page_line)))

    def entity(self, m: re.Match[str]) -> None:
        self.fill()
        code = m.group("entity")
        char = self.table.get(code) if self.table is not None else None
        self.b.entity(m.start(), m.end(), char, f"{self.source} {code}", code, self.described.get(code, ""))
        if char is None:
            why = "no gaiji table given" if self.table is None else f"{code} is not in {self.source}"
            message = f"unresolved entity {m.group(0)}: {why}; read as a placeholder"
            self.b.diagnostics.append(Diagnostic("unresolved-entity", message, m.start(), m.end()))

    def turn(self, page: str, start: int, end: int) -> None:
        """A page marker: the page it ends was a leaf with no text if nothing filled it and the file said nothing."""
        if self.page is not None and not self.filled and not self.said:
            first = self.empty or (self.page_start, self.page_end, self.page, page)
            self.empty = (first[0], first[1], first[2], page)
        self.page_start, self.page_end = start, end
        self.filled = self.said = False

    def fill(self) -> None:
        """Text on the page: the empty leaves before it, if any, end here."""
        self.filled = True
        self.close_empty()

    def say(self) -> None:
        """The file says what became of this page: the empty leaves before it end here."""
        self.said = True
        self.close_empty()

    def close_empty(self) -> None:
        """The run of empty leaves, from its first page up to the page after its last, is one lacuna."""
        if self.empty is None:
            return
        start, end, first, after = self.empty
        self.empty = None
        count = pages_between(first, after)
        extent = f"{first}, {count} page{'s' if count != 1 else ''}" if count else first
        # The file has the leaf's marker and no text: what the e-text lacks, perhaps not the book.
        self.b.marks.append(Mark(start, MarkKind.LACUNA, f"{extent}, {EMPTY_LEAF}"))
        message = f"no text between the page markers of {first} and {after} ({extent}): a lacuna, not an omission"
        self.b.diagnostics.append(Diagnostic("lacuna", message, start, end))

    def close_lacunae(self, next_page: str | None) -> None:
        """Each ``# page missing`` since the last page marker: that page up to ``next_page`` is lost."""
        for start, end, page in self.lacunae:
            count = pages_between(page, next_page)
            extent = f"{page}, {count} page{'s' if count != 1 else ''}" if page and count else (page or "?")
            self.b.marks.append(Mark(start, MarkKind.LACUNA, extent))
            message = f"pages missing from this print ({extent}): a lacuna, not an omission"
            self.b.diagnostics.append(Diagnostic("lacuna", message, start, end))
        self.lacunae.clear()


def _page_label(marker: str, metadata: list[tuple[str, str]]) -> str:
    """``012-7a`` for a page marker; the text id and edition are recorded once."""
    m = _PAGE_ID.fullmatch(marker)
    if m is None:
        return marker
    if not any(k == "text" for k, _ in metadata):
        metadata.append(("text", m.group("text")))
        metadata.append(("edition", m.group("edition")))
    return m.group("page")


def _milestone_label(marker: str) -> str:
    """``WYG 012-8a`` for a milestone into another edition."""
    m = _PAGE_ID.fullmatch(marker)
    return marker if m is None else f"{m.group('edition')} {m.group('page')}"


CONTAINER = MandokuContainer()
