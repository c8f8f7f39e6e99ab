"""Placing a note's claims in the base text: each claim gets the base offsets it concerns.

The place comes from the claim's phrase (found near the note, see
:mod:`collate.notes.anchor`), else from the passage the note follows (此节之首 is its
start, 此节之下 and 篇末 its end, 此下 the note's own position). A claim that states no
base text takes it from the place: the passage's stretch most like a long reading, the
same-length stretch just before the note most like a short one (拜送之 → 送拜之), or
for a one-character reading after an authority's gloss, the last glossed character
(王肃云枉不直哨不正…今本大戴礼乃作峭 → 哨).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from rapidfuzz import fuzz

from collate.model import Layer
from collate.notes.anchor import BaseIndex, Match, Passage, find_phrase, gloss_span, make_anchor, passage_before
from collate.notes.claims import ParsedClaim, parse_note
from collate.notes.fold import fold
from collate.notes.heading import heading_passage
from collate.notes.lexicon import COMMENT_OPENERS, PLACE_WORDS, Lexicon
from collate.notes.records import Anchor, Claim, ClaimKind, Note, Place

# The name a witness's report of another text's reading gives that text: none (一作, "one text
# reads"); a collator calls it 一本.
ANOTHER_TEXT = "一本"
# How far back from a note a short unstated base is looked for (folded characters).
_NEAR = 40
# A reading this long is placed by aligning it with the passage; a shorter one by the
# same-length stretch just before the note that is most like it.
_LONG = 6


@dataclass(frozen=True, slots=True)
class Resolved:
    """A note's claims placed in the base, and its anchor."""

    claims: tuple[Claim, ...]
    anchor: Anchor


@dataclass(frozen=True, slots=True)
class _Place:
    start: int | None
    end: int | None
    base: str
    phrase: str


def resolve_note(index: BaseIndex, note: Note, lexicon: Lexicon) -> Resolved:
    """Parse ``note`` and place its claims and itself in the base witness of ``index``.

    A note with a heading (a 考證 note: ``請致者疏非實也○實監本譌作賓``) is about the passage
    its heading quotes, in the layer the heading names: its claims are read from the words
    after the heading and placed in that passage first.
    """
    passage = passage_before(index, note)
    if note.variant:
        return _variant(index, note, passage)
    matches: list[tuple[Match, str]] = []
    body = note.text
    named: Layer | None = passage.layer if passage is not None and passage.inline else None
    if note.heading:
        heading = heading_passage(index, note)
        body = note.text[note.heading :]
        named = heading.layer
        if heading.passage is not None:
            passage = heading.passage
            quoted = Match(passage.text, passage.i, passage.j, heading.score)
            matches.append((quoted, note.text[: note.heading]))
    parsed = parse_note(body, lexicon)
    claims: list[Claim] = []
    for pc in parsed:
        place, match = _place(index, note, passage, pc, claims, inside=bool(note.heading))
        if match is not None:
            matches.append(match)
        claim = _claim(note, pc, place, lexicon, body)
        claims.append(replace(claim, layer=_layer_of(index, claim, pc.layer or named)))
    if not matches:
        lead = _leading_quote(note.text, lexicon)
        found = find_phrase(index, lead, note, passage) if len(lead) >= 3 else None
        if found is None and lead:
            found = _prefix_found(index, lead, note, passage)
        if found is not None:
            matches.append(found)
        elif parsed and parsed[0].gloss:
            gloss = gloss_span(passage, parsed[0].gloss, index)
            if gloss is not None:
                matches.append((gloss[0], parsed[0].gloss))
    return Resolved(tuple(claims), make_anchor(index, note, matches, passage))


def _variant(index: BaseIndex, note: Note, passage: Passage | None) -> Resolved:
    """A witness's report of another text's reading (采蘩一作「繁」): one claim, that another text
    reads the note's words for as many of the witness's own characters, just before the note.

    So the web editions write them: the note follows the word it is about, and the reading
    replaces it character for character (蘩 → 繁, 修 → 脩). Whether any witness of the project is
    that text is told at the entry (:mod:`collate.notes.attach`): the notes stage has no alignment.
    """
    reading = note.text
    if passage is None or not reading:
        return Resolved((), make_anchor(index, note, [], passage))
    folded = passage.text
    i = max(passage.i, passage.j - len(reading))
    start, end = folded.raw_span(i, passage.j)
    own = folded.shown(i, passage.j)
    claim = Claim(
        note=note,
        witness=ANOTHER_TEXT,
        siglum=None,
        kind=ClaimKind.READS,
        base=own,
        reading=reading,
        place=Place.AT,
        phrase=own,
        base_start=start,
        base_end=end,
        resp=note.resp,
        clause=f"{note.label}「{reading}」",
        layer=passage.layer,
    )
    words = Passage(folded, i, passage.j, passage.layer, passage.inline)
    return Resolved((claim,), make_anchor(index, note, [], words))


