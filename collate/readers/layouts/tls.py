"""Thesaurus Linguae Sericae (TLS) texts: punctuated 經文, one phrase a line, numbered sentences.

The TLS edition of a classic (Kanseki Repository ``tls`` branch) prints the received text only,
punctuated (``，。；：、「」《》``), split into phrases, one phrase a line. A sentence opens
with its number, in ASCII digits and dots, glued to the first phrase: ``47.1古者諸侯之射也，``
(chapter 47, sentence 1); finer divisions number phrases ``N.M.K``. The tables below are the whole
layout; the code only applies them:

1. A ``NUMBER`` is a marker (``Layer.MARKUP``, ``Role.MARKER``, named by the number itself): it
   names a place, it is not text. Each number opens a new unit, so a numbered sentence
   is one unit across its phrase lines; lines before the first number form a unit of their own.
2. Everything else in a line is 經, punctuation included (the tokenizer sets it aside).
   Indentation, spaces inside a line and line ends are layout.
3. ``STRAY`` (ASCII letters or digits that are no phrase number) cannot be 經 of a Chinese
   text: it is a marker named ``stray`` with a ``stray-ascii`` diagnostic, and the reading
   goes on.

Container markup (the ``# src:`` comment lines, the org heading ``** 47 射義``, page markers,
``¶``) is the container's, never seen here.
"""

from __future__ import annotations

import re
from itertools import pairwise
from statistics import median

from collate.model import Diagnostic, Layer, MarkerKind, Role
from collate.readers.base import LINE_SPACE, Layout, Line, Parsed, ReadOptions, ReadState, iter_lines

# ``N.M`` or ``N.M.K``: never part of a longer run of digits and dots.
NUMBER = re.compile(r"(?<![0-9.])[0-9]+(?:\.[0-9]+){1,2}(?![0-9.])")
STRAY = re.compile(r"[0-9A-Za-z][0-9A-Za-z.]*")
# Whitespace inside a phrase line: layout, like the indentation around it.
SPACE = re.compile(f"[{LINE_SPACE}]+")
# A numbered phrase line: the number glued to (or spaced from) the phrase it opens.
_NUMBERED_LINE = re.compile(
    r"(?P<number>[0-9]+(?:\.[0-9]+){1,2})[ \u3000]?[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff「『《（]"
)
# A phrase line is short: the median line of a TLS text is a few characters long.
PHRASE_LINE = 24

_EVENTS = re.compile(f"{NUMBER.pattern}|{STRAY.pattern}|{SPACE.pattern}")


class TlsReader(Layout):
    """Reads a TLS text: numbered sentences, one punctuated phrase a line."""

    name = "tls"
    description = "TLS text: punctuated 經, one phrase a line, sentences numbered `47.1`"

    def detect(self, text: str) -> tuple[float, str]:
        """Numbered phrase lines (``47.1古者…``) in ascending order, and short phrase lines."""
        lines = [text[ln.body_start : ln.body_end] for ln in iter_lines(text) if ln.body_end > ln.body_start]
        numbers = [m.group("number") for m in map(_NUMBERED_LINE.match, lines) if m]
        if not numbers:
            return 0.0, "no line opens with a sentence number N.M"
        short = median(len(body) for body in lines) <= PHRASE_LINE
        found = "; one phrase a line" if short else ""
        if len(numbers) == 1:
            # A short chapter may have one sentence; only phrase lines make its number count.
            return (0.6 if short else 0.2), f"1 line opens with a sentence number ({numbers[0]}){found}"
        keys = [tuple(int(part) for part in number.split(".")) for number in numbers]
        ascending = sum(1 for a, b in pairwise(keys) if a < b) / (len(keys) - 1)
        # Numbers in order at line starts are the mark of this print; phrase lines confirm it.
        score = 0.5 + 0.3 * ascending + (0.2 if short else 0.0)
        reason = f"{len(numbers)} lines open with a sentence number ({numbers[0]}…), {ascending:.0%} ascending"
        return round(score, 2), reason + found

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into 經 spans, number markers and layout."""
        return _Reading(text).run()


class _Reading(ReadState):
    """One read of a TLS text, line by line; the unit runs from one number to the next."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.sentence = 0  # the unit of the sentence being read; 0 before any text

    def run(self) -> Parsed:
        return self.read_lines(self.line)

    def line(self, line: Line) -> None:
        pos = line.body_start
        for m in _EVENTS.finditer(self.text, line.body_start, line.body_end):
            self.phrase(pos, m.start())
            piece = m.group(0)
            if NUMBER.fullmatch(piece):
                self.sentence = self.next_unit()
                self.spans.add(m.start(), m.end(), Layer.MARKUP, self.sentence, Role.MARKER, marker=piece)
            elif SPACE.fullmatch(piece):
                self.spans.layout(m.start(), m.end())
            else:
                self.spans.add(m.start(), m.end(), Layer.MARKUP, self.sentence, Role.MARKER, marker=MarkerKind.STRAY)
                message = f"{piece!r} is neither text nor a phrase number N.M"
                self.diagnostics.append(Diagnostic("stray-ascii", message, m.start(), m.end()))
            pos = m.end()
        self.phrase(pos, line.body_end)

    def phrase(self, start: int, end: int) -> None:
        """``text[start:end]`` is 經 of the current sentence (its own unit before any number)."""
        if end > start and not self.sentence:
            self.sentence = self.next_unit()
        self.spans.add(start, end, Layer.JING, self.sentence)


READER = TlsReader()
