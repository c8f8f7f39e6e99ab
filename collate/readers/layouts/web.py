"""五禮通考 from a web library: one paragraph a line, commentary in `【…】` (seed 003).

A line is one paragraph. Its unbracketed head is 經 (the quoted classic, beginning with its
source title such as 曲礼 or 周礼天官司裘: the title is left in the 經 layer, since telling
where a title ends needs a catalogue of titles), a 蕙田案/又案 note (NOTE), a ``右X``
section-closing line (HEADING) or a later commentator in large print (聂崇义三礼图…曰:
COMMENTARY). Brackets hold small print:

- ``【注…】`` is 鄭注 (ZHU); a `` 疏`` inside switches to 疏 (SHU). The web copy runs a
  later commentator on inside the 疏 bracket (``…疏…郑氏锷曰…``): from a ``X氏Y曰`` on,
  the bracket is COMMENTARY with that attribution.
- ``【X氏Y曰…】`` is a later commentator (COMMENTARY, attribution ``X氏Y曰``).

A bracket not closed on its line is reported and ends with the line: the web copy keeps
one paragraph a line, so the line end is the surest end of the unit. The site's furniture
lines (``【打 印】 【来源：…】``) are the web container's, never this layout's.
"""

from __future__ import annotations

import re

from collate.model import Diagnostic, HeadingKind, Layer, Role
from collate.readers.base import (
    Layout,
    Line,
    Parsed,
    ReadOptions,
    SpanList,
    bracket_diagnostics,
    iter_lines,
    text_glyph_diagnostics,
)

_HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"

# A later commentator named the way 五禮通考 names them: surname, 氏, given name, 曰
# (应氏镛曰, 王氏昭禹曰, 王氏曰). Surnames are one character unless a known compound one,
# so that a search inside running text does not take the character before the name.
_COMPOUND_SURNAMES = "欧阳|歐陽|司马|司馬|诸葛|諸葛|长孙|長孫|上官"
_NAMED = re.compile(rf"(?:{_COMPOUND_SURNAMES}|[{_HAN}])氏[{_HAN}]{{0,2}}曰")

# Large-print commentators quoted by work rather than by the 氏 formula; the attribution
# runs to the first 曰 (聂崇义三礼图虎侯图説曰), or is the name alone.
_LARGE_PRINT = ("聂崇义", "聶崇義", "陈祥道", "陳祥道", "陈氏礼书", "陳氏禮書", "朱子", "刘敞", "劉敞")

# Qin Huitian's own notes. 又案 continues the previous 蕙田案.
_NOTE = re.compile(r"(蕙田案|又案)")

# ``右射杂仪``: "the above is 射杂仪", a section-closing line, short and bracket-free.
_SECTION_END = re.compile(rf"右[{_HAN}]{{1,12}}")

_BRACKET = re.compile(r"【([^【】\n]*)(】)?")
_SHU_SWITCH = re.compile(r"[ \u3000]疏")


class WebBracketReader(Layout):
    """Reads 五禮通考 as web libraries serve it: a paragraph a line, small print in 【】."""

    name = "web-bracket"
    description = "one paragraph a line; 【注…疏…】 and 【X氏Y曰…】 small print"

    def detect(self, text: str) -> tuple[float, str]:
        """Unindented paragraph lines carrying 【注 or 【X氏Y曰 brackets."""
        lines = [text[ln.start : ln.body_end] for ln in iter_lines(text) if ln.body_end > ln.body_start]
        if not lines:
            return 0.0, "empty"
        flush = sum(1 for line in lines if line[0] not in " \t\u3000\u00a0") / len(lines)
        zhu = sum("【注" in line for line in lines)
        named = sum(bool(re.search(r"【" + _NAMED.pattern, line)) for line in lines)
        if flush < 0.8 or zhu + named < 2:
            return 0.0, "no unindented paragraphs with 【注…】 or 【X氏Y曰…】 commentary"
        score = 0.85 + (0.05 if zhu and named else 0.0)
        return score, f"{zhu} lines with 【注…】, {named} with 【X氏Y曰…】, unindented paragraphs"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """One paragraph a line: the head by its opening words, each bracket by its marker."""
        spans = SpanList()
        diagnostics: list[Diagnostic] = []
        unit = 0
        for line in iter_lines(text):
            spans.layout(line.start, line.body_start)
            body = text[line.body_start : line.body_end]
            if body:
                unit = _read_paragraph(text, line, spans, diagnostics, unit)
            spans.layout(line.body_end, line.end)
        frozen = spans.freeze()
        diagnostics += text_glyph_diagnostics(text, frozen)
        diagnostics.sort(key=lambda d: d.start)
        return Parsed(spans=frozen, diagnostics=tuple(diagnostics))


