"""Terminal review of the variant loci, with decisions that persist in ``decisions.toml``.

``records`` holds what a decided locus carries (:class:`EditorDecision`), ``anchors`` a
decision and the anchor that finds its locus again, ``decisions`` the file (read, checked,
changed by a locked read-merge-write through ``ledger``), ``apply`` applies decisions to a
collation, ``session`` is a review without a screen, ``app`` the full-screen terminal app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from collate.review.records import DecisionAction, EditorDecision

if TYPE_CHECKING:
    from collate.review.apply import ApplyReport, DecisionCounts, apply_decisions, decision_counts
    from collate.review.decisions import Anchor, Decision, decisions_path, load_decisions, save_decisions

_APPLY = frozenset({"ApplyReport", "DecisionCounts", "apply_decisions", "decision_counts"})
_DECISIONS = frozenset({"Anchor", "Decision", "decisions_path", "load_decisions", "save_decisions"})


def __getattr__(name: str) -> object:
    """The stage's functions, imported on first use.

    The apparatus imports :mod:`collate.review.records` (its loci carry an
    :class:`EditorDecision`), which runs this file; ``apply`` and ``decisions`` import the
    apparatus. Importing them here at once would make the two packages import each other.
    """
    if name in _APPLY:
        from collate.review import apply

        return getattr(apply, name)
    if name in _DECISIONS:
        from collate.review import decisions

        return getattr(decisions, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Anchor",
    "ApplyReport",
    "Decision",
    "DecisionAction",
    "DecisionCounts",
    "EditorDecision",
    "apply_decisions",
    "decision_counts",
    "decisions_path",
    "load_decisions",
    "save_decisions",
]
