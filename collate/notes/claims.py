"""The claim grammar: what a note says about witnesses, read off its words.

A note is read on its folded text (simplified, variants merged) in four passes, each a
regular pattern over the lexicon's words:

1. *Witness clauses*: ``[lead] WITNESS [adverbs] [于 PLACE] VERB reading``. The lead is
   the note's words before the witness: the base phrase concerned (``事``,
   ``遂以奇算告曰…``) or a place (``比投不释下``, ``此节之首``). The reading runs to the
   next witness, a word that opens a comment (案, 盖 …) or ``据``; ``N字``/``一X字``
   endings give its length. ``此一句``/``此六字`` refer back to the phrase or the last reading.
2. *Continuations* without a witness name: ``又此二句之下有云…``, ``末又曰…`` speak
   of the last witness named.
3. *Emendations*: ``X字当为Y字之讹`` (the note's author, or the edition cited with 云).
4. *Sources*: ``据宋本改正`` says that edition reads as the base at the last claim's place.

Quotation frames (``其曰…者``) and glosses (``释文音权``) are read over, not as claims.
The parts of a clause (names, lead, verb, reading) are read by :mod:`collate.notes.claims_parts`,
the witness clauses built from them by :mod:`collate.notes.claims_clause`; this module reads the
note pass by pass. The result is offset-free (:class:`~collate.notes.parsed_claim.ParsedClaim`);
:mod:`collate.notes.resolve` finds the places in the base.
"""

from __future__ import annotations

import re
from dataclasses import replace

from collate.model import Layer
from collate.notes.claims_clause import witness_clause
from collate.notes.claims_parts import (
    IMPLICIT,
    Mention,
    after_gloss,
    find_mentions,
    in_original_script,
    joined,
    mask_frames,
    read_reading,
    reading_end,
    source_names,
)
from collate.notes.fold import fold
from collate.notes.lexicon import (
    DEFAULT_LEXICON,
    EMEND_VERBS,
    LAYER_WORDS,
    PLACE_WORDS,
    SOURCE_VERBS,
    SOURCE_WORDS,
    VERBS,
    Lexicon,
)
from collate.notes.parsed_claim import ParsedClaim
from collate.notes.records import ClaimKind, Place


def parse_note(text: str, lexicon: Lexicon = DEFAULT_LEXICON) -> tuple[ParsedClaim, ...]:
    """The claims a note's words make, in the order the note makes them."""
    folded = fold(text)
    masked = mask_frames(folded)
    mentions = find_mentions(masked, lexicon)
    found: list[ParsedClaim] = []
    consumed: list[tuple[int, int]] = []
    lead_from = 0
    pending = ""  # the lead of a witness named without a claim (拳 of 拳释文音权唐石经亦作拳)
    i = 0
    while i < len(mentions):
        group = [mentions[i]]
        while i + 1 < len(mentions) and joined(masked, group[-1], mentions[i + 1]):
            i += 1
            group.append(mentions[i])
        i += 1
        if group[0].start > 0 and masked[group[0].start - 1] in SOURCE_WORDS:
            source = _SOURCE.match(masked, group[0].start - 1)
            lead_from = max(lead_from, source.end() if source else group[-1].end)
            continue
        nxt = mentions[i].start if i < len(mentions) else len(masked)
        clause = witness_clause(masked, group, lead_from, nxt, found, pending)
        if clause is None:
            pending = pending or masked[lead_from : group[0].start]
            lead_from = max(lead_from, after_gloss(masked, group[-1].end))
            continue
        claims, end = clause
        found.extend(claims)
        consumed.append((group[0].start, end))
        lead_from, pending = end, ""
    found.extend(_continuations(masked, consumed, found, mentions))
    found.extend(_layer_mentions(masked, consumed))
    found.sort(key=lambda c: c.start)
    found = _with_sources(masked, found, lexicon)
    found.extend(_emendations(masked, found, mentions))
    found.extend(_superfluous_in_base(masked, found))
    found.sort(key=lambda c: (c.start, c.kind is ClaimKind.EMEND))
    return tuple(_in_original_script(c, folded, text) for c in found)


