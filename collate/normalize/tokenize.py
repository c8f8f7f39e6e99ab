"""Tokens: one character of one layer is one token, a view into the witness's raw text.

Only a layer's ``text`` spans give tokens (attributions, markers and layout do not).
Punctuation, spaces and layout characters inside them are not tokens: each is attached to a
neighbouring token, to ``before`` when it opens what follows (『 「 【 “ …) and to ``after``
otherwise, so that joining ``before + raw + after`` over a layer's tokens gives back the
concatenation of the layer's text spans exactly (``raw`` is ``t``, or the entity text where a
gaiji entity was resolved). No word segmentation, no Unicode normalization.

What is not text is never compared as text. Each kind is classified here, once:

- box-drawing characters and dash runs (``──``, ``—``, ``――``): rules a print or an e-text draws,
  not tokens: layout, kept in ``before``/``after`` like punctuation;
- ASCII letters and digits that reach a text layer (a page id, a phrase number, markup a reader
  left): not tokens either. No classical text writes its words in ASCII; kept in ``before``/``after``,
  they still show and rejoin, but never align against a character or make a variant;
- ``●``, ``□``, ``■``, ``〓`` stand for a lost glyph: placeholder tokens (they hold the glyph's place,
  so the witness is not read as omitting it, and match nothing); ``?`` between CJK characters too;
- ○ and 囗 are content (drum notation), tokens like any character.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from collate.model import Layer, Role, Token, Witness
from collate.model.notation import NOTATION_CHARS, in_notation
from collate.normalize import Normalizer

# Categories that never make a token: punctuation, separators, controls and format
# characters, and the ASCII-ish symbols (+ = | ^ ` $ …) that e-texts use as markup.
# Other symbols (So) are tokens: ○ is content in drum notation, □ ■ 〓 are placeholders.
_NOT_TOKEN = frozenset({"Cc", "Cf", "Zs", "Zl", "Zp", "Sm", "Sk", "Sc"})
# Punctuation that opens what follows goes with the next token.
_OPENING = frozenset({"Ps", "Pi"})


def is_token_char(char: str) -> bool:
    """True if ``char`` is a token of its own (CJK of any plane, PUA, ○ …; not ASCII, not rules)."""
    if char.isascii() or 0x2500 <= ord(char) <= 0x257F:
        # ASCII words and box-drawing rules (──) are layout in a text layer (module docstring).
        return False
    category = unicodedata.category(char)
    return category[0] != "P" and category not in _NOT_TOKEN and category[0] != "M"


def is_ideograph(char: str) -> bool:
    """A CJK ideograph (any block), a Private Use Area glyph or ○/〇: what ``?`` sits between."""
    cp = ord(char)
    return (
        0x3400 <= cp <= 0x9FFF
        or 0xF900 <= cp <= 0xFAFF
        or 0x20000 <= cp <= 0x3FFFF
        or 0xE000 <= cp <= 0xF8FF
        or char in "○〇々"
    )


def is_question_placeholder(text: str, i: int) -> bool:
    """An ASCII ``?`` that stands for a glyph: a run of ``?`` touching a CJK character.

    In a Latin context (or standing alone) it is a question mark; the full-width ``？`` is
    always punctuation.
    """
    if text[i] != "?":
        return False
    left = i
    while left > 0 and text[left - 1] == "?":
        left -= 1
    right = i
    while right + 1 < len(text) and text[right + 1] == "?":
        right += 1
    before = text[left - 1] if left > 0 else ""
    after = text[right + 1] if right + 1 < len(text) else ""
    return bool(before and is_ideograph(before)) or bool(after and is_ideograph(after))


@dataclass(slots=True)
class _Draft:
    start: int
    end: int
    t: str
    unit: int
    placeholder: bool
    before: str = ""
    after: str = ""
    notation: bool = False


def _split_gap(gap: str) -> tuple[str, str]:
    """(after the previous token, before the next): the trailing run that opens goes forward."""
    cut = len(gap)
    i = len(gap)
    while i > 0:
        char = gap[i - 1]
        if unicodedata.category(char) in _OPENING:
            cut = i - 1
        elif not char.isspace():
            break
        i -= 1
    return gap[:cut], gap[cut:]


# What a character does, cached: a token, a combining mark, or punctuation/layout (a gap).
_TOKEN, _MARK, _GAP = 0, 1, 2
_KINDS: dict[str, int] = {}


def _kind(char: str) -> int:
    kind = _KINDS.get(char)
    if kind is None:
        if unicodedata.category(char)[0] == "M":
            kind = _MARK
        else:
            kind = _TOKEN if is_token_char(char) else _GAP
        _KINDS[char] = kind
    return kind


def tokenize(witness: Witness, layer: Layer, normalizer: Normalizer) -> tuple[Token, ...]:
    """The tokens of one layer of ``witness``, normalized, in file order."""
    text = witness.text
    subs = {s.start: s for s in witness.substitutions}
    drafts: list[_Draft] = []
    gap: list[str] = []
    for span in witness.spans:
        if span.layer is not layer or span.role is not Role.TEXT:
            continue
        i = span.start
        while i < span.end:
            sub = subs.get(i) if subs else None
            if sub is not None and sub.end <= span.end:
                resolved = sub.replacement
                _add(drafts, gap, _Draft(i, sub.end, resolved or text[i : sub.end], span.unit, resolved is None))
                i = sub.end
                continue
            char = text[i]
            kind = _kind(char)
            if kind == _TOKEN:
                notation = char in NOTATION_CHARS and in_notation(text, i)
                _add(drafts, gap, _Draft(i, i + 1, char, span.unit, False, notation=notation))
            elif kind == _MARK and drafts and not gap and drafts[-1].end == i:
                # A combining mark (a variation selector) belongs to the character before it.
                drafts[-1].end += 1
                drafts[-1].t += char
            elif char == "?" and is_question_placeholder(text, i):
                _add(drafts, gap, _Draft(i, i + 1, char, span.unit, True))
            else:
                gap.append(char)
            i += 1
    if drafts:
        drafts[-1].after += "".join(gap)
    return tuple(_finish(witness.siglum, layer, index, d, normalizer) for index, d in enumerate(drafts))


def _add(drafts: list[_Draft], gap: list[str], draft: _Draft) -> None:
    if gap:
        joined = "".join(gap)
        gap.clear()
        if drafts:
            drafts[-1].after, draft.before = _split_gap(joined)
        else:
            draft.before = joined
    drafts.append(draft)


def _finish(siglum: str, layer: Layer, index: int, d: _Draft, normalizer: Normalizer) -> Token:
    n, changes = normalizer.normalize(
        d.t, witness=siglum, start=d.start, placeholder=d.placeholder, notation=d.notation, layer=layer.value
    )
    return Token(siglum, layer, index, d.start, d.end, d.t, n, d.unit, changes, d.before, d.after)


def tokenize_witness(
    witness: Witness, normalizer: Normalizer, layers: Iterable[Layer] | None = None
) -> dict[Layer, tuple[Token, ...]]:
    """The tokens of each text layer of ``witness`` (or of ``layers``), keyed by layer."""
    wanted = [layer for layer in witness.layers() if layer.is_text] if layers is None else list(layers)
    return {layer: tokenize(witness, layer, normalizer) for layer in wanted}


def raw(token: Token, witness: Witness) -> str:
    """The raw characters a token stands on (``&KR0002;`` for a resolved entity)."""
    return witness.text[token.start : token.end]


def joined(tokens: Iterable[Token], witness: Witness) -> str:
    """``before + raw + after`` over the tokens: the layer's text, if the tokenizer is right."""
    return "".join(t.before + raw(t, witness) + t.after for t in tokens)
