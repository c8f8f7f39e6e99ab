"""The graphs of a 今古文 note, which a witness sets the other way round: a reading, never a variant form.

鄭玄 notes the graphs the 今文 and 古文 texts write, and the 周禮's 故書: ``古文壹作一`` (where this
text writes 壹, the 古文 writes 一), ``今文禮爲醴``. Such a note is about graphs, and one that swaps
them says the opposite: a print reading ``古文一作壹`` where the base reads ``古文壹作一`` has 鄭's
note reversed. Each of its two graphs alone is a variant form of the other's (壹/一), which the
apparatus rightly lists as orthographic anywhere else; here the two make one reading of words.
So where a witness reads, in a note ``(古文|今文|故書)X(作|爲)Y``, Y for X and X for Y as written, both
of its readings are substantive.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from collate.apparatus.records import Collation, LayerResult, Locus, Reading, in_order
from collate.model import ReadingClass, Token

# The words that open a note of graphs, and those that say "writes": 鄭注's conventions.
NOTE_HEADS = ("古文", "今文", "故書")
WRITES = frozenset("作爲为")


def swapped_graphs(collation: Collation) -> Collation:
    """The collation with each witness's swapped graphs of a 今古文 note substantive (see the module docstring)."""
    layers = tuple(_layer(result) for result in collation.layers)
    if all(a is b for a, b in zip(layers, collation.layers, strict=True)):
        return collation
    return replace(collation, layers=layers)


def _layer(result: LayerResult) -> LayerResult:
    base = result.alignment.base.by_index
    single = {x.base_start: x for x in result.loci if x.base_end == x.base_start + 1}
    swapped: dict[str, set[str]] = {}
    for start, first in single.items():
        second = single.get(start + 2)
        if second is None or not _in_note(base, start):
            continue
        for siglum in _swappers(first, second):
            swapped.setdefault(first.id, set()).add(siglum)
            swapped.setdefault(second.id, set()).add(siglum)
    if not swapped:
        return result
    loci = tuple(_substantive(x, swapped[x.id]) if x.id in swapped else x for x in result.loci)
    return result.with_loci(loci)


def _in_note(base: Mapping[int, Token], start: int) -> bool:
    """Whether the base's graph at ``start`` is a note's X: a head before it, a "writes" after it."""
    mid = base.get(start + 1)
    head = "".join(t.t for k in (start - 2, start - 1) if (t := base.get(k)) is not None)
    return mid is not None and mid.t in WRITES and head in NOTE_HEADS


def _swappers(first: Locus, second: Locus) -> list[str]:
    """The witnesses that read the second graph at the first and the first at the second, as written."""
    x, y = first.lemma.text, second.lemma.text
    if x == y:
        return []
    found = []
    for reading in first.readings:
        for w in reading.witnesses:
            other = second.reading_of(w.siglum)
            theirs = next((v.text for v in other.witnesses if v.siglum == w.siglum), None) if other else None
            if w.text == y and theirs == x:
                found.append(w.siglum)
    return found


def _substantive(locus: Locus, sigla: set[str]) -> Locus:
    """The locus with the readings of ``sigla`` substantive (split from readings others share)."""
    readings: list[Reading] = []
    for reading in locus.readings:
        mine = [w for w in reading.witnesses if w.siglum in sigla]
        if not mine or reading.cls is ReadingClass.SUBSTANTIVE:
            readings.append(reading)
            continue
        readings.extend(reading.split(mine, cls=ReadingClass.SUBSTANTIVE, cause=None, rules=()))
    return locus.with_readings(in_order(readings))
