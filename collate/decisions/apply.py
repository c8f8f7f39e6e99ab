"""Decisions applied to a collation: each finds its locus again, and the loci carry the outcome.

Matching is by content first (the same layer, the same base text, the reading the
decision concerns still present), then by context (how much of the base text around the
locus is unchanged), and only then by position, to break ties between places that read
alike. The expected position is the recorded offset moved as far as the nearest decision
that found a single place moved; a decision goes anywhere else only if most of its context
still agrees there. Each anchor takes at most one locus and each locus one anchor, best
matches first, so a moved decision cannot take a place another decision fits better. A
decision that finds no place is an orphan: reported, and kept in the file.

The editor's merges and splits (:mod:`collate.decisions.regroup`) are applied first, one by one in
file order, each placed on the loci as the ones before it cut them; every other decision is
then placed on the loci so cut.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from collate.apparatus import Collation, Locus, Reading
from collate.decisions.anchors import STRUCTURAL
from collate.decisions.file import Anchor, Decision, anchor_of, base_tokens, reading_key
from collate.decisions.regroup import Locate, merge_refusal, merged, next_locus, replaced, split, split_refusal
from collate.model import Layer
from collate.model.annotations import DecisionAction, EditorDecision

# The share of its recorded context (characters either side that still agree) a decision
# needs to move to a place other than where its neighbours say it should be: a few shared
# characters (枉矢 before two different 哨壶) are too weak a sign that two places are the same.
MIN_CONTEXT_SHARE = 0.9
_NAMES_A_READING = (DecisionAction.ADOPT, DecisionAction.RECLASSIFY)


@dataclass(frozen=True, slots=True)
class Placed:
    """A decision and the locus it applies to in this run; ``moved`` if not at its recorded offset."""

    decision: Decision
    locus: str
    moved: bool = False


@dataclass(frozen=True, slots=True)
class ApplyReport:
    """What became of the decisions: where each applies, which found no place, what is left.

    ``decided`` and ``undecided`` are the ids of the loci to review (those with a real
    variant) with and without a decision; ``orphans`` keep file order.
    """

    placed: tuple[Placed, ...]
    orphans: tuple[Decision, ...]
    decided: tuple[str, ...]
    undecided: tuple[str, ...]

    def decisions_at(self, locus_id: str) -> tuple[Decision, ...]:
        """The decisions that apply to one locus, in file order."""
        return tuple(p.decision for p in self.placed if p.locus == locus_id)


@dataclass(frozen=True, slots=True)
class DecisionCounts:
    """How many loci are decided and undecided, how many decisions are orphaned or moved."""

    decided: int
    undecided: int
    orphaned: int
    moved: int


def reviewable(locus: Locus) -> bool:
    """A locus an editor decides on: some witness has a real variant there (not only lacunae)."""
    return bool(locus.variants())


def decision_counts(report: ApplyReport) -> DecisionCounts:
    """The counts ``collate run`` prints: loci decided, undecided, decisions orphaned and moved."""
    return DecisionCounts(
        decided=len(report.decided),
        undecided=len(report.undecided),
        orphaned=len(report.orphans),
        moved=sum(1 for p in report.placed if p.moved),
    )


def _common_suffix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _context(anchor: Anchor, needed: frozenset[str], here: Anchor) -> int | None:
    """How much context a locus (its anchor ``here``) shares with ``anchor``, or None if its content differs."""
    if here.layer is not anchor.layer or here.lemma != anchor.lemma:
        return None
    readings = set(here.readings)
    if not needed <= readings:
        return None
    if not needed and anchor.readings and not readings & set(anchor.readings):
        return None
    return shared_context(anchor, here)


def shared_context(anchor: Anchor, here: Anchor) -> int:
    """How many characters of ``anchor``'s context still agree at ``here``, counted outward from the locus."""
    return _common_suffix(anchor.before, here.before) + _common_prefix(anchor.after, here.after)


def wanted_context(anchor: Anchor) -> int:
    """The context a decision needs to be placed anywhere but where it is expected."""
    return math.ceil(MIN_CONTEXT_SHARE * (len(anchor.before) + len(anchor.after)))


@dataclass(frozen=True, slots=True)
class _Candidate:
    locus: str
    offset: int
    context: int
    same: bool  # the same set of readings as when decided


