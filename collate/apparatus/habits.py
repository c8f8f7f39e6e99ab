"""A print's habits, found in the collation: 某本凡「讓」皆作「譲」，下不出校.

An editor does not carry a list of every variant form; she sees that an edition *always*
writes 譲 where the base writes 讓, says so once, and lists none of those places. So does
:func:`find_habits`, from the aligned layers of the whole run (all layers together: a print's
habits are its own, not a layer's). A witness has the habit of writing ``written`` for the
base's ``base`` where:

- it does so at :data:`MIN_PLACES` places or more;
- it does so at :data:`SHARE` of the places (or more) where the base writes ``base`` and the
  witness has a character there (where it writes ``base`` itself it agrees: a habit allows
  a few exceptions, as prints have);
- never the other way (it never writes ``base`` where the base writes ``written``: that is
  confusion, not a habit);
- the pair is a plausible graphic variant: a dictionary relates the two, however weakly
  (``cjkvi_related.tsv``), or the normalizer takes one for a rare graph's common character
  (the 纂圖互註's 𥙿 for 裕, 衤 for 礻: :mod:`collate.normalize.relations`). Without either,
  however regular, it may be a reading of another recension
  (大戴禮記 reads 峭 wherever the 禮記 reads 哨): a reading at every place;
- the pair is none a collator must see (the never-fold list: 己/已, 曰/日 …), nor a loan (通假,
  a different word: listed as one at every place);
- no other witness writes ``written`` for ``base`` anywhere: a form another print shares is a
  reading of the tradition (采繁 for 采蘩 in two editions), never one print's habit; a rare graph
  excepted, which prints of one age cut alike (the 纂圖互註 and the 單疏本 both write 𥙿 for 裕);
- the witness and the base are written in one script: a traditional print that writes 後 where a
  simplified base has 后 shows its script, not a habit (the difference is declared once).

The loci where the witness reads so are orthographic for it, with the cause ``habit``; each
habit is one statement (:class:`Habit`) in every output. An editor confirms or rejects a habit
in the decisions file (``[[habit]]``, :class:`HabitVerdict`): a rejected habit is not applied,
a confirmed one is applied wherever the witness reads so, however few the places.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from collate.apparatus.records import Collation, Habit, LayerResult, Locus, Reading, in_order
from collate.model import Cause, ReadingClass, Token
from collate.normalize.relations import RARE_GRAPH

if TYPE_CHECKING:
    from collate.normalize import Normalizer

MIN_PLACES = 2
SHARE = 0.75


@dataclass(frozen=True, slots=True)
class HabitVerdict:
    """An editor's word on a habit: ``confirm`` or ``reject`` (kept in the decisions file)."""

    siglum: str
    base: str
    written: str
    verdict: str
    editor: str = ""
    when: str = ""
    comment: str = ""

    @property
    def confirmed(self) -> bool:
        """True for ``confirm``, False for ``reject``."""
        return self.verdict == "confirm"


@dataclass(slots=True)
class _Counts:
    """What each witness writes where the base has a character: agreeing, and each other character."""

    agree: Counter[tuple[str, str]]
    written: Counter[tuple[str, str, str]]

    @classmethod
    def of(cls, layers: Iterable[LayerResult]) -> _Counts:
        agree: Counter[tuple[str, str]] = Counter()
        written: Counter[tuple[str, str, str]] = Counter()
        for result in layers:
            sigla = result.alignment.sigla
            for column in result.alignment.columns:
                base = column[0]
                if base is None or base.is_placeholder:
                    continue
                for j in range(1, len(sigla)):
                    token = column[j]
                    if token is None or token.is_placeholder:
                        continue
                    if token.t == base.t:
                        agree[(sigla[j], base.t)] += 1
                    elif token.n != base.n:
                        written[(sigla[j], base.t, token.t)] += 1
        return cls(agree, written)


