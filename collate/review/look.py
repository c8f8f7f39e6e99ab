"""How the review's screen writes a text: inert, whole or cut with its length said, fitted to a width in cells.

A CJK character takes two cells of the terminal and an ASCII one one, so what fits a line is
counted in cells (:func:`rich.cells.cell_len`), never in characters. Every string of the data is
written inert (:func:`~collate.model.inert.inert`): a control character in a witness is shown as
its escape, never sent to the terminal. A reading is cut only with a note of its length and of
the key that shows it whole (``e``), never with a bare ``…``; a context around a reading is a
window on the witness's text anyway, and is cut at either end without a mark.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

from collate.model.inert import inert
from collate.review.texts import Words
from collate.views.diff import EMPTY

# Readings, passages and notes longer than these are cut (with their length said) until ``e``.
LONG_READING = 30
LONG_PASSAGE = 60
LONG_NOTE = 160


def shown(text: str) -> str:
    """A reading as the screen shows it: empty (an omission, an insertion point) as ∅, controls escaped."""
    return inert(text, keep="") or EMPTY


@dataclass(frozen=True, slots=True)
class Look:
    """How the screen draws: in which words, texts whole or cut."""

    words: Words
    full: bool = False

    def cut(self, text: str, limit: int = LONG_READING) -> str:
        """``text`` shown (:func:`shown`), cut to ``limit`` characters with its length and ``e`` said."""
        if self.full or len(text) <= limit:
            return shown(text)
        head = limit * 2 // 3
        return shown(text[:head]) + "…" + self.words("long", n=len(text))

    def fit(self, text: str, cells: int, limit: int = LONG_READING) -> str:
        """``text`` cut as :meth:`cut` cuts it (to ``limit`` characters at most), as short as it must
        be to take at most ``cells`` cells.

        What cannot be cut so short (a note of its length takes some 16 cells) is cut as short as
        it can be; shown whole in full mode.
        """
        out = self.cut(text, limit)
        limit = min(len(text), limit)
        # Down to two characters, of which the head keeps one: a head of none would read as ∅, an omission.
        while not self.full and cell_len(out) > cells and limit > 2:
            limit -= 1
            out = self.cut(text, limit)
        return out


@dataclass(frozen=True, slots=True)
class OneLine:
    """``label``, then ``text`` cut (:meth:`Look.fit`) to what is left of one line at the width it is
    drawn at: a passage that would take three lines of a narrow screen takes one (all of it with ``e``)."""

    look: Look
    label: Text
    text: str
    limit: int = LONG_PASSAGE

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        cells = options.max_width - self.label.cell_len
        yield Text.assemble(self.label, self.look.fit(self.text, cells, self.limit))


def _cells(ch: str) -> int:
    # A control character is shown as its escape (\x1b): six cells, not none.
    return cell_len(inert(ch, keep=""))


def tail(text: str, cells: int) -> str:
    """The end of ``text`` (shown inert, on one line) that takes at most ``cells`` cells."""
    used, start = 0, len(text)
    while start > 0 and used + _cells(text[start - 1]) <= cells:
        start -= 1
        used += _cells(text[start])
    return inert(text[start:], keep="")


def head(text: str, cells: int) -> str:
    """The start of ``text`` (shown inert, on one line) that takes at most ``cells`` cells."""
    used, end = 0, 0
    while end < len(text) and used + _cells(text[end]) <= cells:
        used += _cells(text[end])
        end += 1
    return inert(text[:end], keep="")
