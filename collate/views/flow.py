"""Text broken into lines where a reader would break it: never inside a reading's brackets.

rich folds a run of CJK characters (one "word" to it, having no spaces) wherever the line is full,
so ``〔SBCK-zuantu 郷 異〕`` could end one line with ``〔SBCK-`` and begin the next with ``zuantu``. A
:class:`Flow` is a ``Text`` with a cost for breaking before each character: ``0`` between two
characters of the base (free), higher inside what must stay together. Each line is filled as far
as the width allows and broken at the last place of least cost, so a bracket that fits on a line
is never broken (the line breaks before it), and one wider than the terminal breaks between its
readings first, then between the sigla of a reading, and only last inside a reading's text.
Piped (no wrapping), a paragraph stays one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate

from rich.cells import get_character_cell_size
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text

FREE = 0  # between two characters of the base text
BETWEEN_READINGS = 1  # after the ； that ends one reading in a bracket
BETWEEN_SIGLA = 2  # at a space between two sigla of a reading
BEFORE_TEXT = 3  # between a reading's sigla and its text
GLUE = 4  # between a reading's bracket and the lemma before it: apart, neither would fit better
KEEP = 5  # inside a reading's text, a page mark, a decision: only if nothing else fits

# A line never begins with closing punctuation (as CSS line-break: strict keeps it off a line's start),
# closing quotes included (U+201D, U+2019).
_CLOSING = frozenset("，。、；：？！」』）〕》〉·\u201d\u2019")


@dataclass
class Flow:
    """A ``Text`` and the cost of a line break before each of its characters (``FREE`` if not given)."""

    text: Text = field(default_factory=Text)
    costs: dict[int, int] = field(default_factory=dict)

    @property
    def plain(self) -> str:
        """The text without styles."""
        return self.text.plain

    def __len__(self) -> int:
        return len(self.text)

    def append(self, text: Text | str, style: str = "") -> None:
        """Append text the line may break anywhere in."""
        if isinstance(text, Text):
            self.text.append_text(text)
        else:
            self.text.append(text, style=style)

    def append_kept(self, text: Text, inner: Iterable[tuple[int, int]] = (), *, glue: int = 0) -> None:
        """Append ``text`` as one piece: a break inside it costs ``KEEP``, except at the offsets
        (in ``text``) that ``inner`` gives a lower cost. ``glue`` characters already written
        before it go with it: a break between them and it costs ``GLUE``, so that a bracket does
        not begin a line apart from the lemma it follows, nor leave it alone on a line.
        """
        start = len(self.text)
        for k in range(max(0, start - glue) + 1, start):
            self.costs[k] = max(self.costs.get(k, FREE), KEEP)
        if glue and start:
            self.costs[start] = max(self.costs.get(start, FREE), GLUE)
        self.text.append_text(text)
        own = dict(inner)
        for k in range(1, len(text)):
            self.costs[start + k] = own.get(k, KEEP)

    def append_flow(self, other: Flow) -> None:
        """Append another flow, its costs kept."""
        start = len(self.text)
        self.text.append_text(other.text)
        self.costs.update({start + k: cost for k, cost in other.costs.items()})

    def paragraphs(self) -> list[tuple[int, int]]:
        """The ranges [start, end) of the text between its line ends."""
        plain = self.text.plain
        ends = [k for k, c in enumerate(plain) if c == "\n"]
        return list(zip([0, *(k + 1 for k in ends)], [*ends, len(plain)], strict=True))

    def breaks(self, width: int) -> list[int]:
        """Where to break the text (offsets, line ends aside) for lines at most ``width`` cells wide,
        wherever the first character of a line allows."""
        plain = self.text.plain
        cells = [0, *accumulate(get_character_cell_size(c) for c in plain)]
        return [k for start, end in self.paragraphs() for k in self._lines(plain, cells, start, end, max(1, width))]

    def _lines(self, plain: str, cells: list[int], start: int, end: int, width: int) -> list[int]:
        """Breaks of one paragraph ``plain[start:end]``: each line as full as fits, broken at the
        last place of least cost (the first character always fits, however wide)."""
        out = []
        while cells[end] - cells[start] > width:
            fit = start + 1
            while fit < end and cells[fit + 1] - cells[start] <= width:
                fit += 1
            at = min(
                range(start + 1, fit + 1),
                key=lambda k: (self._cost(plain, k), -k),
            )
            out.append(at)
            start = at
        return out

    def _cost(self, plain: str, k: int) -> int:
        cost = self.costs.get(k, FREE)
        return max(cost, BETWEEN_SIGLA) if plain[k] in _CLOSING else cost

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if options.no_wrap:
            yield self.text
            return
        # One division of the whole text (each costs a pass over its spans): at the breaks and
        # after each line end, which the line before keeps and is cropped of.
        cuts = sorted({*self.breaks(options.max_width), *(start for start, _ in self.paragraphs()[1:])})
        for line in self.text.divide(cuts):
            if line.plain.endswith("\n"):
                line.right_crop(1)
            yield line
