"""Finding what a note judges: the passage before it, and the phrases it quotes, in the base text.

Notes quote loosely (若干纯 for the base's 若于纯), so phrases are searched on folded text
with rapidfuzz, and the occurrence nearest before the note wins: a note follows what it
judges. The classic (經) is searched first for a block note such as 蕙田案 (it judges
the classic), the note's own layer first for an inline note such as a 【案…】 inside 注.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from collate.model import Layer, Role, Span, Token, Witness
from collate.notes.fold import FoldedText, fold, folded_text, merged
from collate.notes.records import Anchor, AnchorMethod, Note
from collate.notes.search import Grams, nearest_fuzzy

if TYPE_CHECKING:
    from collate.normalize import Normalizer

TEXT_LAYERS = (Layer.JING, Layer.ZHU, Layer.SHU, Layer.SHIWEN, Layer.COMMENTARY)
# A block note's passage is the 經 before it, read across 注 and 釋文 runs; 疏, a later
# commentator, another note or a heading closes it (they follow a passage as a whole).
_PASSAGE_SKIPS = (Layer.ZHU, Layer.SHIWEN, Layer.MARKUP)
FUZZY_MIN = 80.0
# How far from a note a loose quotation is looked for (keys): a note quotes its own chapter,
# and the 考證 at the end of a 注疏 chapter reach back over the whole of it (up to ~25,000
# keys in 儀禮注疏·燕禮). Exact quotations are looked for in the whole text.
FUZZY_REACH = 1 << 16


@dataclass(frozen=True, slots=True)
class Match:
    """Folded characters ``[i, j)`` of ``text`` matched a phrase with ``score``."""

    text: FoldedText
    i: int
    j: int
    score: float

    @property
    def raw(self) -> tuple[int, int]:
        """Raw offsets of the match in the witness."""
        return self.text.raw_span(self.i, self.j)


@dataclass(frozen=True, slots=True)
class Passage:
    """The base text a note follows: folded characters ``[i, j)`` of ``text`` in ``layer``."""

    text: FoldedText
    i: int
    j: int
    layer: Layer
    inline: bool

    @property
    def words(self) -> str:
        """The passage's folded text."""
        return self.text.text[self.i : self.j]


@dataclass
class BaseIndex:
    """The base witness's tokens' keys per layer, for searching phrases near a note.

    ``normalizer`` makes the keys (the project's; the default rules if None); ``tokens``
    holds layers already tokenized with it (the collation's), used instead of tokenizing again.
    """

    witness: Witness
    normalizer: Normalizer | None = None
    tokens: Mapping[Layer, Sequence[Token]] | None = None
    _texts: dict[Layer | None, FoldedText] = field(default_factory=dict)
    _grams: dict[Layer | None, Grams] = field(default_factory=dict)
    _ends: list[int] = field(default_factory=list)
    _unit_starts: dict[tuple[Layer, int], int] = field(default_factory=dict)

    def text(self, layer: Layer | None) -> FoldedText:
        """The keys of one layer (``None``: every text layer)."""
        if layer not in self._texts:
            if layer is None:
                self._texts[layer] = merged(self.text(x) for x in TEXT_LAYERS)
            else:
                self._texts[layer] = folded_text(self.witness, (layer,), self.normalizer, self.tokens)
        return self._texts[layer]

    def grams(self, layer: Layer | None) -> Grams:
        """The index of one layer's keys, for searching them near a place."""
        if layer not in self._grams:
            self._grams[layer] = Grams.of(self.text(layer).text)
        return self._grams[layer]

    def span_at(self, offset: int) -> int:
        """The index of the first span of the witness that ends after raw ``offset``."""
        if not self._ends:
            self._ends.extend(s.end for s in self.witness.spans)
        return bisect.bisect_right(self._ends, offset)

    def unit_start(self, layer: Layer, unit: int) -> int:
        """The raw offset where ``unit`` of ``layer`` begins (its first span's start)."""
        if not self._unit_starts:
            for s in self.witness.spans:
                self._unit_starts.setdefault((s.layer, s.unit), s.start)
        return self._unit_starts[(layer, unit)]

    def fold(self, words: str) -> str:
        """A note's words as keys, as the index has the base's."""
        return fold(words, self.normalizer)

    def layer_at(self, start: int, end: int, *, before: bool = False) -> Layer | None:
        """The text layer of raw ``[start, end)``: of its first character, or for an insertion
        point of the character it follows (``before``: the one it precedes)."""
        text = self.text(None)
        probe = start if end > start or before else start - 1
        k = bisect.bisect_right(text.starts, probe) - 1
        if 0 <= k < len(text.starts) and text.starts[k] <= probe < text.ends[k]:
            return text.layers[k]
        return None


def passage_before(index: BaseIndex, note: Note) -> Passage | None:
    """The passage ``note`` follows: inline, the text before it on its line; else the 經 before it."""
    spans = index.witness.spans
    text = index.witness.text
    k = index.span_at(note.start) - 1
    while k >= 0 and (spans[k].layer is Layer.MARKUP or (spans[k].layer is Layer.NOTE and spans[k].unit == note.unit)):
        k -= 1
    if k < 0:
        return None
    last = spans[k]
    if last.layer in TEXT_LAYERS and "\n" not in text[last.end : note.start]:
        return _passage(index, last.layer, index.unit_start(last.layer, last.unit), last.end, inline=True)
    while k >= 0 and spans[k].layer is not Layer.JING:
        if spans[k].layer is Layer.HEADING and spans[k].role is Role.TEXT:
            return None
        k -= 1
    if k < 0:
        return None
    end = spans[k].end
    start = spans[k].start
    while k >= 0 and (spans[k].layer is Layer.JING or spans[k].layer in _PASSAGE_SKIPS or _is_marker(spans[k])):
        if spans[k].layer is Layer.JING:
            start = spans[k].start
        k -= 1
    return _passage(index, Layer.JING, start, end, inline=False)


