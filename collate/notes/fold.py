"""Folded text for searching: simplified characters, variant graphs merged, each char mapped to raw offsets.

Notes quote the base loosely and name other editions' readings in their own script, so
phrases are found and compared after folding: OpenCC t2s, then a short table of variant
graphs that t2s leaves alone (筭/算 …). Folding is for comparison only: every folded
character keeps the raw ``(start, end)`` it came from, and what is shown is always the
witness's own text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from collate.model import Layer, Span, Substitution, Witness

# Variant graphs of our texts that OpenCC t2s does not merge. Merged for finding and
# comparing places only; the apparatus still records them as orthographic variants.
VARIANT_GRAPHS: dict[str, str] = {
    "筭": "算",
    "賔": "宾",
    "賓": "宾",
    "飮": "饮",
    "旣": "既",
    "𫉬": "获",
    "叅": "参",
    "竝": "并",
    "増": "增",
    "説": "说",
    "荅": "答",
    "冝": "宜",
    "髙": "高",
    "逺": "远",
    "庻": "庶",
    "慠": "傲",
    "脩": "修",
    "衆": "众",
    "爲": "为",
    "於": "于",
    "隮": "跻",
    "巳": "已",  # usually a digitization slip for 已 in these e-texts
}

# Characters that stand for a glyph the e-text lacks: they match nothing in searches and
# count as unknown (not as a difference) when readings are compared.
PLACEHOLDERS = frozenset("?？□■〓")
UNKNOWN = "\ufffd"


def is_placeholder(char: str) -> bool:
    """A placeholder or a Private Use Area glyph."""
    cp = ord(char)
    return char in PLACEHOLDERS or char == UNKNOWN or 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0x10FFFD


@lru_cache(maxsize=1)
def _t2s() -> Callable[[str], str]:
    import opencc

    converter = opencc.OpenCC("t2s")
    convert: Callable[[str], str] = converter.convert
    return convert


@lru_cache(maxsize=8192)
def fold_char(char: str) -> str:
    """One character folded for comparison (always one character)."""
    if is_placeholder(char):
        return UNKNOWN
    converted = _t2s()(char)
    if len(converted) == 1:
        char = converted
    return VARIANT_GRAPHS.get(char, char)


def fold(text: str) -> str:
    """``text`` folded character by character (same length as ``text``)."""
    return "".join(fold_char(c) for c in text)


@dataclass(frozen=True, slots=True)
class FoldedText:
    """Folded characters of a witness with, for each, its raw offsets, layer and unit.

    Built from the text layers of a witness; ``text[i]`` came from raw ``starts[i]:ends[i]``
    (several raw characters for a gaiji entity such as ``&KR0002;``).
    """

    text: str
    original: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    layers: tuple[Layer, ...]
    units: tuple[int, ...]

    def raw_span(self, i: int, j: int) -> tuple[int, int]:
        """Raw offsets covering folded characters ``[i, j)`` (an insertion point if empty)."""
        if i < j:
            return self.starts[i], self.ends[j - 1]
        if i < len(self.starts):
            return self.starts[i], self.starts[i]
        end = self.ends[-1] if self.ends else 0
        return end, end

    def index_at(self, offset: int) -> int:
        """The first folded character at or after raw ``offset``."""
        import bisect

        return bisect.bisect_left(self.starts, offset)


def folded_text(
    witness: Witness,
    layers: Iterable[Layer],
    *,
    roles: tuple[str, ...] = ("text",),
    folder: Callable[[str], str] | None = None,
) -> FoldedText:
    """The folded text of ``witness`` in ``layers`` (spans of the given roles), in file order.

    ``folder`` replaces the default folding (e.g. by the project's normalizer).
    """
    folding = folder or fold_char
    wanted = set(layers)
    originals: list[str] = []
    subs = {s.start: s for s in witness.substitutions}
    chars: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    span_layers: list[Layer] = []
    units: list[int] = []
    for span in witness.spans:
        if span.layer not in wanted or span.role not in roles:
            continue
        for char, start, end in _chars(witness.text, span, subs):
            if char.isspace() or char in "/()":
                continue
            chars.append(folding(char))
            originals.append(char)
            starts.append(start)
            ends.append(end)
            span_layers.append(span.layer)
            units.append(span.unit)
    return FoldedText("".join(chars), "".join(originals), tuple(starts), tuple(ends), tuple(span_layers), tuple(units))


def _chars(text: str, span: Span, subs: dict[int, Substitution]) -> Iterable[tuple[str, int, int]]:
    """The characters of a span, a gaiji entity read as its replacement (unknown if unresolved)."""
    i = span.start
    while i < span.end:
        sub = subs.get(i)
        if sub is not None and sub.end <= span.end:
            yield (sub.replacement[0] if sub.replacement else UNKNOWN), i, sub.end
            i = sub.end
            continue
        yield text[i], i, i + 1
        i += 1