def _layer_of(index: BaseIndex, claim: Claim, named: Layer | None) -> Layer:
    """The layer a claim concerns: the one its place lies in; else the one the note names."""
    if claim.base_start is not None and claim.base_end is not None:
        before = claim.place is Place.BEFORE or claim.place is Place.SECTION_START
        found = index.layer_at(claim.base_start, claim.base_end, before=before)
        if found is not None:
            return found
    return named or Layer.JING


def _claim(note: Note, pc: ParsedClaim, place: _Place, lexicon: Lexicon, body: str) -> Claim:
    reading = pc.reading
    base = place.base
    if pc.kind is ClaimKind.READS and pc.agrees:
        reading = base
    if pc.kind is ClaimKind.LACKS and not pc.agrees:
        base = place.base or pc.base
    sigla = lexicon.sigla_of(pc.canonical) if pc.witness else ()
    return Claim(
        note=note,
        witness=pc.witness,
        siglum=sigla[0] if sigla else None,
        sigla=sigla,
        kind=pc.kind,
        base=base,
        reading=reading,
        place=pc.place,
        phrase=place.phrase,
        base_start=place.start,
        base_end=place.end,
        resp=pc.resp or note.resp,
        clause=body[pc.start : pc.end],
        via=pc.via,
        count=pc.count,
    )


def _place(
    index: BaseIndex,
    note: Note,
    passage: Passage | None,
    pc: ParsedClaim,
    earlier: list[Claim],
    *,
    inside: bool = False,
) -> tuple[_Place, tuple[Match, str] | None]:
    """Where a claim is in the base; ``inside``: its phrase is looked for in ``passage`` first
    (the passage a 考證 note's heading quotes: 實 of 升實之, not the 實 nearest the note)."""
    prev = earlier[-1] if earlier else None
    if (pc.agrees or pc.inherited or (pc.kind is ClaimKind.EMEND and pc.witness)) and prev is not None:
        base = prev.base if pc.kind is not ClaimKind.EMEND else pc.base
        if pc.kind is ClaimKind.LACKS and pc.agrees:
            base = pc.base
        return _Place(prev.base_start, prev.base_end, base, prev.phrase), None
    if pc.gloss:
        return _gloss_place(index, passage, pc)
    if pc.layer is not None and not pc.phrase:
        return _layer_stretch(index, note, passage, pc.layer), None
    if pc.phrase:
        found = _within(index, passage, pc.phrase) if inside else None
        found = found or find_phrase(index, pc.phrase, note, passage, suffixes=True)
        if found is None:
            return _Place(None, None, pc.base, pc.phrase), None
        match = found[0]
        start, end = match.raw
        words = match.text.shown(match.i, match.j)
        if pc.place is Place.AFTER:
            return _Place(end, end, "", words), found
        if pc.place is Place.BEFORE:
            return _Place(start, start, "", words), found
        base = words if pc.kind in (ClaimKind.READS, ClaimKind.EMEND, ClaimKind.SUPERFLUOUS) else ""
        if pc.kind is ClaimKind.LACKS:
            base = words
        return _Place(start, end, base, words), found
    return _place_in_passage(index, note, passage, pc), None


def _within(index: BaseIndex, passage: Passage | None, phrase: str) -> tuple[Match, str] | None:
    """``phrase`` inside ``passage`` (its first occurrence there), if it stands there."""
    words = index.fold(phrase)
    if passage is None or not words:
        return None
    at = passage.words.find(words)
    if at < 0:
        return None
    return Match(passage.text, passage.i + at, passage.i + at + len(words), 100.0), phrase


def _layer_stretch(index: BaseIndex, note: Note, passage: Passage | None, layer: Layer) -> _Place:
    """疏内却兼言天子: the named layer's text between the passage the note follows and the note."""
    text = index.text(layer)
    lo = passage.text.raw_span(passage.i, passage.i)[0] if passage is not None else note.start
    i, j = text.index_at(lo), text.index_at(note.start)
    if j <= i:
        return _Place(None, None, "", "")
    start, end = text.raw_span(i, j)
    return _Place(start, end, "", "")


def _gloss_place(index: BaseIndex, passage: Passage | None, pc: ParsedClaim) -> tuple[_Place, None]:
    found = gloss_span(passage, pc.gloss, index)
    if found is None:
        return _Place(None, None, pc.base, ""), None
    match, positions = found
    phrase = match.text.shown(match.i, match.j)
    if pc.kind is ClaimKind.READS and len(pc.reading) == 1 and not pc.base:
        # 校勘 usage: a bare 作Y after a gloss speaks of the last word glossed.
        last = positions[-1]
        start, end = match.text.raw_span(last, last + 1)
        return _Place(start, end, match.text.original[last], phrase), None
    start, end = match.raw
    return _Place(start, end, pc.base or phrase, phrase), None


