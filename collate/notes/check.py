"""Checking claims against the witnesses a project collates.

Against a full text (e.g. the 大戴禮記 Mandoku file) a claim is checked on its own,
independently of the alignment stage: the base's words around the claim's place are
searched in the witness's 經 (folded, fuzzy), both as the note says the witness reads
and as the base reads; the better match is the place, and what the witness has there
decides the verdict. Against a readings file (a sparse witness) the claims are turned
into readings of their own and compared entry by entry.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from collate.model import Layer, Position, SparseReading, Witness
from collate.notes.anchor import BaseIndex
from collate.notes.fold import UNKNOWN, FoldedText, fold
from collate.notes.records import Check, Claim, ClaimKind, Place, ReadingDifference, Verdict
from collate.notes.search import candidates_near

if TYPE_CHECKING:
    from collate.normalize import Normalizer

CONTEXT = 12  # base characters on each side of a claim's place used to find it
PLACE_MIN = 60.0  # a weaker match of the context means the place is not in the witness
PARTLY_MIN = 70.0  # a reading at least this like the claimed one confirms the claim in part
SLACK = 3  # characters a reading may stand off the mapped place
WHOLE = 20_000  # keys of a witness searched whole for a claim's place (a chapter); a book is not
# Where a claim's place puts the reading it reports against its phrase (else AT the phrase).
_POSITIONS = {Place.AFTER: Position.AFTER, Place.BEFORE: Position.BEFORE, Place.SECTION_END: Position.AFTER}


@dataclass(frozen=True, slots=True)
class FullText:
    """A full-text witness made searchable: its 經's keys (every text layer's if it has no 經).

    Its tokens' keys: the witness's punctuation and layout are never searched or compared.
    """

    witness: Witness
    text: FoldedText
    index: BaseIndex
    layer: Layer | None

    @classmethod
    def of(cls, witness: Witness, normalizer: Normalizer | None = None) -> FullText:
        """The searchable text of ``witness``, keyed by ``normalizer`` (the default rules if None)."""
        return cls.of_index(BaseIndex(witness, normalizer))

    @classmethod
    def of_index(cls, index: BaseIndex) -> FullText:
        """The searchable text of the witness of ``index``, from the keys the index already holds."""
        jing = index.text(Layer.JING)
        if jing.text:
            return cls(index.witness, jing, index, Layer.JING)
        return cls(index.witness, index.text(None), index, None)

    def regions(self, query: str) -> Sequence[tuple[int, int]]:
        """Where in the text ``query`` may stand: all of it, unless it is longer than :data:`WHOLE`.

        A longer text (a book) is searched only around the diagonals where most of the
        query's two-key stretches fall, so that checking a claim does not scan the book.
        """
        if len(self.text.text) <= WHOLE:
            return ((0, len(self.text.text)),)
        return candidates_near(self.index.grams(self.layer), query)


def check_claim(claim: Claim, full: FullText, index: BaseIndex) -> Check:
    """The verdict of one claim against one full-text witness."""
    siglum = full.witness.siglum
    if claim.kind is ClaimKind.EMEND:
        return Check(claim, Verdict.NOT_CHECKABLE, "an emendation is a judgment, not a report of a reading", siglum)
    if claim.base_start is None or claim.base_end is None:
        return Check(claim, Verdict.NOT_CHECKABLE, "the claim's place was not found in the base", siglum)
    if claim.place is Place.CHAPTER_END and claim.kind is ClaimKind.ADDS:
        return _check_anywhere(claim, full, index)
    base_text = index.text(Layer.JING)
    i, j = base_text.index_at(claim.base_start), base_text.index_at(claim.base_end)
    if i == len(base_text.text) or (i < j and base_text.starts[i] != claim.base_start):
        base_text = index.text(None)
        i, j = base_text.index_at(claim.base_start), base_text.index_at(claim.base_end)
    left = base_text.text[max(0, i - CONTEXT) : i]
    right = base_text.text[j : j + CONTEXT]
    base = base_text.text[i:j]
    claimed = index.fold(claim.reading)
    if claim.kind is ClaimKind.LACKS:
        claimed = ""
    hypotheses = [left + claimed + right, left + base + right]
    located = max((_locate(h, full) for h in hypotheses), key=lambda a: a[0])
    score, lo, hi = located
    if score < PLACE_MIN:
        return Check(
            claim,
            Verdict.NOT_CHECKABLE,
            f"the place was not found in {siglum} (best match {score:.0f}%)",
            siglum,
            score=score,
        )
    pad = len(claimed) + len(base) + SLACK
    r_lo, r_hi = max(0, lo - pad), min(len(full.text.text), hi + pad)
    region = full.text.text[r_lo:r_hi]
    window = left + base + right
    p0 = r_lo + _map(window, region, len(left), before=True)
    p1 = r_lo + _map(window, region, len(left) + len(base), before=False)
    if p1 < p0:
        p0, p1 = p1, p0
    actual = full.text.text[p0:p1]
    return _verdict(claim, full, claimed, base, actual, p0, p1)


def _verdict(claim: Claim, full: FullText, claimed: str, base: str, actual: str, p0: int, p1: int) -> Check:
    siglum = full.witness.siglum
    text = full.text
    if claim.kind is ClaimKind.LACKS:
        shown = _shown(text, p0, p1)
        if not actual:
            return _check(claim, full, Verdict.CONFIRMED, f"{siglum} has nothing there", "", p0, 100.0)
        if _same(actual, base) or _find(base, actual) >= 0:
            return _check(claim, full, Verdict.CONTRADICTED, f"{siglum} has {shown}", shown, p0, 0.0)
        return _check(claim, full, Verdict.PARTLY, f"{siglum} lacks it but has {shown} there", shown, p0, 50.0)
    reach = len(claimed) + SLACK
    lo, hi = max(0, p0 - reach), min(len(text.text), p1 + reach)
    at = _find(claimed, text.text[lo:hi])
    if at >= 0:
        start = lo + at
        shown = _shown(text, start, start + len(claimed))
        return _check(claim, full, Verdict.CONFIRMED, f"{siglum} reads {shown}", shown, start, 100.0)
    shown = _shown(text, p0, p1)
    if claim.kind is ClaimKind.READS and _same(actual, base) and base:
        return _check(claim, full, Verdict.CONTRADICTED, f"{siglum} reads {shown}, as the base", shown, p0, 0.0)
    if claim.kind is not ClaimKind.READS and not actual:
        return _check(claim, full, Verdict.CONTRADICTED, f"{siglum} has nothing there", "", p0, 0.0)
    near = text.text[lo:hi]
    aligned = fuzz.partial_ratio_alignment(claimed, near) if claimed and near else None
    if aligned is not None and aligned.score >= PARTLY_MIN:
        start, end = lo + aligned.dest_start, lo + aligned.dest_end
        start, end = _trim(claimed, text.text, start, end)
        shown = _shown(text, start, end)
        what = differences(claimed, claim.reading, text.original[start:end], text.text[start:end])
        return _check(claim, full, Verdict.PARTLY, f"{siglum} reads {shown} ({what})", shown, start, aligned.score)
    score = fuzz.ratio(claimed, actual)
    return _check(claim, full, Verdict.CONTRADICTED, f"{siglum} reads {shown or '∅'}", shown, p0, score)


def _check_anywhere(claim: Claim, full: FullText, index: BaseIndex) -> Check:
    """篇末 additions: the passage is looked for in the whole witness; where it stands is reported."""
    siglum = full.witness.siglum
    text = full.text
    claimed = index.fold(claim.reading)
    at = next((lo + k for lo, hi in full.regions(claimed) if (k := _find(claimed, text.text[lo:hi])) >= 0), -1)
    if at >= 0:
        shown = _shown(text, at, at + len(claimed))
        after = len(text.text) - at - len(claimed)
        evidence = f"{siglum} has it, {after} characters before its end"
        return _check(claim, full, Verdict.CONFIRMED, evidence, shown, at, 100.0)
    score, dest_start, dest_end = _locate(claimed, full)
    if score < PARTLY_MIN:
        return _check(claim, full, Verdict.CONTRADICTED, f"{siglum} has no such passage", "", 0, score)
    # A long passage may be interrupted in the witness: look a third wider, in blocks of 3.
    grow = len(claimed) // 3
    start, end = _trim(claimed, text.text, max(0, dest_start - grow), dest_end + grow, min_block=3)
    shown = _shown(text, start, end)
    what = differences(index.fold(claim.reading), claim.reading, text.original[start:end], text.text[start:end])
    after = len(text.text) - end
    evidence = f"{siglum} has it, {after} characters before its end, with differences ({what})"
    return _check(claim, full, Verdict.PARTLY, evidence, shown, start, score)


def _check(claim: Claim, full: FullText, verdict: Verdict, evidence: str, actual: str, at: int, score: float) -> Check:
    text = full.text
    location = full.witness.locate(text.starts[at]) if at < len(text.starts) else None
    return Check(claim, verdict, evidence, full.witness.siglum, actual, location, round(score, 1))


def _locate(query: str, full: FullText) -> tuple[float, int, int]:
    """The best match of ``query`` in the witness (score, start, end): the first of the best."""
    text = full.text.text
    best = (0.0, 0, 0)
    if not query or not text:
        return best
    for lo, hi in full.regions(query):
        aligned = fuzz.partial_ratio_alignment(query, text[lo:hi])
        if aligned is not None and aligned.score > best[0]:
            best = (aligned.score, lo + aligned.dest_start, lo + aligned.dest_end)
    return best


def _map(window: str, region: str, index: int, *, before: bool) -> int:
    """Where position ``index`` of ``window`` falls in ``region``: before or after text inserted there."""
    for tag, a0, a1, b0, b1 in SequenceMatcher(None, window, region, autojunk=False).get_opcodes():
        if tag == "insert" and a0 == index:
            return b0 if before else b1
        if a0 <= index < a1 or (index == a1 and tag != "insert" and a1 == len(window)):
            if tag == "equal":
                return b0 + (index - a0)
            if tag == "replace":
                return b0 if index == a0 else b1 if index == a1 else b0 + min(index - a0, b1 - b0)
            return b0  # delete: the witness lacks these characters
    return len(region)


def _same(a: str, b: str) -> bool:
    return len(a) == len(b) and all(x == y or UNKNOWN in (x, y) for x, y in zip(a, b, strict=True))


def _find(needle: str, hay: str) -> int:
    """The first place ``needle`` stands in ``hay``, a placeholder matching any character."""
    if not needle:
        return -1
    for k in range(len(hay) - len(needle) + 1):
        if _same(needle, hay[k : k + len(needle)]):
            return k
    return -1


def _trim(claimed: str, text: str, start: int, end: int, *, min_block: int = 1) -> tuple[int, int]:
    """The stretch of ``text[start:end]`` that corresponds to ``claimed``.

    From its first to its last matching block, widened by the claimed characters that
    stand before the first and after the last (周則復始 for 终则复始, not 則復始).
    """
    blocks = SequenceMatcher(None, claimed, text[start:end], autojunk=False).get_matching_blocks()
    blocks = [b for b in blocks if b.size >= min_block]
    if not blocks:
        return start, end
    first, last = blocks[0], blocks[-1]
    lo = max(0, start + first.b - first.a)
    hi = min(len(text), start + last.b + last.size + (len(claimed) - last.a - last.size))
    return lo, hi


def _shown(text: FoldedText, start: int, end: int) -> str:
    return text.shown(start, end)


def differences(claimed_keys: str, claimed: str, actual_shown: Sequence[str], actual_keys: str) -> str:
    """The characters where a witness's text differs from a claimed reading, e.g. ``其→奇``.

    Compared on keys: ``claimed_keys`` are the keys of the note's ``claimed``, one a
    character; ``actual_keys`` those of the witness's tokens, whose own characters are
    ``actual_shown``. Each side is shown in its own characters.
    """
    a, b = claimed_keys, actual_keys
    parts = []
    for tag, a0, a1, b0, b1 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        old, new = claimed[a0:a1], "".join(actual_shown[b0:b1])
        if (
            tag == "replace"
            and all(UNKNOWN in (x, y) for x, y in zip(a[a0:a1], b[b0:b1], strict=False))
            and a1 - a0 == b1 - b0
        ):
            continue
        parts.append(f"{old}→{new}" if tag == "replace" else f"+{new}" if tag == "insert" else f"-{old}")
    return ", ".join(parts) if parts else "placeholders only"


def derived_readings(claims: Iterable[Claim], siglum: str, index: BaseIndex) -> tuple[SparseReading, ...]:
    """The readings the claims about ``siglum`` report, as a sparse witness of their own.

    Offsets are the note's, in the base file (the claims have no readings file). Claims
    that only say an edition agrees with the base, and emendations, report no reading.
    """
    out = []
    for c in claims:
        if siglum not in c.sigla or c.kind is ClaimKind.EMEND or (c.kind is ClaimKind.READS and c.reading == c.base):
            continue
        position = _POSITIONS.get(c.place, Position.AT)
        at = c.phrase or c.base or _around(index, c)
        base = "" if c.kind in (ClaimKind.ADDS, ClaimKind.SUPERFLUOUS) else c.base
        reading = "" if c.kind is ClaimKind.LACKS else c.reading
        if c.kind in (ClaimKind.ADDS, ClaimKind.SUPERFLUOUS) and position is Position.AT:
            position = Position.AFTER
        source = f"{c.note.label or c.note.resp}（{c.note.location}）"
        out.append(
            SparseReading(c.note.start, c.note.end, at, base, reading, position, Layer.JING, source, c.note.text)
        )
    return tuple(out)


def _around(index: BaseIndex, claim: Claim) -> str:
    """The base words before an insertion point, to locate it (此节之下 has no phrase)."""
    if claim.base_start is None:
        return ""
    jing = index.text(Layer.JING)
    i = jing.index_at(claim.base_start)
    return jing.shown(max(0, i - 6), i)


def compare_readings(
    derived: tuple[SparseReading, ...],
    claims: tuple[Claim, ...],
    witness: Witness,
    normalizer: Normalizer | None = None,
) -> tuple[ReadingDifference, ...]:
    """Where the readings derived from the notes and a readings file disagree (compared by their keys)."""

    # Every entry is compared with every derived reading: fold each text once, not per pair.
    @functools.cache
    def keys(text: str) -> str:
        return fold(text, normalizer)

    entries = witness.readings
    out: list[ReadingDifference] = []
    reporting = [c for c in claims if witness.siglum in c.sigla]
    matched: set[int] = set()
    near = _Overlaps(entries, keys)
    same_key: dict[tuple[str, str], list[int]] = {}
    for k, e in enumerate(entries):
        same_key.setdefault((keys(e.base), keys(e.reading)), []).append(k)
    for reading, claim in zip(derived, _derived_claims(reporting), strict=True):
        same = same_key.get((keys(reading.base), keys(reading.reading)))
        if same:
            matched.update(same)
            continue
        overlapping = near.of(reading)
        if overlapping:
            matched.update(overlapping)
            e = entries[overlapping[0]]
            message = f"the file reads {e.reading or '∅'} for {e.base or '∅'}; the note: {claim.summary()}"
            out.append(ReadingDifference(witness.siglum, message, claim, e.at, e.reading))
        else:
            out.append(ReadingDifference(witness.siglum, f"not in the file: {claim.summary()}", claim))
    for k, e in enumerate(entries):
        if k not in matched:
            message = f"no note's claim gives the file's {e.reading or '∅'} for {e.base or '∅'} at {e.at}"
            out.append(ReadingDifference(witness.siglum, message, None, e.at, e.reading))
    return tuple(out)


def _derived_claims(claims: list[Claim]) -> list[Claim]:
    return [c for c in claims if not (c.kind is ClaimKind.EMEND or (c.kind is ClaimKind.READS and c.reading == c.base))]


class _Overlaps:
    """The entries of a readings file that a reading overlaps, found without comparing it with each.

    A reading and an entry overlap when the base words (else the place words) of one stand
    within the place and base words of the other. The entries are indexed once by every
    stretch of their place-and-base keys and by their own base (else place) keys; a reading
    then looks up its own words, and every stretch of its place and base, in the two. Long
    words (a passage one witness lacks) are compared directly instead: they have too many
    stretches to index, and few entries are so long.
    """

    def __init__(self, entries: Sequence[SparseReading], keys: Callable[[str], str], long: int = 48) -> None:
        self.keys = keys
        self.limit = long
        self.within: dict[str, set[int]] = {}  # a stretch of an entry's place + base → entries
        self.own: dict[str, set[int]] = {}  # an entry's base (else place) → entries
        self.long: list[tuple[int, str]] = []  # entries too long to index: (entry, place + base)
        for k, e in enumerate(entries):
            whole = keys(e.at + e.base)
            if not whole:
                continue
            self.own.setdefault(keys(e.base or e.at), set()).add(k)
            if len(whole) > self.limit:
                self.long.append((k, whole))
                continue
            for i in range(len(whole) + 1):
                for j in range(i, len(whole) + 1):
                    self.within.setdefault(whole[i:j], set()).add(k)

    def of(self, reading: SparseReading) -> list[int]:
        """The entries ``reading`` overlaps, in file order."""
        whole = self.keys(reading.at + reading.base)
        if not whole:
            return []
        words = self.keys(reading.base or reading.at)
        found = set(self.within.get(words, ()))
        found.update(k for k, entry in self.long if words in entry)
        if len(whole) > self.limit:
            found.update(k for key, ks in self.own.items() if key in whole for k in ks)
        else:
            for i in range(len(whole) + 1):
                for j in range(i, len(whole) + 1):
                    found.update(self.own.get(whole[i:j], ()))
        return sorted(found)
