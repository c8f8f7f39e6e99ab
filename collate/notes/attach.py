"""Handing notes to the apparatus: each locus gets the notes whose claims overlap it."""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

from collate.alignment import TokenIndex
from collate.apparatus import Collation, Locus
from collate.notes.records import AnchorMethod, AttachedNote, Claim, Note

if TYPE_CHECKING:
    from collate.notes import NotesResult


@dataclass(frozen=True, slots=True)
class _Stretch:
    note: Note
    start: int
    end: int
    claims: tuple[Claim, ...]


def attach(collation: Collation, result: NotesResult) -> Collation:
    """The collation with notes attached to the loci they speak of (base offsets overlap)."""
    stretches = _Stretches(_stretches(result))
    for layer in collation.layers:
        if collation.base not in layer.alignment.sigla:
            continue
        # The base is the alignment's first witness; its index is built once per layer.
        base = layer.alignment.base
        loci = []
        for locus in layer.loci:
            span = _locus_span(locus, base)
            notes = _notes_for(span, stretches.near(*span)) if span else ()
            # Attaching again is harmless: a note already on the locus (same id) is not added twice.
            have = {n.id for n in locus.notes}
            fresh = tuple(n for n in notes if n.id not in have)
            loci.append(locus.with_notes(locus.notes + fresh) if fresh else locus)
        collation = collation.with_layer(layer.with_loci(tuple(loci)))
    return collation


def _stretches(result: NotesResult) -> list[_Stretch]:
    out = []
    for note in result.notes:
        placed = [c for c in result.claims_of(note) if c.base_start is not None and c.base_end is not None]
        for claim in placed:
            out.append(_Stretch(note, claim.base_start or 0, claim.base_end or 0, (claim,)))
        if placed:
            continue
        anchor = result.anchor_of(note)
        if anchor is not None and anchor.method is AnchorMethod.QUOTE:
            out.append(_Stretch(note, anchor.start, anchor.end, ()))
    return out


class _Stretches:
    """The notes' stretches by their start, to find those near a locus without a scan of all."""

    def __init__(self, stretches: list[_Stretch]) -> None:
        self.stretches = stretches
        self.order = sorted(range(len(stretches)), key=lambda k: stretches[k].start)
        self.starts = [stretches[k].start for k in self.order]
        self.longest = max((s.end - s.start for s in stretches), default=0)

    def near(self, a: int, b: int) -> list[_Stretch]:
        """The stretches that may touch ``[a, b]``, in their own order: those starting from
        ``a - longest`` (none before can reach ``a``) to ``b``."""
        lo = bisect.bisect_left(self.starts, a - self.longest)
        hi = bisect.bisect_right(self.starts, b)
        return [self.stretches[k] for k in sorted(self.order[lo:hi])]


def _locus_span(locus: Locus, base: TokenIndex) -> tuple[int, int] | None:
    """Raw offsets of the locus in the base: its base tokens, or the insertion point before them."""
    tokens = base.within(locus.col_start, locus.col_end)
    if tokens:
        return tokens[0].start, tokens[-1].end
    before = base.before(locus.col_start)
    if before:
        return before[-1].end, before[-1].end
    after = base.after(locus.col_end)
    return (after[0].start, after[0].start) if after else None


def _notes_for(span: tuple[int, int], stretches: list[_Stretch]) -> tuple[AttachedNote, ...]:
    a, b = span
    found: dict[str, AttachedNote] = {}
    for s in stretches:
        overlaps = s.start < b and a < s.end if a < b and s.start < s.end else a <= s.end and s.start <= b
        if not overlaps:
            continue
        old = found.get(s.note.id)
        claims = (old.claims if old else ()) + tuple(c.summary() for c in s.claims)
        found[s.note.id] = AttachedNote(s.note.id, s.note.resp, s.note.text, s.note.location, claims)
    return tuple(found.values())
