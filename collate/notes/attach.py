"""Handing notes to the apparatus: each note goes to the loci its claims concern.

A claim's place is a stretch (or an insertion point) of the note's own witness in one layer;
the alignment of that layer maps it to columns, through that witness's tokens (so a 考證 note of
a witness that is not the base is placed by its own text, never by the base's offsets). Of the
loci there, a note goes to those that answer its claim best:

0. the claimed witness's reading there is the one claimed (an addition of the words claimed for
   an ``adds`` claim, an omission for a ``lacks`` claim; the lemma for a witness said to agree
   with the base);
1. the claimed witness has a reading of that kind there;
2. a locus of substance (not a placeholder or a difference of form) at the very place;
3. a placeholder or orthographic locus on the very characters (never for an insertion point).

A note whose claims find no locus is not attached; it is listed among the collation's
diagnostics (``note-unattached``) rather than dropped. A note without claims that quotes the
passage it discusses goes to the loci of substance on the words it quotes.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from collate.apparatus import Collation, Locus
from collate.apparatus.records import ApparatusDiagnostic
from collate.model import Diagnostic, Layer, ReadingClass, Severity
from collate.model.annotations import AttachedNote, NoteVerdict
from collate.notes.fold import fold
from collate.notes.records import AnchorMethod, Claim, ClaimKind, Note

if TYPE_CHECKING:
    from collate.align.alignment import TokenIndex
    from collate.notes import NotesResult

UNATTACHED = "note-unattached"
# Differences of form and digitization placeholders: a note on a reading is not about them.
_SLIGHT = (ReadingClass.PLACEHOLDER, ReadingClass.ORTHOGRAPHIC, ReadingClass.NOT_EXTANT)
_KIND = {
    ClaimKind.ADDS: ReadingClass.ADDITION,
    ClaimKind.SUPERFLUOUS: ReadingClass.ADDITION,
    ClaimKind.LACKS: ReadingClass.OMISSION,
}


@dataclass(frozen=True, slots=True)
class _Target:
    """A place a note speaks of: raw ``[start, end)`` of its witness in ``layer``, and the claim there."""

    note: Note
    layer: Layer
    start: int
    end: int
    claim: Claim | None


def attach(collation: Collation, result: NotesResult) -> Collation:
    """The collation with notes attached to the loci their claims concern; the unattached listed."""
    targets = _targets(result)
    found: dict[str, dict[str, list[Claim | None]]] = {}  # locus id → note id → its claims there
    for layer in collation.layers:
        mine = [t for t in targets if t.layer is layer.layer and t.note.witness in layer.alignment.sigla]
        if not mine:
            continue
        near = _Loci(layer.loci)
        by_witness: dict[str, _Offsets] = {}
        for target in mine:
            w = target.note.witness
            if w not in by_witness:
                by_witness[w] = _Offsets(layer.alignment.index(layer.alignment.sigla.index(w)))
            cols = by_witness[w].columns(target.start, target.end)
            if cols is None:
                continue
            for locus in _best(near.near(cols[0], cols[1]), target, cols):
                found.setdefault(locus.id, {}).setdefault(target.note.id, []).append(target.claim)
    notes = {n.id: n for n in result.notes}
    for layer in collation.layers:
        loci = tuple(_with(locus, found.get(locus.id, {}), notes, result) for locus in layer.loci)
        collation = collation.with_layer(layer.with_loci(loci))
    return _listed(collation, unattached(collation, result))


def unattached(collation: Collation, result: NotesResult) -> tuple[Note, ...]:
    """The notes that make claims yet stand on no locus of ``collation``."""
    on = {n.id for locus in collation.loci() for n in locus.notes}
    return tuple(n for n in result.notes if result.claims_of(n) and n.id not in on)


def _targets(result: NotesResult) -> list[_Target]:
    out: list[_Target] = []
    for note in result.notes:
        claims = result.claims_of(note)
        placed = [c for c in claims if c.base_start is not None and c.base_end is not None]
        out.extend(_Target(note, c.layer, c.base_start or 0, c.base_end or 0, c) for c in placed)
        if claims:
            continue
        anchor = result.anchor_of(note)
        if anchor is not None and anchor.method is AnchorMethod.QUOTE and anchor.end > anchor.start:
            out.append(_Target(note, anchor.layer, anchor.start, anchor.end, None))
    return out


class _Offsets:
    """One witness's tokens of a layer by raw offset, with the column each stands in."""

    def __init__(self, index: TokenIndex) -> None:
        pairs = sorted(zip((t.start for t in index.tokens), index.columns, strict=True))
        self.starts = [s for s, _ in pairs]
        self.cols = [c for _, c in pairs]

    def columns(self, start: int, end: int) -> tuple[int, int, bool] | None:
        """The columns ``[first, last]`` of the tokens in raw ``[start, end)`` and False; for an
        insertion point the columns of the tokens either side of it and True."""
        lo, hi = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
        if start < end:
            cols = self.cols[lo:hi]
            return (min(cols), max(cols), False) if cols else None
        if not self.cols:
            return None
        before = self.cols[lo - 1] if lo > 0 else -1
        after = self.cols[lo] if lo < len(self.cols) else max(self.cols) + 1
        return min(before, after), max(before, after), True