def find_habits(
    collation: Collation, normalizer: Normalizer, verdicts: Sequence[HabitVerdict] = ()
) -> tuple[Habit, ...]:
    """The habits the witnesses of ``collation`` show (see the module docstring), with the editor's verdicts."""
    counts = _Counts.of(collation.layers)
    simplified = _simplified(collation.layers)
    said = {(v.siglum, v.base, v.written): v for v in verdicts}
    writers: Counter[tuple[str, str]] = Counter((base, written) for _, base, written in counts.written)
    habits = []
    for (siglum, base, written), places in sorted(counts.written.items()):
        if len(base) != 1 or len(written) != 1:
            continue
        verdict = said.get((siglum, base, written))
        agrees = counts.agree[(siglum, base)]
        scripts = (collation.base in simplified, siglum in simplified)
        relation = _relation(base, written, normalizer, scripts)
        if relation is None:
            continue  # never folded, a loan, or a look-alike: a reading at every place
        found = (
            places >= MIN_PLACES
            and places >= SHARE * (places + agrees)
            and not counts.written[(siglum, written, base)]
            and (writers[(base, written)] == 1 or relation == RARE_GRAPH)
            and bool(relation)
        )
        if found or (verdict is not None and verdict.confirmed):
            habits.append(
                Habit(siglum, base, written, places, agrees, relation, verdict.verdict if verdict else "found")
            )
        elif verdict is not None:
            habits.append(Habit(siglum, base, written, places, agrees, relation, verdict.verdict))
    return tuple(habits)


def _simplified(layers: Iterable[LayerResult]) -> frozenset[str]:
    """The witnesses written in simplified characters, judged on all their collated characters."""
    from collate.normalize.script import is_simplified_text

    texts: dict[str, list[str]] = {}
    for result in layers:
        columns = result.alignment.columns
        for j, siglum in enumerate(result.alignment.sigla):
            texts.setdefault(siglum, []).extend(tok.t for col in columns if (tok := col[j]) is not None)
    return frozenset(s for s, chars in texts.items() if is_simplified_text("".join(chars)))


def _relation(
    base: str, written: str, normalizer: Normalizer, simplified: tuple[bool, bool] = (False, False)
) -> str | None:
    """What relates the two characters ("" for nothing); None where no habit may rest on them.

    ``simplified``: whether the base and the witness are written in simplified characters.
    """
    if normalizer.lookalike(base, written) or normalizer.never_folds(base, written):
        return None
    change = normalizer.relation(base, written, simplified=simplified)
    if change is not None and change.rule == "loan":
        return None
    if change is not None and change.rule == "script" and simplified[0] != simplified[1]:
        return None  # a difference of script between the two texts: declared once, no habit
    return change.source if change is not None else ""


def apply_habits(collation: Collation, habits: Sequence[Habit]) -> Collation:
    """The collation with each applied habit's places orthographic for its witness (cause ``habit``).

    A reading all of whose differences from the lemma are habits of a witness becomes, for that
    witness, an orthographic reading of its own with the cause ``habit`` (one a dictionary made a
    print form already too: its cause says it is the habit's); the others who read alike keep the reading.
    """
    applied = {(h.siglum, h.base, h.written) for h in habits if h.applied}
    if not applied:
        return replace(collation, habits=tuple(habits))
    layers = []
    for result in collation.layers:
        loci = tuple(_locus(x, applied) for x in result.loci)
        layers.append(result.with_loci(loci))
    return replace(collation, layers=tuple(layers), habits=tuple(habits))


def _locus(locus: Locus, applied: set[tuple[str, str, str]]) -> Locus:
    if locus.cls is ReadingClass.NOT_EXTANT:
        return locus
    changed = False
    readings: list[Reading] = []
    for reading in locus.readings:
        if reading.cls not in (ReadingClass.SUBSTANTIVE, ReadingClass.ORTHOGRAPHIC) or reading.derived:
            readings.append(reading)
            continue
        habitual = [w for w in reading.witnesses if _by_habit(locus.lemma.tokens, w.tokens, w.siglum, applied)]
        if not habitual:
            readings.append(reading)
            continue
        changed = True
        readings.extend(reading.split(habitual, cls=ReadingClass.ORTHOGRAPHIC, cause=Cause.HABIT))
    if not changed:
        return locus
    return locus.with_readings(in_order(readings))


def _by_habit(lemma: Sequence[Token], tokens: Sequence[Token], siglum: str, applied: set[tuple[str, str, str]]) -> bool:
    """Whether the witness's tokens differ from the lemma's in its habits alone (character for character)."""
    if len(lemma) != len(tokens) or not lemma:
        return False
    differ = [(a, b) for a, b in zip(lemma, tokens, strict=True) if a.n != b.n]
    return bool(differ) and all((siglum, a.t, b.t) in applied for a, b in differ)


__all__ = ["Habit", "HabitVerdict", "apply_habits", "find_habits"]
