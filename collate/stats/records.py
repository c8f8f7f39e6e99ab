"""What the witnesses tell together: the records of ``collate stats``, and their JSON.

A *place* is a variant locus of the apparatus where some witness reads otherwise in substance
(:data:`SUBSTANTIVE`); two witnesses extant there *agree* if they read the same. The rates are
over those places only — the text all witnesses share is no evidence of how they are related.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from collate.model import ReadingClass

# The classes that make a place of substance: different words, order, text lacking or added, and
# the editor's scribal errors (a shared error is the strongest sign that two copies are related).
SUBSTANTIVE = frozenset(
    {
        ReadingClass.SUBSTANTIVE.value,
        ReadingClass.TRANSPOSITION.value,
        ReadingClass.OMISSION.value,
        ReadingClass.ADDITION.value,
        ReadingClass.SCRIBAL_ERROR.value,
    }
)
# Readings that say the lemma's word in another graph: they agree with the lemma in substance.
SAME_WORD = frozenset({ReadingClass.ORTHOGRAPHIC.value, ReadingClass.LOAN.value})
# Readings that say nothing of the place: the witness is not compared there.
SILENT = frozenset({ReadingClass.PLACEHOLDER.value, ReadingClass.NOT_EXTANT.value})
ALL_LAYERS = "all"


@dataclass(frozen=True, slots=True)
class Agreement:
    """Two witnesses in one layer (or :data:`ALL_LAYERS`): places where both are compared, and where they agree."""

    a: str
    b: str
    layer: str
    compared: int
    agreed: int

    @property
    def rate(self) -> float | None:
        """The share of the places compared where the two read the same; None where none is."""
        return self.agreed / self.compared if self.compared else None


@dataclass(frozen=True, slots=True)
class Alone:
    """A place where one witness stands alone: at least two others are compared there, none reads as it does."""

    run: str
    layer: str
    locus: str
    siglum: str
    text: str
    lemma: str
    ref: str | None
    cls: str
    reviewed: bool


@dataclass(frozen=True, slots=True)
class WitnessCounts:
    """One witness in one layer: its readings by class and by cause, and how often it stands alone."""

    siglum: str
    layer: str
    classes: Mapping[str, int]
    causes: Mapping[str, int]
    alone: int


@dataclass(frozen=True, slots=True)
class Node:
    """A node of a witness tree: a witness (a leaf, ``name`` set) or a join, with its branches and their lengths."""

    name: str | None = None
    children: tuple[tuple[Node, float], ...] = ()


@dataclass(frozen=True, slots=True)
class Tree:
    """The neighbour-joining tree of the witnesses, unrooted (drawn from its last join), and who was left out.

    ``left_out`` are the witnesses with no place in common with some other: no distance to it.
    """

    root: Node
    newick: str
    witnesses: tuple[str, ...]
    left_out: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Stats:
    """Everything ``collate stats`` reports, over one run or every job of a batch.

    ``places`` and ``reviewed`` count the places of substance per layer (and over all), and
    those of them an editor decided; ``labels`` give each siglum's label as the first run names it.
    """

    runs: tuple[str, ...]
    labels: Mapping[str, str]
    layers: tuple[str, ...]
    places: Mapping[str, int]
    reviewed: Mapping[str, int]
    agreements: tuple[Agreement, ...]
    counts: tuple[WitnessCounts, ...]
    alone: tuple[Alone, ...]
    tree: Tree | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)

    def agreement(self, a: str, b: str, layer: str = ALL_LAYERS) -> Agreement | None:
        """The agreement of ``a`` and ``b`` in ``layer``, if they were ever compared there.

        For one look-up: a table of every pair asks :func:`by_pair` once instead.
        """
        return by_pair(self).get(pair_key(a, b, layer))


def pair_key(a: str, b: str, layer: str) -> tuple[str, str, str]:
    """The key of a pair in a layer: the two sigla in sort order, so that (a, b) and (b, a) are one."""
    return (a, b, layer) if a <= b else (b, a, layer)


def by_pair(stats: Stats) -> dict[tuple[str, str, str], Agreement]:
    """Every agreement by :func:`pair_key`."""
    return {pair_key(x.a, x.b, x.layer): x for x in stats.agreements}


def _node_json(node: Node) -> dict[str, Any]:
    if node.name is not None:
        return {"name": node.name}
    return {"children": [{"length": round(length, 6), **_node_json(child)} for child, length in node.children]}


def stats_json(stats: Stats) -> dict[str, Any]:
    """The statistics as the ``--json`` output writes them (schema ``collate-stats/1``, in docs/batch.md)."""
    tree = stats.tree
    return {
        "schema": "collate-stats/1",
        "runs": list(stats.runs),
        "witnesses": [{"siglum": s, "label": label} for s, label in stats.labels.items()],
        "layers": list(stats.layers),
        "places": dict(stats.places),
        "reviewed": dict(stats.reviewed),
        "agreement": [
            {
                "a": x.a,
                "b": x.b,
                "layer": x.layer,
                "compared": x.compared,
                "agreed": x.agreed,
                "rate": None if x.rate is None else round(x.rate, 6),
            }
            for x in stats.agreements
        ],
        "counts": [
            {
                "siglum": c.siglum,
                "layer": c.layer,
                "classes": dict(c.classes),
                "causes": dict(c.causes),
                "alone": c.alone,
            }
            for c in stats.counts
        ],
        "alone": [
            {
                "run": a.run,
                "layer": a.layer,
                "locus": a.locus,
                "siglum": a.siglum,
                "text": a.text,
                "lemma": a.lemma,
                "ref": a.ref,
                "class": a.cls,
                "reviewed": a.reviewed,
            }
            for a in stats.alone
        ],
        "tree": None
        if tree is None
        else {
            "newick": tree.newick,
            "witnesses": list(tree.witnesses),
            "left_out": list(tree.left_out),
            "root": _node_json(tree.root),
        },
        "notes": list(stats.notes),
    }


__all__ = [
    "ALL_LAYERS",
    "SAME_WORD",
    "SILENT",
    "SUBSTANTIVE",
    "Agreement",
    "Alone",
    "Node",
    "Stats",
    "Tree",
    "WitnessCounts",
    "by_pair",
    "pair_key",
    "stats_json",
]