class _Loci:
    """A layer's loci by their first column, to find those near some columns without a scan of all."""

    def __init__(self, loci: Sequence[Locus]) -> None:
        self.loci = sorted(loci, key=lambda x: x.col_start)
        self.starts = [x.col_start for x in self.loci]
        self.longest = max((x.col_end - x.col_start for x in self.loci), default=0)

    def near(self, first: int, last: int) -> list[Locus]:
        """The loci that touch columns ``[first, last]``."""
        lo = bisect.bisect_left(self.starts, first - self.longest - 1)
        hi = bisect.bisect_right(self.starts, last + 1)
        return [x for x in self.loci[lo:hi] if x.col_start <= last + 1 and x.col_end >= first]


def _best(loci: list[Locus], target: _Target, cols: tuple[int, int, bool]) -> list[Locus]:
    """The loci of the best tier (see the module's docstring) for one target; none if no tier has any."""
    first, last, point = cols
    tiers: dict[int, list[Locus]] = {}
    for locus in loci:
        if point:
            # Between the characters either side of the point (an addition there), or a locus
            # on the character before it (text the base lacks goes with the text before it).
            exact = (first < locus.col_start and locus.col_end <= last) or locus.col_start <= first < locus.col_end
        else:
            exact = locus.col_start <= last and locus.col_end > first
        tier = _tier(locus, target.claim, exact, point)
        if tier is not None:
            tiers.setdefault(tier, []).append(locus)
    return tiers[min(tiers)] if tiers else []


def _tier(locus: Locus, claim: Claim | None, exact: bool, point: bool) -> int | None:
    if claim is None:
        return 2 if exact and locus.cls not in _SLIGHT else None
    kind = _KIND.get(claim.kind)
    wanted = fold(claim.reading)
    # Readings, not variants: a note may speak of text the base leaves out where the entry is
    # not a variant of it (the 疏 a 五禮通考 quotation starts after).
    for reading in (r for r in locus.readings if r.cls is not ReadingClass.NOT_EXTANT):
        if claim.sigla and not set(claim.sigla) & set(reading.sigla):
            continue
        if kind is not None and reading.cls is not kind:
            continue
        if kind is None and reading.cls in _SLIGHT:
            continue
        words = fold(reading.text)
        if kind is ReadingClass.OMISSION or (wanted and (words == wanted or (not claim.sigla and wanted in words))):
            # An addition may stand just beside the place it is reported at; a reading on the place.
            if exact or kind is not None:
                return 0
        if claim.sigla and exact:
            return 1
    if not claim.witness and claim.kind is not ClaimKind.EMEND:
        # 疏内却兼言天子 names no edition and a whole stretch: only a reading with its words will do.
        return None
    agrees = claim.kind is ClaimKind.READS and claim.reading == claim.base
    if agrees and exact and set(claim.sigla) & set(locus.lemma_witnesses):
        return 0
    if exact and locus.cls not in _SLIGHT:
        return 2
    if exact and not point:
        return 3
    return None


def _with(locus: Locus, here: dict[str, list[Claim | None]], notes: dict[str, Note], result: NotesResult) -> Locus:
    """The locus with the notes found for it (a note already on it is not added twice)."""
    have = {n.id for n in locus.notes}
    fresh = tuple(_attached(notes[k], claims, result) for k, claims in here.items() if k not in have)
    return locus.with_notes(locus.notes + fresh) if fresh else locus


def _attached(note: Note, claims: Iterable[Claim | None], result: NotesResult) -> AttachedNote:
    mine = tuple(dict.fromkeys(c for c in claims if c is not None))
    records = {c: c.record() for c in mine}
    verdicts = tuple(
        NoteVerdict(records[c], check.witness or c.siglum, check.verdict, check.evidence, check.actual, check.location)
        for c in mine
        for check in result.checks_of(c)
    )
    return AttachedNote(note.id, note.resp, note.text, note.location, tuple(records.values()), verdicts, note.witness)


def _listed(collation: Collation, notes: tuple[Note, ...]) -> Collation:
    """The collation with a ``note-unattached`` diagnostic for each note (once, if attached again)."""
    known = {(d.siglum, d.diagnostic.start) for d in collation.diagnostics if d.diagnostic.code == UNATTACHED}
    fresh = tuple(
        ApparatusDiagnostic(
            n.witness,
            Diagnostic(
                UNATTACHED,
                f"{n.id}: no locus of the collation is where its claims speak ({n.text[:24]})",
                n.start,
                n.end,
                Severity.INFO,
            ),
            n.location,
        )
        for n in notes
        if (n.witness, n.start) not in known
    )
    return replace(collation, diagnostics=collation.diagnostics + fresh) if fresh else collation
