"""Claims against a readings file: turned into readings of their own, compared entry by entry.

A readings file (a sparse witness, layout ``readings``) gives a witness's readings at some places;
the claims a project's notes make about that witness are a second such list. Both are compared by
their keys: a claim the file gives otherwise or not at all, and a file entry no claim gives.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from collate.model import Layer, Position, SparseReading, Witness
from collate.notes.anchor import BaseIndex
from collate.notes.fold import fold
from collate.notes.records import Claim, ClaimKind, Place, ReadingDifference

if TYPE_CHECKING:
    from collate.normalize import Normalizer

# Where a claim's place puts the reading it reports against its phrase (else AT the phrase).
_POSITIONS = {Place.AFTER: Position.AFTER, Place.BEFORE: Position.BEFORE, Place.SECTION_END: Position.AFTER}


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
