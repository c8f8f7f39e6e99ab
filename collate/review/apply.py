"""Decisions applied to a collation: each finds its locus again, and the loci carry the outcome.

Matching is by content first (the same layer, the same base text, the reading the
decision concerns still present), then by context (how much of the base text around the
locus is unchanged), and only then by position, to break ties between places that read
alike. Each anchor takes at most one locus and each locus one anchor, best matches first,
so a moved decision cannot take a place another decision fits better. A decision that finds
no place is an orphan: reported, and kept in the file.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from collate.apparatus import Collation, DecisionAction, EditorDecision, Locus, Reading
from collate.review.decisions import Anchor, Decision, anchor_of, base_tokens, reading_key

# The least context (characters either side that still agree) for a decision to move to
# another offset: one shared character is too weak a sign that two places are the same.
MIN_CONTEXT = 2
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


def _fits(anchor: Anchor, needed: frozenset[str], here: Anchor) -> tuple[int, int, int] | None:
    """How well a locus (its anchor ``here``) fits: (context, same readings, -distance), or None."""
    if here.layer is not anchor.layer or here.lemma != anchor.lemma:
        return None
    readings = set(here.readings)
    if not needed <= readings:
        return None
    if not needed and anchor.readings and not readings & set(anchor.readings):
        return None
    context = _common_suffix(anchor.before, here.before) + _common_prefix(anchor.after, here.after)
    distance = abs(here.offset - anchor.offset)
    wanted = min(MIN_CONTEXT, len(anchor.before) + len(anchor.after))
    if distance and context < wanted:
        return None
    return context, int(here.readings == anchor.readings), -distance


def place(collation: Collation, decisions: Sequence[Decision]) -> tuple[tuple[Placed, ...], tuple[Decision, ...]]:
    """Find each decision's locus in ``collation``: the placed decisions and the orphans."""
    groups: dict[Anchor, list[Decision]] = {}
    for d in decisions:
        groups.setdefault(d.anchor, []).append(d)
    here: dict[str, Anchor] = {}
    for result in collation.layers:
        tokens = base_tokens(result)
        here.update((x.id, anchor_of(x, tokens)) for x in result.loci if reviewable(x))
    scored: list[tuple[tuple[int, int, int], int, str]] = []
    for k, (anchor, group) in enumerate(groups.items()):
        # Every reading the decisions name must still be there: adopting 峭 needs a 峭.
        needed = frozenset(d.norm for d in group if d.norm is not None and d.action in _NAMES_A_READING)
        for locus_id, current in here.items():
            score = _fits(anchor, needed, current)
            if score is not None:
                scored.append((score, k, locus_id))
    scored.sort(key=lambda s: (-s[0][0], -s[0][1], -s[0][2], s[1], s[2]))
    anchors = list(groups)
    taken: set[str] = set()
    where: dict[int, str] = {}
    for _, k, locus_id in scored:
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


def apply_decisions(collation: Collation, decisions: Sequence[Decision]) -> tuple[Collation, ApplyReport]:
    """The collation with the editor's decisions applied, and a report of what fit where.

    Loci with decisions carry an :class:`~collate.apparatus.EditorDecision` (and the classes
    the editor gave), so every exporter shows the editor's lemma and ``@resp``. The input
    collation is not changed.
    """
    placed, orphans = place(collation, decisions)
    by_locus: dict[str, list[Decision]] = {}
    for p in placed:
        by_locus.setdefault(p.locus, []).append(p.decision)
    out = collation
    for result in collation.layers:
        if any(x.id in by_locus for x in result.loci):
            loci = tuple(decide(x, by_locus[x.id]) if x.id in by_locus else x for x in result.loci)
            out = out.with_layer(result.with_loci(loci))
    review = [x for x in out.loci() if reviewable(x)]
    report = ApplyReport(
        placed=placed,
        orphans=orphans,
        decided=tuple(x.id for x in review if x.decision is not None),
        undecided=tuple(x.id for x in review if x.decision is None),
    )
    return out, report
