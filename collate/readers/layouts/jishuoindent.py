"""儀禮集說 (元 敖繼公), the 四庫全書 print: 經 flush left, 集說 on lines indented one space.

How the print marks its layers (as the Kanseki Repository transcribes it):

- Structure (HEADING): ``欽定四庫全書``; the juan title, at the start of a juan with the
  author (``　儀禮集說卷六　　　　　元　敖繼公　撰``) and again at its end (``　儀禮集說卷六``); the
  chapter title flush left (``燕禮第六``); the section-closing lines indented four spaces
  (``　　　　右主人獻賔``); ``記`` opening the first line after a section-closing line (the 記 of
  the chapter begins, ``記燕朝服于寢``: the rest of the line is 經); ``正誤`` alone on a line.
- The 經 is large print, flush left (JING), one unit per stretch between two commentaries;
  its lines run on.
- The 集說 follows on lines indented one full-width space; a passage's continuation lines are
  indented the same. Every quotation starts a new line, opened by its source: ``注曰`` or
  ``鄭注曰`` (鄭注: ZHU), ``疏曰``/``䟽曰`` (賈疏: SHU), ``繼公謂``/``繼公案`` (the author:
  COMMENTARY), or a
  later scholar's name and ``曰`` (``朱子曰``, ``李微之曰``, ``楊志仁曰``: COMMENTARY). The prefix
  is an attribution span, the ``speaker`` it names. A name opens a quotation only where a passage may
  begin (after 經, a heading, or a line shorter than the full measure), and a book's title
  (``春秋傳曰``) is not a name. An indented line after 經 or a heading with no prefix opens the
  author's own 集說 (COMMENTARY, no attribution). A full-width space and ``案`` inside a line
  open a note (NOTE, attribution ``案``), as in the book's other e-text (layout ``jishuo``); so
  does ``案`` opening an indented line where a passage may begin (the indent is that space:
  ``　案注云復平生時食…`` after a short line).
  Lines indented further that do not close a section are the author's remarks (COMMENTARY).
- ``(…/…)`` small print holds 音 notes (``(與音/預)``, ``(朝直/遥反)``): the commentary's own
  sound glosses, COMMENTARY with the ``passage`` ``音`` (as 陳澔's, :mod:`collate.readers.layouts.chenhao`),
  so that a collation never sets them against a 注疏 print's 釋文; a small-print line after one
  goes on with it. Inside 集說, small print without pronunciation words is
  the same 集說 set small (it stays in the passage's layer).
- ``正誤`` closes the juan: the author's list of textual corrections. Each entry is a lemma
  line flush left (the 經 as he corrects it) and indented notes (``鄭本作媵觚注云今文媵皆作騰…``):
  all NOTE with the ``passage`` ``正誤``, one unit an entry, never 經. It runs to the next juan title.
  A lemma is a line or two; a paragraph of flush-left lines with no indented note under it is
  the author's own prose set after the list (the last juan closes with his postscript on the
  記, ``禮古經十七篇…長樂敖繼公書``): COMMENTARY with the ``passage`` ``跋``, one unit.
- An unclosed ``(`` ends at its line end, a stray ``)`` is layout: ``unbalanced`` diagnostics.
"""

from __future__ import annotations

import re
from collections import Counter

from collate.model import Diagnostic, HeadingKind, Layer, Role
from collate.model.numerals import NUMERAL
from collate.readers.base import Layout, Parsed, ReadOptions, ReadState, iter_lines
from collate.readers.layouts.chenhao import SOUND_NOTES, is_notes

