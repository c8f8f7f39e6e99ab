"""A witness's small print that is not the base's 注: another commentary, kept and never collated with it.

A print sets its commentary in small print after the 經, and its reader takes small print for
the 注 (鄭注 in the 四部叢刊 prints, 王昭禹's 詳解 in his 周禮詳解 alike: the layout is one). Which
commentary it is, the collation says: an edition of the 注 shares most of its words with the
base's 注, in the same order, wherever either has them; another author's commentary shares a
phrase here and there (鄭氏謂…, a line of 考工記). So the witness's 注 is compared with the base's
by their runs of :data:`GRAM` comparison keys (variant forms folded): where neither holds
:data:`SHARE` of its runs in the other — the witness's in the base's (an edition of the 注, a
fragment of one, a 集說 quoting it), nor the base's in the witness's (a base quoting pieces
of it) — the witness's small print is its own commentary: read as the ``commentary`` layer,
kept in its text and its exports, and never aligned with the 注.

Measured on the shared and development chapters: an edition of the 注 holds 0.77–0.95 of its
runs in the base's and the base 0.77–0.94 of its in it, a 集說 quoting 鄭注 0.53–0.69 of its;
王昭禹's 詳解 0.09, and the base's 0.21 in his.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from collate.model import Diagnostic, Layer, Severity, Witness
from collate.normalize.tokenize import is_token_char

if TYPE_CHECKING:
    from collate.normalize import Normalizer

# Runs of this many comparison keys: long enough that two commentaries on one text rarely share
# one by chance, short enough that an edition's variants leave most of them whole.
GRAM = 4
# The share of runs, in either direction, below which the two are different commentaries.
SHARE = 0.35
# Fewer keys than this on either side say nothing either way.
MIN_KEYS = 40


def own_commentaries(
    witnesses: Sequence[Witness], base: str, normalizer: Normalizer, exempt: Callable[[Witness], bool]
) -> tuple[Witness, ...]:
    """The witnesses, each whose 注 is not the base's (see the module docstring) with it read as
    its own commentary and a diagnostic saying so; ``exempt`` witnesses (those that quote the 注
    in pieces, as their readers found) are left as they are."""
    own = next((w for w in witnesses if w.siglum == base), None)
    if own is None:
        return tuple(witnesses)
    theirs = _grams(own, normalizer)
    if len(theirs) < MIN_KEYS:
        return tuple(witnesses)
    out = []
    for w in witnesses:
        if w is own or w.sparse or exempt(w):
            out.append(w)
            continue
        mine = _grams(w, normalizer)
        if len(mine) < MIN_KEYS:
            out.append(w)
            continue
        shared = len(mine & theirs)
        held, holds = shared / len(mine), shared / len(theirs)
        out.append(w if max(held, holds) >= SHARE else _as_commentary(w, held))
    return tuple(out)


def _grams(witness: Witness, normalizer: Normalizer) -> set[str]:
    """The runs of :data:`GRAM` comparison keys of the witness's 注 (its words only)."""
    keys = normalizer.key("".join(c for c in witness.layer_text(Layer.ZHU) if is_token_char(c)))
    return {keys[i : i + GRAM] for i in range(len(keys) - GRAM + 1)}


def _as_commentary(witness: Witness, held: float) -> Witness:
    """The witness with its 注 spans in the ``commentary`` layer, as units after its own."""
    first = 1 + max((s.unit for s in witness.spans if s.layer is Layer.COMMENTARY), default=-1)
    units = sorted({s.unit for s in witness.spans if s.layer is Layer.ZHU})
    renumber = {u: first + k for k, u in enumerate(units)}
    spans = tuple(
        replace(s, layer=Layer.COMMENTARY, unit=renumber[s.unit]) if s.layer is Layer.ZHU else s for s in witness.spans
    )
    start = next(s.start for s in witness.spans if s.layer is Layer.ZHU)
    message = (
        f"its small print is not the base's 注: {held:.0%} of its words (runs of {GRAM}) stand in the base's 注, "
        "and as few of the base's in it; read as its own commentary, kept and not collated"
    )
    diagnostic = Diagnostic("own-commentary", message, start, start + 1, Severity.INFO)
    return replace(witness, spans=spans, diagnostics=(*witness.diagnostics, diagnostic))
