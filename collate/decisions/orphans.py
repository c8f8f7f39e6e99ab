"""Why a decision found no place: what of its anchor the collation no longer has.

A decision is placed by its content first (the base's text, the reading it names), then by
its context (:mod:`collate.decisions.apply`); an orphan failed one of these, and the editor needs to
know which to judge it: the variant may be gone (a witness corrected), the base changed there,
or the places that still read alike may have too little of the context in common.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from collate.apparatus import Collation, Locus
from collate.decisions.anchors import Anchor, Decision, anchor_of, base_tokens
from collate.decisions.apply import reviewable, shared_context, wanted_context
from collate.model import Layer
from collate.model.annotations import DecisionAction


class Why(str, Enum):
    """What an orphan's anchor misses (the review words it in the editor's language)."""

    NO_LAYER = "no_layer"  # the layer has no variant left at all
    RECUT = "recut"  # the place is now inside another locus (the loci there were merged or split)
    VARIANT_GONE = "variant_gone"  # the base still reads so there, but no witness differs any more
    BASE_CHANGED = "base_changed"  # the base no longer reads the lemma with that context
    READING_GONE = "reading_gone"  # loci read the lemma, none with the reading the decision names
    CONTEXT = "context"  # loci read alike, but share too little of the context
    TAKEN = "taken"  # the places that fit are taken by decisions that fit them better
    NOT_ADJACENT = "not_adjacent"  # a merge: its two loci are no longer next to each other
    CANNOT_SPLIT = "cannot_split"  # a split: the locus is too short now, or has a reported reading


@dataclass(frozen=True, slots=True)
class Orphan:
    """An orphaned decision and why: ``candidates`` loci read alike, ``best`` of ``wanted`` characters
    agree; ``now`` is the locus that holds its place now, if one does (:attr:`Why.RECUT`)."""

    decision: Decision
    why: Why
    candidates: int = 0
    best: int = 0
    wanted: int = 0
    now: Locus | None = None


def explain(collation: Collation, orphans: tuple[Decision, ...]) -> tuple[Orphan, ...]:
    """Why each of ``orphans`` fits no locus of ``collation`` (the loci as the editor cut them)."""
    out = []
    layers: dict[Layer, tuple[list[Anchor], str]] = {}
    for d in orphans:
        result = collation.layer(d.anchor.layer)
        if result is None or not any(reviewable(x) for x in result.loci):
            out.append(Orphan(d, Why.NO_LAYER))
            continue
        if result.layer not in layers:
            # Each layer's anchors and base text, once for all its orphans.
            tokens = base_tokens(result)
            here = [anchor_of(x, tokens) for x in result.loci if reviewable(x)]
            layers[result.layer] = here, "".join(t.t for t in result.alignment.base.tokens)
        found = _one(d, *layers[result.layer])
        if found.why in (Why.VARIANT_GONE, Why.BASE_CHANGED, Why.READING_GONE):
            # A locus of another cut over the very place: the loci there were merged or split.
            a = d.anchor
            wider = (x for x in result.loci if reviewable(x) and x.lemma.text != a.lemma)
            now = next((x for x in wider if x.base_start <= a.offset < max(x.base_end, x.base_start + 1)), None)
            found = Orphan(d, Why.RECUT, now=now) if now is not None else found
        out.append(found)
    return tuple(out)


def _one(d: Decision, here: list[Anchor], base: str) -> Orphan:
    anchor = d.anchor
    alike = [a for a in here if a.lemma == anchor.lemma]
    if d.action in (DecisionAction.ADOPT, DecisionAction.RECLASSIFY):
        fitting = [a for a in alike if d.norm in a.readings]
    else:
        fitting = [a for a in alike if not anchor.readings or set(a.readings) & set(anchor.readings)]
    wanted = wanted_context(anchor)
    best = max((shared_context(anchor, a) for a in fitting), default=0)
    if fitting:
        if d.action is DecisionAction.MERGE:
            why = Why.NOT_ADJACENT
        elif d.action is DecisionAction.SPLIT:
            why = Why.CANNOT_SPLIT
        else:
            why = Why.CONTEXT if best < wanted else Why.TAKEN
        return Orphan(d, why, len(fitting), best, wanted)
    if alike:
        return Orphan(d, Why.READING_GONE, len(alike))
    # No locus reads the lemma: does the base still have it, with a little of the text around it?
    still = anchor.before[-3:] + anchor.lemma + anchor.after[:3]
    return Orphan(d, Why.VARIANT_GONE if still and still in base else Why.BASE_CHANGED)