def _in_original_script(claim: ParsedClaim, folded: str, original: str) -> ParsedClaim:
    """The claim's words as the note writes them (parsing ran on the folded text)."""

    def restore(words: str) -> str:
        half = words[: len(words) // 2]
        if len(words) > 1 and words == half * 2 and words not in folded:
            # 不叠賓字: the doubled word is not written in the note, its single one is.
            return restore(half) * 2
        return in_original_script(words, folded, original, claim.start)

    return replace(
        claim,
        witness=restore(claim.witness),
        phrase=restore(claim.phrase),
        base=restore(claim.base),
        reading=restore(claim.reading),
        gloss=restore(claim.gloss),
    )


# 疏内却兼言天子: the note says a layer of the text speaks of something (not an edition).
_LAYER_MENTION = re.compile(
    "(?P<layer>" + "|".join(LAYER_WORDS) + ")(?:内|中)?(?:却|亦|又|乃|则|并)*(?:兼言|亦言|兼及|兼有)"
)


def _layer_mentions(text: str, consumed: list[tuple[int, int]]) -> list[ParsedClaim]:
    """``疏内却兼言天子``: the layer named has the words in addition (to what the base quotes of it)."""
    out = []
    for m in _LAYER_MENTION.finditer(text):
        if any(a <= m.start() < b for a, b in consumed):
            continue
        stop = reading_end(text, m.end(), len(text))
        reading, count, _refers, end = read_reading(text, m.end(), stop)
        if not reading:
            continue
        out.append(
            ParsedClaim(
                witness="",
                canonical="",
                kind=ClaimKind.ADDS,
                place=Place.AT,
                phrase="",
                base="",
                reading=reading,
                start=m.start(),
                end=end,
                count=count,
                layer=Layer(LAYER_WORDS[m.group("layer")]),
            )
        )
    return out


def _continuations(
    text: str, consumed: list[tuple[int, int]], found: list[ParsedClaim], mentions: list[Mention]
) -> list[ParsedClaim]:
    """Clauses that name a place and a verb but no witness: they speak of the last one named."""
    out: list[ParsedClaim] = []
    for m in IMPLICIT.finditer(text):
        if any(a <= m.start() < b for a, b in consumed):
            continue
        before = [c for c in found if c.end <= m.start() and c.kind is not ClaimKind.EMEND]
        if not before:
            continue
        prev = before[-1]
        verb = m.group("verb")
        kind = ClaimKind.ADDS if verb in ("曰", "又曰") else VERBS[verb]
        nxt = next((x.start for x in mentions if x.start >= m.end()), len(text))
        stop = reading_end(text, m.end(), nxt)
        reading, count, _refers, end = read_reading(text, m.end(), stop)
        base = ""
        if kind is ClaimKind.LACKS:
            base, reading = reading, ""
        out.append(
            ParsedClaim(
                witness=prev.witness,
                canonical=prev.canonical,
                kind=kind,
                place=Place(PLACE_WORDS[m.group("place")]),
                phrase="",
                base=base,
                reading=reading,
                start=m.start(),
                end=end,
                count=count,
            )
        )
    return out


_SOURCE = re.compile("(?:" + "|".join(SOURCE_WORDS) + ")(?P<rest>.{1,16}?)(?P<verb>" + "|".join(SOURCE_VERBS) + ")")


def _with_sources(text: str, found: list[ParsedClaim], lexicon: Lexicon) -> list[ParsedClaim]:
    """Add, after each claim a 据W改正 follows, W's agreement with the base there (each W named)."""
    out = list(found)
    for m in _SOURCE.finditer(text):
        named = source_names(m.group("rest"), lexicon)
        if not named:
            continue
        before = [c for c in found if c.end <= m.start() and c.kind is not ClaimKind.EMEND]
        if not before:
            continue
        prev = before[-1]
        if prev.kind in (ClaimKind.ADDS, ClaimKind.SUPERFLUOUS):
            kind, base, reading = ClaimKind.LACKS, prev.reading, ""
        else:
            stated = prev.base or prev.phrase
            kind, base, reading = ClaimKind.READS, stated, stated
        for mention in named:
            out.append(
                replace(
                    prev,
                    witness=mention.name,
                    canonical=mention.canonical,
                    kind=kind,
                    base=base,
                    reading=reading,
                    start=m.start() + 1 + mention.start,
                    end=m.end(),
                    via=None,
                    count=None,
                    inherited=True,
                    agrees=True,
                )
            )
    return out


_EMEND = re.compile(
    "(?P<old>[^　])字?(?P<verb>" + "|".join(EMEND_VERBS) + ")(?P<new>[^　字之也]{1,4}?)(?:字|之讹|之误|也|$)"
)


def _emendations(text: str, found: list[ParsedClaim], mentions: list[Mention]) -> list[ParsedClaim]:
    """X当为Y: X should be Y — in the last reported reading that has X, else in the base."""
    out = []
    for m in _EMEND.finditer(text):
        old, new = m.group("old"), m.group("new")
        cited = [x for x in mentions if x.end <= m.start() and text.startswith("云", x.end)]
        resp = cited[-1].canonical if cited and m.start() - cited[-1].end <= 4 else None
        target = next(
            (
                c
                for c in reversed(found)
                if c.end <= m.start() and c.kind is ClaimKind.READS and old in c.reading and old not in c.base
            ),
            None,
        )
        base_claim = next((c for c in reversed(found) if c.end <= m.start()), None)
        out.append(
            ParsedClaim(
                witness=target.witness if target else "",
                canonical=target.canonical if target else "",
                kind=ClaimKind.EMEND,
                place=base_claim.place if base_claim else Place.AT,
                phrase=base_claim.phrase if base_claim else "",
                base=old,
                reading=new,
                start=m.start(),
                end=m.end(),
                resp=resp,
                gloss=base_claim.gloss if base_claim else "",
            )
        )
    return out


_BASE_SUPERFLUOUS = re.compile("(?<![^　])衍一?(?P<char>[^　])字")


def _superfluous_in_base(text: str, found: list[ParsedClaim]) -> list[ParsedClaim]:
    """衍一无字 standing alone (after a quotation frame): a character of the base is superfluous."""
    out = []
    for m in _BASE_SUPERFLUOUS.finditer(text):
        if any(c.start <= m.start() < c.end for c in found):
            continue
        char = m.group("char")
        out.append(
            ParsedClaim(
                witness="",
                canonical="",
                kind=ClaimKind.SUPERFLUOUS,
                place=Place.AT,
                phrase=char,
                base=char,
                reading=char,
                start=m.start(),
                end=m.end(),
            )
        )
    return out


__all__ = ["ParsedClaim", "parse_note"]
