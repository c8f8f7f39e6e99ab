"""Prints of a classic with its commentary in double-column small print: ``經(注/注)經…``.

The 四部叢刊 prints in the Kanseki Repository (鄭注 儀禮 and 周禮, 纂圖互註禮記, 盧辯注 大戴禮記)
and many others set the classic in large print and the commentary after each passage in
small print, ``(右欄/左欄)``:

- Large print is 經 (a ``○`` in it is the print's section mark, unless it stands in a drum
  score). ``(…)`` is small print, ``/`` its column break (the e-text gives the
  right column first); a run of small print goes on over the pieces of following lines when
  nothing stands between them (``…)`` at a line's end, ``(…`` at the next line's start).
- Small print is 注 (ZHU), with the others marked inside it: after ``○`` or ``〇`` comes
  陸德明's 音義 (SHIWEN) to the run's end; a run opening with ``陸曰`` is 音義 too (at a title).
  ``重言``, ``重意``, ``互註`` (the cross-references of the 纂圖互註 prints) open a NOTE to the
  run's end (``○`` inside it separates entries). A run opening with ``案`` is a note of the
  Siku editors (NOTE). The marking words are attributions; ``○`` is a marker.
- Headings: a 卷 title (``儀禮卷第六``), a chapter title (``燕禮第六``, ``射義第四十六``, with
  what follows it on its line when that is only the book and its commentator, ``儀禮　鄭氏注``),
  a line naming the book and commentator (``禮記　鄭氏註``), and a tally of characters in small
  print (``(經三千二百二十三字/注四千六百二十字)``), on a line of its own or after the closing
  卷 title (``儀禮卷第一(經…字/注…字)``), or in large print with its small-print remark
  (``凡二章(新別)凡三千五百五十四字``). A chapter title may stand inside a body
  line where the container took out another print's line ends (``…之法也¶投壺¶第七十八``):
  ``options.breaks`` cut those print lines. Text before the first chapter title is the end of
  the previous chapter: 經 whose ``work`` is ``previous chapter``.
- An unclosed ``(`` ends at its line end, a stray ``)`` is layout: both are ``unbalanced``
  diagnostics and the reading goes on.

To read another print of this kind with other marking words, add them to the tables below.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from itertools import pairwise

from collate.model import Diagnostic, HeadingKind, Layer, MarkerKind, Role, Unsettled
from collate.model.notation import in_notation
from collate.model.numerals import NUMERAL
from collate.readers.base import LINE_SPACE, Layout, Parsed, ReadOptions, ReadState, iter_lines

_TITLE_MAX = 8
_CHAPTER = re.compile(rf"(?P<title>[^\s()/○〇]{{1,{_TITLE_MAX}}}(?<![卷巻])第{NUMERAL}+)")
_NUMBER = re.compile(rf"第{NUMERAL}+")
_JUAN_TITLE = re.compile(rf"[^\s()/]{{0,12}}[卷巻]第?{NUMERAL}+")
_BOOK_AND_COMMENTATOR = re.compile(r"[^\s()/]{0,6}[\s\u3000]*[^\s()/]{1,3}氏(?:注|註)")
_TALLY = re.compile(rf"[經经]{NUMERAL}+字.*")
# The 大戴禮記 prints close a juan in large print: 凡二章(新別)凡三千五百五十四字.
_LARGE_TALLY = re.compile(rf"凡{NUMERAL}+[章字]")
# Words that open, inside small print, something other than the commentary.
_SEPARATORS = "○〇"  # then 音義
_NOTE_WORDS = ("重言", "重意", "互註", "互注")
_RUN_OPENERS = (("陸曰", Layer.SHIWEN), ("案", Layer.NOTE))
# What a small-print piece that is a 音義 gloss's tail alone holds: the last word of a 反切.
_GLOSS_TAILS = frozenset({"反"})

PREVIOUS_CHAPTER = "previous chapter"


@dataclass
class _Run:
    """The small-print run being read (mutable state)."""

    layer: Layer
    unit: int
    speaker: str | None = None  # the word that opened the run (陸曰, 案, 重言 …)


class ZhuBracketReader(Layout):
    """Reads ``經(注/注)`` prints: large print 經, small print 注 with 音義 and notes inside."""

    name = "zhu-bracket"
    description = "classic in large print, commentary in (…/…) small print with ○ 音義 (四部叢刊 prints)"

    def detect(self, text: str) -> tuple[float, str]:
        """Many small-print pieces, most of them not opened by a layer word."""
        pieces = re.findall(r"\(([^()\n]*)\)", text)
        if not pieces:
            return 0.0, "no (…) small print"
        columns = sum(1 for p in pieces if "/" in p)
        separators = sum(p.count("○") + p.count("〇") for p in pieces)
        large = len(re.sub(r"\([^()\n]*\)|\s", "", text))
        small = sum(len(p) for p in pieces)
        score = 0.3 * min(1.0, columns / 10) + 0.1 * min(1.0, separators / 5) + 0.1 * (large > small / 20)
        found = f"{columns} (…/…) double-column pieces"
        if separators:
            found += f", {separators} ○ 音義 inside them"
        return round(score, 2), found

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Line by line: headings, large print, small-print runs."""
        return _Reading(text, options).run()