_COLLECTION = re.compile(r"欽定四庫全書|钦定四库全书")
_JUAN_TITLE = re.compile(rf"[^\s()/]{{0,8}}[卷巻]{NUMERAL}+(?:[\s\u3000].*)?")
_CHAPTER = re.compile(rf"[^\s()/]{{1,8}}第{NUMERAL}+")
_SECTION_END = re.compile(r"右[^\s()/]{1,20}")
_CORRECTIONS = "正誤"
_JI = "記"
# Fixed prefixes of quotations, both scripts.
_SPEAKERS = {
    "鄭注曰": Layer.ZHU,
    "注曰": Layer.ZHU,
    "註曰": Layer.ZHU,
    "疏曰": Layer.SHU,
    "䟽曰": Layer.SHU,
    "繼公謂": Layer.COMMENTARY,
    "继公谓": Layer.COMMENTARY,
    "繼公案": Layer.COMMENTARY,
    "继公案": Layer.COMMENTARY,
}
_SPEAKER = re.compile("|".join(_SPEAKERS))
# A later scholar: a name of two or three characters and 曰.
_NAMED = re.compile(r"(?P<name>[^\s()/]{2,3}?)曰")
# A name ending so is a book or a passage of one (春秋傳曰, 鄉飲酒記曰), not a scholar.
_BOOK_ENDINGS = frozenset("傳传記记禮礼經经詩诗書书易語语篇文義义官注註疏說説云又")
_NOTE = "\u3000案"
# A run of this many flush-left lines inside 正誤 is prose, not a lemma (a line or two).
_PROSE_LINES = 3
_POSTSCRIPT = "跋"


def _named(body: str) -> str | None:
    """The opening ``某某曰`` of a line when it names a scholar, not a book."""
    m = _NAMED.match(body)
    if m is None or m.group("name")[-1] in _BOOK_ENDINGS:
        return None
    return m.group(0)


def _measure(text: str) -> int:
    """The full length of a commentary line in this print: the commonest length of long ones."""
    lengths = Counter(
        line.body_end - line.body_start
        for line in iter_lines(text)
        if text[line.start : line.body_start] == "\u3000" and "(" not in text[line.body_start : line.body_end]
    )
    longest = sorted(lengths.items(), key=lambda kv: (-kv[1], -kv[0]))
    return longest[0][0] if longest else 0


def _flush_runs(text: str) -> dict[int, int]:
    """For each flush-left line (by its start), how many flush-left lines its run holds."""
    runs: dict[int, int] = {}
    run: list[int] = []
    for line in [*iter_lines(text), None]:
        if line is not None and line.body_end == line.body_start:
            continue  # blank lines do not break a run
        if line is not None and line.body_start == line.start:
            run.append(line.start)
            continue
        runs.update(dict.fromkeys(run, len(run)))
        run = []
    return runs


