"""A decision and its anchor: what an editor decided, and how it finds its locus again.

A decision is made at a locus, but locus ids and offsets move when a witness file is
corrected or a witness added. So each decision carries an :class:`Anchor`: what the locus
says (layer, the base's text, the normalized texts of the readings), a few characters of
base text either side, and the base token offset. Re-applying finds the locus by content
and context first and uses the position only to break ties (:mod:`collate.decisions.apply`).
The file that keeps them is :mod:`collate.decisions.file`.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone

from collate.apparatus import LayerResult, Locus, Reading, ReadingClass, WitnessReading
from collate.model import Layer, Token
from collate.model.annotations import DecisionAction
from collate.normalize.placeholder import KEY_MARK

# Characters of base text kept on each side of a locus: enough to tell apart the many places
# where the same pair of readings occurs (筭/算; the thrice-repeated 主人曰枉矢哨壶不足辞也敢固 needs 8).
# Matching counts the characters that still agree, so a longer context costs no tolerance.
CONTEXT = 10
# Classes an editor may give a reading, the commonest judgments first. Omission, addition and
# not extant are facts of the texts (a reading is empty, or the base is), never a judgment, so
# an editor cannot give them; every other class can be an editor's verdict on a reading.
EDITOR_CLASSES = (
    ReadingClass.SUBSTANTIVE,
    ReadingClass.ORTHOGRAPHIC,
    ReadingClass.SCRIBAL_ERROR,
    ReadingClass.LOAN,
    ReadingClass.TRANSPOSITION,
    ReadingClass.PLACEHOLDER,
    ReadingClass.NOTATION,
)
# The actions that cut the loci anew rather than judge one (collate.decisions.regroup).
STRUCTURAL = (DecisionAction.MERGE, DecisionAction.SPLIT)


@dataclass(frozen=True, slots=True)
class Anchor:
    """How a decision finds its locus again: content, context, position.

    ``lemma`` is the base's text at the locus ('' where the base lacks text); ``readings``
    the content keys (:func:`reading_key`) of the variant readings, sorted; ``before`` and
    ``after`` up to :data:`CONTEXT` characters of base text either side; ``offset`` the
    base token offset and ``locus`` the locus id when the decision was made (both only
    break ties: they move whenever text before them changes).
    """

    layer: Layer
    lemma: str
    readings: tuple[str, ...]
    before: str
    after: str
    offset: int
    locus: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one editor at one locus.

    ``siglum``, ``reading`` and ``norm`` name the reading concerned (the one adopted as the
    lemma, or reclassified): the witness the editor chose, its text, and its content key,
    which is what re-application matches. ``cls`` is the class given by a reclassification.
    Decisions made together on every locus with the same pair of readings share ``batch``.
    A merge names the second locus by ``until`` (its anchor, as ``anchor`` names the first); a
    split keeps ``at`` characters of the base's text in its first locus.
    """

    id: str
    action: DecisionAction
    anchor: Anchor
    editor: str
    when: str
    comment: str = ""
    siglum: str | None = None
    reading: str | None = None
    norm: str | None = None
    cls: ReadingClass | None = None
    batch: str | None = None
    until: Anchor | None = None
    at: int | None = None

    @property
    def aspect(self) -> str:
        """What the decision settles; a later decision of the same aspect supersedes it.

        Keeping and adopting both settle the lemma; a reclassification settles one reading's
        class; doubt is its own aspect (a lemma chosen later resolves it, see ``apply``).
        A merge or a split is applied in its own pass (:mod:`~collate.decisions.regroup`), each one.
        """
        if self.action in STRUCTURAL:
            return f"{self.action.value}:{self.id}"
        if self.action in (DecisionAction.KEEP, DecisionAction.ADOPT):
            return "lemma"
        if self.action is DecisionAction.RECLASSIFY:
            return f"class:{self.norm}"
        return "doubt"


def token_key(token: Token) -> str:
    """A token's comparison form, except that a placeholder's key (unique per place) is its glyph."""
    return token.t if not token.n or token.n.startswith(KEY_MARK) or not token.n.isprintable() else token.n


def reading_key(reading: Reading | WitnessReading) -> str:
    """The content of a reading as an anchor records it: its normalized form, position-free."""
    first = reading if isinstance(reading, WitnessReading) else (reading.witnesses[0] if reading.witnesses else None)
    if first is not None and first.tokens:
        return "".join(token_key(t) for t in first.tokens)
    return reading.norm


def base_tokens(result: LayerResult) -> Mapping[int, Token]:
    """The base's tokens of a layer by their index in its token stream (indexed once per layer)."""
    return result.alignment.base.by_index


def anchor_of(locus: Locus, tokens: Mapping[int, Token]) -> Anchor:
    """The anchor of ``locus``, given its layer's base tokens by index (:func:`base_tokens`)."""
    before = "".join(tokens[i].t for i in range(locus.base_start - CONTEXT, locus.base_start) if i in tokens)
    after = "".join(tokens[i].t for i in range(locus.base_end, locus.base_end + CONTEXT) if i in tokens)
    return Anchor(
        layer=locus.layer,
        lemma=locus.lemma.text,
        readings=tuple(sorted({reading_key(r) for r in locus.variants()})),
        before=before,
        after=after,
        offset=locus.base_start,
        locus=locus.id,
    )


def now() -> str:
    """The local time as ISO 8601 with its UTC offset, to the second."""
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


def new_id() -> str:
    """A short random id: two editors deciding on separate copies never clash on merge."""
    return secrets.token_hex(5)
