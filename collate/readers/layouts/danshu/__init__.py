"""單疏本: a 疏 printed alone, each paragraph citing the passage it explains in 標起止 form.

A 單疏本 (禮記正義, 儀禮疏, 周禮疏, 毛詩正義 … without 經 and 注) is one running 疏 in large
print, no brackets. Each 疏 paragraph opens with a 標起止, the first and last words of the 經
passage it explains joined by ``至`` (``古者至序也``: from 古者 to 序也; a short passage is
quoted whole, ``X``), headed ``注`` when the passage is from the 注 (``注何以至中也``; ``箋`` in
毛詩正義). A one-cell gap (a full-width space) sets the lemma off from what precedes and from
``正義曰`` (孔穎達's formula; 賈公彦's 疏 say ``釋曰``) that follows: ``…也　古者至序也　正義曰此…``.
At a printed line end the line end is the gap, and the lemma or the formula may be split across
the line end (``　注男子至⏎飾之　正義曰``, ``　古者至序也　正義⏎曰``). The lines of the text
follow the print's lines.

How it is read (the tables are :mod:`~collate.readers.layouts.danshu.marks`, importable from here too):

1. ``JUAN_TITLE`` lines (``禮記正義卷第六十九``, opening and closing the juan) are headings, and
   so are the 撰者 lines after the opening one, which are set ``AUTHOR_INDENT`` cells or more
   lower than the text (``　　　唐國子祭酒…臣孔　穎達等奉`` / ``　　　勑撰``).
2. Each ``OPENERS`` formula that stands after a gap (a full-width space or a line start) opens
   a 疏 paragraph: a marker (MARKUP, not the 疏's words: the same formula every time, printed as
   a rubric; the 注疏 prints print it too, so the 疏 layers of both kinds compare alike). An
   e-text slip ``日`` for ``曰`` there is read as the formula, with a diagnostic.
3. The words before the formula, back to the gap before them, are its 標起止: the 疏's own
   quotation of 經/注, a 疏 attribution whose ``passage`` is ``標起止`` (``標起止 注`` after a ``注`` head, which
   is a marker): kept and shown, not collated, as a 注疏 print has no lemma to set against it
   (where it begins: :mod:`~collate.readers.layouts.danshu.lemmas`).
   Where that gap is a line end the lemma may run over it, so its start is found from the
   lemma's shape (``LEMMA_MAX``): a line that opens with a ``注`` head (the words before it
   are 疏, also where the print has lost pages between), else the gap, else a ``注`` head,
   else a line start that gives a lemma ``A至B`` of a few words each; a lemma of no such
   shape gets a diagnostic. A gap right before or after the lemma's ``至`` is a glyph the
   worn print lost inside the lemma (``注數朝至　之``), not its start.
4. A lemma of the shape ``CHAPTER_TITLE`` (``射義第四十六``) at a line start is the chapter title
   (a heading); the 疏 after it (``正義曰案鄭目録云…``) is the 疏 on the chapter.
5. A print may set a 經 lemma with no formula, the 疏 going straight on with its incipit
   (禮記正義 卷六十六: ``…諸事　儒有忠信至此者　此明儒者自立之事``): where ``此明``, ``此經明``,
   ``此一節明`` … stands after a gap or a line end and the words before it have a 標起止's shape
   with its ``至``, they are the lemma, and a paragraph begins (``INCIPIT``, :func:`bare_lemmas`).
6. Everything else is 疏, one unit a paragraph: from one lemma to the next.

Other gaps inside the 疏 are layout. Most set off a phrase of the 經 the 疏 goes on to explain,
after a finished sentence and closed by ``者`` (``…之也　騶虞者樂官備也者…``), but a worn print also
shows a lost glyph as a gap (``爲射不　而受爵``, where the 注疏 read 中). Only the lemma structure
tells a gap apart for sure; a gap that neither follows a word ending a sentence
(``SENTENCE_ENDS``) nor opens a short quotation closed by ``者`` is reported (``gap``, info) as a
glyph the print may have lost: it is layout, not text, so the tokens do not say it.
``〓`` (an unresolved gaiji) stays in the text as a placeholder.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

from collate.model import BLANK, SHORT_LINE, Diagnostic, Layer, Mark, MarkKind, Role, Severity
from collate.readers.base import Layout, Line, Parsed, ReadOptions, ReadState, iter_lines
from collate.readers.layouts.danshu.lemmas import bare_lemmas, lemma_start, squeeze
from collate.readers.layouts.danshu.marks import (
    AFTER_WORD,
    AUTHOR_INDENT,
    CHAPTER_TITLE,
    GAP,
    JUAN_TITLE,
    LEMMA_HIT,
    LEMMA_JOIN,
    LEMMA_MAX,
    LEMMA_SOURCES,
    LINE_ENDS,
    OPENER,
    OPENER_SLIPS,
    OPENERS,
    QUOTATION_CLOSE,
    QUOTATION_MAX,
    SENTENCE_ENDS,
    SHORT,
    SHORT_LINES_FROM,
    SPACE,
)

__all__ = [
    "AUTHOR_INDENT",
    "CHAPTER_TITLE",
    "GAP",
    "JUAN_TITLE",
    "LEMMA_JOIN",
    "LEMMA_MAX",
    "LEMMA_SOURCES",
    "LINE_ENDS",
    "OPENERS",
    "OPENER_SLIPS",
    "QUOTATION_CLOSE",
    "QUOTATION_MAX",
    "READER",
    "SENTENCE_ENDS",
    "SHORT",
    "SHORT_LINES_FROM",
    "DanshuReader",
]


@dataclass(frozen=True, slots=True)
class _Opener:
    """A formula at ``start:end`` after the gap ``gap:start``; ``slip`` if it reads 日 for 曰."""

    gap: int
    start: int
    end: int
    slip: bool


class DanshuReader(Layout):
    """Reads a 單疏本: 疏 paragraphs opened by ``X至Y　正義曰`` (or ``釋曰``)."""

    name = "danshu"
    description = "單疏本: 疏 only, paragraphs opened by a 標起止 `X至Y　正義曰` (`釋曰`), no brackets"

    def detect(self, text: str) -> tuple[float, str]:
        """Scores formulas after a gap and 至-lemmas before them, outside any brackets.

        A 注疏 print in small-print brackets may cite lemmas too; there the brackets outnumber them.
        """
        outside = _outside_brackets(text)
        openers = len(AFTER_WORD.findall(outside))
        lemmas = len(LEMMA_HIT.findall(outside))
        runs = text.count("(")
        if not openers:
            return 0.0, "no 正義曰/釋曰 after a gap"
        score = 0.55 * min(1.0, openers / 4) + 0.4 * min(1.0, lemmas / 3)
        score *= openers / (openers + runs)
        reason = f"{openers} 正義曰/釋曰 after a gap, {lemmas} 標起止 `X至Y`, {runs} bracketed runs"
        return round(score, 2), reason

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into headings, 標起止 and 疏 paragraphs, markers and layout."""
        return _Reading(text).run()