def _place_in_passage(index: BaseIndex, note: Note, passage: Passage | None, pc: ParsedClaim) -> _Place:
    if passage is None:
        return _Place(None, None, pc.base, "")
    folded = passage.text
    words = passage.words
    if pc.place is Place.SECTION_START:
        if pc.kind is ClaimKind.READS and pc.reading:
            k = _best_prefix(index.fold(pc.reading), words)
            start, end = folded.raw_span(passage.i, passage.i + k)
            return _Place(start, end, folded.shown(passage.i, passage.i + k), "")
        start, _ = folded.raw_span(passage.i, passage.i)
        return _Place(start, start, "", "")
    if pc.place in (Place.SECTION_END, Place.CHAPTER_END):
        _, end = folded.raw_span(passage.i, passage.j)
        return _Place(end, end, "", "")
    if pc.place is Place.BEFORE:
        # 上文有其牲狗也四字: before the words the note quotes.
        start, _ = folded.raw_span(passage.i, passage.i)
        return _Place(start, start, "", folded.shown(passage.i, min(passage.j, passage.i + 3)))
    if pc.place is Place.AFTER:
        # 此下: right after the words the note follows; they name the place.
        _, end = folded.raw_span(passage.i, passage.j)
        return _Place(end, end, "", folded.shown(max(passage.i, passage.j - 3), passage.j))
    target = index.fold(pc.base or pc.reading)
    if not target:
        return _Place(None, None, pc.base, "")
    if pc.kind is ClaimKind.READS and not pc.base and len(target) >= _LONG:
        i, j = _aligned(target, words)
        start, end = folded.raw_span(passage.i + i, passage.i + j)
        return _Place(start, end, folded.shown(passage.i + i, passage.i + j), "")
    lo = max(passage.i, passage.j - _NEAR)
    near = folded.text[lo : passage.j]
    if pc.base or pc.kind in (ClaimKind.LACKS, ClaimKind.SUPERFLUOUS):
        at = near.rfind(target)
        if at < 0:
            return _Place(None, None, pc.base, "")
        start, end = folded.raw_span(lo + at, lo + at + len(target))
        return _Place(start, end, folded.shown(lo + at, lo + at + len(target)), "")
    best = max(
        range(len(near) - len(target) + 1),
        key=lambda k: (fuzz.ratio(target, near[k : k + len(target)]), k),
        default=None,
    )
    if best is None or fuzz.ratio(target, near[best : best + len(target)]) < 50:
        return _Place(None, None, pc.base, "")
    start, end = folded.raw_span(lo + best, lo + best + len(target))
    return _Place(start, end, folded.shown(lo + best, lo + best + len(target)), "")


def _best_prefix(reading: str, words: str) -> int:
    """The length of the passage's opening stretch most like ``reading`` (此节之首 claims)."""
    return max(range(1, min(len(words), len(reading) + 4) + 1), key=lambda k: (fuzz.ratio(reading, words[:k]), -k))


def _aligned(reading: str, words: str) -> tuple[int, int]:
    """The stretch of ``words`` a long reading corresponds to: its matching part, trimmed."""
    aligned = fuzz.partial_ratio_alignment(reading, words)
    if aligned is None:
        return 0, 0
    lo, hi = aligned.dest_start, aligned.dest_end
    blocks = [b for b in SequenceMatcher(None, reading, words[lo:hi], autojunk=False).get_matching_blocks() if b.size]
    if not blocks:
        return lo, lo
    return lo + blocks[0].b, lo + blocks[-1].b + blocks[-1].size


def _leading_quote(text: str, lexicon: Lexicon) -> str:
    """The words a note opens with, up to its first witness name, place or citation."""
    folded = fold(text)
    stops = [m.start() for m in lexicon.witness_regex().finditer(folded)]
    for word in (*PLACE_WORDS, *COMMENT_OPENERS, "一节", "云", "曰"):
        at = folded.find(word)
        if at >= 0:
            stops.append(at)
    return text[: min(stops, default=len(text))]


def _prefix_found(index: BaseIndex, lead: str, note: Note, passage: Passage | None) -> tuple[Match, str] | None:
    """The longest opening (≥ 3 characters) of ``lead`` that is found near the note."""
    for k in range(len(lead), 2, -1):
        found = find_phrase(index, lead[:k], note, passage)
        if found is not None:
            return found
    return None
