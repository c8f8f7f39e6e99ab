"""Terminal review of the variant loci, with decisions that persist in ``decisions.toml``.

``decisions`` holds the file model and the anchors, ``apply`` applies decisions to a
collation, ``session`` is a review without a screen, ``app`` the full-screen terminal app.
"""

from collate.review.apply import ApplyReport, DecisionCounts, apply_decisions, decision_counts
from collate.review.decisions import Anchor, Decision, decisions_path, load_decisions, save_decisions

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
