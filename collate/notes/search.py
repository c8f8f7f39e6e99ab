"""Searching a folded text near a place, in time that does not grow with the whole text.

A note is searched for the phrases it quotes nearest to itself, and a claim for its place
in another witness; the texts may be a whole book (a million characters) with thousands
of notes. Scanning the text once per search would make the notes stage quadratic, so a
text is indexed once: :class:`Grams` holds the positions of every two-key stretch. An
exact search then walks only the occurrences of the query's rarest stretch, nearest
first; a fuzzy search looks at growing windows around the place and, in each, scores only
the starts that share enough stretches with the query to reach the threshold at all.
Both give what a scan of the whole text would give (the nearest occurrence).
"""

from __future__ import annotations

import bisect
import math
from array import array
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

FIRST_WINDOW = 4096  # characters a fuzzy search looks at first; each next window is 4× wider


@dataclass(frozen=True, slots=True)
class Grams:
    """The positions, in order, of every two-key stretch of ``text``."""

    text: str
    at: dict[str, array[int]]

    @classmethod
    def of(cls, text: str) -> Grams:
        """Index ``text`` (linear in its length)."""
        at: dict[str, array[int]] = {}
        for i in range(len(text) - 1):
            gram = text[i : i + 2]
            found = at.get(gram)
            if found is None:
                at[gram] = found = array("i")
            found.append(i)
        return cls(text, at)

    def _rarest(self, query: str) -> tuple[int, array[int]] | None:
        """The stretch of ``query`` that occurs least often: its offset in ``query`` and positions."""
        best: tuple[int, array[int]] | None = None
        for k in range(len(query) - 1):
            found = self.at.get(query[k : k + 2])
            if found is None:
                return k, array("i")
            if best is None or len(found) < len(best[1]):
                best = (k, found)
        return best

    def rfind(self, query: str, end: int) -> int:
        """As ``text.rfind(query, 0, end)``: the last occurrence ending at or before ``end``."""
        rarest = self._rarest(query)
        if rarest is None:
            return self.text.rfind(query, 0, end)
        k, found = rarest
        n = bisect.bisect_right(found, end - len(query) + k) - 1
        while n >= 0:
            start = found[n] - k
            if start >= 0 and self.text.startswith(query, start):
                return start
            n -= 1
        return -1

    def find(self, query: str, start: int) -> int:
        """As ``text.find(query, start)``: the first occurrence at or after ``start``."""
        rarest = self._rarest(query)
        if rarest is None:
            return self.text.find(query, start)
        k, found = rarest
        n = bisect.bisect_left(found, start + k)
        while n < len(found):
            at = found[n] - k
            if self.text.startswith(query, at):
                return at
            n += 1
        return -1

    def diagonals(self, query: str, lo: int, hi: int) -> list[int]:
        """``at - k`` for every stretch ``query[k:k+2]`` standing at ``at`` within ``[lo, hi)``, sorted."""
        out: list[int] = []
        for k in range(len(query) - 1):
            found = self.at.get(query[k : k + 2])
            if not found:
                continue
            first = bisect.bisect_left(found, lo)
            last = bisect.bisect_right(found, hi - 2)
            out.extend(at - k for at in found[first:last])
        out.sort()
        return out


@dataclass(frozen=True, slots=True)
class Fuzzy:
    """A fuzzy occurrence: keys ``[start, end)`` scored ``score`` against the query."""

    start: int
    end: int
    score: float


def _bounds(size: int, minimum: float) -> tuple[int, int, int]:
    """What any window scoring ``minimum`` against a query of ``size`` keys must share with it.

    For a window of ``w`` keys (``size - 1 … size + 1``) the ratio is ``200·m / (size + w)``
    with ``m`` the longest common subsequence, so ``m ≥ minimum·(size + w)/200``. Of its
    ``m - 1`` pairs of consecutive matched keys, each key left unmatched (in the query or in
    the window) separates at most one, so at least ``3m - 1 - size - w`` of the query's
    two-key stretches stand whole in the window, each on a diagonal
    (position in the text minus offset in the query) at most ``size - m`` before or ``w - m``
    after the window's start. Returns (stretches needed, reach before, reach after), the
    loosest over the three widths.
    """
    need, before, after = size, 0, 0
    for width in (size - 1, size, size + 1):
        m = math.ceil(minimum * (size + width) / 200 - 1e-9)
        need = min(need, 3 * m - 1 - size - width)
        before = max(before, size - m)
        after = max(after, width - m)
    return need, before, after


