"""Checking claims against the witnesses a project collates.

Against a full text (e.g. the 大戴禮記 Mandoku file) a claim is checked on its own,
independently of the alignment stage: the base's words around the claim's place are
searched in the same layer of the witness (the 經 for a note on the 經, the 疏 for a 考證
note on the 疏; folded, fuzzy), both as the note says the witness reads and as the base
reads; the better match is the place, and what the witness has there decides the verdict.
A witness without that layer cannot confirm or contradict the claim: it is not checkable.
Against a readings file (a sparse witness) the claims are turned into readings of their own
and compared entry by entry (:mod:`collate.notes.readings`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from collate.model import Layer, Witness
from collate.model.annotations import Verdict
from collate.notes.anchor import BaseIndex
from collate.notes.fold import UNKNOWN, FoldedText
from collate.notes.records import Check, Claim, ClaimKind, Place
from collate.notes.search import candidates_near

if TYPE_CHECKING:
    from collate.normalize import Normalizer

CONTEXT = 12  # base characters on each side of a claim's place used to find it
PLACE_MIN = 60.0  # a weaker match of the context means the place is not in the witness
PARTLY_MIN = 70.0  # a reading at least this like the claimed one confirms the claim in part
SLACK = 3  # characters a reading may stand off the mapped place
WHOLE = 20_000  # keys of a witness searched whole for a claim's place (a chapter); a book is not


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

    def in_layer(self, layer: Layer) -> FullText | None:
        """The same witness searched in ``layer`` only; None if it has no text there."""
        if layer is self.layer:
            return self
        text = self.index.text(layer)
        return FullText(self.witness, text, self.index, layer) if text.text else None

    def regions(self, query: str) -> Sequence[tuple[int, int]]:
        """Where in the text ``query`` may stand: all of it, unless it is longer than :data:`WHOLE`.

        A longer text (a book) is searched only around the diagonals where most of the
        query's two-key stretches fall, so that checking a claim does not scan the book.
        """
        if len(self.text.text) <= WHOLE:
            return ((0, len(self.text.text)),)
        return candidates_near(self.index.grams(self.layer), query)


def check_claim(claim: Claim, full: FullText, index: BaseIndex) -> Check:
    """The verdict of one claim against one full-text witness, in the layer the claim concerns."""
    siglum = full.witness.siglum
    if claim.kind is ClaimKind.EMEND:
        return Check(claim, Verdict.NOT_CHECKABLE, "an emendation is a judgment, not a report of a reading", siglum)
    if claim.base_start is None or claim.base_end is None:
        return Check(claim, Verdict.NOT_CHECKABLE, "the claim's place was not found in the base", siglum)
    if not claim.witness:
        return Check(claim, Verdict.NOT_CHECKABLE, "the note names no edition", siglum)
    layered = full.in_layer(claim.layer)
    if layered is None:
        # A witness without the layer says nothing about it: never a contradiction.
        why = f"{siglum} has no {claim.layer.value}, the layer the claim concerns"
        return Check(claim, Verdict.NOT_CHECKABLE, why, siglum)
    full = layered
    if claim.place is Place.CHAPTER_END and claim.kind is ClaimKind.ADDS:
        return _check_anywhere(claim, full, index)
    base_text = index.text(claim.layer)
    i, j = base_text.index_at(claim.base_start), base_text.index_at(claim.base_end)
    if i < j and base_text.starts[i] != claim.base_start:
        why = f"the claim's place is not in the base's {claim.layer.value}"
        return Check(claim, Verdict.NOT_CHECKABLE, why, siglum)
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
    if claim.kind is ClaimKind.ADDS and len(actual) == len(claimed) and not _same(actual, base):
        # 樂正上有干字 where the witness has 于: an addition there, in other characters.
        what = differences(claimed, claim.reading, text.original[p0:p1], text.text[p0:p1])
        return _check(claim, full, Verdict.PARTLY, f"{siglum} reads {shown} ({what})", shown, p0, 50.0)
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
