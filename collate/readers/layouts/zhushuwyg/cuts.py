"""Where a 注 ends that the print does not end: rule 4 of :mod:`collate.readers.layouts.zhushuwyg`.

A 注 followed by 經 with no 音義 or 疏 between is read whole as a :class:`Stretch`; once the
file is read, :func:`cut_stretches` cuts each where two character n-gram models of this
text (one of its 注, one of its 經, trained on the runs whose both ends the print marks) fit
best, weighed by what the print says around it (``_Evidence``), and reports each cut.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from collate.model import Diagnostic, Layer, Role, Severity, Span, Unsettled
from collate.readers.base import SpanList
from collate.readers.layouts.zhushuwyg.marks import SEGMENT_MARKS, SHU_OPENERS, ZHU_MARK

# The models that place an unprinted 注/經 boundary: order and back-off weight.
NGRAM_ORDER = 3
BACKOFF = 5.0
_BOS, _EOS = "\x02", "\x03"  # a stretch's ends, as the models see them
# Words the print gives about an unmarked cut (see ``_Evidence``): the next 注's first words
# (from LEMMA_WORDS[1] down to LEMMA_WORDS[0] characters) and the following 疏's quotations
# of the 經 (QUOTE_MIN characters or more), worth QUOTE_WEIGHT (log-probability) a character.
LEMMA_WORDS = (3, 6)
QUOTE_MIN = 4
QUOTE_WEIGHT = 2.0
_SEPARATOR = "\x00"  # between the 疏's paragraphs: no quotation runs over it


@dataclass(frozen=True, slots=True)
class Stretch:
    """A 注 followed by 經 with no printed boundary: cut later, when the models are trained."""

    pieces: tuple[tuple[int, int, bool], ...]  # (start, end, is text)
    zhu_unit: int
    jing_unit: int


def cut_stretches(
    text: str,
    items: Sequence[Span | Stretch],
    trained: Mapping[Layer, Sequence[str]],
    diagnostics: list[Diagnostic],
    unsettled: list[Unsettled],
) -> SpanList:
    """The spans of ``items`` in file order, each :class:`Stretch` cut into its 注 and its 經.

    ``trained`` holds the 注 and the 經 runs whose both ends the print marks, for the models;
    each cut is appended to ``diagnostics`` as an ``estimated-boundary`` (info), for an editor
    to check, and each stretch to ``unsettled``, for the collation to settle by the other
    witnesses (:mod:`collate.align.boundaries`).
    """
    models = {layer: _NGrams(texts) for layer, texts in trained.items()}
    spans = SpanList()
    for k, item in enumerate(items):
        if isinstance(item, Span):
            spans.append(item)
            continue
        chars = "".join(text[a:b] for a, b, is_text in item.pieces if is_text)
        left = _best_cut(chars, models[Layer.ZHU], models[Layer.JING], _evidence(text, items, k, chars))
        cut: int | None = None
        for a, b, is_text in item.pieces:
            if not is_text:
                spans.layout(a, b)
                continue
            at = a + max(0, min(b - a, left))
            left -= b - a
            spans.add(a, at, Layer.ZHU, item.zhu_unit)
            if at < b and cut is None:
                cut = at
                message = "the print does not mark where this 注 ends: 經 is taken to resume here"
                diagnostics.append(Diagnostic("estimated-boundary", message, at, at + 1, Severity.INFO))
            spans.add(at, b, Layer.JING, item.jing_unit)
        texts = [(a, b) for a, b, is_text in item.pieces if is_text and b > a]
        if texts:
            first, last = texts[0][0], texts[-1][1]
            at = last if cut is None else cut
            unsettled.append(Unsettled(first, last, at, Layer.ZHU, Layer.JING, item.zhu_unit, item.jing_unit))
    return spans


def _evidence(text: str, items: Sequence[Span | Stretch], k: int, chars: str) -> _Evidence:
    """What the print says after the stretch ``items[k]``: the next 注's lemma, the 疏's quotations."""
    following: list[str] = []
    i = k + 1
    # The next 注: it opens by quoting words of the 經 it follows.
    while i < len(items):
        item = items[i]
        if isinstance(item, Stretch):
            following.append("".join(text[a:b] for a, b, t in item.pieces if t))
        elif item.layer is Layer.ZHU and item.role is Role.TEXT:
            following.append(text[item.start : item.end])
        elif not (item.layer is Layer.MARKUP and (item.role is Role.LAYOUT or item.marker == ZHU_MARK)):
            break
        i += 1
    next_zhu = "".join(following)
    # The 疏 that follows (after more 經 and 注 of the same section, if any): the paragraphs
    # on the 經, not those opened by 注正義曰/注釋曰.
    parts: dict[int, list[str]] = {}
    on_zhu: set[int] = set()
    started = False
    while i < len(items):
        item = items[i]
        i += 1
        if isinstance(item, Stretch):
            if started:
                break
            continue
        if item.layer is Layer.HEADING or (item.role is Role.MARKER and item.marker in tuple(SEGMENT_MARKS)):
            break  # a new section of 經: a 疏 after it is on other words
        if item.layer is Layer.SHU and item.role is Role.TEXT:
            started = True
            parts.setdefault(item.unit, []).append(text[item.start : item.end])
        elif item.role is Role.MARKER and item.marker in tuple(ZHU_MARK + w for w in SHU_OPENERS):
            on_zhu.add(item.unit)
        elif started and item.layer in (Layer.JING, Layer.ZHU) and item.role is Role.TEXT:
            break
    on_jing = _SEPARATOR.join("".join(v) for u, v in parts.items() if u not in on_zhu)
    return _Evidence.of(chars, next_zhu, on_jing)


class _NGrams:
    """A character n-gram model of one layer, each order backing off to the one below.

    Interpolated with a fixed weight (``BACKOFF``) and add-one unigrams: the training text
    is a few thousand characters, too few to tune anything finer.
    """

    def __init__(self, texts: Iterable[str], order: int = NGRAM_ORDER) -> None:
        self.order = order
        self.grams: Counter[str] = Counter()
        self.contexts: Counter[str] = Counter()
        for t in texts:
            seq = _BOS * (order - 1) + t + _EOS
            for i in range(order - 1, len(seq)):
                for n in range(1, order + 1):
                    gram = seq[i - n + 1 : i + 1]
                    self.grams[gram] += 1
                    self.contexts[gram[:-1]] += 1
        self.total = self.contexts[""]
        self.vocabulary = sum(1 for g in self.grams if len(g) == 1) + 1

    def logp(self, chars: str) -> float:
        """Log-probability of ``chars`` as a whole stretch of this layer, both ends included."""
        seq = _BOS * (self.order - 1) + chars + _EOS
        score = 0.0
        for i in range(self.order - 1, len(seq)):
            p = (self.grams[seq[i]] + 1) / (self.total + self.vocabulary)
            for n in range(2, self.order + 1):
                gram = seq[i - n + 1 : i + 1]
                p = (self.grams[gram] + BACKOFF * p) / (self.contexts[gram[:-1]] + BACKOFF)
            score += math.log(p)
        return score


@dataclass(frozen=True, slots=True)
class _Evidence:
    """What the print says about one unmarked stretch: the last cut it allows, weights per character.

    ``limit``: the next 注 opens with words of the 經 it follows (``LEMMA_WORDS``), so the 經
    begins at the latest where those words stand in the stretch. ``weights``: ``QUOTE_WEIGHT``
    for each character the following 疏 quotes while it explains the 經 (``QUOTE_MIN`` or more
    in a row), evidence that it is 經. (The 疏's part on the 注 also quotes the 經 it
    paraphrases, so it says nothing sure about the 注 and is not used.)
    """

    limit: int
    weights: tuple[float, ...]

    @classmethod
    def of(cls, chars: str, next_zhu: str, shu_on_jing: str) -> _Evidence:
        """The evidence for ``chars`` from the 注 and the 疏 that follow it."""
        limit = len(chars) - 1
        low, high = LEMMA_WORDS
        for size in range(min(high, len(next_zhu)), low - 1, -1):
            at = chars.rfind(next_zhu[:size])
            if at > 0:
                limit = at
                break
        weights = tuple(QUOTE_WEIGHT * q for q in _quoted(chars, shu_on_jing))
        return cls(limit, weights)


def _quoted(chars: str, other: str) -> list[int]:
    """1 for each character of ``chars`` inside a run of ``QUOTE_MIN`` or more that ``other`` quotes."""
    marks = [0] * len(chars)
    if not other:
        return marks
    for i in range(len(chars)):
        size = QUOTE_MIN
        while i + size <= len(chars) and chars[i : i + size] in other:
            size += 1
        if size > QUOTE_MIN:
            for j in range(i, i + size - 1):
                marks[j] = 1
    return marks


def _best_cut(chars: str, zhu: _NGrams, jing: _NGrams, evidence: _Evidence | None = None) -> int:
    """How many of ``chars`` are 注: the cut where a whole 注 then a whole 經 fit best."""
    if len(chars) < 2:
        return len(chars)
    limit = len(chars) - 1 if evidence is None else max(1, evidence.limit)
    weights = (0.0,) * len(chars) if evidence is None else evidence.weights
    total = sum(weights)

    def score(k: int) -> float:
        before = sum(weights[:k])
        return zhu.logp(chars[:k]) + jing.logp(chars[k:]) + (total - before) - before

    return max(range(1, limit + 1), key=score)