def _read_paragraph(text: str, line: Line, spans: SpanList, diagnostics: list[Diagnostic], unit: int) -> int:
    """Spans for one paragraph line; returns the last unit number used."""
    pos = line.body_start
    diagnostics.extend(bracket_diagnostics(text, line.body_start, line.body_end, {"【": "】"}))
    first = _BRACKET.search(text, pos, line.body_end)
    head_end = first.start() if first else line.body_end
    if head_end > pos:
        unit += 1
        _read_head(text, pos, head_end, spans, unit)
    pos = head_end
    while pos < line.body_end:
        m = _BRACKET.match(text, pos, line.body_end)
        if m is None:
            # Text after a closed bracket, outside any other: the paragraph's head resumes.
            nxt = _BRACKET.search(text, pos, line.body_end)
            stop = nxt.start() if nxt else line.body_end
            unit += 1
            _read_head(text, pos, stop, spans, unit)
            pos = stop
            continue
        unit = _read_bracket(text, m.start(), m.start(1), m.end(1), m.end(), spans, unit)
        pos = m.end()
    return unit


def _read_head(text: str, start: int, end: int, spans: SpanList, unit: int) -> None:
    """The unbracketed part of a paragraph: 經, a note, a section end or a commentator."""
    head = text[start:end]
    note = _NOTE.match(head)
    if note:
        spans.add(start, start + note.end(), Layer.NOTE, unit, Role.ATTRIBUTION, speaker=note.group(1))
        _add_text(text, start + note.end(), end, spans, Layer.NOTE, unit)
        return
    if _SECTION_END.fullmatch(head):
        spans.add(start, end, Layer.HEADING, unit, heading=HeadingKind.SECTION_END)
        return
    attribution = _large_print_attribution(head)
    if attribution:
        spans.add(start, start + len(attribution), Layer.COMMENTARY, unit, Role.ATTRIBUTION, speaker=attribution)
        _add_text(text, start + len(attribution), end, spans, Layer.COMMENTARY, unit)
        return
    _add_text(text, start, end, spans, Layer.JING, unit)


def _large_print_attribution(head: str) -> str | None:
    """The attribution opening a large-print commentator's paragraph, if it opens with one."""
    named = _NAMED.match(head)
    if named:
        return named.group(0)
    for name in _LARGE_PRINT:
        if head.startswith(name):
            says = head.find("曰", len(name))
            return head[: says + 1] if 0 <= says <= 16 else name
    return None


def _read_bracket(
    text: str, start: int, inner: int, inner_end: int, end: int, spans: SpanList, unit: int
) -> int:
    """One 【…】 group: its markers, and its content in the layer its opening names."""
    unit += 1
    if text.startswith("注", inner):
        spans.add(start, inner + 1, Layer.MARKUP, unit, Role.MARKER, marker="【注")
        unit = _read_zhu_shu(text, inner + 1, inner_end, spans, unit)
    else:
        spans.add(start, inner, Layer.MARKUP, unit, Role.MARKER, marker="【")
        named = _NAMED.match(text, inner, inner_end)
        if named:
            spans.add(inner, named.end(), Layer.COMMENTARY, unit, Role.ATTRIBUTION, speaker=named.group(0))
            _add_text(text, named.end(), inner_end, spans, Layer.COMMENTARY, unit)
        else:
            _add_text(text, inner, inner_end, spans, Layer.COMMENTARY, unit)
    spans.add(inner_end, end, Layer.MARKUP, unit, Role.MARKER, marker="】")
    return unit


def _read_zhu_shu(text: str, start: int, end: int, spans: SpanList, unit: int) -> int:
    """注 up to `` 疏``, 疏 after it; a ``X氏Y曰`` inside the 疏 opens a commentator."""
    switch = _SHU_SWITCH.search(text, start, end)
    zhu_end = switch.start() if switch else end
    _add_text(text, start, zhu_end, spans, Layer.ZHU, unit)
    if switch is None:
        return unit
    unit += 1
    spans.add(switch.start(), switch.end(), Layer.MARKUP, unit, Role.MARKER, marker="疏")
    named = _NAMED.search(text, switch.end(), end)
    shu_end = named.start() if named else end
    _add_text(text, switch.end(), shu_end, spans, Layer.SHU, unit)
    if named:
        unit += 1
        spans.add(named.start(), named.end(), Layer.COMMENTARY, unit, Role.ATTRIBUTION, speaker=named.group(0))
        _add_text(text, named.end(), end, spans, Layer.COMMENTARY, unit)
    return unit


def _add_text(text: str, start: int, end: int, spans: SpanList, layer: Layer, unit: int) -> None:
    """Text of one layer; a space inside it (the web copy's section gap) is layout, a stray
    bracket a marker (reported by the bracket check)."""
    pos = start
    for m in re.finditer(r"[ \t]+|[【】]", text[start:end]):
        spans.add(pos, start + m.start(), layer, unit)
        if m.group(0) in "【】":
            spans.add(start + m.start(), start + m.end(), Layer.MARKUP, unit, Role.MARKER, marker=m.group(0))
        else:
            spans.layout(start + m.start(), start + m.end())
        pos = start + m.end()
    spans.add(pos, end, layer, unit)


READER = WebBracketReader()
