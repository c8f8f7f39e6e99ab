"""The notes' searchable text: a witness's tokens' keys, each mapped back to its raw offsets.

Notes quote the base loosely and name other editions' readings in their own script, so
phrases are found and compared on search keys, and the keys are the normalizer's
(:mod:`collate.normalize`): the keys the alignment compares, with what simplification merged
merged again (:meth:`~collate.normalize.Normalizer.fold`: a note's 然后 is the base's 然後, and
its 當作 the grammar's 当作). One answer to "why are these the same?". The text searched is
the witness's tokens (:func:`collate.normalize.tokenize.tokenize`): punctuation, spaces, line
ends and markup are attributes of tokens there, never compared, so a punctuated witness is
searched exactly as the same text unpunctuated. Every key keeps the raw ``(start, end)`` of
its token, and what is shown is always the witness's own text.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from collate.model import Layer, Token, Witness
from collate.normalize.placeholder import KEY_MARK

if TYPE_CHECKING:
    from collate.normalize import Normalizer

# The key of a placeholder (? □ PUA, an unresolved entity): it stands for a glyph the e-text
# lacks, so it matches nothing in searches and counts as unknown, not as a difference, when
# readings are compared. The normalizer's own mark: its ``fold`` gives it too.
UNKNOWN = KEY_MARK


@cache
def default_normalizer() -> Normalizer:
    """The normalizer with the default rules, for notes read without a project."""
    from collate.normalize import Normalizer

    return Normalizer()


def fold(text: str, normalizer: Normalizer | None = None) -> str:
    """``text``'s comparison keys, character by character (same length as ``text``).

    For a note's own words (its quotations, the readings it reports, witness names) to be
    matched against a witness's keys. Without ``normalizer``, the default rules.
    """
    normalizer = normalizer or default_normalizer()
    keys = normalizer.fold(text)
    if len(keys) != len(text):
        # A rule that mapped one character to several would shift every offset after it.
        keys = "".join(_one(normalizer.fold(c), c) for c in text)
    # In a note's words an ASCII ? is the digitizer's lost glyph (【案?今注疏本讹作也】), never a
    # question mark: the tokenizer makes the same ? in the text a placeholder.
    return keys.replace("?", UNKNOWN)


def _one(key: str, char: str) -> str:
    return key if len(key) == 1 else char


@dataclass(frozen=True, slots=True)
class FoldedText:
    """The keys of a witness's tokens with, for each, its own text, raw offsets, layer and unit.

    Built from the tokens of some text layers of a witness, in file order; ``text[i]`` is
    the key of the token on raw ``starts[i]:ends[i]`` (several raw characters for a gaiji
    entity such as ``&KR0002;``), ``original[i]`` its own character(s).
    """

    text: str
    original: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    layers: tuple[Layer, ...]
    units: tuple[int, ...]

    def shown(self, i: int, j: int) -> str:
        """The witness's own characters of keys ``[i, j)``."""
        return "".join(self.original[i:j])

    def raw_span(self, i: int, j: int) -> tuple[int, int]:
        """Raw offsets covering keys ``[i, j)`` (an insertion point if empty)."""
        if i < j:
            return self.starts[i], self.ends[j - 1]
        if i < len(self.starts):
            return self.starts[i], self.starts[i]
        end = self.ends[-1] if self.ends else 0
        return end, end

    def index_at(self, offset: int) -> int:
        """The first key at or after raw ``offset``."""
        return bisect.bisect_left(self.starts, offset)


def folded_text(
    witness: Witness,
    layers: Iterable[Layer],
    normalizer: Normalizer | None = None,
    tokens_of: Mapping[Layer, Sequence[Token]] | None = None,
) -> FoldedText:
    """The keys of ``witness``'s tokens in ``layers``, in file order (default rules without ``normalizer``).

    ``tokens_of`` holds layers already tokenized with ``normalizer`` (the collation's), used as they are.
    """
    from collate.normalize.tokenize import tokenize

    normalizer = normalizer or default_normalizer()
    known = tokens_of or {}
    tokens = sorted(
        (
            t
            for layer in dict.fromkeys(layers)
            for t in (known[layer] if layer in known else tokenize(witness, layer, normalizer))
        ),
        key=lambda t: t.start,
    )
    keys = [UNKNOWN if t.is_placeholder else _one(normalizer.loosen(t.n), t.t[0]) for t in tokens]
    return FoldedText(
        "".join(keys),
        tuple(t.t for t in tokens),
        tuple(t.start for t in tokens),
        tuple(t.end for t in tokens),
        tuple(t.layer for t in tokens),
        tuple(t.unit for t in tokens),
    )


def merged(texts: Iterable[FoldedText]) -> FoldedText:
    """Several layers' keys as one text, in file order (as if folded together)."""
    parts = [t for t in texts if t.text]
    if not parts:
        return FoldedText("", (), (), (), (), ())
    if len(parts) == 1:
        return parts[0]
    starts = [x for t in parts for x in t.starts]
    # Starts are distinct across layers (each token stands on its own characters); each
    # layer's are in order already, so the sort only interleaves runs.
    order = sorted(range(len(starts)), key=starts.__getitem__)
    pick = operator.itemgetter(*order)

    def gathered(field: Callable[[FoldedText], Sequence[Any]]) -> tuple[Any, ...]:
        return tuple(pick([x for t in parts for x in field(t)]))

    return FoldedText(
        "".join(gathered(lambda t: t.text)),
        gathered(lambda t: t.original),
        gathered(lambda t: t.starts),
        gathered(lambda t: t.ends),
        gathered(lambda t: t.layers),
        gathered(lambda t: t.units),
    )
