"""What the witnesses tell together: agreement pair by pair and layer by layer, and a witness tree.

Read off the JSON output of a run or of every job of a batch (:mod:`~collate.stats.read`), never
collated again; counted locus by locus (:mod:`~collate.stats.agreement`); a tree joined from the
distances (:mod:`~collate.stats.tree`); shown in the terminal (:mod:`~collate.stats.view`) and as
a heat map in an HTML page (:mod:`~collate.stats.html`). What such a tree can and cannot say of a
contaminated tradition: ``docs/batch.md``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from collate.stats.agreement import agreement_stats
from collate.stats.read import StatsError, collations
from collate.stats.records import ALL_LAYERS, Agreement, Alone, Stats, Tree, WitnessCounts, stats_json
from collate.stats.tree import witness_tree


def collation_stats(folder: Path) -> Stats:
    """The statistics of the run, or of every job of the batch, whose output is in ``folder``; with the tree."""
    stats = agreement_stats((run.name, data) for run, data in collations(folder))
    tree = witness_tree(stats)
    notes = list(stats.notes)
    if tree is not None and tree.left_out:
        notes.append(
            "left out of the tree, sharing no place of substance with some other witness: " + ", ".join(tree.left_out)
        )
    return replace(stats, tree=tree, notes=tuple(notes))


__all__ = [
    "ALL_LAYERS",
    "Agreement",
    "Alone",
    "Stats",
    "StatsError",
    "Tree",
    "WitnessCounts",
    "collation_stats",
    "stats_json",
]
