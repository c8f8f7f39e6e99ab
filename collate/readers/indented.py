"""Reads any file laid out by an :class:`~collate.readers.layoutspec.IndentLayout`: the code of such layouts.

A layout of this kind is a table and nothing else (``SIKU_WLTK`` in :mod:`collate.readers.layouts.siku`,
whose docstring says how the table is applied, rule by rule); :class:`IndentedReader` applies
one. Each printed line is classed by its indentation, cut into large print and ``(…)`` small
print, and read into the block in force: headings, 經 with its run-in title, a commentator's
passage or a note, and the small-print runs that go on across lines and pages. Nothing here
names a work, a commentator or a marker: all of that is in the table.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from collate.model import BLANK, Diagnostic, Layer, Mark, MarkKind, Role, Severity, Span
from collate.readers.base import Layout, Line, Parsed, ReadOptions, SpanList, glyph_diagnostics, iter_lines
from collate.readers.displaced import displaced_glyph
from collate.readers.layoutspec import Block, IndentLayout
from collate.readers.line_width import SHORT_BY, full_width, printed_body

# Inside small print these are layout, not text: the column break and printed gaps.
_GAPS = " \t\u3000\u00a0"


def _alternatives(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern matching any of ``patterns``; with none, one that never matches."""
    return re.compile("|".join(f"(?:{p})" for p in patterns) or "(?!)")


