"""The heading of a 考證 note: the passage it quotes before its ``○``, in the layer it names.

A 考證 note of a 注疏 print quotes what it is about, then ``○``, then what it says:

* ``主人盥洗象觚升實之○實監本譌作賓…``: words of the 經;
* ``請致者疏非實也○實監本譌作賓…``: words of the 經 (請致者), then ``疏`` and words of the 疏
  on that 經 (非實也): the note is about the 疏;
* ``注教六詩以六律為之音○…``, ``疏對小師已下三百人為下工也○…`` (indented under the 經 note
  before): words of the 注 or the 疏.

The claims after the ``○`` are placed inside that passage and checked in that layer: a 考證
note about the 疏 judges the 疏, not the 經.
"""

from __future__ import annotations

from dataclasses import dataclass

from collate.model import Layer
from collate.notes.anchor import FUZZY_MIN, FUZZY_REACH, BaseIndex, Passage, find_phrase
from collate.notes.lexicon import LAYER_WORDS
from collate.notes.records import Note
from collate.notes.search import nearest_fuzzy

_SHORTEST = 2  # a layer word followed by fewer characters is a word of the text, not a label


@dataclass(frozen=True, slots=True)
class Heading:
    """Where a note's heading stands in the base (None if not found), the layer it names, how well it matched."""

    passage: Passage | None
    layer: Layer
    score: float = 100.0


def heading_passage(index: BaseIndex, note: Note) -> Heading:
    """The passage ``note``'s heading quotes: in the layer it names, after the 經 words it quotes first."""
    words = note.text[: note.heading]
    folded = index.fold(words)
    for word in sorted(LAYER_WORDS, key=len, reverse=True):
        rest = words[len(word) :]
        if folded.startswith(word) and len(rest) >= _SHORTEST:
            layer = Layer(LAYER_WORDS[word])
            return _in_layer(index, note, layer, rest, None) or Heading(None, layer)
    for at, word in _labels(folded):
        jing, rest = words[:at], words[at + len(word) :]
        found = find_phrase(index, jing, note, _everywhere(index, Layer.JING))
        if found is None or _layer(found[0].text.layers, found[0].i) is not Layer.JING:
            continue
        layer = Layer(LAYER_WORDS[word])
        # After the 經 nearest the note; the 經 may also stand again later (若與四方之賓燕 twice in
        # 燕禮): then the 疏 words nearest the note, wherever their 經 is.
        heading = _in_layer(index, note, layer, rest, found[0].raw[1]) or _in_layer(index, note, layer, rest, None)
        if heading is not None:
            return heading
    return _in_layer(index, note, Layer.JING, words, None) or Heading(None, Layer.JING)


def _labels(folded: str) -> list[tuple[int, str]]:
    """Each place where a layer word stands inside the heading with words on both sides, in order."""
    out = []
    for word in LAYER_WORDS:
        at = folded.find(word, _SHORTEST)
        while 0 <= at and at + len(word) + _SHORTEST <= len(folded):
            out.append((at, word))
            at = folded.find(word, at + 1)
    return sorted(out)


def _everywhere(index: BaseIndex, layer: Layer) -> Passage:
    """A passage of no length in ``layer``: tells :func:`find_phrase` which layer to search first."""
    return Passage(index.text(layer), 0, 0, layer, inline=False)


def _layer(layers: tuple[Layer, ...], i: int) -> Layer | None:
    return layers[i] if i < len(layers) else None


def _in_layer(index: BaseIndex, note: Note, layer: Layer, words: str, after: int | None) -> Heading | None:
    """``words`` in ``layer``: the first occurrence after raw ``after`` (the 經 the 疏 explains),
    else the nearest before the note."""
    text = index.text(layer)
    query = index.fold(words)
    if not query or not text.text:
        return None
    if after is not None:
        lo = text.index_at(after)
        at = index.grams(layer).find(query, lo)
        if at >= 0:
            return Heading(Passage(text, at, at + len(query), layer, inline=False), layer)
        if len(query) >= 4:
            hi = min(len(text.text), lo + FUZZY_REACH)
            fuzzy = nearest_fuzzy(index.grams(layer), query, lo, hi, forward=True, minimum=FUZZY_MIN)
            if fuzzy is not None:
                return Heading(Passage(text, fuzzy.start, fuzzy.end, layer, inline=False), layer, fuzzy.score)
        return None
    found = find_phrase(index, words, note, _everywhere(index, layer))
    if found is None or found[0].text is not text:
        return None
    match = found[0]
    return Heading(Passage(text, match.i, match.j, layer, inline=False), layer, match.score)