def _shifts(anchors: Sequence[Anchor], candidates: Sequence[list[_Candidate]]) -> list[int]:
    """For each anchor, how far text before it has moved: as its nearest unambiguous neighbour moved.

    Places that read alike with the same context (the three 枉矢哨壶 of 投壺) can only be told
    apart by position; after an edit that inserts text, the old offsets must first be moved
    by as much as the surrounding decisions that did find a single place.
    """
    known: list[tuple[Anchor, int]] = []
    for anchor, found in zip(anchors, candidates, strict=True):
        if not found:
            continue
        best = max((c.context, c.same) for c in found)
        top = [c for c in found if (c.context, c.same) == best]
        if len(top) == 1 and best[0] >= wanted_context(anchor):
            known.append((anchor, top[0].offset - anchor.offset))
    shifts = []
    for anchor in anchors:
        near = [(abs(a.offset - anchor.offset), delta) for a, delta in known if a.layer is anchor.layer]
        shifts.append(min(near)[1] if near else 0)
    return shifts


def place(collation: Collation, decisions: Sequence[Decision]) -> tuple[tuple[Placed, ...], tuple[Decision, ...]]:
    """Find each decision's locus in ``collation``: the placed decisions and the orphans."""
    groups: dict[Anchor, list[Decision]] = {}
    for d in decisions:
        groups.setdefault(d.anchor, []).append(d)
    anchors = list(groups)
    here: dict[str, Anchor] = {}
    for result in collation.layers:
        tokens = base_tokens(result)
        here.update((x.id, anchor_of(x, tokens)) for x in result.loci if reviewable(x))
    # Only a locus of the same layer and lemma can hold a decision (see _context): look there,
    # not at every locus for every decision.
    alike: dict[tuple[Layer, str], list[tuple[str, Anchor]]] = {}
    for locus_id, current in here.items():
        alike.setdefault((current.layer, current.lemma), []).append((locus_id, current))
    candidates: list[list[_Candidate]] = []
    for anchor, group in groups.items():
        # Every reading the decisions name must still be there: adopting 峭 needs a 峭.
        needed = frozenset(d.norm for d in group if d.norm is not None and d.action in _NAMES_A_READING)
        found = []
        for locus_id, current in alike.get((anchor.layer, anchor.lemma), ()):
            context = _context(anchor, needed, current)
            if context is not None:
                found.append(_Candidate(locus_id, current.offset, context, current.readings == anchor.readings))
        candidates.append(found)
    scored: list[tuple[int, bool, int, int, str]] = []
    for k, (anchor, found, shift) in enumerate(zip(anchors, candidates, _shifts(anchors, candidates), strict=True)):
        for c in found:
            distance = abs(c.offset - (anchor.offset + shift))
            if distance and c.context < wanted_context(anchor):
                continue
            scored.append((c.context, c.same, distance, k, c.locus))
    # Best first: most context, then the same readings, then nearest the expected place.
    scored.sort(key=lambda s: (-s[0], not s[1], s[2], s[3], s[4]))
    taken: set[str] = set()
    where: dict[int, str] = {}
    for *_, k, locus_id in scored:
        if k in where or locus_id in taken:
            continue
        where[k] = locus_id
        taken.add(locus_id)
    placed = []
    orphans = []
    index = {a: k for k, a in enumerate(anchors)}
    for d in decisions:
        k = index[d.anchor]
        if k in where:
            locus_id = where[k]
            placed.append(Placed(d, locus_id, moved=here[locus_id].offset != d.anchor.offset))
        else:
            orphans.append(d)
    return tuple(placed), tuple(orphans)


def _find(locus: Locus, decision: Decision) -> Reading | None:
    same = [r for r in locus.readings if reading_key(r) == decision.norm]
    return next((r for r in same if decision.siglum in r.sigla), same[0] if same else None)


def decide(locus: Locus, decisions: Sequence[Decision]) -> Locus:
    """``locus`` with its decisions (in file order) applied: classes set, the editor's decision attached.

    A later decision supersedes an earlier one of the same aspect (:attr:`Decision.aspect`);
    doubt stands unless a lemma was chosen after it.
    """
    latest: dict[str, tuple[int, Decision]] = {}
    for k, d in enumerate(decisions):
        latest[d.aspect] = (k, d)
    if "doubt" in latest and "lemma" in latest and latest["lemma"][0] > latest["doubt"][0]:
        del latest["doubt"]
    effective = [d for _, d in sorted(latest.values(), key=lambda kd: kd[0])]
    if not effective:
        return locus
    readings = list(locus.readings)
    reclassified = []
    for d in effective:
        if d.action is DecisionAction.RECLASSIFY and d.cls is not None:
            target = _find(locus.with_readings(tuple(readings)), d)
            if target is not None:
                readings[readings.index(target)] = target.reclassified(d.cls)
                reclassified.append(target.norm)
    updated = locus.with_readings(tuple(readings)) if reclassified else locus
    lemma, adopted, siglum = locus.lemma.text, None, None
    chosen = latest.get("lemma")
    if chosen is not None and chosen[1].action is DecisionAction.ADOPT:
        reading = _find(updated, chosen[1])
        if reading is not None:
            siglum = chosen[1].siglum if chosen[1].siglum in reading.sigla else reading.sigla[0]
            adopted = reading.norm
            lemma = next(w.text for w in reading.witnesses if w.siglum == siglum)
    return updated.with_decision(
        EditorDecision(
            actions=tuple(d.action for d in effective),
            resp=tuple(dict.fromkeys(d.editor for d in effective if d.editor)),
            when=effective[-1].when,
            lemma=lemma,
            adopted=adopted,
            siglum=siglum,
            reclassified=tuple(reclassified),
            doubtful="doubt" in latest,
            comment="；".join(d.comment for d in effective if d.comment),
        )
    )


