"""禮記注疏 e-text: 經 with ``_{…}`` small-print runs (注, 〇, 釋文) and 疏 paragraphs.

The file is read paragraph by paragraph: a paragraph is a run of non-blank lines. File
lines are the e-text's paragraphs, not printed lines, so there are no line or page marks.
The tables below are the whole layout; the code only applies them:

1. ``PARAGRAPHS`` is tried, in order, at the start of each paragraph's first line. A
   ``HEADING`` pattern takes the whole line as the chapter title. A ``SHU`` pattern opens a
   疏 paragraph group: the opener (``文疏『A』至『B』``, ``註疏『A』``, ``註疏``) is a marker
   whose name keeps the lemma (``疏 A…B``; ``疏·注 A…B`` for 疏 on the 注), and every line
   of the group is 疏. ``SHU_LINE_OPENERS`` (``正義曰：``) are markers where a 疏 line begins.
2. A paragraph no pattern opens is 經. ``RUN`` cuts it into 經 and small-print runs. A run
   opening with one of ``RUN_PREFIXES`` is that prefix's layer as a whole, the prefix an
   attribution: the chapter's first run ``_{陸曰：…}`` stands before any 經 and is 陸德明's
   preface from 經典釋文, so it is 釋文. Any other run is ``RUN_LAYERS[0]`` (注) up to the
   first ``RUN_SPLIT`` (〇) and ``RUN_LAYERS[1]`` (釋文) after it.
3. ``SECTION_BREAK`` (〇) anywhere else inside 疏 or 釋文 is a printed section break: a marker.

Punctuation stays inside text spans, including the 『』 of quoted lemmas; 【…】 here are
book-title brackets, punctuation too. Brackets of ``BRACKETS`` are checked line by line;
an unmatched one, a ``_{`` left open at its line end, and a stray ``}`` become diagnostics
and the reading goes on (an open run ends at the next ``_{`` or at the line end).
"""

from __future__ import annotations

import re

from collate.model import Diagnostic, Layer, MarkerKind, Role
from collate.model.numerals import NUMERAL
from collate.model.people import LU_DEMING
from collate.readers.base import Layout, Line, Parsed, ReadOptions, ReadState, bracket_diagnostics, iter_lines

# 『A』至『B』: the lemma a 疏 comments on, from A to B (or just A).
_LEMMA = r"『(?P<a>[^』\n]*)』(?:至『(?P<b>[^』\n]*)』)?"

# (pattern at the start of a paragraph, layer of the paragraph, the opener's name), tried in order.
PARAGRAPHS: tuple[tuple[re.Pattern[str], Layer, str], ...] = (
    (
        re.compile(rf"[^\s_『』．：]{{1,12}}第{NUMERAL}+(?:\({NUMERAL}+\))?$"),
        Layer.HEADING,
        "",
    ),  # 投壺第四十(一)
    (re.compile("文疏" + _LEMMA), Layer.SHU, "疏"),  # 疏 on the 經
    (re.compile("註疏" + _LEMMA), Layer.SHU, "疏·注"),  # 疏 on the 注
    (re.compile("註疏(?=正義曰)"), Layer.SHU, "疏·注"),  # the chapter's opening 疏 (on 鄭's 目錄)
)
# Printed at the start of a 疏 line (or right after the opener): not the subcommentary's words.
SHU_LINE_OPENERS: tuple[str, ...] = ("正義曰：", "正義曰")

RUN = ("_{", "}")
RUN_SPLIT = "〇"
RUN_LAYERS = (Layer.ZHU, Layer.SHIWEN)
# (prefix opening a run, layer of the whole run, who speaks)
RUN_PREFIXES: tuple[tuple[str, Layer, str], ...] = ((f"{LU_DEMING.label}：", Layer.SHIWEN, LU_DEMING.name),)
SECTION_BREAK = "〇"

BRACKETS = {"『": "』", "「": "」", "【": "】"}

# A lemma holds no 『: else a text of unclosed 文疏『 rescans to the line end from each one.
_SHU_HEADER = re.compile(r"[文註]疏『[^『』\n]*』")


