"""Finding what a note judges: the passage before it, and the phrases it quotes, in the base text.

Notes quote loosely (若干纯 for the base's 若于纯), so phrases are searched on folded text
with rapidfuzz, and the occurrence nearest before the note wins: a note follows what it
judges. The classic (經) is searched first for a block note such as 蕙田案 (it judges
the classic), the note's own layer first for an inline note such as a 【案…】 inside 注.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from collate.model import Layer, Span, Witness
from collate.notes.fold import FoldedText, fold, folded_text
from collate.notes.records import Anchor, AnchorMethod, Note

if TYPE_CHECKING:
    from collate.normalize import Normalizer

TEXT_LAYERS = (Layer.JING, Layer.ZHU, Layer.SHU, Layer.SHIWEN, Layer.COMMENTARY)
# A block note's passage is the 經 before it, read across 注 and 釋文 runs; 疏, a later
# commentator, another note or a heading closes it (they follow a passage as a whole).
_PASSAGE_SKIPS = (Layer.ZHU, Layer.SHIWEN, Layer.MARKUP)
FUZZY_MIN = 80.0


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

    ``normalizer`` makes the keys (the project's; the default rules if None).
    """

    witness: Witness
    normalizer: Normalizer | None = None
    _texts: dict[Layer | None, FoldedText] = field(default_factory=dict)

    def text(self, layer: Layer | None) -> FoldedText:
        """The keys of one layer (``None``: every text layer)."""
        if layer not in self._texts:
            layers = TEXT_LAYERS if layer is None else (layer,)
            self._texts[layer] = folded_text(self.witness, layers, self.normalizer)
        return self._texts[layer]

    def fold(self, words: str) -> str:
        """A note's words as keys, as the index has the base's."""
        return fold(words, self.normalizer)


def passage_before(index: BaseIndex, note: Note) -> Passage | None:
    """The passage ``note`` follows: inline, the text before it on its line; else the 經 before it."""
    spans = index.witness.spans
    text = index.witness.text
    first = next(k for k, s in enumerate(spans) if s.end > note.start or s.start >= note.start)
    k = first - 1
    while k >= 0 and (spans[k].layer is Layer.MARKUP or (spans[k].layer is Layer.NOTE and spans[k].unit == note.unit)):
        k -= 1
    if k < 0:
        return None
    last = spans[k]
    if last.layer in TEXT_LAYERS and "\n" not in text[last.end : note.start]:
        run = [s for s in spans[: k + 1] if s.layer is last.layer and s.unit == last.unit]
        return _passage(index, last.layer, run[0].start, last.end, inline=True)
    while k >= 0 and spans[k].layer is not Layer.JING:
        if spans[k].layer is Layer.HEADING and spans[k].role == "text":
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
    return span.role in ("marker", "layout") and span.layer is not Layer.HEADING


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
    the part of ``phrase`` that was found.
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
                    folded = index.text(layer)
                    found = _search(folded, query, note, forward=forward, exact=exact)
                    if found:
                        return found, phrase[len(words) - len(query) :]
            if not suffixes:
                candidates = [words]
    return None


def _search(folded: FoldedText, query: str, note: Note, *, forward: bool, exact: bool) -> Match | None:
    limit = folded.index_at(note.start)
    if exact:
        if forward:
            at = folded.text.find(query, folded.index_at(note.end))
        else:
            at = folded.text.rfind(query, 0, limit)
        return Match(folded, at, at + len(query), 100.0) if at >= 0 else None
    best: Match | None = None
    lo, hi = (folded.index_at(note.end), len(folded.text)) if forward else (0, limit)
    size = len(query)
    for start in _candidate_starts(folded.text, query, lo, hi):
        for width in (size - 1, size, size + 1):
            end = start + width
            if end > hi:
                continue
            score = fuzz.ratio(query, folded.text[start:end])
            if score < FUZZY_MIN:
                continue
            better = best is None or (start > best.i if not forward else start < best.i)
            same_place = best is not None and abs(start - best.i) <= 1
            if (same_place and best is not None and score > best.score) or (not same_place and better):
                best = Match(folded, start, end, score)
    return best


def _candidate_starts(text: str, query: str, lo: int, hi: int) -> list[int]:
    """Window starts sharing a two-character stretch with ``query`` (the others cannot score 80)."""
    starts = set()
    for k in range(len(query) - 1):
        gram = query[k : k + 2]
        at = text.find(gram, lo, hi)
        while at >= 0:
            if at - k >= lo:
                starts.add(at - k)
            at = text.find(gram, at + 1, hi)
    return sorted(starts)


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