def _outside_brackets(text: str) -> str:
    """``text`` with every ``(…)`` run blanked out (same length), for detection only."""
    out = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")" and depth:
            depth -= 1
            out.append(" ")
            continue
        out.append(" " if depth else char)
    return "".join(out)


def _openers(text: str, start: int = 0, end: int | None = None) -> list[_Opener]:
    """The formulas in ``text[start:end]`` that stand after a gap or at a line start."""
    found = []
    for m in OPENER.finditer(text, start, len(text) if end is None else end):
        gap = m.start()
        while gap > 0 and text[gap - 1] in SPACE:
            gap -= 1
        before = text[gap : m.start()]
        if gap == 0 or GAP in before or "\n" in before:
            slip = any(c in OPENER_SLIPS for c in m.group(0))
            found.append(_Opener(max(gap, start), m.start(), m.end(), slip))
    return found


class _Reading(ReadState):
    """One read of a 單疏本: heading lines first, then the 疏 stream between them."""

    def run(self) -> Parsed:
        lines = list(iter_lines(self.text))
        headings = self.heading_lines(lines)
        pos = 0
        unit = 0
        for first, last, unit_of in headings:
            unit = self.stream(pos, lines[first].start, unit)
            for line in lines[first : last + 1]:
                self.spans.layout(line.start, line.body_start)
                self.words(line.body_start, line.body_end, Layer.HEADING, unit_of)
                self.spans.layout(line.body_end, line.end)
            pos = lines[last].end
        self.stream(pos, len(self.text), unit)
        self.short_lines(lines)
        return self.parsed()

    def short_lines(self, lines: list[Line]) -> None:
        """A lacuna at the end of each line that stops short inside a paragraph (see ``SHORT``).

        The print's lines are of one length (the commonest length of its lines); a line a few
        cells shorter whose paragraph goes on on the next line lost its last glyphs, as a worn
        print does, unmarked in the e-text (主人於¶之上, where the 注疏 read 主人於阼階之上).
        The lacuna is as wide as the cells missing: where the others read as many characters
        there, they are lost, never omitted; where they read none or many, it says nothing.
        """
        cells = [(line, line.body_end - line.body_start) for line in lines if line.body_end > line.body_start]
        lengths = Counter(n for _, n in cells if n >= SHORT_LINES_FROM)
        if sum(lengths.values()) < SHORT_LINES_FROM:
            return
        full, _ = lengths.most_common(1)[0]
        unit_at = {s.start: s.unit for s in self.spans.frozen_view() if s.layer is Layer.SHU and s.role is Role.TEXT}
        ends = {s.end: s.unit for s in self.spans.frozen_view() if s.layer is Layer.SHU and s.role is Role.TEXT}
        for (line, n), (after, _) in pairwise(cells):
            missing = full - n
            if missing < SHORT or missing > full // 2:
                continue
            unit, going_on = ends.get(line.body_end), unit_at.get(after.body_start)
            if unit is not None and unit == going_on:
                self.marks.append(Mark(line.body_end, MarkKind.LACUNA, f"{SHORT_LINE}, {missing}"))

    def heading_lines(self, lines: list[Line]) -> list[tuple[int, int, int]]:
        """(first, last, unit) of each block of heading lines: juan titles and the 撰者 under them."""
        blocks: list[tuple[int, int, int]] = []
        i = 0
        while i < len(lines):
            line = lines[i]
            m = JUAN_TITLE.fullmatch(self.text, line.body_start, line.body_end)
            if not m:
                i += 1
                continue
            if not blocks:
                self.metadata += [("work", m.group("work")), ("juan", m.group("juan"))]
            blocks.append((i, i, self.next_unit()))
            authors = i + 1
            while authors < len(lines) and _is_author(lines[authors], self.text):
                authors += 1
            if authors > i + 1:
                blocks.append((i + 1, authors - 1, self.next_unit()))
            i = authors
        return blocks

    def stream(self, start: int, end: int, unit: int) -> int:
        """The 疏 of ``text[start:end]``: paragraphs at each formula; returns the unit at the end."""
        pos = start
        for opener in _openers(self.text, start, end):
            lemma, unshaped = lemma_start(self.text, pos, opener.gap)
            if unshaped is not None:
                self.diagnostics.append(unshaped)
            if unit == 0 and squeeze(self.text[pos:lemma]):
                unit = self.next_unit()  # 疏 before the juan's first lemma: the last juan's paragraph
            self.shu(pos, lemma, unit)
            unit = self.next_unit()
            self.lemma(lemma, opener.gap, unit)
            self.spans.layout(opener.gap, opener.start)
            self.opener(opener, unit)
            pos = opener.end
        return self.shu(pos, end, unit)

    def shu(self, start: int, end: int, unit: int) -> int:
        """The 疏 of ``text[start:end]``, a paragraph at each lemma set with no formula before the
        疏's incipit (``INCIPIT``); returns the unit at the end."""
        pos = start
        for lemma, stop in bare_lemmas(self.text, start, end):
            self.words(pos, lemma, Layer.SHU, unit)
            unit = self.next_unit()
            self.lemma(lemma, stop, unit)
            pos = stop
        self.words(pos, end, Layer.SHU, unit)
        return unit

    def lemma(self, start: int, end: int, unit: int) -> None:
        """A 標起止 (or the chapter title, which stands where a lemma stands)."""
        while start < end and self.text[start] in SPACE:
            self.spans.layout(start, start + 1)
            start += 1
        if start >= end:
            return
        line_start = self.text.rfind("\n", 0, start) + 1
        at_line_start = not squeeze(self.text[line_start:start])
        if at_line_start and CHAPTER_TITLE.fullmatch(squeeze(self.text[start:end])):
            self.metadata.append(("title", squeeze(self.text[start:end])))
            self.words(start, end, Layer.HEADING, self.next_unit())
            return
        lemma = "標起止"
        if self.text[start] in LEMMA_SOURCES:
            source = self.text[start]
            self.spans.add(start, start + 1, Layer.MARKUP, unit, Role.MARKER, marker=source)
            lemma = f"標起止 {source}"
            start += 1
        # The lemma heads its paragraph as a name heads a quoted passage: an attribution of the
        # 疏, kept and shown but not collated, since a 注疏 print sets its 疏 after the passage
        # itself and has no lemma to set against it.
        self.words(start, end, Layer.SHU, unit, Role.ATTRIBUTION, passage=lemma)

    def opener(self, opener: _Opener, unit: int) -> None:
        """The formula as markers (one a piece where a line end splits it); a slip is reported."""
        formula = squeeze(self.text[opener.start : opener.end])
        word = "".join(OPENER_SLIPS.get(c, c) for c in formula)
        pos = opener.start
        while pos < opener.end:
            stop = pos
            while stop < opener.end and self.text[stop] not in SPACE:
                stop += 1
            self.spans.add(pos, stop, Layer.MARKUP, unit, Role.MARKER, marker=word)
            space = stop
            while space < opener.end and self.text[space] in SPACE:
                space += 1
            self.spans.layout(stop, space)
            pos = space
        if opener.slip:
            message = f"{formula} read as the formula {word}: an e-text slip"
            self.diagnostics.append(Diagnostic("opener-slip", message, opener.start, opener.end, Severity.INFO))

    def words(
        self, start: int, end: int, layer: Layer, unit: int, role: Role = Role.TEXT, passage: str | None = None
    ) -> None:
        """``layer`` text from ``start`` to ``end``; gaps and line ends set apart as layout."""
        pos = start
        while pos < end:
            stop = pos
            while stop < end and self.text[stop] not in SPACE:
                stop += 1
            self.spans.add(pos, stop, layer, unit, role, passage=passage)
            space = stop
            while space < end and self.text[space] in SPACE:
                space += 1
            if layer is Layer.SHU and stop > start and space < end and GAP in self.text[stop:space]:
                self.gap(stop, space)
            self.spans.layout(stop, space)
            pos = space

    def gap(self, start: int, end: int) -> None:
        """A gap inside the 疏: a lacuna as wide as it; a diagnostic where it sets off no quotation.

        A gap may be the print's separator before a quotation of the 經 (易易也　此五行者) or a
        glyph the worn print lost (介　象陰陽也者 lost 僎), and a sentence end before it does not
        tell them apart: 者 also ends a topic inside a sentence (上云杖者　也, where the 注疏 read
        杖者爵也). Every gap is marked as a lacuna of its width, and the collation decides: where
        the others read as many characters there, they are lost (此本闕), never omitted; where they
        read none, the lacuna says nothing (:func:`~collate.align.alignment.with_lacunae`). Only a
        gap after no sentence end that opens no quotation is reported as a glyph perhaps lost.
        """
        if "\n" in self.text[start:end]:
            return
        self.marks.append(Mark(start, MarkKind.LACUNA, f"{BLANK}, {self.text.count(GAP, start, end)}"))
        if self.text[start - 1] in SENTENCE_ENDS or self.quotation_at(end):
            return
        message = "a gap inside the 疏 that sets off no quotation: perhaps a glyph lost from the print"
        self.diagnostics.append(Diagnostic("gap", message, start, end, Severity.INFO))

    def quotation_at(self, start: int) -> bool:
        """A quotation closed by 者 starts at ``start``: within ``QUOTATION_MAX`` words, no gap first."""
        words = 0
        for char in self.text[start:]:
            if char == GAP or words >= QUOTATION_MAX:
                return False
            if char in QUOTATION_CLOSE:
                return True
            words += char not in SPACE
        return False


def _is_author(line: Line, text: str) -> bool:
    """A 撰者 line: set lower than the text by ``AUTHOR_INDENT`` full-width cells or more."""
    indent = text[line.start : line.body_start]
    return line.body_start < line.body_end and indent.count(GAP) >= AUTHOR_INDENT


READER = DanshuReader()