class _Reading:
    def __init__(self, text: str, options: ReadOptions) -> None:
        self.text = text
        # Sorted once: each line looks up only its own breaks (bisect), never all of them.
        self.breaks = sorted(options.breaks)
        self.state = ReadState(text)
        self.run_: _Run | None = None  # a run that closed its line: the next line may go on with it
        self.jing_unit = 0
        self.tally = False  # a large-print tally was just read: small print after it is the tally's
        self.first_title = self.find_first_title()
        # The 注 of the open small-print run, (first, last) text offsets and its unit: where no ``○``
        # follows it, the print does not say whether 音義 follows in the same small print.
        self.zhu: tuple[int, int, int] | None = None

    def find_first_title(self) -> int | None:
        """Where the first chapter title stands, if the file has one."""
        for line in iter_lines(self.text):
            titles = self.titles(line.body_start, line.body_end)
            if titles:
                return titles[0][0]
        return None

    def titles(self, start: int, end: int) -> list[tuple[int, int, HeadingKind]]:
        """The chapter titles of a body line: ``(start, end, heading)`` in order.

        ``燕禮第六`` at a print line's start, or a print line that is only ``第七十八`` after a
        short one (``投壺``, then ``第七十八``: both headings).
        """
        text = self.text
        cuts = self.breaks_in(start, end)
        bounds = [start, *cuts, end]
        segments = [(a, z) for a, z in pairwise(bounds) if z > a]
        found: list[tuple[int, int, HeadingKind]] = []
        for j, (a, z) in enumerate(segments):
            number = _NUMBER.fullmatch(text, a, z)
            if number and j > 0 and segments[j - 1][1] - segments[j - 1][0] <= _TITLE_MAX:
                if found and found[-1][0] == segments[j - 1][0]:
                    found.pop()
                found.append((segments[j - 1][0], segments[j - 1][1], HeadingKind.CHAPTER_TITLE))
                found.append((a, z, HeadingKind.CHAPTER_NUMBER))
                continue
            m = _CHAPTER.match(text, a, z)
            if m and self.is_title(m, z):
                found.append((m.start(), m.end(), HeadingKind.CHAPTER_TITLE))
        return found

    def is_title(self, m: re.Match[str], end: int) -> bool:
        """A chapter title: it ends its print line, or only small print or the book's name follow."""
        rest = self.text[m.end() : end].strip(LINE_SPACE)
        return not rest or rest.startswith("(") or bool(_BOOK_AND_COMMENTATOR.fullmatch(rest))

    def run(self) -> Parsed:
        st = self.state
        for line in iter_lines(self.text):
            st.spans.layout(line.start, line.body_start)
            self.line(line.body_start, line.body_end)
            st.spans.layout(line.body_end, line.end)
        self.end_zhu()
        return st.parsed()

    def end_zhu(self) -> None:
        """The open run's 注 ends here with no ``○``: unsettled, for the collation to say if 音義 ends it."""
        if self.zhu is not None:
            first, last, unit = self.zhu
            self.state.unsettled.append(
                Unsettled(first, last, last, Layer.ZHU, Layer.SHIWEN, unit, self.state.next_unit())
            )
        self.zhu = None

    def heading(self, start: int, end: int, heading: HeadingKind) -> None:
        self.end_zhu()
        self.state.spans.add(start, end, Layer.HEADING, self.state.next_unit(), heading=heading)

    def line(self, start: int, end: int) -> None:
        text, st = self.text, self.state
        if start == end:
            return
        juan = _JUAN_TITLE.match(text, start, end)
        if juan and (juan.end() == end or text[juan.end()] == "("):
            # The 卷 title, alone or with the tally after it (儀禮卷第一(經…字/注…字)).
            self.heading(start, juan.end(), HeadingKind.JUAN_TITLE)
            self.run_ = None
            self.pieces(juan.end(), end)
            return
        if _BOOK_AND_COMMENTATOR.fullmatch(text, start, end):
            self.heading(start, end, HeadingKind.BOOK_AND_COMMENTATOR)
            self.run_ = None
            return
        pos = start
        for tstart, tend, heading in self.titles(start, end):
            self.pieces(pos, tstart)
            self.heading(tstart, tend, heading)
            self.jing_unit = 0
            pos = tend
            line_end = self.line_end(tend, end)
            rest = text[pos:line_end].strip(LINE_SPACE)
            if rest and _BOOK_AND_COMMENTATOR.fullmatch(rest):
                at = text.index(rest, pos)
                st.spans.layout(pos, at)
                self.heading(at, at + len(rest), HeadingKind.BOOK_AND_COMMENTATOR)
                pos = at + len(rest)
            if tstart == start and (pos >= end or text[pos] != "("):
                # A title opening its line: a run before it is over.
                self.run_ = None
        self.pieces(pos, end)

    def line_end(self, pos: int, end: int) -> int:
        """Where the print line holding ``pos`` ends: the next break or the body line's end."""
        cuts = self.breaks_in(pos, end)
        return cuts[0] if cuts else end

    def breaks_in(self, start: int, end: int) -> list[int]:
        """The breaks strictly inside ``(start, end)``, in order."""
        return self.breaks[bisect_right(self.breaks, start) : bisect_left(self.breaks, end)]

    def pieces(self, start: int, end: int) -> None:
        """Large print and small-print pieces of ``text[start:end]``."""
        text, st = self.text, self.state
        pos = start
        while pos < end:
            o = text.find("(", pos, end)
            c = text.find(")", pos, end)
            if c >= 0 and (o < 0 or c < o):
                self.large(pos, c)
                st.diagnostics.append(Diagnostic("unbalanced", ") closes nothing", c, c + 1))
                st.spans.add(c, c + 1, Layer.MARKUP, role=Role.LAYOUT, marker=")")
                pos = c + 1
                continue
            if o < 0:
                self.large(pos, end)
                return
            self.large(pos, o)
            close = text.find(")", o + 1, end)
            reopen = text.find("(", o + 1, end)
            if close < 0 or 0 <= reopen < close:
                stop = reopen if reopen >= 0 else end
                where = "the next (" if reopen >= 0 else "the line end"
                st.diagnostics.append(Diagnostic("unbalanced", f"( is not closed before {where}", o, o + 1))
                self.small(o, o + 1, stop, None, continues=o == start)
                pos = stop
            else:
                self.small(o, o + 1, close, close + 1, continues=o == start)
                pos = close + 1

    def large(self, start: int, end: int) -> None:
        """Large print: 經 (or the previous chapter's end), cut at spaces."""
        if end <= start:
            return
        st = self.state
        self.end_zhu()
        self.run_ = None
        self.tally = False
        words = self.text[start:end].strip(LINE_SPACE)
        if _BOOK_AND_COMMENTATOR.fullmatch(words):
            # The book and its commentator, wherever the line sets it (after a title's small
            # print, at a line's end: 鄭氏註, 禮記　鄭氏註): a heading, never 經.
            at = self.text.index(words, start)
            st.spans.layout(start, at)
            self.heading(at, at + len(words), HeadingKind.BOOK_AND_COMMENTATOR)
            st.spans.layout(at + len(words), end)
            return
        if _LARGE_TALLY.fullmatch(words):
            at = self.text.index(words, start)
            st.spans.layout(start, at)
            self.heading(at, at + len(words), HeadingKind.TALLY)
            st.spans.layout(at + len(words), end)
            self.jing_unit, self.tally = 0, True
            return
        work = PREVIOUS_CHAPTER if self.first_title is not None and start < self.first_title else None
        if not self.jing_unit:
            self.jing_unit = st.next_unit()
        # A circle in large print is the print's section mark (東上孤○東面…), never a word of the
        # 經, as in the 注疏 prints; inside a drum score it is the score's sign.
        pos = start
        for i in range(start, end):
            if self.text[i] in _SEPARATORS and not in_notation(self.text, i):
                st.spans.words(self.text, pos, i, Layer.JING, self.jing_unit, work=work)
                st.spans.add(i, i + 1, Layer.MARKUP, self.jing_unit, Role.MARKER, marker=MarkerKind.SECTION_BREAK)
                pos = i + 1
        st.spans.words(self.text, pos, end, Layer.JING, self.jing_unit, work=work)

    def words(self, start: int, end: int, run: _Run) -> None:
        """The run's text, spaces and column breaks set apart as layout."""
        self.state.spans.words(self.text, start, end, run.layer, run.unit, speaker=run.speaker)
        if run.layer is Layer.ZHU and run.speaker is None:
            words = [i for i in range(start, end) if self.text[i] not in LINE_SPACE + "/"]
            if words:
                first = self.zhu[0] if self.zhu is not None and self.zhu[2] == run.unit else words[0]
                self.zhu = (first, words[-1] + 1, run.unit)

    def small(self, open_: int, body: int, body_end: int, close: int | None, continues: bool) -> None:
        """One small-print piece ``(…)``: going on with the open run, or opening one."""
        text, st = self.text, self.state
        run = self.run_ if continues else None
        self.jing_unit = 0
        if (_TALLY.fullmatch(text, body, body_end) or self.tally) and run is None:
            st.spans.add(open_, body, Layer.MARKUP, role=Role.MARKER, marker="(")
            self.heading(body, body_end, HeadingKind.TALLY)
            if close is not None:
                st.spans.add(body_end, close, Layer.MARKUP, role=Role.MARKER, marker=")")
            self.run_ = None
            return
        self.tally = False
        pos = body
        if run is None:
            self.end_zhu()
            run = _Run(Layer.ZHU, st.next_unit())
            for word, layer in _RUN_OPENERS:
                if text.startswith(word, pos, body_end):
                    run = _Run(layer, run.unit, word)
                    st.spans.add(open_, body, Layer.MARKUP, run.unit, Role.MARKER, marker="(")
                    st.spans.add(pos, pos + len(word), layer, run.unit, Role.ATTRIBUTION, speaker=word)
                    pos += len(word)
                    break
            else:
                st.spans.add(open_, body, Layer.MARKUP, run.unit, Role.MARKER, marker="(")
        else:
            st.spans.add(open_, body, Layer.MARKUP, run.unit, Role.MARKER, marker="(")
        if run.layer is Layer.ZHU and text[pos:body_end].strip() in _GLOSS_TAILS:
            # A 反切's last word alone (反): the tail of a 音義 gloss whose head the print set on a
            # page it lost (or the e-text on the line before); never a 注's, nor a 注 of its own. The
            # 注 before it ends there, as at a ○.
            self.zhu = None
            run = _Run(Layer.SHIWEN, st.next_unit())
        i = pos
        while i < body_end:
            char = text[i]
            if char in _SEPARATORS:
                self.words(pos, i, run)
                if run.layer is Layer.ZHU:
                    self.zhu = None  # the ○ marks where the 注 ends
                    run = _Run(Layer.SHIWEN, st.next_unit())
                st.spans.add(i, i + 1, Layer.MARKUP, run.unit, Role.MARKER, marker=char)
                i = pos = i + 1
                continue
            note = next((w for w in _NOTE_WORDS if text.startswith(w, i, body_end)), None)
            if note is not None and run.layer is not Layer.NOTE:
                self.words(pos, i, run)
                self.end_zhu()
                run = _Run(Layer.NOTE, st.next_unit(), note)
                st.spans.add(i, i + len(note), Layer.NOTE, run.unit, Role.ATTRIBUTION, speaker=note)
                i = pos = i + len(note)
                continue
            i += 1
        self.words(pos, body_end, run)
        if close is not None:
            st.spans.add(body_end, close, Layer.MARKUP, run.unit, Role.MARKER, marker=")")
        self.run_ = run


READER = ZhuBracketReader()
