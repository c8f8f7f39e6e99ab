"""Regularizing from a locus: the pair of characters a rule is made of, and the loci it folds until the next run.

At a locus the editor says "read this witness's 萹 as the base's 篇" (key ``r``), in this witness
or all, this layer or all (:class:`~collate.normalize.regularizations.Regularization`). The rule is
saved in the project's regularization table (:mod:`collate.decisions.regularizations`), and the
next ``collate run`` collates with it. The review does not collate again: it loads the saved run
and never runs the pipeline (the import contract says so, and a book takes minutes). So until
the next run a new rule is *pending*: :func:`fold_pending` marks the readings it folds as a run
with it would class them, orthographic (異體, cause variant), each place marked as folded by a
pending rule (:class:`Mark`), so the screen can say the run has not seen it yet.

A rule maps one character to another: the pair is the one character where the witness's reading
and the base's differ in their keys, the others agreeing (:func:`pair_at`). Where they differ in
more (a phrase, an omission) or the pair is one a collator must see (己/已, the never-fold list),
the rule is refused, with why.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from collate.apparatus import Collation, Locus, Reading, ReadingClass, WitnessReading
from collate.apparatus.records import in_order
from collate.model import Cause, Layer, Token
from collate.normalize.regularizations import Regularization

# The classes a rule may turn orthographic: differences of keys that are no placeholder, transposition
# or notation. A loan (通假) too: a pair the project names as graphic wins over the loan table.
FOLDABLE = (ReadingClass.SUBSTANTIVE, ReadingClass.LOAN)


@dataclass(frozen=True, slots=True)
class Pending:
    """A rule made in this review, not yet seen by a run, with the keys of its two characters there.

    ``variant_key`` is the witness's token key where it was made, ``standard_key`` the base's:
    a run with the rule gives the variant the standard's key, so the base's characters of that key
    are the ones it is read as (the base may write the standard in another of its graphs).
    """

    rule: Regularization
    variant_key: str
    standard_key: str

    def folds(self, base: Token, witness: Token, siglum: str, layer: Layer) -> bool:
        """Whether the rule makes ``witness``'s token (of ``siglum``, in ``layer``) read as ``base``'s."""
        r = self.rule
        if r.everywhere:
            # A rule of every witness and layer joins the two classes: each of their members, in the
            # base or in the witness, is read as the other's.
            return {base.n, witness.n} == {self.standard_key, self.variant_key}
        return r.holds(siglum, layer.value) and base.n == self.standard_key and witness.t == r.variant


@dataclass(frozen=True, slots=True)
class Pair:
    """The characters a rule would be made of at a locus: the witness's ``variant`` and the base's ``standard``."""

    variant: Token
    standard: Token


@dataclass(frozen=True, slots=True)
class Mark:
    """A witness's reading over columns [col_start, col_end) of ``layer`` folded by pending ``rules`` (ids)."""

    layer: Layer
    siglum: str
    col_start: int
    col_end: int
    rules: tuple[str, ...]

    def at(self, locus: Locus) -> bool:
        """Whether the mark lies in ``locus`` (cut as the editor merged and split the loci)."""
        return self.layer is locus.layer and self.col_start < locus.col_end and locus.col_start < self.col_end


def witness_reading(locus: Locus, siglum: str) -> tuple[Reading, WitnessReading] | None:
    """The reading ``siglum`` has at ``locus`` and its own text there, if it differs from the base's."""
    reading = locus.reading_of(siglum)
    if reading is None:
        return None
    own = next(w for w in reading.witnesses if w.siglum == siglum)
    return reading, own


