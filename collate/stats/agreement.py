"""Agreement of witnesses, pair by pair and layer by layer, from the variant loci of collations.

Each locus of a JSON collation is read once. A witness's *reading* at a place is what it says in
substance: the lemma's word (it is among the lemma's witnesses, or reads the lemma in another
graph: orthographic, a loan character), another text (its reading's normalized form, so that a
readings file's derived reading and a full text that read alike agree), or nothing (a placeholder,
not extant: it is not compared there). The classes are those of the collation with the editor's
decisions applied (a reading reclassified in review has its new class in the JSON); a place an
editor decided is counted as reviewed. Over a batch, a siglum is taken to name the same edition
in every job — the corpus's convention, which the statistics cannot check.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from itertools import combinations
from typing import Any

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


def readings_at(locus: Mapping[str, Any]) -> dict[str, Key | None]:
    """Each witness at a locus: what it reads in substance, or None where it says nothing."""
    keys: dict[str, Key | None] = {s: _LEMMA for s in locus.get("lemma_witnesses", [])}
    for reading in locus.get("readings", []):
        cls = reading.get("class")
        key: Key | None = _LEMMA if cls in SAME_WORD else None if cls in SILENT else ("text", str(reading.get("norm")))
        for w in reading.get("witnesses", []):
            keys[w["siglum"]] = key
    return keys


def is_place(locus: Mapping[str, Any]) -> bool:
    """True if the locus is a place of substance: some reading there is of a substantive class.

    A locus where the base is not extant is no variant (text beyond a fragmentary base).
    """
    if locus.get("class") == "not_extant":
        return False
    return any(r.get("class") in SUBSTANTIVE for r in locus.get("readings", []))


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
        self.classes: defaultdict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self.causes: defaultdict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self.alone: list[Alone] = []
        self.notes: list[str] = []
        self._named_in: dict[str, str] = {}

    def add(self, run: str, data: Mapping[str, Any]) -> None:
        """Count the loci of one collation (its JSON, as :mod:`collate.exporters.json` wrote it)."""
        self.runs.append(run)
        for w in data.get("witnesses", []):
            label = w.get("label") or w["siglum"]
            first = self.labels.setdefault(w["siglum"], label)
            named_in = self._named_in.setdefault(w["siglum"], run)
            if label != first:
                # One siglum, two names: perhaps two editions counted as one.
                self.notes.append(f"{w['siglum']} is {first!r} in {named_in} but {label!r} in {run}")
        for layer in data.get("layers", []):
            name = layer["layer"]
            if name not in self.layers:
                self.layers.append(name)
            for locus in layer.get("loci", []):
                self._locus(run, name, locus)

    def _locus(self, run: str, layer: str, locus: Mapping[str, Any]) -> None:
        for reading in locus.get("readings", []):
            for w in reading.get("witnesses", []):
                self.classes[(w["siglum"], layer)][reading["class"]] += 1
                if reading.get("cause"):
                    self.causes[(w["siglum"], layer)][reading["cause"]] += 1
        if not is_place(locus):
            return
        reviewed = locus.get("decision") is not None
        for name in (layer, ALL_LAYERS):
            self.places[name] += 1
            self.reviewed[name] += reviewed
        keys = {s: k for s, k in readings_at(locus).items() if k is not None}
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
    def _alone(run: str, layer: str, locus: Mapping[str, Any], siglum: str, reviewed: bool) -> Alone:
        lemma = locus.get("lemma") or {}
        own = next(
            (
                (w, r["class"])
                for r in locus.get("readings", [])
                for w in r.get("witnesses", [])
                if w["siglum"] == siglum
            ),
            (lemma, "lemma"),
        )
        location = own[0].get("location") or {}
        return Alone(
            run,
            layer,
            str(locus.get("id")),
            siglum,
            str(own[0].get("text", "")),
            str(lemma.get("text", "")),
            location.get("ref"),
            own[1],
            reviewed,
        )

    def stats(self) -> Stats:
        """The statistics of everything added."""
        layers = (*self.layers, ALL_LAYERS)
        agreements = tuple(
            Agreement(a, b, layer, n, self.agreed[(a, b, layer)])
            for (a, b, layer), n in sorted(self.compared.items(), key=lambda kv: (layers.index(kv[0][2]), kv[0]))
        )
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
        )


def agreement_stats(collations: Iterable[tuple[str, Mapping[str, Any]]]) -> Stats:
    """The statistics of ``collations`` (each a run's name and its JSON), with no tree yet."""
    acc = Accumulator()
    for run, data in collations:
        acc.add(run, data)
    return acc.stats()


__all__ = ["Accumulator", "agreement_stats", "is_place", "readings_at"]