class ZhushuReader(Layout):
    """Reads a 禮記注疏 e-text laid out with ``_{…}`` runs and 文疏/註疏 paragraphs."""

    name = "zhushu"
    description = "注疏 e-text: `_{注〇釋文}` small-print runs, `文疏『A』至『B』` 疏 paragraphs"

    def detect(self, text: str) -> tuple[float, str]:
        """Scores the ``_{…}`` runs and the 疏 headers; both are needed for a full score."""
        runs = text.count(RUN[0])
        headers = len(_SHU_HEADER.findall(text))
        if not runs and not headers:
            return 0.0, "no `_{…}` runs and no 文疏/註疏 headers"
        score = 0.6 * min(1.0, runs / 3) + 0.3 * min(1.0, headers / 2)
        score += 0.1 if SHU_LINE_OPENERS[-1] in text else 0.0
        return round(score, 2), f"`_{{…}}` commentary runs ({runs}) and 文疏『…』至『…』 headers ({headers})"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into 經, 注, 釋文, 疏 and heading spans, markers and layout."""
        return _Reading(text).run()


class _Reading(ReadState):
    """One read of a 注疏 e-text, paragraph by paragraph."""

    def run(self) -> Parsed:
        layer: Layer | None = None  # of the paragraph being read; None between paragraphs
        unit = 0
        for line in iter_lines(self.text):
            self.spans.layout(line.start, line.body_start)
            if line.body_start == line.body_end:
                layer = None
            else:
                self.diagnostics += bracket_diagnostics(self.text, line.body_start, line.body_end, BRACKETS)
                if layer is None:
                    layer, unit = self.paragraph(line)
                elif layer is Layer.SHU:
                    self.shu(line.body_start, line.body_end, unit)
                else:
                    self.jing(line.body_start, line.body_end)
            self.spans.layout(line.body_end, line.end)
        return self.parsed()

    def paragraph(self, line: Line) -> tuple[Layer, int]:
        """Read a paragraph's first line; return the paragraph's layer and unit."""
        for pattern, layer, name in PARAGRAPHS:
            m = pattern.match(self.text, line.body_start, line.body_end)
            if not m:
                continue
            unit = self.next_unit()
            if layer is Layer.HEADING:
                self.spans.add(line.body_start, line.body_end, layer, unit)
                self.metadata.append(("title", m.group(0)))
                return layer, unit
            self.spans.add(m.start(), m.end(), Layer.MARKUP, unit, Role.MARKER, marker=_header_name(name, m))
            self.shu(m.end(), line.body_end, unit)
            return layer, unit
        self.jing(line.body_start, line.body_end)
        return Layer.JING, 0

    def shu(self, start: int, end: int, unit: int) -> None:
        """A 疏 line (or the rest of the opener's line): 正義曰 opener, then 疏 with section breaks."""
        for opener in SHU_LINE_OPENERS:
            if self.text.startswith(opener, start, end):
                self.spans.add(start, start + len(opener), Layer.MARKUP, unit, Role.MARKER, marker=SHU_LINE_OPENERS[-1])
                start += len(opener)
                break
        self.with_breaks(start, end, Layer.SHU, unit)

    def jing(self, start: int, end: int) -> None:
        """A 經 line: 經 stretches between ``_{…}`` runs."""
        open_, close = RUN
        pos = start
        while pos < end:
            at = self.text.find(open_, pos, end)
            stop = end if at < 0 else at
            self.jing_stretch(pos, stop)
            if at < 0:
                return
            body = at + len(open_)
            closed_at = self.text.find(close, body, end)
            reopened_at = self.text.find(open_, body, end)
            if closed_at < 0 or 0 <= reopened_at < closed_at:
                run_end = reopened_at if reopened_at >= 0 else end
                message = f"{open_} is not closed before the {'next run' if reopened_at >= 0 else 'line end'}"
                self.diagnostics.append(Diagnostic("unbalanced", message, at, at + len(open_)))
                self.spans.add(at, body, Layer.MARKUP, role=Role.MARKER, marker=MarkerKind.SMALL_PRINT_OPEN)
                self.small_print(body, run_end)
                pos = run_end
            else:
                self.spans.add(at, body, Layer.MARKUP, role=Role.MARKER, marker=MarkerKind.SMALL_PRINT_OPEN)
                self.small_print(body, closed_at)
                self.spans.add(
                    closed_at,
                    closed_at + len(close),
                    Layer.MARKUP,
                    role=Role.MARKER,
                    marker=MarkerKind.SMALL_PRINT_CLOSE,
                )
                pos = closed_at + len(close)

    def jing_stretch(self, start: int, end: int) -> None:
        """經 text; a stray run closer inside it is reported and set apart as a marker."""
        unit = self.next_unit() if start < end else 0
        close = RUN[1]
        pos = start
        while pos < end:
            at = self.text.find(close, pos, end)
            stop = end if at < 0 else at
            self.spans.add(pos, stop, Layer.JING, unit)
            if at < 0:
                return
            self.diagnostics.append(Diagnostic("unbalanced", f"{close} closes no run", at, at + len(close)))
            self.spans.add(at, at + len(close), Layer.MARKUP, role=Role.MARKER, marker=MarkerKind.SMALL_PRINT_CLOSE)
            pos = at + len(close)

    def small_print(self, start: int, end: int) -> None:
        """A run's inside: a prefixed run is one layer; otherwise 注, 〇, 釋文."""
        for prefix, layer, who in RUN_PREFIXES:
            if self.text.startswith(prefix, start, end):
                unit = self.next_unit()
                self.spans.add(start, start + len(prefix), layer, unit, Role.ATTRIBUTION, speaker=who)
                self.with_breaks(start + len(prefix), end, layer, unit)
                return
        split = self.text.find(RUN_SPLIT, start, end)
        first, second = RUN_LAYERS
        self.spans.add(start, end if split < 0 else split, first, self.next_unit())
        if split >= 0:
            self.spans.add(split, split + len(RUN_SPLIT), Layer.MARKUP, role=Role.MARKER, marker=second.chinese)
            self.with_breaks(split + len(RUN_SPLIT), end, second, self.next_unit())

    def with_breaks(self, start: int, end: int, layer: Layer, unit: int) -> None:
        """``layer`` text from ``start`` to ``end``, with 〇 section breaks set apart as markers."""
        pos = start
        while pos < end:
            at = self.text.find(SECTION_BREAK, pos, end)
            stop = end if at < 0 else at
            self.spans.add(pos, stop, layer, unit)
            if at < 0:
                return
            self.spans.add(
                at, at + len(SECTION_BREAK), Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.SECTION_BREAK
            )
            pos = at + len(SECTION_BREAK)


def _header_name(kind: str, m: re.Match[str]) -> str:
    """``疏 A…B`` from ``文疏『A』至『B』``: the lemma the 疏 comments on stays recoverable."""
    lemma = [g for g in m.groupdict().values() if g]
    return " ".join([kind, "…".join(lemma)]) if lemma else kind


READER = ZhushuReader()
