"""Agreement of witnesses, pair by pair and layer by layer, from the variant loci of collations.

Each locus of a JSON collation is read once. A witness's *reading* at a place is what it says in
substance: the lemma's word (it is among the lemma's witnesses, or reads the lemma in another
graph: orthographic, a loan character), another text (its reading's normalized form, so that a
readings file's derived reading and a full text that read alike agree), or nothing (a placeholder,
not extant: it is not compared there). The classes are those of the collation with the editor's
decisions applied (a reading reclassified in review has its new class in the JSON); a place an
editor decided is counted as reviewed. Two witnesses are compared where a third is compared beside
them: where they are the only two, the place is one only because one of them reads otherwise, so
it is counted apart (``only_two``) and not in their rate. Over a batch, a siglum is taken to name the same edition
in every job — the corpus's convention, which the statistics cannot check.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from itertools import combinations

from collate.stats.read import Said, StatsCollation, StatsLocus
from collate.stats.records import (
    ALL_LAYERS,
    SAME_WORD,
    SILENT,
    SUBSTANTIVE,
    Agreement,
    Alone,
    Stats,
    WitnessCounts,
)

_LEMMA = ("=",)
Key = tuple[str, ...]


def readings_at(locus: StatsLocus) -> dict[str, Key | None]:
    """Each witness at a locus: what it reads in substance, or None where it says nothing."""
    keys: dict[str, Key | None] = dict.fromkeys(locus.lemma_witnesses, _LEMMA)
    for reading in locus.readings:
        cls = reading.cls
        key: Key | None = _LEMMA if cls in SAME_WORD else None if cls in SILENT else ("text", reading.norm)
        for w in reading.witnesses:
            keys[w.siglum] = key
    return keys


def is_place(locus: StatsLocus) -> bool:
    """True if the locus is a place of substance: some reading there is of a substantive class.

    A locus where the base is not extant is no variant (text beyond a fragmentary base).
    """
    if locus.cls == "not_extant":
        return False
    return any(r.cls in SUBSTANTIVE for r in locus.readings)


class Accumulator:
    """The counts of :class:`Stats`, added to one collation at a time."""

    def __init__(self) -> None:
        self.runs: list[str] = []
        self.labels: dict[str, str] = {}
        self.layers: list[str] = []
        self.places: Counter[str] = Counter()
        self.reviewed: Counter[str] = Counter()
        self.compared: Counter[tuple[str, str, str]] = Counter()
        self.agreed: Counter[tuple[str, str, str]] = Counter()
        self.only_two: Counter[tuple[str, str, str]] = Counter()
        self.sparse: set[str] = set()
        self.classes: defaultdict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self.causes: defaultdict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self.alone: list[Alone] = []
        self.notes: list[str] = []
        self._named_in: dict[str, str] = {}

    def add(self, run: str, data: StatsCollation) -> None:
        """Count the loci of one collation (what :func:`~collate.stats.read.read_collation` read of its JSON)."""
        self.runs.append(run)
        # A siglum that is a readings file in one job is one in all: its rates there are low by construction.
        self.sparse |= data.sparse
        for siglum, label in data.labels:
            first = self.labels.setdefault(siglum, label)
            named_in = self._named_in.setdefault(siglum, run)
            if label != first:
                # One siglum, two names: perhaps two editions counted as one.
                self.notes.append(f"{siglum} is {first!r} in {named_in} but {label!r} in {run}")
        for name, loci in data.layers:
            if name not in self.layers:
                self.layers.append(name)
            for locus in loci:
                self._locus(run, name, locus)

    def _locus(self, run: str, layer: str, locus: StatsLocus) -> None:
        for reading in locus.readings:
            for w in reading.witnesses:
                self.classes[(w.siglum, layer)][reading.cls] += 1
                if reading.cause:
                    self.causes[(w.siglum, layer)][reading.cause] += 1
        if not is_place(locus):
            return
        reviewed = locus.decided
        for name in (layer, ALL_LAYERS):
            self.places[name] += 1
            self.reviewed[name] += reviewed
        keys = {s: k for s, k in readings_at(locus).items() if k is not None}
        if len(keys) == 2:
            # The place is one because one of the two reads otherwise: no evidence of how alike they are.
            pair = tuple(sorted(keys))
            for name in (layer, ALL_LAYERS):
                self.only_two[(pair[0], pair[1], name)] += 1
            return
        for a, b in combinations(sorted(keys), 2):
            for name in (layer, ALL_LAYERS):
                self.compared[(a, b, name)] += 1
                self.agreed[(a, b, name)] += keys[a] == keys[b]
        if len(keys) < 3:
            return
        shared = Counter(keys.values())
        for siglum, key in keys.items():
            if shared[key] == 1:
                self.alone.append(self._alone(run, layer, locus, siglum, reviewed))

    @staticmethod
    def _alone(run: str, layer: str, locus: StatsLocus, siglum: str, reviewed: bool) -> Alone:
        lemma = locus.lemma or Said(siglum, "", None)
        own = next(
            ((w, r.cls) for r in locus.readings for w in r.witnesses if w.siglum == siglum),
            (lemma, "lemma"),
        )
        return Alone(run, layer, locus.id, siglum, own[0].text, lemma.text, own[0].ref, own[1], reviewed)

    def stats(self) -> Stats:
        """The statistics of everything added."""
        layers = (*self.layers, ALL_LAYERS)
        pairs = sorted(self.compared.keys() | self.only_two.keys(), key=lambda k: (layers.index(k[2]), k))
        agreements = tuple(Agreement(*k, self.compared[k], self.agreed[k], self.only_two[k]) for k in pairs)
        alone = Counter((a.siglum, a.layer) for a in self.alone)
        counts = []
        for siglum in self.labels:
            for layer in self.layers:
                key = (siglum, layer)
                if key in self.classes or alone[key]:
                    counts.append(
                        WitnessCounts(siglum, layer, dict(self.classes[key]), dict(self.causes[key]), alone[key])
                    )
        return Stats(
            runs=tuple(self.runs),
            labels=dict(self.labels),
            layers=tuple(self.layers),
            places={layer: self.places[layer] for layer in layers},
            reviewed={layer: self.reviewed[layer] for layer in layers},
            agreements=agreements,
            counts=tuple(counts),
            alone=tuple(self.alone),
            notes=tuple(self.notes),
            sparse=frozenset(self.sparse),
        )


def agreement_stats(collations: Iterable[tuple[str, StatsCollation]]) -> Stats:
    """The statistics of ``collations`` (each a run's name and its JSON), with no tree yet."""
    acc = Accumulator()
    for run, data in collations:
        acc.add(run, data)
    return acc.stats()


__all__ = ["Accumulator", "agreement_stats", "is_place", "readings_at"]
