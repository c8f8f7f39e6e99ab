"""A witness tree from the agreement distances: neighbour joining (Saitou & Nei 1987), by Biopython.

The joining is Biopython's (``Bio.Phylo.TreeConstruction.DistanceTreeConstructor.nj``), chosen
over scikit-bio's ``skbio.tree.nj`` and DendroPy's ``PhylogeneticDistanceMatrix.nj_tree``:

- weight: Biopython's wheel is 3 MB and needs numpy only (about 95 MB installed with it);
  scikit-bio's brings scipy, pandas, statsmodels, h5py and biom-format (about 100 MB of wheels,
  500 MB installed); DendroPy's is 0.5 MB, pure Python;
- import time: about 0.25 s (numpy) against 1.4 s for scikit-bio and 0.1 s for DendroPy; it is
  imported only when a tree is joined, so ``collate --help`` does not pay it;
- determinism: Biopython scans the pairs in the order of the names and keeps the first of equal
  ones, so the same distances give the same tree. DendroPy keeps its taxa in a set hashed by
  object address: on a matrix of ties (common here: witnesses that agree equally) it returned a
  different tree on each of eight runs;
- licence: ``Bio.Phylo.TreeConstruction`` is under the BSD 3-Clause licence or the Biopython
  License Agreement, at our choice (both permissive; scikit-bio and DendroPy are BSD too); it is a
  long-kept project (since 1999) and ships type information.

Biopython leaves a negative branch length (distances that fit no tree well) as it is; here it is
set to 0 and the difference given to its sister, as is usual, so a drawing never runs backwards.
The result is checked against the textbook example whose tree is known (tests/test_stats.py).

Which witnesses the tree can hold is decided here too (:func:`tree_witnesses`): a readings file
is compared only where it reports a reading, mostly where it differs, so its distances are long by
construction; and a pair needs :data:`~collate.stats.records.MIN_PLACES` places for its distance
to be more than noise.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from collate.stats.records import ALL_LAYERS, MIN_PLACES, Agreement, LeftOut, Node, Stats, Tree

if TYPE_CHECKING:
    from Bio.Phylo.BaseTree import Clade

Distances = Mapping[frozenset[str], float]


def neighbour_joining(names: Sequence[str], distances: Distances) -> Node:
    """The neighbour-joining tree of ``names`` (at least two), from the distance of every pair.

    Unrooted: the node returned is the last join, with three branches (two for two witnesses).
    Ties go to the first pair in the order of ``names``; each node's branches are in that order too.
    """
    # Imported here: numpy comes with it, and only `collate stats` needs it.
    from Bio.Phylo.TreeConstruction import DistanceMatrix, DistanceTreeConstructor

    if len(names) < 2:
        raise ValueError("a tree needs two witnesses at least")
    # Biopython names its joins "Inner1", "Inner2"…: the witnesses go in by number, so that a
    # siglum can never be taken for a join, and come out by it.
    matrix = [[distances[frozenset((a, b))] for b in names[:i]] + [0.0] for i, a in enumerate(names)]
    numbers = [str(i) for i in range(len(names))]
    # Biopython ships type information, but its matrix and constructor are not annotated.
    tree = DistanceTreeConstructor().nj(DistanceMatrix(numbers, matrix))  # type: ignore[no-untyped-call]
    return _node(tree.root, names)[0]


def _node(clade: Clade, names: Sequence[str]) -> tuple[Node, int]:
    """Our record of Biopython's clade, and the number of its first witness (by which its siblings are ordered)."""
    if not clade.clades:
        number = int(clade.name)
        return Node(names[number]), number
    # Each join's first two branches are the pair it joined; the last join has a third, the rest.
    lengths = [float(child.branch_length or 0.0) for child in clade.clades]
    lengths[:2] = _lengths(lengths[0], lengths[1])
    lengths[2:] = [max(length, 0.0) for length in lengths[2:]]
    children = sorted(
        ((*_node(child, names), length) for child, length in zip(clade.clades, lengths, strict=True)),
        key=lambda c: c[1],
    )
    # Branches in the witnesses' order (the base, named first, at the top), not in the order of the joins.
    return Node(children=tuple((node, length) for node, _, length in children)), children[0][1]


def _lengths(a: float, b: float) -> tuple[float, float]:
    """Two sister branches, neither negative: a negative one is set to 0 and its sister keeps their sum."""
    if a < 0:
        return 0.0, max(a + b, 0.0)
    if b < 0:
        return max(a + b, 0.0), 0.0
    return a, b


