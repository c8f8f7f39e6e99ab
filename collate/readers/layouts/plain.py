"""Plain or punctuated text (Wikisource style): every line is 經, headings are structure.

Punctuation stays inside the text spans (the tokenizer sets it aside); line ends and
leading indentation are layout. A heading line such as ``=== 15 | 投壺 ===`` is structure.

Plain simplified e-texts (殆知閣 style) print the Siku editors' small-print ``(案…)`` notes
inline as ``【案…】``: a ``NOTE`` bracket whose body opens with a ``NOTE_ATTRIBUTIONS`` word
and closes on the same line is an editorial note. The brackets are markers, the word is the
attribution, the rest is ``Layer.NOTE``, one unit a note; the line's 經 goes on after ``】``
as the same unit. Wikisource's own variant notes, ``采蘩一作「繁」`` ("another text reads 繁"),
are notes too (attribution ``一作``). Any other ``【…】`` (a 釋文 gloss, a pronunciation ``【…反】``, punctuation
in a punctuated text) stays in its line, as text. A ``【案`` that is not closed on its line
is left as text too, with an ``unbalanced`` diagnostic: the reader does not guess its end.
"""

from __future__ import annotations

import re

from collate.model import Diagnostic, Layer, MarkerKind, Role
from collate.readers.base import Layout, Line, Parsed, ReadOptions, ReadState

_HEADING = re.compile(r"^\s*(=+).*\1\s*$")
NOTE = ("【", "】")
# Longest first: 謹案 is one attribution, not 謹 then a note opening with 案.
NOTE_ATTRIBUTIONS: tuple[str, ...] = ("謹案", "谨案", "案")

_OPEN = re.compile("|".join(re.escape(NOTE[0] + word) for word in NOTE_ATTRIBUTIONS))
# Wikisource's 通行本 prints its own variant notes inline: ``采蘩一作「繁」`` (another text reads 繁).
# They are the web editors' notes, not the classic's words. A note may close on the places it
# holds for (``答一作「荅 下同」``: and likewise below): the editors' words, not the reading.
_VARIANT_NOTE = re.compile(
    r"(?P<word>一作|一本作)(?P<open>「)(?P<reading>[^」\n]{1,12}?)"
    r"(?:(?P<gap>[ 　]*)(?P<scope>下同|下並同|下皆同|後同|下倣此|下仿此|下放此))?(?P<close>」)"
)


class PlainReader(Layout):
    """Reads plain or punctuated text: each line is 經 unless it is a heading; 【案…】 are notes."""

    name = "plain"
    description = "plain or punctuated text; `=== … ===` lines are headings, 【案…】 editors' notes"

    def detect(self, text: str) -> tuple[float, str]:
        """Plain text fits anything a little: it is the fallback, whatever notes it holds."""
        notes = len(_OPEN.findall(text))
        return 0.01, "no other layout's markers" + (f"; {notes} 【案…】 notes" if notes else "")

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split into lines; each line's body is 經 (or heading) and notes, the rest layout."""
        return _Reading(text).run()


class _Reading(ReadState):
    """One read of a plain text, line by line."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        # Plain reads any file as the fallback: it reports only the notes it could not
        # close, so reading notes changes nothing else a plain reading gives.
        self.diagnostics = []

    def run(self) -> Parsed:
        return self.read_lines(self.line)

    def line(self, line: Line) -> None:
        start, end = line.body_start, line.body_end
        if start == end:
            return
        unit = self.next_unit()
        if _HEADING.match(self.text[line.start : line.end].rstrip("\r\n")):
            self.spans.add(start, end, Layer.HEADING, unit)
            return
        pos = start
        while (m := _OPEN.search(self.text, pos, end)) is not None:
            close = self.text.find(NOTE[1], m.end(), end)
            reopen = self.text.find(NOTE[0], m.end(), end)
            if close < 0 or 0 <= reopen < close:
                where = "the next 【" if 0 <= reopen < close else "the line end"
                message = f"{m.group(0)} is not closed before {where}; read as text"
                self.diagnostics.append(Diagnostic("unbalanced", message, m.start(), m.start() + 1))
                self.spans.add(pos, m.end(), Layer.JING, unit)
                pos = m.end()
                continue
            self.jing(pos, m.start(), unit)
            self.note(m.start(), m.group(0)[len(NOTE[0]) :], close)
            pos = close + len(NOTE[1])
        self.jing(pos, end, unit)

    def jing(self, start: int, end: int, unit: int) -> None:
        """The line's 經 in ``text[start:end]``, its inline variant notes (``一作「繁」``) set apart."""
        pos = start
        for m in _VARIANT_NOTE.finditer(self.text, start, end):
            self.spans.add(pos, m.start(), Layer.JING, unit)
            note = self.next_unit()
            self.spans.add(m.start(), m.end("word"), Layer.NOTE, note, Role.ATTRIBUTION, speaker=m.group("word"))
            self.spans.add(m.start("open"), m.end("open"), Layer.MARKUP, note, Role.MARKER, marker="「")
            self.spans.add(m.start("reading"), m.end("reading"), Layer.NOTE, note, passage="variant")
            if m.group("scope"):
                self.spans.add(m.start("gap"), m.end("gap"), Layer.MARKUP, note, Role.LAYOUT)
                self.spans.add(m.start("scope"), m.end("scope"), Layer.MARKUP, note, Role.MARKER, marker=m["scope"])
            self.spans.add(m.start("close"), m.end("close"), Layer.MARKUP, note, Role.MARKER, marker="」")
            pos = m.end()
        self.spans.add(pos, end, Layer.JING, unit)

    def note(self, start: int, word: str, close: int) -> None:
        """The note ``【word…】`` from ``start`` to its ``】`` at ``close``, one unit."""
        unit = self.next_unit()
        body = start + len(NOTE[0])
        self.spans.add(start, body, Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.NOTE_OPEN)
        self.spans.add(body, body + len(word), Layer.NOTE, unit, Role.ATTRIBUTION, speaker=word)
        self.spans.add(body + len(word), close, Layer.NOTE, unit)
        self.spans.add(close, close + len(NOTE[1]), Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.NOTE_CLOSE)


READER = PlainReader()
