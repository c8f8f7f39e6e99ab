"""Loci cut anew by the editor: a locus and the next one merged, or one locus split in two.

The builder groups the columns where a witness differs from the base into loci; an editor may
see one variant where it made two (two characters of one word), or two where it made one. A
merge or a split is a decision (:class:`~collate.decisions.anchors.Decision` with ``until`` or
``at``), found again by its anchor like any other and applied before all others
(:func:`collate.decisions.apply.apply_decisions`), so that a decision made at a merged locus finds
the merged locus. Each witness's reading is taken again from the alignment over the new
columns: a merge gives each witness the strongest of its classes in the parts, a split classes
each part again (its words alike or not, its characters there or not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from enum import Enum
from typing import TYPE_CHECKING

from collate.apparatus import LayerResult, Locus, Reading, ReadingClass, WitnessReading
from collate.apparatus.records import SCRIPT_RULE, in_order, strongest
from collate.model import Cause, SourceLocation, Token

if TYPE_CHECKING:
    # For the type checker only: importing collate.notes loads the whole notes stage.
    from collate.model.annotations import AttachedNote

# Where a witness's text at an offset is (page and line), when the witnesses as read are at hand.
Locate = Callable[[str, int], SourceLocation | None]
# Classes a part of a split reading keeps if its words still differ there; any other becomes
# substantive (a transposed passage cut in two is two substitutions).
_KEPT = (ReadingClass.SUBSTANTIVE, ReadingClass.SCRIBAL_ERROR, ReadingClass.LOAN, ReadingClass.PLACEHOLDER)
# Classes of a reading whose words are alike after folding: kept only where a character of the
# part shows the difference (a variant graph, a placeholder), not for script alone (宾/賓).
_OF_FORM = (ReadingClass.ORTHOGRAPHIC, ReadingClass.PLACEHOLDER, ReadingClass.LOAN)


class Refusal(str, Enum):
    """Why loci cannot be cut as asked (the review says so in the editor's language)."""

    NO_NEXT = "no_next"  # a merge needs a next locus in the same layer
    UNITS = "units"  # the apparatus never runs from one unit (a 經 passage, a 注 run) into the next
    SHORT = "short"  # a split needs two characters of the base's text
    REPORTED = "reported"  # a reading reported by a readings file has no columns to cut


def unit_of(result: LayerResult, locus: Locus) -> int | None:
    """The base's unit the locus is in: its first character's, or for text the base lacks, the text before's."""
    tokens = result.alignment.base.by_index
    if locus.base_end > locus.base_start:
        token = tokens.get(locus.base_start)
    else:
        token = tokens.get(locus.base_start - 1) or tokens.get(locus.base_start)
    return token.unit if token is not None else None


def next_locus(result: LayerResult, locus: Locus) -> Locus | None:
    """The locus to review after ``locus`` in its layer (a place of lacunae only is passed over)."""
    later = (x for x in result.loci if x.col_start >= locus.col_end and x.id != locus.id and x.variants())
    return next(later, None)


def merge_refusal(result: LayerResult, first: Locus, second: Locus | None) -> Refusal | None:
    """Why ``first`` and ``second`` cannot be merged, or None if they can."""
    if second is None or second.layer is not first.layer or second.col_start < first.col_end:
        return Refusal.NO_NEXT
    if unit_of(result, first) != unit_of(result, second):
        return Refusal.UNITS
    return None


def split_refusal(locus: Locus, at: int) -> Refusal | None:
    """Why ``locus`` cannot be split after ``at`` characters of the base's text, or None if it can."""
    if not 0 < at < len(locus.lemma.tokens):
        return Refusal.SHORT
    if any(r.derived for r in locus.readings):
        return Refusal.REPORTED
    return None


def _tokens(result: LayerResult, j: int, start: int, end: int) -> tuple[Token, ...]:
    # In the witness's own order: a transposed passage stands at the base's place in the columns.
    return tuple(sorted(result.alignment.index(j).within(start, end), key=lambda t: t.index))


def _reading(
    result: LayerResult, siglum: str, start: int, end: int, known: SourceLocation | None, locate: Locate | None
) -> WitnessReading:
    """``siglum``'s own text over columns ``[start, end)``, with its place."""
    tokens = _tokens(result, result.alignment.sigla.index(siglum), start, end)
    where = locate(siglum, tokens[0].start) if tokens and locate is not None else None
    return WitnessReading(siglum, "".join(t.t for t in tokens), tokens, where or known)


def _grouped(found: Iterable[tuple[ReadingClass, WitnessReading, Sequence[Reading]]]) -> tuple[Reading, ...]:
    """Readings of the witnesses that read alike in the same class, ordered as the builder orders them."""
    groups: dict[tuple[ReadingClass, str], list[tuple[WitnessReading, Sequence[Reading]]]] = {}
    for cls, witness, parts in found:
        norm = witness.norm if witness.tokens else witness.text
        groups.setdefault((cls, norm), []).append((witness, parts))
    out = []
    for (cls, norm), members in groups.items():
        parts = [p for _, ps in members for p in ps if p.cls is cls]
        causes: set[Cause | str | None] = {p.cause for p in parts}
        out.append(
            Reading(
                norm,
                cls,
                tuple(sorted((w for w, _ in members), key=lambda w: w.siglum)),
                cause=causes.pop() if len(causes) == 1 else None,
                rules=tuple(sorted({rule for p in parts for rule in p.rules})),
                source=next((p.source for _, ps in members for p in ps if p.source), None),
                derived=any(p.derived for _, ps in members for p in ps),
            )
        )
    return in_order(out)


def _between(result: LayerResult, first: Locus, last: Locus) -> list[Locus]:
    """The loci of ``result`` from ``first`` to ``last``, both included (the loci are in column order)."""
    ids = [x.id for x in result.loci]
    return list(result.loci[ids.index(first.id) : ids.index(last.id) + 1])


def merged(result: LayerResult, first: Locus, second: Locus, locate: Locate | None = None) -> Locus:
    """One locus over ``first``, ``second`` and the columns between them (see :func:`merge_refusal`)."""
    start, end = first.col_start, second.col_end
    base = result.alignment.sigla[0]
    between = "".join(t.t for t in result.alignment.base.within(first.col_end, second.col_start))
    found = []
    agreeing = [base]
    for siglum in dict.fromkeys(s for s in first.sigla + second.sigla if s != base):
        parts = [r for x in (first, second) if (r := x.reading_of(siglum)) is not None]
        classes = {r.cls for r in parts} - {ReadingClass.NOT_EXTANT}
        if not parts:
            agreeing.append(siglum)
            continue
        cls = strongest(tuple(r for r in parts if r.cls in classes)) if classes else ReadingClass.NOT_EXTANT
        known = next((w.location for r in parts for w in r.witnesses if w.siglum == siglum), None)
        if siglum in result.alignment.sigla:
            witness = _reading(result, siglum, start, end, known, locate)
        else:
            # A reported reading (a readings file): its parts, and the base's text between them.
            texts = [next((w.text for w in r.witnesses if w.siglum == siglum), "") for r in parts]
            own = [texts.pop(0) if x.reading_of(siglum) else x.lemma.text for x in (first, second)]
            witness = WitnessReading(siglum, own[0] + between + own[1], (), known)
        found.append((cls, witness, parts))
    readings = _grouped(found)
    absent = first.cls is ReadingClass.NOT_EXTANT and second.cls is ReadingClass.NOT_EXTANT
    notes: dict[str, AttachedNote] = {}
    for note in (n for x in _between(result, first, second) for n in x.notes):
        # A note on both parts (its claims on each) stands once, with all its claims here.
        was = notes.get(note.id)
        claims = was.claims + note.claims if was is not None else note.claims
        verdicts = was.verdicts + note.verdicts if was is not None else note.verdicts
        notes[note.id] = replace(note, claims=tuple(dict.fromkeys(claims)), verdicts=tuple(dict.fromkeys(verdicts)))
    return replace(
        first,
        base_end=second.base_end,
        col_end=end,
        # The base's place is the first locus's: the merged locus starts there.
        lemma=_reading(result, base, start, end, first.lemma.location, None),
        lemma_witnesses=(base, *sorted(agreeing[1:])),
        readings=readings,
        cls=ReadingClass.NOT_EXTANT if absent else strongest(readings),
        notes=tuple(notes.values()),
        decision=None,
    )


def _part_class(was: ReadingClass, base: Sequence[Token], own: Sequence[Token], extant: bool) -> ReadingClass | None:
    """A witness's class in one part of a split reading; None where it agrees with the base there."""
    if was is ReadingClass.NOT_EXTANT or not extant:
        return ReadingClass.NOT_EXTANT
    if not own:
        return ReadingClass.OMISSION
    if [t.t for t in own] == [t.t for t in base]:
        return None
    if [t.n for t in own] == [t.n for t in base]:
        marked = any(c.rule != SCRIPT_RULE for t in (*own, *base) for c in t.changes)
        return was if was in _OF_FORM and marked else None
    return was if was in _KEPT else ReadingClass.SUBSTANTIVE


def split(result: LayerResult, locus: Locus, at: int, locate: Locate | None = None) -> tuple[Locus, ...]:
    """``locus`` cut before its base's character ``at`` (see :func:`split_refusal`): the parts that
    still hold a variant (a part where every witness agrees is no locus)."""
    alignment = result.alignment
    cut = alignment.base.column_of[locus.lemma.tokens[at].index]
    base = alignment.sigla[0]
    taken = {x.id for x in result.loci if x.id != locus.id}
    out: list[Locus] = []
    for start, end in ((locus.col_start, cut), (cut, locus.col_end)):
        lemma = _reading(result, base, start, end, locus.lemma.location, locate)
        found = []
        agreeing = list(locus.lemma_witnesses)
        for r in locus.readings:
            for w in r.witnesses:
                extant = any(alignment.extent(w.siglum).covers(c) for c in range(start, end))
                own = _reading(result, w.siglum, start, end, w.location, locate)
                cls = _part_class(r.cls, lemma.tokens, own.tokens, extant)
                if cls is None:
                    agreeing.append(w.siglum)
                else:
                    found.append((cls, own, (r,)))
        readings = _grouped(found)
        if not readings:
            continue
        first = lemma.tokens[0].index
        stem = f"{locus.layer.value}-{first:05d}"
        name = next(n for k in range(len(taken) + 2) if (n := stem if k == 0 else f"{stem}.{k}") not in taken)
        taken.add(name)
        out.append(
            replace(
                locus,
                id=name,
                base_start=first,
                base_end=lemma.tokens[-1].index + 1,
                col_start=start,
                col_end=end,
                lemma=lemma,
                lemma_witnesses=(base, *sorted(set(agreeing) - {base})),
                readings=readings,
                cls=ReadingClass.NOT_EXTANT if locus.cls is ReadingClass.NOT_EXTANT else strongest(readings),
                decision=None,
            )
        )
    return tuple(out)


def replaced(result: LayerResult, first: Locus, last: Locus, loci: Sequence[Locus]) -> LayerResult:
    """``result`` with its loci from ``first`` to ``last`` (both included) replaced by ``loci``."""
    gone = {x.id for x in _between(result, first, last)}
    kept = [x for x in result.loci if x.id not in gone]
    return result.with_loci(tuple(sorted((*kept, *loci), key=lambda x: (x.col_start, x.col_end))))