class IndentedReader(Layout):
    """Reads a file laid out by an :class:`IndentLayout` (by default 四庫本 五禮通考)."""

    def __init__(self, spec: IndentLayout) -> None:
        self.spec = spec
        self.name = spec.name
        self.description = spec.description
        self._headings = [(re.compile(p), low) for p, low in spec.headings]
        self._titles = _alternatives(spec.titles)
        self._bare_titles = _alternatives(spec.bare_titles)
        self._notes = _alternatives(tuple(re.escape(a) for a in spec.note_attributions))
        self._commentators = _alternatives(spec.commentator_attributions)
        open_, close = spec.small_print
        self._double_column = re.compile(
            f"{re.escape(open_)}[^{re.escape(open_ + close)}\n]*{re.escape(spec.column_break)}"
            f"[^{re.escape(open_ + close)}\n]*{re.escape(close)}"
        )

    def attribution(self, block: Block) -> re.Pattern[str]:
        """The attribution pattern of a note or a commentator block."""
        return self._notes if block is Block.NOTE else self._commentators

    def heading(self, text: str, line: Line) -> bool:
        """True if the line is a heading by one of the layout's heading patterns."""
        indent = line.body_start - line.start
        return any(
            indent >= low and pattern.fullmatch(text, line.body_start, line.body_end) for pattern, low in self._headings
        )

    def title(self, text: str, pos: int, end: int, current: str | None) -> re.Match[str] | None:
        """A run-in title at ``pos``; a bare chapter title only if it names another work."""
        m = self._titles.match(text, pos, end)
        if m:
            return m
        m = self._bare_titles.match(text, pos, end)
        if m and not (current and current.endswith(m.group())):
            return m
        return None

    def named_title(self, text: str, pos: int, end: int) -> re.Match[str] | None:
        """A run-in title at ``pos`` that names its book (``禮記祭法``), never a bare chapter."""
        return self._titles.match(text, pos, end)

    def detect(self, text: str) -> tuple[float, str]:
        """Scores small print opened by a layer marker (``(注``) and indented note blocks."""
        spec = self.spec
        counts = {o: text.count(o) for o in (spec.small_print[0] + m.text for m in spec.markers if m.opens)}
        marked = sum(counts.values())
        notes = 0
        for line in iter_lines(text):
            block = spec.block_at(line.body_start - line.start)
            if block is Block.NOTE and self._notes.match(text, line.body_start, line.body_end):
                notes += 1
        score = 0.5 * min(1.0, marked / 5) + 0.5 * min(1.0, notes / 2)
        found = []
        if marked:
            found.append(", ".join(f"{n} {o}…/…) small-print runs" for o, n in counts.items() if n))
        if notes:
            found.append(f"{notes} indented {'/'.join(spec.note_attributions)} blocks")
        return round(score, 2), ", ".join(found) or "no marked small print or indented notes"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into layers by indentation and small print; mark pages and lines."""
        return _Reading(self, text).run()


@dataclass
class _Block:
    """The block being read: a large-print passage or a small-print run (mutable state)."""

    kind: Block | None  # None for a heading line
    layer: Layer
    unit: int
    work: str | None = None  # the work a 經 passage and its small print quote
    speaker: str | None = None  # who speaks a commentator's passage or a note
    indent: int = 0
    standalone: bool = False
    switched: bool = False


@dataclass(frozen=True, slots=True)
class _Piece:
    """One ``(…)`` piece of a line: ``text[start:body]`` opens, ``text[body:body_end]`` is inside."""

    start: int
    body: int
    body_end: int
    end: int


class _Reading:
    """The state of one read: spans, marks, diagnostics, the blocks in force."""

    def __init__(self, reader: IndentedReader, text: str) -> None:
        self.reader = reader
        self.spec = reader.spec
        self.text = text
        self.found: list[Span] = []
        self.marks: list[Mark] = []
        self.diagnostics: list[Diagnostic] = glyph_diagnostics(text)
        # A second column may open with a marker after the e-text's two spaces (…/之儀  疏此諸侯…).
        self.opening_markers = tuple(m.text for m in self.spec.markers)
        self.metadata: list[tuple[str, str]] = []
        self.unit = 0
        self.work: str | None = None  # the title of the classic being quoted
        self.passage: _Block | None = None  # the large-print block in force
        self.last: _Block | None = None  # the block the previous text belonged to
        self.open_run: _Block | None = None  # a small-print run that closed its line
        self.full = full_width(text)  # the characters of a full printed line of large print

    def after_short_line(self, start: int) -> bool:
        """The line before the one at ``start`` is large print that stops short of a full line."""
        if self.full is None:
            return False
        line_end = self.text.rfind("\n", 0, start)
        if line_end < 0:
            return False
        body = printed_body(self.text[self.text.rfind("\n", 0, line_end) + 1 : line_end])
        return bool(body) and "(" not in body and ")" not in body and len(body) <= self.full - SHORT_BY

    def next_unit(self) -> int:
        self.unit += 1
        return self.unit

    def add(
        self,
        start: int,
        end: int,
        layer: Layer,
        unit: int,
        role: Role = Role.TEXT,
        *,
        work: str | None = None,
        speaker: str | None = None,
        marker: str | None = None,
    ) -> None:
        if end > start:
            self.found.append(Span(start, end, layer, unit, role, work=work, speaker=speaker, marker=marker))

    def words(self, start: int, end: int, block: _Block) -> None:
        """The block's text in ``text[start:end]``, leaving column breaks and gaps to layout."""
        pos = start
        for i in range(start, end + 1):
            if i == end or self.text[i] in _GAPS or self.text[i] == self.spec.column_break:
                self.add(pos, i, block.layer, block.unit, work=block.work, speaker=block.speaker)
                pos = i + 1

    def run(self) -> Parsed:
        printed = 0
        for line in iter_lines(self.text):
            if not self.text[line.start : line.end].strip("\r\n"):
                continue  # a page break the container left in, or a stray blank line: layout
            printed += 1
            self.line(line, printed)
        spans = SpanList()
        pos = 0
        for s in self.found:
            spans.layout(pos, s.start)
            spans.append(s)
            pos = s.end
        spans.layout(pos, len(self.text))
        self.diagnostics.sort(key=lambda d: d.start)
        return Parsed(
            spans.freeze(), marks=tuple(self.marks), diagnostics=tuple(self.diagnostics), metadata=tuple(self.metadata)
        )

    def line(self, line: Line, printed: int) -> None:
        start, end = line.body_start, line.body_end
        if start == end:  # an empty printed line
            self.open_run = None
            return
        if printed <= len(self.spec.header) or self.reader.heading(self.text, line):
            block = _Block(None, Layer.HEADING, self.next_unit())
            self.words(start, end, block)
            if printed <= len(self.spec.header):
                self.metadata.append((self.spec.header[printed - 1], self.text[start:end]))
            self.passage = self.last = self.open_run = None
            return
        indent = start - line.start
        kind = self.spec.block_at(indent)
        if kind is None:
            self.diagnostics.append(
                Diagnostic("indent", f"no block is indented by {indent}; read as a heading", line.start, start)
            )
            self.words(start, end, _Block(None, Layer.HEADING, self.next_unit()))
            self.passage = self.last = self.open_run = None
            return
        open_run, self.open_run = self.open_run, None
        for item in self.segments(start, end):
            if isinstance(item, _Piece):
                # A run goes on at the next line's start within a block of the same kind.
                run = open_run if item.start == start and open_run and open_run.kind is kind else None
                self.small(item, kind, indent, run, at_line_start=item.start == start)
                if item.end == end:
                    self.open_run = self.last
            else:
                self.large(item[0], item[1], kind, at_line_start=item[0] == start)

    def segments(self, start: int, end: int) -> list[_Piece | tuple[int, int]]:
        """Cut a line body into large-print stretches and small-print pieces."""
        open_, close = self.spec.small_print
        out: list[_Piece | tuple[int, int]] = []
        pos = start
        while pos < end:
            o = self.text.find(open_, pos, end)
            c = self.text.find(close, pos, end)
            if c >= 0 and (o < 0 or c < o):  # a closer with no opener: layout
                out.append((pos, c))
                self.diagnostics.append(Diagnostic("unbalanced", f"{close} closes nothing", c, c + len(close)))
                pos = c + len(close)
                continue
            if o < 0:
                out.append((pos, end))
                break
            out.append((pos, o))
            body = o + len(open_)
            c = self.text.find(close, body, end)
            reopen = self.text.find(open_, body, end)
            if c < 0 or 0 <= reopen < c:
                stop = reopen if reopen >= 0 else end
                where = f"the next {open_}" if reopen >= 0 else "the line end"
                self.diagnostics.append(Diagnostic("unbalanced", f"{open_} is not closed before {where}", o, body))
                out.append(_Piece(o, body, stop, stop))
                pos = stop
            else:
                out.append(_Piece(o, body, c, c + len(close)))
                pos = c + len(close)
        return [s for s in out if isinstance(s, _Piece) or s[1] > s[0]]

    def large(self, start: int, end: int, kind: Block, at_line_start: bool) -> None:
        """A stretch of large print in a line opening a block of ``kind``."""
        passage = self.passage
        if kind is Block.CLASSIC:
            # A passage goes on over its lines, unless a line opens with the title of another
            # quotation (the print starts each quotation on a new line, flush left like the last).
            named = at_line_start and (
                self.reader.named_title(self.text, start, end) is not None
                # A quotation ends where its line stops short: a bare chapter title opening the
                # next line begins the next quotation (禮記王制…相見¶ 經解鄉飲酒之禮…).
                or (self.after_short_line(start) and self.reader.title(self.text, start, end, self.work) is not None)
            )
            if passage and passage.kind is kind and self.last is passage and not named:
                self.words(start, end, passage)
                return
            if at_line_start:
                title = self.reader.title(self.text, start, end, self.work)
                if title:
                    self.work = title.group()
                    self.add(start, title.end(), Layer.HEADING, self.next_unit(), work=self.work)
                    start = title.end()
            passage = _Block(kind, Layer.JING, self.next_unit(), work=self.work)
        else:
            attribution = self.reader.attribution(kind).match(self.text, start, end) if at_line_start else None
            if passage and passage.kind is kind and self.last and self.last.unit == passage.unit and not attribution:
                self.words(start, end, passage)
                self.last = passage
                return
            layer = Layer.NOTE if kind is Block.NOTE else Layer.COMMENTARY
            speaker = attribution.group() if attribution else None
            passage = _Block(kind, layer, self.next_unit(), speaker=speaker)
            if attribution:
                self.add(start, attribution.end(), layer, passage.unit, Role.ATTRIBUTION, speaker=speaker)
                start = attribution.end()
            else:
                self.diagnostics.append(
                    Diagnostic(
                        "attribution",
                        f"a {kind.value} block opens with no known attribution",
                        start,
                        end,
                        Severity.INFO,
                    )
                )
        self.words(start, end, passage)
        self.passage = self.last = passage

    def small(self, piece: _Piece, kind: Block, indent: int, run: _Block | None, at_line_start: bool) -> None:
        """One small-print piece: continuing ``run``, or opening a run of its own."""
        pos, end = piece.body, piece.body_end
        if run is None:
            run, pos = self.open_small(pos, end, kind, indent, at_line_start)
        elif run.kind is Block.COMMENTATOR and run.standalone:
            attribution = self.reader.attribution(Block.COMMENTATOR).match(self.text, pos, end)
            if attribution:
                run.unit, run.speaker = self.next_unit(), attribution.group()
                self.add(pos, attribution.end(), run.layer, run.unit, Role.ATTRIBUTION, speaker=run.speaker)
                pos = attribution.end()
        if run.kind is Block.CLASSIC and not run.switched:
            for marker in self.spec.markers:
                if marker.opens:
                    continue
                at = self.text.find(marker.text, pos, end)
                if at < 0:
                    continue
                self.words(pos, self._displaced(at, pos, end), run)
                begin = at - 1 if marker.spaced and at > pos and self.text[at - 1] == " " else at
                run.layer, run.unit, run.switched = marker.layer, self.next_unit(), True
                self.add(begin, at + len(marker.text), Layer.MARKUP, run.unit, Role.MARKER, marker=marker.text)
                pos = at + len(marker.text)
                break
        self.words(pos, end, run)
        self.last = run

    def _displaced(self, at: int, pos: int, end: int) -> int:
        """Where the 注 before the marker at ``at`` ends: the marker, or a glyph the e-text moved
        before it out of the next column (:mod:`collate.readers.displaced`), set apart."""
        found = displaced_glyph(self.text, at, pos, end, self.spec.column_break, self.opening_markers)
        if found is None:
            return at
        glyph, blank = found
        self.marks.append(Mark(blank, MarkKind.LACUNA, f"{BLANK}, 1"))
        message = f"{self.text[glyph]!r} before the marker stands for the blank in the next column (read as lost there)"
        self.diagnostics.append(Diagnostic("displaced", message, glyph, glyph + 1, Severity.INFO))
        return glyph

    def open_small(self, pos: int, end: int, kind: Block, indent: int, at_line_start: bool) -> tuple[_Block, int]:
        """The run a piece opens at ``pos``, and where its text begins after marker or attribution."""
        if kind is Block.CLASSIC:
            for marker in self.spec.markers:
                if marker.opens and self.text.startswith(marker.text, pos, end):
                    run = _Block(kind, marker.layer, self.next_unit(), self.work, indent=indent, standalone=True)
                    # A run opened by 疏 is already in the layer a later 疏 would switch it to.
                    run.switched = any(not m.opens and m.layer is marker.layer for m in self.spec.markers)
                    self.add(pos, pos + len(marker.text), Layer.MARKUP, run.unit, Role.MARKER, marker=marker.text)
                    return run, pos + len(marker.text)
            self.diagnostics.append(
                Diagnostic(
                    "marker",
                    f"small print after 經 opens with no known marker; read as {self.spec.unmarked.chinese}",
                    pos,
                    min(pos + 1, end),
                )
            )
            return _Block(kind, self.spec.unmarked, self.next_unit(), self.work, indent=indent, standalone=True), pos
        host = self.passage
        if kind is Block.COMMENTATOR and at_line_start:
            attribution = self.reader.attribution(kind).match(self.text, pos, end)
            speaker = attribution.group() if attribution else None
            run = _Block(kind, Layer.COMMENTARY, self.next_unit(), speaker=speaker, indent=indent, standalone=True)
            if attribution:
                self.add(pos, attribution.end(), run.layer, run.unit, Role.ATTRIBUTION, speaker=speaker)
                return run, attribution.end()
            self.diagnostics.append(
                Diagnostic(
                    "attribution",
                    "a commentator's small print opens with no known attribution",
                    pos,
                    min(pos + 1, end),
                    Severity.INFO,
                )
            )
            return run, pos
        if host is not None and host.kind is kind:
            # The passage's own small print: same layer, same unit.
            return _Block(kind, host.layer, host.unit, host.work, host.speaker, indent), pos
        layer = Layer.NOTE if kind is Block.NOTE else Layer.COMMENTARY
        return _Block(kind, layer, self.next_unit(), indent=indent), pos