def pair_at(locus: Locus, siglum: str) -> Pair | str:
    """The pair of characters a rule at ``locus`` for ``siglum``'s reading is made of, or why there is none.

    Why is a key of the review's words (:mod:`collate.review.texts`): ``refused_no_reading`` (the
    witness reads as the base), ``refused_reported_rule`` (a readings file's reading: no tokens, its
    characters not the witness's own), ``refused_not_one`` (an omission, an addition, or a phrase of
    another length), ``refused_same`` (already one reading: the keys agree), ``refused_several``
    (more than one character differs), ``refused_placeholder``.
    """
    found = witness_reading(locus, siglum)
    if found is None:
        return "refused_no_reading"
    reading, own = found
    if reading.derived:
        return "refused_reported_rule"
    if reading.cls is ReadingClass.PLACEHOLDER:
        return "refused_placeholder"
    lemma = locus.lemma.tokens
    if not lemma or len(lemma) != len(own.tokens) or reading.cls not in (*FOLDABLE, ReadingClass.ORTHOGRAPHIC):
        return "refused_not_one"
    differ = [(a, b) for a, b in zip(lemma, own.tokens, strict=True) if a.n != b.n]
    if not differ:
        return "refused_same"
    if len(differ) > 1:
        return "refused_several"
    base, witness = differ[0]
    if base.is_placeholder or witness.is_placeholder or len(base.t) != 1 or len(witness.t) != 1:
        return "refused_placeholder"
    return Pair(witness, base)


def fold_pending(collation: Collation, pending: Sequence[Pending]) -> tuple[Collation, tuple[Mark, ...]]:
    """The collation with the readings the pending rules fold made orthographic (cause variant), and where.

    A witness's reading folds where every character in which its key differs from the base's is
    one a pending rule reads as the base's; the others who read alike keep the reading (a rule of
    one witness). As a run with the rules would class it, but for the keys, which only a run makes.
    """
    if not pending:
        return collation, ()
    marks: list[Mark] = []
    out = collation
    for result in collation.layers:
        loci = tuple(_locus(x, pending, marks) for x in result.loci)
        if any(a is not b for a, b in zip(loci, result.loci, strict=True)):
            out = out.with_layer(result.with_loci(loci))
    return out, tuple(marks)


def _locus(locus: Locus, pending: Sequence[Pending], marks: list[Mark]) -> Locus:
    if locus.cls is ReadingClass.NOT_EXTANT:
        return locus
    readings: list[Reading] = []
    changed = False
    for reading in locus.readings:
        if reading.cls not in FOLDABLE or reading.derived:
            readings.append(reading)
            continue
        folded: list[WitnessReading] = []
        for w in reading.witnesses:
            rules = _folding(locus.lemma.tokens, w, locus.layer, pending)
            if rules:
                folded.append(w)
                marks.append(Mark(locus.layer, w.siglum, locus.col_start, locus.col_end, rules))
        if not folded:
            readings.append(reading)
            continue
        changed = True
        readings.extend(
            reading.split(folded, cls=ReadingClass.ORTHOGRAPHIC, cause=Cause.VARIANT, rules=("variant-graph",))
        )
    if not changed:
        return locus
    return locus.with_readings(in_order(readings))


def _folding(lemma: Sequence[Token], w: WitnessReading, layer: Layer, pending: Iterable[Pending]) -> tuple[str, ...]:
    """The ids of the rules that fold ``w`` into the lemma, if they fold every character that differs."""
    if not lemma or len(lemma) != len(w.tokens):
        return ()
    used: list[str] = []
    for a, b in zip(lemma, w.tokens, strict=True):
        if a.n == b.n:
            continue
        rule = next((p.rule for p in pending if p.folds(a, b, w.siglum, layer)), None)
        if rule is None:
            return ()
        used.append(rule.id)
    return tuple(dict.fromkeys(used))


@dataclass(frozen=True, slots=True)
class RuleChange:
    """One change to the regularization table, to undo and redo as a decision is: rules added and taken out.

    ``locus`` and ``what`` as :class:`collate.decisions.history.Change` has them, so an undo goes
    back to the locus it was made at and says what it undid.
    """

    put: tuple[Pending, ...]
    remove: tuple[Pending, ...]
    locus: str
    what: str = "regularize"

    def inverse(self) -> RuleChange:
        """The change that takes this one back."""
        return RuleChange(self.remove, self.put, self.locus, self.what)
