"""Editorial notes (蕙田案, 【案…】): attached to what they judge, read as claims, checked.

The stage runs on a project's read witnesses and needs no alignment:

    notes_of (collect) → resolve (heading, anchor + claims) → check (full texts, in the claim's
    layer; readings files)

``notes_for_project`` composes it; ``attach_to_loci`` hands the notes to the apparatus.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from collate.model import Layer, SparseReading, Token, Witness
from collate.model.annotations import Verdict
from collate.model.memo import Memo
from collate.notes.anchor import BaseIndex
from collate.notes.check import FullText, check_claim
from collate.notes.collect import notes_of
from collate.notes.lexicon import DEFAULT_LEXICON, Lexicon, lexicon_from_section
from collate.notes.readings import compare_readings, derived_readings
from collate.notes.records import Anchor, AnchorMethod, Check, Claim, ClaimKind, Note, Place, ReadingDifference
from collate.notes.resolve import resolve_note

if TYPE_CHECKING:
    from collate.apparatus import Collation
    from collate.normalize import Normalizer
    from collate.project import Project

# Layers already tokenized, per siglum: handed on so that the notes do not tokenize them again.
TokensOf = Mapping[str, Mapping[Layer, Sequence[Token]]]


@dataclass(frozen=True, slots=True)
class NotesResult:
    """Every note of a project's witnesses, where it is anchored, its claims and their checks.

    ``unanchored`` are notes tied to no passage (only to the chapter); ``unplaced`` claims
    whose place was not found. ``derived`` holds, per sparse witness, the readings the
    claims report; ``differences`` where they disagree with that witness's readings file.
    """

    notes: tuple[Note, ...]
    anchors: tuple[Anchor, ...]
    claims: tuple[Claim, ...]
    checks: tuple[Check, ...]
    unanchored: tuple[Note, ...]
    unplaced: tuple[Claim, ...]
    derived: tuple[tuple[str, tuple[SparseReading, ...]], ...] = ()
    differences: tuple[ReadingDifference, ...] = ()

    # Built on first use: the exporters ask for each note's anchor, claims and checks in turn.
    _by_note: Memo[str, tuple[Anchor | None, list[Claim]]] = field(
        default_factory=Memo, init=False, repr=False, compare=False
    )
    _by_claim: Memo[Claim, list[Check]] = field(default_factory=Memo, init=False, repr=False, compare=False)

    def anchor_of(self, note: Note) -> Anchor | None:
        """The anchor of one note."""
        return self._of_note(note)[0]

    def claims_of(self, note: Note) -> tuple[Claim, ...]:
        """The claims one note makes."""
        return tuple(self._of_note(note)[1])

    def checks_of(self, claim: Claim) -> tuple[Check, ...]:
        """The checks of one claim (one per full text of its witness, or one 'not checkable')."""
        if not self._by_claim.table and self.checks:
            for c in self.checks:
                self._by_claim.table.setdefault(c.claim, []).append(c)
        # Keyed by value; a claim's own checks are those made of that very claim. A loaded run
        # (collate.runs.saved) has equal records where the run had one: there, equal is the same.
        found = self._by_claim.table.get(claim, [])
        own = tuple(c for c in found if c.claim is claim)
        return own or tuple(found)

    def _of_note(self, note: Note) -> tuple[Anchor | None, list[Claim]]:
        if not self._by_note.table:
            for a in reversed(self.anchors):  # the first anchor of a note wins, as a scan finds it
                self._by_note.table[a.note.id] = (a, [])
            for c in self.claims:
                self._by_note.table.setdefault(c.note.id, (None, []))[1].append(c)
        return self._by_note.table.get(note.id, (None, []))

    def counts(self) -> dict[Verdict, int]:
        """How many checks gave each verdict."""
        return {v: sum(1 for c in self.checks if c.verdict is v) for v in Verdict}


def notes_for_project(
    project: Project, witnesses: Iterable[Witness], normalizer: Normalizer, tokens: TokensOf | None = None
) -> NotesResult:
    """The notes stage for a project's ``witnesses`` as read: every note anchored, parsed and checked.

    ``normalizer`` is the run's (the one its collation compares with). ``tokens`` holds, per
    siglum, layers of the witnesses as read that are already tokenized with it (the
    collation's), so that they are not tokenized again.
    """
    lexicon = lexicon_from_section(project.sections.get("notes"), str(project.source or project.root))
    return notes_for_witnesses(witnesses, lexicon, normalizer, tokens)


def notes_for_witnesses(
    witnesses: Iterable[Witness],
    lexicon: Lexicon = DEFAULT_LEXICON,
    normalizer: Normalizer | None = None,
    tokens: TokensOf | None = None,
) -> NotesResult:
    """The notes stage for witnesses read without a project (each note anchored in its own witness).

    Quotations are searched and claims checked on the witnesses' tokens' keys, as
    ``normalizer`` makes them (the default rules if None).
    """
    witnesses = tuple(witnesses)
    given = tokens or {}
    indexes = {w.siglum: BaseIndex(w, normalizer, given.get(w.siglum)) for w in witnesses if not w.sparse}
    full_texts = {s: FullText.of_index(index) for s, index in indexes.items()}
    notes: list[Note] = []
    anchors: list[Anchor] = []
    claims: list[Claim] = []
    checks: list[Check] = []
    for witness in witnesses:
        if witness.sparse:
            continue
        own = notes_of(witness, lexicon)
        if not own:
            continue
        index = indexes[witness.siglum]
        for note in own:
            resolved = resolve_note(index, note, lexicon)
            notes.append(note)
            anchors.append(resolved.anchor)
            claims.extend(resolved.claims)
            for claim in resolved.claims:
                checks.extend(_checks(claim, witness, full_texts, witnesses, index, lexicon))
    derived, differences = _sparse(witnesses, claims, normalizer, indexes)
    return NotesResult(
        notes=tuple(notes),
        anchors=tuple(anchors),
        claims=tuple(claims),
        checks=tuple(checks),
        unanchored=tuple(a.note for a in anchors if a.method is AnchorMethod.CHAPTER),
        unplaced=tuple(c for c in claims if c.base_start is None),
        derived=derived,
        differences=differences,
    )


def _checks(
    claim: Claim,
    own: Witness,
    full_texts: dict[str, FullText],
    witnesses: tuple[Witness, ...],
    index: BaseIndex,
    lexicon: Lexicon,
) -> list[Check]:
    sigla = claim.sigla
    targets = [full_texts[s] for s in sigla if s in full_texts and s != own.siglum]
    if targets:
        return [check_claim(claim, full, index) for full in targets]
    if claim.note.variant:
        why = "another text, unnamed: the witnesses reading so at its entry confirm it (the apparatus)"
        return [Check(claim, Verdict.NOT_CHECKABLE, why)]
    if claim.kind is ClaimKind.EMEND:
        why = "an emendation is a judgment, not a report of a reading"
    elif not claim.witness:
        why = "the note names no edition: a remark on the base text"
    elif not sigla:
        why = f"{claim.witness} is not a witness of the project (no siglum in [notes.lexicon])"
    elif any(w.siglum in sigla and w.sparse for w in witnesses):
        why = "only a readings file of that witness is collated: compared as readings"
    else:
        why = f"no full text of {claim.witness} in the project"
    return [Check(claim, Verdict.NOT_CHECKABLE, why)]


def _sparse(
    witnesses: tuple[Witness, ...],
    claims: list[Claim],
    normalizer: Normalizer | None,
    indexes: Mapping[str, BaseIndex],
) -> tuple[tuple[tuple[str, tuple[SparseReading, ...]], ...], tuple[ReadingDifference, ...]]:
    derived = []
    differences: list[ReadingDifference] = []
    sparse = [w for w in witnesses if w.sparse]
    if not sparse:
        return (), ()
    base = next((w for w in witnesses if not w.sparse), None)
    if base is None:
        return (), ()
    index = indexes[base.siglum]
    for witness in sparse:
        mine = tuple(c for c in claims if witness.siglum in c.sigla)
        readings = derived_readings(mine, witness.siglum, index)
        derived.append((witness.siglum, readings))
        differences.extend(compare_readings(readings, mine, witness, normalizer))
    return tuple(derived), tuple(differences)


def attach_to_loci(collation: Collation, result: NotesResult) -> Collation:
    """The collation with each note on the loci its claims concern (see :mod:`collate.notes.attach`).

    A note with claims that finds no locus is listed in the collation's diagnostics
    (``note-unattached``), not dropped.
    """
    from collate.notes.attach import attach

    return attach(collation, result)


__all__ = [
    "Anchor",
    "AnchorMethod",
    "Check",
    "Claim",
    "ClaimKind",
    "Lexicon",
    "Note",
    "NotesResult",
    "Place",
    "ReadingDifference",
    "Verdict",
    "attach_to_loci",
    "lexicon_from_section",
    "notes_for_project",
    "notes_for_witnesses",
]
