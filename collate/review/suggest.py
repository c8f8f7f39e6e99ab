"""A decision suggested by the notes on a locus: what a 蕙田案 or a 【案】 says of the reading.

A note that reports a reading often judges it in the words after the report: 今本大戴禮乃作峭
**謬甚** (wrong: keep the base), 大戴禮多奏投壺之令一句**文義較備** (better: adopt it), 定本無此一句…
**有之為備** (the text that has it is better: keep the base). An emendation (當為) says which
reading is right; a claim checked against a full text and found so (confirmed) names a reading
the witness really has. The suggestion is only offered: the editor accepts it with one key, and
it is then a decision like any other, its reason the note's words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

from collate.apparatus import Locus, Reading, ReadingClass
from collate.model.annotations import AttachedNote, DecisionAction, Verdict
from collate.notes.records import Claim, ClaimKind
from collate.review.filters import folded


class Ground(str, Enum):
    """What in the note the suggestion rests on."""

    REJECTED = "rejected"  # the note calls the witness's reading wrong: keep the base
    SAME = "same"  # the note finds the sense the same: nothing to adopt, keep the base
    PREFERRED = "preferred"  # the note prefers the witness's reading: adopt it
    FULLER = "fuller"  # the note prefers the text that has the words
    EMENDED = "emended"  # the note emends the text to one of the readings
    CONFIRMED = "confirmed"  # the note reports the reading, and the witness's full text has it


# The words of judgment, as the notes write them (compared folded, so either script will do).
# Longer phrases first: 有之為備 is a judgment of its own, not 為備.
_WORDS: tuple[tuple[str, Ground], ...] = (
    ("有之為備", Ground.FULLER),
    ("有之為是", Ground.FULLER),
    ("其義則同", Ground.SAME),
    ("義同", Ground.SAME),
    ("謬", Ground.REJECTED),
    ("誤", Ground.REJECTED),
    ("訛", Ground.REJECTED),
    ("譌", Ground.REJECTED),
    ("非也", Ground.REJECTED),
    ("非是", Ground.REJECTED),
    ("不應", Ground.REJECTED),
    ("不必", Ground.REJECTED),
    ("衍", Ground.REJECTED),
    ("較備", Ground.PREFERRED),
    ("較明", Ground.PREFERRED),
    ("為長", Ground.PREFERRED),
    ("義長", Ground.PREFERRED),
    ("為優", Ground.PREFERRED),
)


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A decision the notes suggest: keep the base, or adopt ``reading`` (of ``siglum``).

    ``resp`` is who says so, ``words`` the note's words it rests on (謬甚; the clause, for an
    emendation or a confirmed report), ``claim`` the claim it concerns.
    """

    action: DecisionAction
    ground: Ground
    resp: str
    words: str
    claim: Claim
    reading: Reading | None = None
    siglum: str | None = None


def judgment(window: str) -> tuple[str, Ground] | None:
    """The first word of judgment in ``window`` (a stretch of a note) with a few words around it, and
    what it judges."""
    text = folded(window)
    hits = [(at, -len(word), ground) for word, ground in _WORDS if (at := text.find(folded(word))) >= 0]
    if not hits:
        return None
    at, length, ground = min(hits)
    return window[max(0, at - 6) : at - length + 2], ground


def _windows(note: AttachedNote, claims: Sequence[Claim]) -> dict[int, str]:
    """For each claim (by position), the note's words after its clause, up to the next claim's clause."""
    text = folded(note.text)
    ends: list[tuple[int, int]] = []
    cursor = 0
    for claim in claims:
        at = text.find(folded(claim.clause), cursor) if claim.clause else -1
        ends.append((at, at + len(claim.clause)) if at >= 0 else (-1, -1))
        if at >= 0:
            cursor = at
    out = {}
    for k, (start, end) in enumerate(ends):
        if start < 0:
            continue
        later = [s for s, _ in ends[k + 1 :] if s >= end]
        out[k] = note.text[end : min(later) if later else len(note.text)]
    return out


def _witness_reading(locus: Locus, claim: Claim) -> Reading | None:
    """The variant reading at ``locus`` of the witness the claim speaks of (its words, if several)."""
    mine = [r for r in locus.variants() if set(r.sigla) & set(claim.sigla)]
    wanted = {
        ClaimKind.ADDS: ReadingClass.ADDITION,
        ClaimKind.SUPERFLUOUS: ReadingClass.ADDITION,
        ClaimKind.LACKS: ReadingClass.OMISSION,
    }.get(claim.kind)
    if wanted is not None:
        mine = [r for r in mine if r.cls is wanted] or mine
    same = [r for r in mine if folded(r.text) == folded(claim.reading)]
    return next(iter(same or mine), None)


def _keep(note: AttachedNote, claim: Claim, ground: Ground, words: str) -> Suggestion:
    return Suggestion(DecisionAction.KEEP, ground, note.resp, words, claim)


def _adopt(note: AttachedNote, claim: Claim, ground: Ground, words: str, reading: Reading | None) -> Suggestion | None:
    if reading is None:
        return None
    siglum = next((s for s in reading.sigla if s in claim.sigla), reading.sigla[0])
    return Suggestion(DecisionAction.ADOPT, ground, note.resp, words, claim, reading, siglum)


def _from_claim(locus: Locus, note: AttachedNote, claim: Claim, window: str | None) -> Suggestion | None:
    if claim.kind is ClaimKind.EMEND:
        # 其字當為奇字: the reading the note emends to is the base's (keep) or a witness's (adopt).
        right = folded(claim.reading)
        if right and right in folded(locus.lemma.text):
            return _keep(note, claim, Ground.EMENDED, claim.clause)
        chosen = next((r for r in locus.variants() if right and folded(r.text) == right), None)
        return _adopt(note, claim, Ground.EMENDED, claim.clause, chosen)
    reading = _witness_reading(locus, claim)
    if reading is None:
        return None
    said = judgment(window) if window else None
    if claim.kind is ClaimKind.SUPERFLUOUS:
        return _keep(note, claim, Ground.REJECTED, said[0] if said else claim.clause)
    if said is not None:
        words, ground = said
        fuller = ground is Ground.FULLER
        if ground in (Ground.REJECTED, Ground.SAME) or (fuller and claim.kind is ClaimKind.LACKS):
            return _keep(note, claim, ground, words)
        return _adopt(note, claim, ground, words, reading)
    record = claim.record()
    checked = [v for v in note.verdicts if v.claim == record and v.siglum in reading.sigla]
    if any(v.verdict is Verdict.CONFIRMED for v in checked):
        return _adopt(note, claim, Ground.CONFIRMED, claim.clause, reading)
    return None


def suggest(locus: Locus, claims_of: Callable[[AttachedNote], Sequence[Claim]]) -> Suggestion | None:
    """The decision the notes on ``locus`` suggest, if any: the first of its claims that judges.

    ``claims_of`` gives every claim of a note in its order (those about other places too: they
    bound the words that follow each claim).
    """
    for note in locus.notes:
        claims = list(claims_of(note))
        windows = _windows(note, claims)
        for k, claim in enumerate(claims):
            if claim.record() not in note.claims:
                continue  # a claim about another place: it only bounds the words of those before it
            found = _from_claim(locus, note, claim, windows.get(k))
            if found is not None:
                return found
    return None
