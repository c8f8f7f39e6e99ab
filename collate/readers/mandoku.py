"""Kanseki Repository "Mandoku" texts (``KR1d0076_012.txt`` and the like).

- Org-mode header lines: ``# -*- mode: mandoku-view -*-`` and ``#+KEY: value`` are markers;
  their values become metadata (``#+TITLE: 大戴禮記`` → ``title``, ``#+PROPERTY: JUAN 12`` →
  ``juan``); the title's value is a HEADING span.
- ``<pb:KR1d0076_SBCK_012-7a>`` (text, edition, juan-leaf side) opens a printed page:
  a marker and ``Mark(offset, "page", "012-7a")``. ``<md:KR1d0076_WYG_012-8a>`` points at
  the page of another edition: a marker and ``Mark(offset, "milestone", "WYG 012-8a")``.
- Printed lines: the file's own line breaks follow the lines of the edition whose pages
  ``<pb:>`` marks, while ``¶`` marks the line ends of the edition the ``<md:>`` milestones
  point at (in the SBCK branch: the 四庫 WYG print). Page and line must come from the same
  print, so each file line with text gets ``Mark(offset, "line", n)``, ``n`` counted from
  the page's start; ``¶`` is layout.
- ``&KR0002;`` is a gaiji entity: it stays in its text span and gets a Substitution,
  resolved through the table ``options.gaiji_table`` names (unresolved: replacement None
  and an ``unresolved-entity`` diagnostic: a placeholder).
- ``(右/左)`` is double-column small print, right column then left; in this 大戴禮記 print
  it is 盧辯's commentary, so ZHU. A run goes on across line ends and page markers until
  ``)``; runs that follow each other with no text between are one unit.
- ``投壺¶第七十八``: a ``第…`` line-piece and the short piece before it are the chapter title
  (HEADING); ``大戴禮記卷第十二`` is a juan title. Text before the first chapter title is the
  end of the previous chapter: 經, labelled ``previous chapter``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from collate.model import Diagnostic, Layer, Mark, Span, Substitution
from collate.readers.base import (
    Line,
    Parsed,
    ReadOptions,
    SpanList,
    bracket_diagnostics,
    iter_lines,
    text_glyph_diagnostics,
)
from collate.readers.gaiji import load_gaiji

_KEYWORD = re.compile(r"#\+(?P<key>[A-Za-z_]+):[ \t]*(?P<value>.*)")
# A marker's id holds no ``<``: else a line of unclosed ``<pb:`` rescans to its end from each one.
_PIECE = re.compile(
    r"<pb:(?P<pb>[^<>\n]*)>|<md:(?P<md>[^<>\n]*)>|(?P<pilcrow>¶)|(?P<open>\()|(?P<close>\))"
    r"|(?P<space>[ \t\u3000]+)"
)
_PAGE_ID = re.compile(r"(?P<text>[^_]+)_(?P<edition>[^_]+)_(?P<page>[^_]+)")
_ENTITY = re.compile(r"&(?P<name>[A-Za-z][A-Za-z0-9]*);")
_NUMERAL = "〇一二三四五六七八九十百千"
_CHAPTER_NUMBER = re.compile(rf"第[{_NUMERAL}]+")
_JUAN_TITLE = re.compile(rf".{{0,12}}卷第[{_NUMERAL}]+")
_CHAPTER_TITLE_MAX = 8

PREVIOUS_CHAPTER = "previous chapter"


@dataclass(frozen=True, slots=True)
class _Piece:
    """A stretch of a body line: ``text`` (the work's characters) or one of the markers."""

    kind: str  # text | pb | md | pilcrow | open | close | slash | space
    start: int
    end: int
    value: str = ""


class MandokuReader:
    """Reads Kanseki Repository Mandoku files: org header, page markers, gaiji, small print."""

    name = "mandoku"
    description = "Kanseki Repository text: #+ header, <pb:…> pages, ¶ print lines, &KR…; gaiji, (右/左)"

    def detect(self, text: str) -> tuple[float, str]:
        """``<pb:…>`` page markers, an org header, ``¶`` and ``&KR…;`` entities."""
        pages = len(re.findall(r"<pb:[^<>\n]+>", text))
        header = bool(re.search(r"^#\+TITLE:", text, re.M))
        found = []
        score = 0.0
        if pages:
            score += 0.6
            found.append(f"{pages} <pb:…> page markers")
        if header:
            score += 0.2
            found.append("an org-mode #+TITLE header")
        if "¶" in text:
            score += 0.1
            found.append("¶ line ends")
        if re.search(r"&KR\d+;", text):
            score += 0.1
            found.append("&KR…; gaiji entities")
        if not pages and not header:
            return 0.0, "no <pb:…> page markers or #+TITLE header"
        return min(score, 1.0), ", ".join(found)

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Header, then the body piece by piece: markers, layout and layered text."""
        spans = SpanList()
        metadata: list[tuple[str, str]] = []
        marks: list[Mark] = []
        diagnostics: list[Diagnostic] = []
        # Org lines have no pieces (None); the chapter title needs the pieces after it, so
        # all lines are cut up first and emitted in a second pass.
        lines: list[tuple[Line, list[_Piece] | None]] = []
        for line in iter_lines(text):
            header = text.startswith("#", line.body_start)
            lines.append((line, None if header else _pieces(text, line)))
        body_start = next((line.start for line, pieces in lines if pieces is not None), None)
        if body_start is not None:
            diagnostics.extend(bracket_diagnostics(text, body_start, len(text), {"(": ")"}))
        roles = _text_roles([p for _, pieces in lines for p in pieces or () if p.kind == "text"], text)
        _emit(text, lines, roles, spans, marks, metadata)
        frozen = spans.freeze()
        substitutions = _resolve_entities(text, frozen, options.gaiji_table, diagnostics)
        diagnostics += text_glyph_diagnostics(text, frozen)
        diagnostics.sort(key=lambda d: d.start)
        return Parsed(
            spans=frozen,
            marks=tuple(marks),
            substitutions=tuple(substitutions),
            diagnostics=tuple(diagnostics),
            metadata=tuple(metadata),
        )


def _read_header(text: str, line: Line, spans: SpanList, metadata: list[tuple[str, str]]) -> None:
    """An org line: a marker, its value as metadata; the title's value is a heading."""
    spans.layout(line.start, line.body_start)
    keyword = _KEYWORD.match(text, line.body_start, line.body_end)
    if keyword is None:
        spans.add(line.body_start, line.body_end, Layer.MARKUP, role="marker", label="org")
    else:
        key, value = keyword.group("key").upper(), keyword.group("value").strip()
        if key == "PROPERTY" and value:
            name, _, value = value.partition(" ")
            metadata.append((name.lower(), value.strip()))
            spans.add(line.body_start, line.body_end, Layer.MARKUP, role="marker", label=f"#+PROPERTY {name}")
        elif key == "TITLE" and value:
            metadata.append(("title", value))
            spans.add(line.body_start, keyword.start("value"), Layer.MARKUP, role="marker", label="#+TITLE")
            spans.add(keyword.start("value"), line.body_end, Layer.HEADING, label="title")
        else:
            metadata.append((key.lower(), value))
            spans.add(line.body_start, line.body_end, Layer.MARKUP, role="marker", label=f"#+{key}")
    spans.layout(line.body_end, line.end)


def _pieces(text: str, line: Line) -> list[_Piece]:
    """The pieces of a body line's body, in order, covering it exactly."""
    pieces: list[_Piece] = []
    pos = line.body_start
    for m in _PIECE.finditer(text, line.body_start, line.body_end):
        if m.start() > pos:
            pieces.extend(_text_pieces(text, pos, m.start()))
        kind = m.lastgroup or "space"
        pieces.append(_Piece(kind, m.start(), m.end(), m.group(kind)))
        pos = m.end()
    if pos < line.body_end:
        pieces.extend(_text_pieces(text, pos, line.body_end))
    return pieces


def _text_pieces(text: str, start: int, end: int) -> list[_Piece]:
    """Text, with the ``/`` column breaks of small print set apart."""
    pieces = []
    pos = start
    for i in range(start, end):
        if text[i] == "/":
            if i > pos:
                pieces.append(_Piece("text", pos, i))
            pieces.append(_Piece("slash", i, i + 1))
            pos = i + 1
    if pos < end:
        pieces.append(_Piece("text", pos, end))
    return pieces


def _text_roles(pieces: list[_Piece], text: str) -> dict[int, str]:
    """Headings among the text pieces and the pieces before the first chapter title.

    Keyed by piece start: ``chapter title``, ``chapter number``, ``juan title`` (headings) or
    ``previous chapter`` (經 of the chapter before).
    """
    roles: dict[int, str] = {}
    first_title: int | None = None
    for i, piece in enumerate(pieces):
        words = text[piece.start : piece.end]
        if _CHAPTER_NUMBER.fullmatch(words):
            roles[piece.start] = "chapter number"
            title_at = i
            if i > 0 and pieces[i - 1].end - pieces[i - 1].start <= _CHAPTER_TITLE_MAX:
                roles[pieces[i - 1].start] = "chapter title"
                title_at = i - 1
            if first_title is None:
                first_title = title_at
        elif _JUAN_TITLE.fullmatch(words):
            roles[piece.start] = "juan title"
    for piece in pieces[: first_title or 0]:
        roles.setdefault(piece.start, PREVIOUS_CHAPTER)
    return roles


def _emit(
    text: str,
    lines: list[tuple[Line, list[_Piece] | None]],
    roles: dict[int, str],
    spans: SpanList,
    marks: list[Mark],
    metadata: list[tuple[str, str]],
) -> None:
    """Spans and marks for every line, in file order."""
    unit = 0
    current: tuple[Layer, str | None] | None = None
    small = False
    joined = False  # a small-print run just closed with no text since: the next one continues it
    line_in_page = 0
    for line, pieces in lines:
        if pieces is None:
            _read_header(text, line, spans, metadata)
            continue
        spans.layout(line.start, line.body_start)
        if any(p.kind == "text" for p in pieces):
            line_in_page += 1
            marks.append(Mark(line.start, "line", str(line_in_page)))
        for piece in pieces:
            if piece.kind == "text":
                role = roles.get(piece.start)
                if small:
                    layer, label = Layer.ZHU, None
                elif role in ("chapter title", "chapter number", "juan title"):
                    layer, label = Layer.HEADING, role
                else:
                    layer, label = Layer.JING, role
                if (layer, label) != current:
                    unit += 1
                    current = (layer, label)
                joined = False
                spans.add(piece.start, piece.end, layer, unit, "text", label)
            elif piece.kind == "pb":
                page = _page(piece.value, "page", metadata)
                marks.append(Mark(piece.start, "page", page))
                spans.add(piece.start, piece.end, Layer.MARKUP, role="marker", label="pb")
                line_in_page = 0
            elif piece.kind == "md":
                marks.append(Mark(piece.start, "milestone", _page(piece.value, "milestone", metadata)))
                spans.add(piece.start, piece.end, Layer.MARKUP, role="marker", label="md")
            elif piece.kind == "open":
                if not (small or joined):
                    unit += 1
                small = True
                current = (Layer.ZHU, None)
                spans.add(piece.start, piece.end, Layer.MARKUP, unit, "marker", "(")
            elif piece.kind == "close":
                small = False
                joined = True
                spans.add(piece.start, piece.end, Layer.MARKUP, unit, "marker", ")")
            elif piece.kind == "slash" and small:
                spans.add(piece.start, piece.end, Layer.MARKUP, unit, "marker", "column break")
            elif piece.kind == "slash":
                spans.add(piece.start, piece.end, Layer.MARKUP, role="marker", label="/")
            elif piece.kind == "pilcrow":
                spans.add(piece.start, piece.end, Layer.MARKUP, role="layout", label="¶")
            else:
                spans.layout(piece.start, piece.end)
        spans.layout(line.body_end, line.end)


def _page(marker: str, kind: str, metadata: list[tuple[str, str]]) -> str:
    """``012-7a`` for a page marker, ``WYG 012-8a`` for a milestone; the text id is recorded once."""
    m = _PAGE_ID.fullmatch(marker)
    if m is None:
        return marker
    if kind == "page":
        if not any(k == "text" for k, _ in metadata):
            metadata.append(("text", m.group("text")))
            metadata.append(("edition", m.group("edition")))
        return m.group("page")
    return f"{m.group('edition')} {m.group('page')}"


def _resolve_entities(
    text: str, spans: tuple[Span, ...], table_path: Path | None, diagnostics: list[Diagnostic]
) -> list[Substitution]:
    """A Substitution for each ``&…;`` entity in the text; unresolved ones are diagnosed."""
    table = load_gaiji(table_path) if table_path is not None else None
    source = table_path.name if table_path is not None else "no gaiji table"
    found = []
    for span in spans:
        if not (span.layer.is_text or span.layer is Layer.HEADING):
            continue
        for m in _ENTITY.finditer(text, span.start, span.end):
            code = m.group("name")
            char = table.get(code) if table is not None else None
            found.append(Substitution(m.start(), m.end(), char, f"{source} {code}"))
            if char is None:
                why = "no gaiji table given" if table is None else f"{code} is not in {source}"
                message = f"unresolved entity {m.group(0)}: {why}; read as a placeholder"
                diagnostics.append(Diagnostic("unresolved-entity", message, m.start(), m.end()))
    return found


READER = MandokuReader()