_PLAIN = re.compile(r"[^\s(),:;'\[\]]+")


def _label(name: str) -> str:
    # Newick quotes a label holding its own punctuation; a quote inside is doubled.
    return name if _PLAIN.fullmatch(name) else "'" + name.replace("'", "''") + "'"


def newick(node: Node) -> str:
    """The tree in Newick notation, branch lengths to four places: ``(A:0.1,B:0.2,(C:0.1,D:0.1):0.05);``."""

    def text(n: Node) -> str:
        if n.name is not None:
            return _label(n.name)
        return "(" + ",".join(f"{text(child)}:{length:.4f}" for child, length in n.children) + ")"

    return text(node) + ";"


def leaves(node: Node) -> list[str]:
    """The witnesses of the tree, in drawing order."""
    if node.name is not None:
        return [node.name]
    return [name for child, _ in node.children for name in leaves(child)]


def _too_few(siglum: str, others: Sequence[str], pairs: Mapping[frozenset[str], Agreement]) -> str:
    """Why ``siglum`` has no distance to ``others``: the places it shares with each, and where it meets one alone."""
    counts = [(t, x.compared if (x := pairs.get(frozenset((siglum, t)))) else 0) for t in others]
    some = [f"{n} with {t}" for t, n in counts if n]
    none = [t for t, n in counts if not n]
    shared = "; ".join([*some, *(["none with " + ", ".join(none)] if none else [])])
    why = f"too few places in common (fewer than {MIN_PLACES} where a third witness is compared too): {shared}"
    alone = [f"{x.only_two} with {t}" for t in others if (x := pairs.get(frozenset((siglum, t)))) and x.only_two]
    if alone:
        why += f"; places where only it and one other are compared, so differ by construction: {', '.join(alone)}"
    return why


def tree_witnesses(stats: Stats) -> tuple[tuple[str, ...], tuple[LeftOut, ...]]:
    """The witnesses the tree can hold, and those it leaves out with the reason.

    A readings file is left out (its distances are long by construction). Then, while some pair
    left has fewer than :data:`~collate.stats.records.MIN_PLACES` places, the witness lacking the
    most distances is left out, so every pair of the tree has one.
    """
    pairs = {frozenset((x.a, x.b)): x for x in stats.agreements if x.layer == ALL_LAYERS}
    measured = {pair for pair, x in pairs.items() if x.measured}
    left_out = [
        LeftOut(s, "a readings file: compared only where it reports a reading, mostly where it differs")
        for s in stats.labels
        if s in stats.sparse
    ]
    names = [s for s in stats.labels if s not in stats.sparse]
    weight = {s: sum(x.compared for pair, x in pairs.items() if s in pair) for s in names}
    while names:
        missing = {s: [t for t in names if t != s and frozenset((s, t)) not in measured] for s in names}
        # Of equals, the one compared least goes, then the later one: the base, named first, stays.
        worst = max(names, key=lambda s: (len(missing[s]), -weight[s], names.index(s)))
        if not missing[worst]:
            break
        names.remove(worst)
        left_out.append(LeftOut(worst, _too_few(worst, missing[worst], pairs)))
    if len(names) == 1:
        # One witness is no tree: it is named too, so that every witness is accounted for.
        left_out.append(LeftOut(names.pop(), "no other witness is left to join it with"))
    return tuple(names), tuple(left_out)


def witness_tree(
    stats: Stats, chosen: tuple[tuple[str, ...], tuple[LeftOut, ...]] | None = None
) -> Tree | None:
    """The tree of the witnesses from ``1 - agreement`` over all layers; None for fewer than two.

    Only the witnesses of :func:`tree_witnesses` are joined (``chosen``: its result, where the
    caller has it already).
    """
    names, left_out = chosen or tree_witnesses(stats)
    if len(names) < 2:
        return None
    pairs = {frozenset((x.a, x.b)): x for x in stats.agreements if x.layer == ALL_LAYERS}
    distances = {pair: 1.0 - x.agreed / x.compared for pair, x in pairs.items() if pair <= set(names)}
    root = neighbour_joining(names, distances)
    return Tree(root, newick(root), names, tuple(x.siglum for x in left_out))


def with_tree(stats: Stats) -> Stats:
    """``stats`` with its tree and the witnesses the tree leaves out (with why), tree or none."""
    chosen = tree_witnesses(stats)
    return replace(stats, tree=witness_tree(stats, chosen), left_out=chosen[1])


__all__ = ["leaves", "neighbour_joining", "newick", "tree_witnesses", "with_tree", "witness_tree"]
