"""The claim grammar's first pass: a clause naming witnesses, ``[lead] WITNESS [adverbs] [于 PLACE] VERB reading``.

The lead gives the place (or the claim before it does, ``大戴礼亦无此一句``), the verb the
kind of claim, the words after it the reading; each witness the clause names makes one
:class:`~collate.notes.parsed_claim.ParsedClaim`. The parts themselves are read by
:mod:`collate.notes.claims_parts`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from collate.notes.claims_parts import (
    INNER_PLACE,
    LEAD_NOISE,
    Mention,
    place_at,
    read_lead,
    read_reading,
    reading_end,
    skip_adverbs,
    verb_at,
)
from collate.notes.lexicon import EMEND_VERBS, VERBS
from collate.notes.parsed_claim import ParsedClaim
from collate.notes.records import ClaimKind, Place


@dataclass(frozen=True, slots=True)
class _Verb:
    """A clause's verb (``word``), where its reading begins, and a place named before it."""

    word: str
    body: int
    place_word: tuple[str, str] | None
    inner: re.Match[str] | None  # 就席上有: a place named after the witness, before the verb


def _verb_after(text: str, pos: int) -> _Verb | None:
    """The verb after the witness names ending at ``pos``, past adverbs and a place word; None if none."""
    pos = skip_adverbs(text, pos)
    place_word = place_at(text, pos)
    if place_word:
        pos = text.index(place_word[0], pos) + len(place_word[0])
        pos = skip_adverbs(text, pos)
    verb = verb_at(text, pos)
    inner = INNER_PLACE.match(text, pos) if verb is None and not place_word else None
    if inner is not None:
        # 敖本就席上有升字: the place is named after the witness, before the verb.
        verb = inner.group("verb")
        pos = inner.start("verb")
    return None if verb is None else _Verb(verb, pos + len(verb), place_word, inner)


@dataclass(frozen=True, slots=True)
class _Where:
    """Where a claim is: the place, the base phrase that locates it, a gloss cited, the authority relayed."""

    place: Place
    phrase: str
    gloss: str
    via: str | None
    inherited: bool = False  # the place is the claim before it's


def _clause_place(lead: str, verb: _Verb, earlier: list[ParsedClaim]) -> _Where:
    """Where the clause's claim is: as its lead says, as the place word or inner place says, else as before."""
    place, phrase, gloss, via = read_lead(lead)
    if verb.place_word:
        place, phrase = Place(verb.place_word[1]), ""
    if verb.inner is not None:
        place = Place.BEFORE if verb.inner.group("side").endswith("上") else Place.AFTER
        phrase, gloss = verb.inner.group("phrase"), ""
    if not lead.strip(LEAD_NOISE + "　") and earlier and not verb.place_word:
        # 大戴礼亦无此一句: same place as the claim before it.
        prev = earlier[-1]
        return _Where(prev.place, prev.phrase, prev.gloss, via, True)
    return _Where(place, phrase, gloss, via)


def _stated(
    verb: str, kind: ClaimKind, where: _Where, reading: str, refers: str | None, earlier: list[ParsedClaim]
) -> tuple[_Where, str, str]:
    """The base's words and the witness's as the clause states them (and the place, which 叠 makes the phrase)."""
    base = where.phrase if where.place is Place.AT and kind is ClaimKind.READS else ""
    if refers == "sentence":
        reading = where.phrase
    elif refers == "previous" and earlier:
        reading = earlier[-1].reading or earlier[-1].base
    if kind is ClaimKind.LACKS:
        base, reading = reading, ""
    if verb in ("叠", "不叠"):
        # 不叠賓字: the base's 賓賓 is one 賓 there; 叠大夫二字: the base's 大夫 is written twice.
        once, twice = reading, reading * 2
        base, reading = (twice, once) if verb == "不叠" else (once, twice)
        where = replace(where, phrase=base, place=Place.AT)
    return where, base, reading


def witness_clause(
    text: str, group: list[Mention], lead_from: int, next_mention: int, earlier: list[ParsedClaim], pending: str
) -> tuple[list[ParsedClaim], int] | None:
    """The claims of the clause naming the witnesses ``group``, one each, and where it ends.

    None where no verb follows the names (a witness named in passing) or the clause is an
    edition's opinion.
    """
    verb = _verb_after(text, group[-1].end)
    if verb is None:
        return None
    kind = VERBS[verb.word]
    stop = reading_end(text, verb.body, next_mention)
    if verb.word == "云" and any(v in text[verb.body : verb.body + 8] for v in EMEND_VERBS):
        return None  # an edition's opinion (通解云拳当作奉): read as an emendation
    lead = text[lead_from : group[0].start]
    if not lead.strip(LEAD_NOISE + "　") and pending:
        lead = pending
    where = _clause_place(lead, verb, earlier)
    reading, count, refers, end = read_reading(text, verb.body, stop)
    where, base, reading = _stated(verb.word, kind, where, reading, refers, earlier)
    claims = [
        ParsedClaim(
            witness=m.name,
            canonical=m.canonical,
            kind=kind,
            place=where.place,
            phrase=where.phrase,
            base=base,
            reading=reading,
            start=group[0].start if n == 0 else m.start,
            end=end,
            via=where.via,
            count=count,
            gloss=where.gloss,
            inherited=where.inherited,
        )
        for n, m in enumerate(group)
    ]
    return claims, end