def _cut(collation: Collation, d: Decision, locate: Locate | None) -> tuple[Collation, Placed] | None:
    """The collation with one merge or split applied where it finds its place, and that place; None if none."""
    probes = [d] if d.until is None else [d, replace(d, anchor=d.until)]
    found = {p.decision.anchor: p for p in place(collation, probes)[0]}
    first = found.get(d.anchor)
    result = collation.layer(d.anchor.layer)
    locus = result.locus(first.locus) if result is not None and first is not None else None
    if result is None or first is None or locus is None:
        return None
    if d.action is DecisionAction.MERGE:
        # The second locus must be found as well, and still be the one right after the first.
        second = found.get(d.until) if d.until is not None else None
        after = next_locus(result, locus)
        if second is None or after is None or after.id != second.locus or merge_refusal(result, locus, after):
            return None
        new: tuple[Locus, ...] = (merged(result, locus, after, locate),)
        last = after
    else:
        if d.at is None or split_refusal(locus, d.at) is not None:
            return None
        new, last = split(result, locus, d.at, locate), locus
        if not new:
            return None
    return collation.with_layer(replaced(result, locus, last, new)), Placed(d, new[0].id, first.moved)


def reshape(
    collation: Collation, decisions: Sequence[Decision], locate: Locate | None = None
) -> tuple[Collation, tuple[Placed, ...], tuple[Decision, ...]]:
    """The collation with the editor's merges and splits applied, in file order; where each went, and
    those that found no place. ``locate`` gives the place of a witness's text, if the witnesses are at hand."""
    placed: list[Placed] = []
    lost: list[Decision] = []
    for d in decisions:
        if d.action not in STRUCTURAL:
            continue
        cut = _cut(collation, d, locate)
        if cut is None:
            lost.append(d)
        else:
            collation, where = cut
            placed.append(where)
    return collation, tuple(placed), tuple(lost)


def apply_all(
    collation: Collation, decisions: Sequence[Decision], locate: Locate | None = None
) -> tuple[Collation, Collation, ApplyReport]:
    """The loci as the editor cut them (:func:`reshape`), the same with every decision applied, the report.

    A review anchors new decisions on the first: the loci as cut, with none of the other decisions.
    """
    shaped, cut, uncut = reshape(collation, decisions, locate)
    placed, orphans = place(shaped, [d for d in decisions if d.action not in STRUCTURAL])
    by_locus: dict[str, list[Decision]] = {}
    for p in placed:
        by_locus.setdefault(p.locus, []).append(p.decision)
    out = shaped
    for result in shaped.layers:
        if any(x.id in by_locus for x in result.loci):
            loci = tuple(decide(x, by_locus[x.id]) if x.id in by_locus else x for x in result.loci)
            out = out.with_layer(result.with_loci(loci))
    review = [x for x in out.loci() if reviewable(x)]
    lost = {id(d) for d in (*uncut, *orphans)}
    report = ApplyReport(
        placed=cut + placed,
        orphans=tuple(d for d in decisions if id(d) in lost),
        decided=tuple(x.id for x in review if x.decision is not None),
        undecided=tuple(x.id for x in review if x.decision is None),
    )
    return shaped, out, report


def apply_decisions(collation: Collation, decisions: Sequence[Decision]) -> tuple[Collation, ApplyReport]:
    """The collation with the editor's decisions applied, and a report of what fit where.

    Loci with decisions carry an :class:`~collate.model.annotations.EditorDecision` (and the classes
    the editor gave), so every exporter shows the editor's lemma and ``@resp``; the loci are cut
    as the editor merged and split them. The input collation is not changed.
    """
    _, out, report = apply_all(collation, decisions)
    return out, report