class JishuoIndentReader(Layout):
    """Reads 敖繼公's 儀禮集說 (四庫 print): flush-left 經, 集說 indented, 正誤 at the end."""

    name = "jishuo-indent"
    description = "儀禮集說 (敖繼公, 四庫): 經 flush left; 注曰/疏曰/繼公謂 lines indented one space; 正誤"

    def detect(self, text: str) -> tuple[float, str]:
        """Lines indented one full-width space that open with 注曰/疏曰/繼公謂, below flush-left 經."""
        lines = [ln for ln in iter_lines(text) if ln.body_end > ln.body_start]
        if not lines:
            return 0.0, "empty"
        speakers = sum(
            text[ln.start : ln.body_start] == "\u3000" and bool(_SPEAKER.match(text, ln.body_start)) for ln in lines
        )
        flush = sum(ln.body_start == ln.start for ln in lines)
        if speakers < 3 or flush < len(lines) / 10:
            return 0.0, "no lines indented one space opening with 注曰/疏曰/繼公謂 under flush-left 經"
        ends = sum(bool(_SECTION_END.fullmatch(text, ln.body_start, ln.body_end)) for ln in lines)
        score = 0.85 + (0.05 if ends else 0.0) + (0.05 if _CORRECTIONS in text else 0.0)
        reason = f"{speakers} lines indented one space open with 注曰/疏曰/繼公謂, {flush} flush-left lines"
        return score, reason + f", {ends} 右… section ends"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Line by line: headings, 正誤 entries, 經, and 集說 passages by their opening words."""
        return _Reading(text).run()


class _Reading:
    def __init__(self, text: str) -> None:
        self.text = text
        self.state = ReadState(text)
        self.measure = _measure(text)
        self.layer = Layer.HEADING  # the layer the last line ended in
        self.unit = 0
        self.full = False  # the last commentary line filled the measure: the next goes on with it
        self.carry = 0  # unit of the 音 notes that closed the last line: a line opening "(" goes on
        self.after_section = False
        self.corrections = False
        self.remark = 0  # the indent of the author's remark the last line went on with, if any
        self.flush_runs = _flush_runs(text)

    def run(self) -> Parsed:
        st = self.state
        for line in iter_lines(self.text):
            st.spans.layout(line.start, line.body_start)
            if line.body_end > line.body_start:
                self.line(line.body_start - line.start, line.body_start, line.body_end)
            st.spans.layout(line.body_end, line.end)
        return st.parsed()

    def heading(self, start: int, end: int, heading: HeadingKind | str) -> None:
        """A structure line, a kind or the print's word for it (正誤); its inner spaces are layout."""
        unit, spans, pos = self.state.next_unit(), self.state.spans, start
        for m in re.finditer(r"[\u3000 \t]+", self.text[start:end]):
            spans.add(pos, start + m.start(), Layer.HEADING, unit, heading=heading)
            spans.layout(start + m.start(), start + m.end())
            pos = start + m.end()
        spans.add(pos, end, Layer.HEADING, unit, heading=heading)
        if heading == HeadingKind.CHAPTER_TITLE:
            self.state.metadata.append(("chapter", self.text[start:end]))
        self.layer, self.full, self.carry = Layer.HEADING, False, 0

    def line(self, indent: int, start: int, end: int) -> None:
        text = self.text
        body = text[start:end]
        remark, self.remark = self.remark, 0
        section_end = indent >= 2 and bool(_SECTION_END.fullmatch(body))
        if _COLLECTION.fullmatch(body):
            self.corrections = False
            self.heading(start, end, HeadingKind.COLLECTION)
        elif _JUAN_TITLE.fullmatch(body) and "(" not in body:
            self.corrections = False
            self.heading(start, end, HeadingKind.JUAN_TITLE)
        elif indent == 0 and body == _CORRECTIONS:
            self.corrections = True
            self.heading(start, end, _CORRECTIONS)
        elif self.corrections and indent == 0 and self.flush_runs.get(start, 0) >= _PROSE_LINES:
            if self.layer is not Layer.COMMENTARY:
                self.unit = self.state.next_unit()
            self.layer = Layer.COMMENTARY
            self.pieces(start, end, Layer.COMMENTARY, self.unit, _POSTSCRIPT)
        elif self.corrections:
            if indent == 0 or self.layer is not Layer.NOTE:
                self.unit = self.state.next_unit()
            self.layer = Layer.NOTE
            self.pieces(start, end, Layer.NOTE, self.unit, _CORRECTIONS)
        elif section_end:
            self.heading(start, end, HeadingKind.SECTION_END)
            self.after_section = True
            return
        elif indent == 0 and _CHAPTER.fullmatch(body):
            self.heading(start, end, HeadingKind.CHAPTER_TITLE)
        elif indent == 0:
            self.jing(start, end)
        else:
            self.remark = remark
            self.commentary(indent, start, end)
            if indent > 1:
                # The author's remark on the section just closed: the 記 may still follow.
                return
        self.after_section = False

    def jing(self, start: int, end: int) -> None:
        """A flush-left line: 經 (after a section end, a leading 記 is a heading)."""
        text, st = self.text, self.state
        if text[start] == "(" and self.carry:
            self.pieces(start, end, self.layer, self.unit, None)
            return
        if self.after_section and text.startswith(_JI, start, end):
            self.heading(start, start + len(_JI), _JI)
            start += len(_JI)
        if self.layer is not Layer.JING:
            self.unit = st.next_unit()
        self.layer, self.full = Layer.JING, False
        self.pieces(start, end, Layer.JING, self.unit, None)

    def commentary(self, indent: int, start: int, end: int) -> None:
        """An indented line: a new quotation, a passage's next line, or the author's remark."""
        text, st = self.text, self.state
        if text[start] == "(" and self.carry:
            self.pieces(start, end, self.layer, self.unit, None)
            return
        speaker = _SPEAKER.match(text, start, end)
        may_open = self.layer in (Layer.JING, Layer.HEADING) or not self.full or indent > 1
        named = _named(text[start:end]) if may_open else None
        pos = start
        if may_open and not speaker and not named and text.startswith(_NOTE[1:], start, end):
            # The indent is the blank before 案: a note opens, as it does inside a line.
            self.layer, self.unit = Layer.NOTE, st.next_unit()
            st.spans.add(start, start + 1, Layer.NOTE, self.unit, Role.ATTRIBUTION, speaker="案")
            pos = start + 1
        elif speaker or named:
            word = speaker.group(0) if speaker else named or ""
            self.layer = _SPEAKERS.get(word, Layer.COMMENTARY)
            self.unit = st.next_unit()
            st.spans.add(start, start + len(word), self.layer, self.unit, Role.ATTRIBUTION, speaker=word)
            pos = start + len(word)
        elif self.layer in (Layer.JING, Layer.HEADING) or (indent > 1 and indent != self.remark):
            self.layer, self.unit = Layer.COMMENTARY, st.next_unit()
        self.pieces(pos, end, self.layer, self.unit, None)
        self.full = end - start >= self.measure
        self.remark = indent if indent > 1 else 0

    def pieces(self, start: int, end: int, layer: Layer, unit: int, passage: str | None) -> None:
        """Large print in ``layer``, small print as 音 notes, an inline ``　案`` note."""
        text, st = self.text, self.state
        spans = st.spans
        carry, self.carry = self.carry, 0
        pos = start
        while pos < end:
            o = text.find("(", pos, end)
            c = text.find(")", pos, end)
            n = text.find(_NOTE, pos, end) if layer is not Layer.NOTE else -1
            stop = min([x for x in (o, c, n) if x >= 0], default=end)
            self.words(pos, stop, layer, unit, passage)
            if stop == end:
                return
            if stop == n:
                spans.layout(n, n + 1)
                layer, unit, passage = Layer.NOTE, st.next_unit(), None
                self.layer, self.unit = layer, unit
                spans.add(n + 1, n + len(_NOTE), layer, unit, Role.ATTRIBUTION, speaker="案")
                pos = n + len(_NOTE)
            elif stop == c:
                st.diagnostics.append(Diagnostic("unbalanced", ") closes nothing", c, c + 1))
                spans.layout(c, c + 1)
                pos = c + 1
            else:
                pos = self.small(o, end, layer, unit, passage, carry if o == start else 0)

    def small(self, o: int, end: int, layer: Layer, unit: int, passage: str | None, carry: int) -> int:
        """One ``(…)`` piece: 音 notes after 經 or when it reads as notes, else ``layer`` set small.

        ``carry``: the unit of notes the piece goes on with. Returns where reading goes on.
        """
        text, st = self.text, self.state
        close = text.find(")", o + 1, end)
        reopen = text.find("(", o + 1, end)
        if close < 0 or 0 <= reopen < close:
            st.diagnostics.append(Diagnostic("unbalanced", "( is not closed", o, o + 1))
            close = -1
        body_end = close if close >= 0 else (reopen if reopen >= 0 else end)
        inner = text[o + 1 : body_end].replace("/", "")
        if layer is not Layer.NOTE and (carry or layer is Layer.JING or is_notes(inner)):
            layer, unit, passage = Layer.COMMENTARY, carry or st.next_unit(), SOUND_NOTES
        st.spans.add(o, o + 1, Layer.MARKUP, unit, Role.MARKER, marker="(")
        self.words(o + 1, body_end, layer, unit, passage)
        if close < 0:
            return body_end
        st.spans.add(close, close + 1, Layer.MARKUP, unit, Role.MARKER, marker=")")
        if passage == SOUND_NOTES and close + 1 == end:
            self.carry = unit
        return close + 1

    def words(self, start: int, end: int, layer: Layer, unit: int, passage: str | None) -> None:
        """Text with spaces and column breaks set apart as layout; ``passage`` names 正誤 or 跋."""
        self.state.spans.words(self.text, start, end, layer, unit, passage=passage)


__all__ = ["READER", "JishuoIndentReader"]

READER = JishuoIndentReader()
