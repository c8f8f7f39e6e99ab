"""A witness tree from the agreement distances: neighbour joining (Saitou & Nei 1987).

Implemented here, not taken from a library: none of scipy, scikit-bio or Biopython is among
collate's dependencies, and the method is twenty lines. The result is checked against the
textbook example whose tree is known (tests/test_stats.py).

Each step joins the pair that minimizes ``Q(i, j) = (n - 2) d(i, j) - r(i) - r(j)`` (``r`` the row
sums) under a new node, with branch lengths ``d(i, j) / 2 ± (r(i) - r(j)) / (2 (n - 2))``, and puts
the new node at ``(d(i, k) + d(j, k) - d(i, j)) / 2`` from every other; the last three meet at one
node. A negative branch length (distances that fit no tree well) is set to 0, and at a join the
difference is given to its sister, as is usual. Ties go to the first pair in the witnesses' order, so the same
distances always give the same tree.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from collate.stats.records import ALL_LAYERS, Node, Stats, Tree

Distances = Mapping[frozenset[str], float]


def _d(dist: dict[frozenset[int], float], i: int, j: int) -> float:
    return dist[frozenset((i, j))]


def neighbour_joining(names: Sequence[str], distances: Distances) -> Node:
    """The neighbour-joining tree of ``names`` (at least two), from the distance of every pair.

    Unrooted: the node returned is the last join, with three branches (two for two witnesses).
    """
    if len(names) < 2:
        raise ValueError("a tree needs two witnesses at least")
    nodes: dict[int, Node] = {i: Node(name) for i, name in enumerate(names)}
    dist = {
        frozenset((i, j)): distances[frozenset((a, b))]
        for i, a in enumerate(names)
        for j, b in enumerate(names)
        if i < j
    }
    if len(names) == 2:
        half = dist[frozenset((0, 1))] / 2
        return Node(children=((nodes[0], half), (nodes[1], half)))
    fresh = len(names)
    while len(nodes) > 3:
        active = sorted(nodes)
        n = len(active)
        r = {i: sum(_d(dist, i, k) for k in active if k != i) for i in active}
        best: tuple[float, int, int] | None = None
        for x, i in enumerate(active):
            for j in active[x + 1 :]:
                q = (n - 2) * _d(dist, i, j) - r[i] - r[j]
                if best is None or q < best[0] - 1e-12:
                    best = (q, i, j)
        assert best is not None
        _, i, j = best
        dij = _d(dist, i, j)
        li = dij / 2 + (r[i] - r[j]) / (2 * (n - 2))
        li, lj = _lengths(li, dij - li)
        u = fresh
        fresh += 1
        for k in active:
            if k not in (i, j):
                dist[frozenset((u, k))] = (_d(dist, i, k) + _d(dist, j, k) - dij) / 2
        nodes[u] = Node(children=((nodes.pop(i), li), (nodes.pop(j), lj)))
    i, j, k = sorted(nodes)
    dij, dik, djk = _d(dist, i, j), _d(dist, i, k), _d(dist, j, k)
    lengths = [(dij + dik - djk) / 2, (dij + djk - dik) / 2, (dik + djk - dij) / 2]
    # At most one of the three can be negative; it is set to 0 (the other two are then a little long).
    lengths = [max(length, 0.0) for length in lengths]
    return Node(children=tuple((nodes[m], length) for m, length in zip((i, j, k), lengths, strict=True)))


def _lengths(a: float, b: float) -> tuple[float, float]:
    """Two sister branches, neither negative: a negative one is set to 0 and its sister keeps their sum."""
    if a < 0:
        return 0.0, a + b
    if b < 0:
        return a + b, 0.0
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


def witness_tree(stats: Stats) -> Tree | None:
    """The tree of the witnesses from ``1 - agreement`` over all layers; None for fewer than two.

    A witness with no place in common with another has no distance to it: the witness missing the
    most distances is left out (the one compared least, of equals) until every pair left has one.
    """
    pairs = {frozenset((x.a, x.b)): x for x in stats.agreements if x.layer == ALL_LAYERS and x.compared}
    names = [s for s in stats.labels if any(s in pair for pair in pairs)]
    left_out = [s for s in stats.labels if s not in names]
    weight = {s: sum(x.compared for pair, x in pairs.items() if s in pair) for s in names}
    while names:
        missing = {s: sum(frozenset((s, t)) not in pairs for t in names if t != s) for s in names}
        worst = max(names, key=lambda s: (missing[s], -weight[s]))
        if missing[worst] == 0:
            break
        names.remove(worst)
        left_out.append(worst)
    if len(names) < 2:
        return None
    distances = {pair: 1.0 - x.agreed / x.compared for pair, x in pairs.items() if pair <= set(names)}
    root = neighbour_joining(names, distances)
    return Tree(root, newick(root), tuple(names), tuple(left_out))


__all__ = ["leaves", "neighbour_joining", "newick", "witness_tree"]