def _is_marker(span: Span) -> bool:
    return span.role in (Role.MARKER, Role.LAYOUT) and span.layer is not Layer.HEADING


def _passage(index: BaseIndex, layer: Layer, start: int, end: int, *, inline: bool) -> Passage | None:
    folded = index.text(layer)
    i, j = folded.index_at(start), folded.index_at(end)
    return Passage(folded, i, j, layer, inline) if j > i else None


def find_phrase(
    index: BaseIndex, phrase: str, note: Note, passage: Passage | None, *, suffixes: bool = False
) -> tuple[Match, str] | None:
    """The occurrence of ``phrase`` (or, with ``suffixes``, of its longest suffix found) nearest the note.

    Searched before the note first (in the passage's layer, then every text layer), then
    after it (a note may name the passage it is about to discuss). Returns the match and
    the part of ``phrase`` that was found; a part found (with ``suffixes``) only where it
    stands once in the layer searched.
    """
    words = index.fold(phrase)
    if not words:
        return None
    layers: list[Layer | None] = [passage.layer if passage else Layer.JING, None]
    candidates = [words]
    if suffixes:
        shortest = 1 if len(words) <= 2 else 3
        candidates = [words[k:] for k in range(0, len(words) - shortest + 1)]
    for forward in (False, True):
        for exact in (True, False):
            for query in candidates:
                if not exact and len(query) < 4:
                    continue
                for layer in layers:
                    found = _search(index, layer, query, note, forward=forward, exact=exact)
                    # A part of the quotation (its last words) places the note only where it
                    # stands once in the layer: a 考證 note on the whole 經 quoted against an
                    # excerpt would land on 卿 or 四 anywhere.
                    if found and (query == words or not exact or _placed_once(index, layer, query, found, passage)):
                        return found, phrase[len(words) - len(query) :]
            if not suffixes:
                candidates = [words]
    return None


def _placed_once(index: BaseIndex, layer: Layer | None, query: str, found: Match, passage: Passage | None) -> bool:
    """Whether a part of a quotation found at ``found`` says where the note is: it stands once in
    the layer, or within the passage the note follows (a note judges what stands just before it)."""
    if passage is not None and found.text is passage.text and passage.i <= found.i and found.j <= passage.j:
        return True
    return index.text(layer).text.count(query) == 1


def _search(
    index: BaseIndex, layer: Layer | None, query: str, note: Note, *, forward: bool, exact: bool
) -> Match | None:
    folded = index.text(layer)
    grams = index.grams(layer)
    limit = folded.index_at(note.start)
    if exact:
        at = grams.find(query, folded.index_at(note.end)) if forward else grams.rfind(query, limit)
        return Match(folded, at, at + len(query), 100.0) if at >= 0 else None
    if forward:
        lo = folded.index_at(note.end)
        lo, hi = lo, min(len(folded.text), lo + FUZZY_REACH)
    else:
        lo, hi = max(0, limit - FUZZY_REACH), limit
    found = nearest_fuzzy(grams, query, lo, hi, forward=forward, minimum=FUZZY_MIN)
    return Match(folded, found.start, found.end, found.score) if found else None


def gloss_span(passage: Passage | None, gloss: str, index: BaseIndex) -> tuple[Match, list[int]] | None:
    """An authority's gloss (王肃云枉不直哨不正): the words it glosses are its characters in the passage.

    Returns the stretch from the first to the last glossed character and their positions.
    """
    if passage is None:
        return None
    words = passage.words
    positions = sorted({passage.i + words.find(c) for c in index.fold(gloss) if c in words})
    if len(positions) < 2:
        return None
    return Match(passage.text, positions[0], positions[-1] + 1, 100.0), positions


def make_anchor(index: BaseIndex, note: Note, matches: list[tuple[Match, str]], passage: Passage | None) -> Anchor:
    """The note's anchor: its quoted phrases, else the passage before it, else the chapter."""
    witness = index.witness
    if matches:
        first = min(matches, key=lambda m: m[0].raw[0])
        last = max(matches, key=lambda m: m[0].raw[1])
        start, end = first[0].raw[0], last[0].raw[1]
        words = _words(first[0].text, start, end)
        score = min(m[0].score for m in matches)
        quote = "…".join(dict.fromkeys(q for _, q in sorted(matches, key=lambda m: m[0].raw[0])))
        layer = first[0].text.layers[first[0].i] if first[0].i < len(first[0].text.layers) else Layer.JING
        return Anchor(note, layer, start, end, words, quote, AnchorMethod.QUOTE, score, witness.locate(start))
    if passage is not None:
        start, end = passage.text.raw_span(passage.i, passage.j)
        words = _words(passage.text, start, end)
        return Anchor(note, passage.layer, start, end, words, "", AnchorMethod.PRECEDING, 100.0, witness.locate(start))
    chapter = index.text(Layer.JING)
    i = chapter.index_at(note.end)
    start, end = chapter.raw_span(i, len(chapter.text))
    return Anchor(note, Layer.JING, start, start, "", "", AnchorMethod.CHAPTER, 0.0, witness.locate(start))


def _words(folded: FoldedText, start: int, end: int) -> str:
    """The witness's own characters in ``[start, end)`` of one folded layer (layout left out)."""
    i, j = folded.index_at(start), folded.index_at(end)
    return folded.shown(i, j)