def nearest_fuzzy(grams: Grams, query: str, lo: int, hi: int, *, forward: bool, minimum: float) -> Fuzzy | None:
    """The start nearest ``hi`` (or, ``forward``, ``lo``) of a window of ``text[lo:hi]`` like ``query``.

    A window is ``len(query)`` keys, one fewer or one more, at a start that shares a two-key
    stretch with the query, scoring at least ``minimum`` (rapidfuzz ``ratio``); of two
    such starts next to each other the better scoring wins. Searched in windows growing
    away from the place, each accepted only when its answer stands far enough inside it
    that nothing beyond could change it.
    """
    size = len(query)
    margin = 2 * size + 4
    span = FIRST_WINDOW
    while True:
        if forward:
            w_lo, w_hi = lo, min(hi, lo + span)
        else:
            w_lo, w_hi = max(lo, hi - span), hi
        best = _best_in(grams, query, lo, hi, w_lo, w_hi, forward=forward, minimum=minimum)
        whole = w_lo == lo and w_hi == hi
        if whole:
            return best
        if best is not None and (best.start + margin < w_hi if forward else best.start >= w_lo + margin):
            return best
        span *= 4


def _best_in(
    grams: Grams, query: str, lo: int, hi: int, w_lo: int, w_hi: int, *, forward: bool, minimum: float
) -> Fuzzy | None:
    """The answer of :func:`nearest_fuzzy` among the starts in ``[w_lo, w_hi)``."""
    size = len(query)
    need, before, after = _bounds(size, minimum)
    # Stretches a little outside the window count for starts near its edges.
    diagonals = grams.diagonals(query, max(lo, w_lo - size - 2), min(hi, w_hi + size + 2))
    first = max(lo, w_lo)
    if need > 1:
        starts = _dense_starts(diagonals, need, before, after, first, w_hi)
    else:
        starts = sorted({d for d in diagonals if first <= d < w_hi})
    text = grams.text
    best: Fuzzy | None = None
    for start in starts:
        for width in (size - 1, size, size + 1):
            end = start + width
            if end > hi:
                continue
            score = fuzz.ratio(query, text[start:end])
            if score < minimum:
                continue
            better = best is None or (start > best.start if not forward else start < best.start)
            same_place = best is not None and abs(start - best.start) <= 1
            if (same_place and best is not None and score > best.score) or (not same_place and better):
                best = Fuzzy(start, end, score)
    return best


def _dense_starts(diagonals: list[int], need: int, before: int, after: int, lo: int, hi: int) -> list[int]:
    """The diagonals in ``[lo, hi)`` with at least ``need`` diagonals within ``before``/``after`` of them.

    Such a band holds ``need`` diagonals in a row, ``diagonals[i] … diagonals[i + need - 1]``,
    and then every start from ``diagonals[i + need - 1] - after`` to ``diagonals[i] + before``
    has them all: the sorted diagonals are walked once, and the starts kept are those in the
    union of these stretches (most searches that find nothing have none at all).
    """
    width = before + after
    stretches = [
        (b - after, a + before) for a, b in zip(diagonals, diagonals[need - 1 :], strict=False) if b - a <= width
    ]
    if not stretches:
        return []
    kept: list[int] = []
    k = 0
    for d in sorted({d for d in diagonals if lo <= d < hi}):
        # Both ends of the stretches grow with i: skip those that end before d; then the
        # first left is the one that begins soonest.
        while k < len(stretches) and stretches[k][1] < d:
            k += 1
        if k == len(stretches):
            break
        if stretches[k][0] <= d:
            kept.append(d)
    return kept


def candidates_near(grams: Grams, query: str, *, limit: int = 8) -> Sequence[tuple[int, int]]:
    """Stretches of the text where ``query`` may stand: ``(lo, hi)`` around the best-voted diagonals.

    For a place searched in a whole text (a claim's context in another witness): the
    diagonals on which most of the query's two-key stretches fall, widened by the query's
    length on each side and merged where they overlap.
    """
    size = len(query)
    votes: dict[int, int] = {}
    for d in grams.diagonals(query, 0, len(grams.text)):
        votes[d] = votes.get(d, 0) + 1
    if not votes:
        return ()
    top = sorted(votes, key=_by_votes(votes))[:limit]
    spans = sorted((max(0, d - size), min(len(grams.text), d + 2 * size)) for d in top)
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _by_votes(votes: dict[int, int]) -> Callable[[int], tuple[int, int]]:
    return lambda d: (-votes[d], d)
