"""Where an entry is found: the fewest words of the base, unique in the printed line it cites.

An entry names a page and a line (``頁062-8a行8``); its reader then looks for the words it quotes
on that line. Where a character occurs twice there (九十曰旄百年曰期頤), a one-character 出文
would fit both places: the entry quotes its neighbours too, as few as make the words occur only
once on the line (「曰旄」, 「曰期」). The line is the one the entry cites: a print's line where
the base has printed lines, its page where only pages are counted, the file's line where it has
no pages (a plain e-text).

The words are the base's own characters of the entry's layer only, never past the line and never
across text of another layer, a heading or a marker word between them: quoted so, two characters
would seem to stand together that the print sets apart.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from collate.exporters.jiaokanji.words import LONG
from collate.model import Layer, Role, Span, Token, Witness
from collate.model.citation import JIAOKANJI

# Text added at a point is cited by the two characters before it (「主人」下有「也」字), as the
# 校勘記 always has: more only where those two occur again on the line.
ANCHOR = 2
# The first of the private code points standing for a token written with several (plane 16's).
_OWN = 0x100000


def _parts(span: Span, layer: Layer, base: Witness | None) -> bool:
    """Whether ``span`` is printed text that is not ``layer``'s own (a marker word is; a bracket is not)."""
    if span.layer is Layer.MARKUP:
        return base is not None and any(ch.isalnum() for ch in base.text[span.start : span.end])
    return span.layer is not layer or span.role is not Role.TEXT


def occurrences(needle: str, texts: Sequence[str], limit: int = 2) -> int:
    """How often ``needle`` occurs in ``texts`` (overlaps too), counted up to ``limit``."""
    n = 0
    for text in texts:
        k = text.find(needle)
        while k >= 0 and n < limit:
            n += 1
            k = text.find(needle, k + 1)
    return min(n, limit)


@dataclass(frozen=True, slots=True)
class _Line:
    """The layer's text on one printed line: its unbroken stretches (stream ranges) and their glyphs."""

    segments: tuple[tuple[int, int], ...]
    texts: tuple[str, ...]

    def segment(self, k: int) -> tuple[int, int]:
        """The stretch holding stream position ``k``."""
        return next(s for s in self.segments if s[0] <= k < s[1])


