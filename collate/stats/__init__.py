"""What the witnesses tell together: agreement pair by pair and layer by layer, and a witness tree.

Read off the JSON output of a run or of every job of a batch (:mod:`~collate.stats.read`), never
collated again; counted locus by locus (:mod:`~collate.stats.agreement`); a tree joined from the
distances (:mod:`~collate.stats.tree`); shown in the terminal (:mod:`~collate.stats.view`) and as
a heat map in an HTML page (:mod:`~collate.stats.html`). What such a tree can and cannot say of a
contaminated tradition: ``docs/batch.md``.
"""

from __future__ import annotations

from pathlib import Path

from collate.stats.agreement import agreement_stats
from collate.stats.read import StatsError, collations
from collate.stats.records import (
    ALL_LAYERS,
    MIN_PLACES,
    Agreement,
    Alone,
    LeftOut,
    Stats,
    Tree,
    WitnessCounts,
    stats_json,
)
from collate.stats.tree import with_tree


def collation_stats(folder: Path) -> Stats:
    """The statistics of the run, or of every job of the batch, whose output is in ``folder``; with the tree."""
    return with_tree(agreement_stats((run.name, data) for run, data in collations(folder)))


__all__ = [
    "ALL_LAYERS",
    "MIN_PLACES",
    "Agreement",
    "Alone",
    "LeftOut",
    "Stats",
    "StatsError",
    "Tree",
    "WitnessCounts",
    "collation_stats",
    "stats_json",
]
