"""The editor's decisions, a stage of the pipeline: the file they live in, how each finds its locus, applying them.

``file`` reads, checks and changes ``decisions.toml`` (a locked read-merge-write through ``ledger``,
undo and redo through ``history``); ``anchors`` is a decision and the anchor that finds its locus
again; ``regroup`` cuts the loci anew (merge, split) before ``apply`` places the other decisions;
``orphans`` says why a decision found no place. What a decided locus carries
(:class:`~collate.model.annotations.EditorDecision`) lives in the model, below the apparatus.
"""

from __future__ import annotations

from collate.decisions.apply import ApplyReport, DecisionCounts, apply_decisions, decision_counts
from collate.decisions.file import Anchor, Decision, decisions_path, load_decisions, save_decisions

__all__ = [
    "Anchor",
    "ApplyReport",
    "Decision",
    "DecisionCounts",
    "apply_decisions",
    "decision_counts",
    "decisions_path",
    "load_decisions",
    "save_decisions",
]