class Places:
    """One layer of the base, line by line: the fewest words around a place that occur once on its line.

    Built once per layer; each line is read when an entry first asks for it and kept, so an
    entry costs a look at its own line, never a pass over the layer. Without the base witness
    as read (a collation alone), the lines are unknown and the words are the lemma itself (and
    an addition's two characters before it), as they were.
    """

    def __init__(self, tokens: Sequence[Token], layer: Layer, base: Witness | None = None) -> None:
        self.tokens = tokens
        self.base = base
        # One glyph a token, so that the line is searched as a string: a token whose character is
        # written with more than one code point stands for itself alone (a private code point each).
        others: dict[str, str] = {}
        self._glyphs = "".join(
            t.t if len(t.t) == 1 else others.setdefault(t.t, chr(_OWN + len(others))) for t in tokens
        )
        # Where anything printed that is not this layer's text begins (another layer, a heading, a
        # marker word such as 正義曰 or 注): the words on either side of it are not one phrase.
        # Layout and signs (brackets, the double column's /, the line's end) do not part them. The
        # spans partition the file in order, so their starts are sorted already.
        self._breaks = [s.start for s in (base.spans if base is not None else ()) if _parts(s, layer, base)]
        self._keys: dict[int, str] = {}
        self._lines: dict[str, _Line] = {}

    def text(self, start: int, end: int) -> str:
        """The base's characters at stream positions ``[start, end)``."""
        return "".join(t.t for t in self.tokens[max(0, start) : end])

    def phrase(self, start: int, end: int) -> tuple[int, int]:
        """The fewest words around the lemma at ``[start, end)`` that occur once on its line.

        Neighbours are taken on the right first, then on the left, as a phrase is read on; the
        lemma itself where it is unique, or where nothing on its line up to :data:`LONG`
        characters is (the lemma is quoted as before). A phrase holding the lemma twice
        (「裘裘」 for the first 裘) is passed over: the entry's 「裘」作 would not say which.
        """
        if self.base is None or not start < end <= start + LONG:
            return start, end
        line = self._line(start)
        a, b = line.segment(start)
        if end > b:
            return start, end
        for size in range(end - start, LONG + 1):
            extra = size - (end - start)
            for right in range(extra, -1, -1):
                i, j = start - (extra - right), end + right
                if a <= i and j <= b and self._once(line, i, j) and self._once(line, start, end, within=(i, j)):
                    return i, j
        return start, end

    def _once(self, line: _Line, i: int, j: int, within: tuple[int, int] | None = None) -> bool:
        """Whether the words at ``[i, j)`` occur once on ``line`` (or in the phrase ``within``)."""
        texts = (self._glyphs[within[0] : within[1]],) if within else line.texts
        return occurrences(self._glyphs[i:j], texts) == 1

    def unique(self, start: int, end: int) -> bool:
        """Whether the words at ``[start, end)`` occur once on their line (True where the lines are unknown)."""
        if self.base is None or not start < end <= start + LONG:
            return True
        line = self._line(start)
        return end <= line.segment(start)[1] and self._once(line, start, end)

    def anchor(self, point: int) -> tuple[str, str]:
        """The words before text added at ``point`` (「X」下有), else after it (「X」上有): one is ''.

        At least :data:`ANCHOR` characters (as the line allows), more until they occur once on
        the line; the words after the point where those before cannot be made unique and the
        point is inside the line; the two characters before (else after) where neither serves.
        """
        if point > 0 and (before := self._grown(point, -1)) is not None:
            return before, ""
        # The entry cites the line of the words before the point: those after it serve only on that line.
        inside = point < len(self.tokens) and (point == 0 or self._same_line(point - 1, point))
        if inside and (after := self._grown(point, 1)) is not None:
            return "", after
        if point > 0:
            return self.text(point - ANCHOR, point), ""
        return "", self.text(point, point + ANCHOR)

    def _grown(self, point: int, way: int) -> str | None:
        """The fewest words ending at ``point`` (``way`` -1) or starting there (1) unique on their line."""
        if self.base is None:
            return None
        k = point - 1 if way < 0 else point
        line = self._line(k)
        a, b = line.segment(k)
        room = point - a if way < 0 else b - point
        for size in range(min(ANCHOR, room), min(LONG, room) + 1):
            i, j = (point - size, point) if way < 0 else (point, point + size)
            if self._once(line, i, j):
                return self.text(i, j)
        return None

    def _key(self, k: int) -> str:
        """The line stream position ``k`` is on, as the 校勘記 cites it."""
        found = self._keys.get(k)
        if found is None:
            assert self.base is not None
            found = self._keys[k] = JIAOKANJI.cite(self.base.locate(self.tokens[k].start))
        return found

    def _line(self, k: int) -> _Line:
        """The line holding stream position ``k``: the layer's text on it, read once."""
        key = self._key(k)
        found = self._lines.get(key)
        if found is not None:
            return found
        # The layer's characters of one line follow each other in its stream: walk out from k.
        lo, hi = k, k + 1
        while lo > 0 and self._key(lo - 1) == key:
            lo -= 1
        while hi < len(self.tokens) and self._key(hi) == key:
            hi += 1
        bounds = [lo, *(j for j in range(lo + 1, hi) if self._parted(j)), hi]
        segments = tuple(itertools.pairwise(bounds))
        found = self._lines[key] = _Line(segments, tuple(self._glyphs[a:b] for a, b in segments))
        return found

    def _same_line(self, j: int, k: int) -> bool:
        """Whether stream positions ``j`` and ``k`` are on one line (never, where the lines are unknown)."""
        return self.base is not None and self._key(j) == self._key(k)

    def _parted(self, k: int) -> bool:
        """Whether something other than this layer's text is printed between stream positions ``k - 1`` and ``k``."""
        i = bisect.bisect_left(self._breaks, self.tokens[k - 1].end)
        return i < len(self._breaks) and self._breaks[i] < self.tokens[k].start
