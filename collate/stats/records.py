"""What the witnesses tell together: the records of ``collate stats``, and their JSON.

A *place* is a variant locus of the apparatus where some witness reads otherwise in substance
(:data:`SUBSTANTIVE`); two witnesses extant there *agree* if they read the same. The rates are
over those places only — the text all witnesses share is no evidence of how they are related —
and only where a third witness is compared beside the two: where the two alone are compared, the
place is there because one of them reads otherwise, so they differ by construction.
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
# A rate is shown, and a pair joins the tree, only over this many places at least. Below it one
# place moves the rate by more than ten points, and the 95% interval of a rate near one half
# (±1.96·√(¼/n)) is wider than ±30 points: it cannot tell two witnesses that mostly agree from two
# that mostly differ.
MIN_PLACES = 10


@dataclass(frozen=True, slots=True)
class Agreement:
    """Two witnesses in one layer (or :data:`ALL_LAYERS`): where both are compared, and where they agree.

    ``compared`` counts the places where both are compared beside a third witness, ``agreed`` those
    of them where the two read the same; ``only_two`` the places where they alone are compared
    (they differ there by construction: not in the rate).
    """

    a: str
    b: str
    layer: str
    compared: int
    agreed: int
    only_two: int = 0

    @property
    def rate(self) -> float | None:
        """The share of the places compared where the two read the same; None where none is."""
        return self.agreed / self.compared if self.compared else None

    @property
    def measured(self) -> bool:
        """True if the rate is over enough places to say something (:data:`MIN_PLACES`)."""
        return self.compared >= MIN_PLACES


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
class LeftOut:
    """A witness the tree leaves out, and why (a readings file, too few places shared with others)."""

    siglum: str
    why: str


@dataclass(frozen=True, slots=True)
class Tree:
    """The neighbour-joining tree of the witnesses, unrooted (drawn from its last join), and who was left out.

    ``left_out`` are the witnesses it leaves out (why: :attr:`Stats.left_out`).
    """

    root: Node
    newick: str
    witnesses: tuple[str, ...]
    left_out: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Stats:
    """Everything ``collate stats`` reports, over one run or every job of a batch.

    ``places`` and ``reviewed`` count the places of substance per layer (and over all), and
    those of them an editor decided; ``labels`` give each siglum's label as the first run names it;
    ``sparse`` are the readings files (a witness extant only where it reports a reading); ``left_out``
    the witnesses the tree leaves out and why, whether or not a tree could be drawn.
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
    sparse: frozenset[str] = frozenset()
    left_out: tuple[LeftOut, ...] = ()

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
        "witnesses": [{"siglum": s, "label": label, "sparse": s in stats.sparse} for s, label in stats.labels.items()],
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
                "only_two": x.only_two,
                "rate": None if x.rate is None else round(x.rate, 6),
                "measured": x.measured,
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
        "left_out_of_tree": [{"siglum": x.siglum, "why": x.why} for x in stats.left_out],
        "notes": list(stats.notes),
    }


__all__ = [
    "ALL_LAYERS",
    "MIN_PLACES",
    "SAME_WORD",
    "SILENT",
    "SUBSTANTIVE",
    "Agreement",
    "Alone",
    "LeftOut",
    "Node",
    "Stats",
    "Tree",
    "WitnessCounts",
    "by_pair",
    "pair_key",
    "stats_json",
]
