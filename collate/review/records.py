"""The records of the review stage that travel with a collation: what an editor decided at a locus.

:func:`collate.review.apply.apply_decisions` sets an :class:`EditorDecision` on each locus it
decides (:meth:`collate.apparatus.Locus.with_decision`); the exporters write it. The decisions
file's own records (:class:`~collate.review.decisions.Decision`, its anchor) stay in
:mod:`collate.review.decisions`. This module imports nothing of collate, so the apparatus can
name these records without importing the review stage.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class DecisionAction(str, Enum):
    """What an editor decided at a locus in ``collate review``."""

    KEEP = "keep"  # the base reading stands as the lemma
    ADOPT = "adopt"  # a witness's reading becomes the lemma
    RECLASSIFY = "reclassify"  # a reading gets another class (e.g. scribal error)
    DOUBT = "doubt"  # 存疑: left open, with a comment
    # How the loci are cut, decided before any other decision is placed (collate.review.regroup);
    # never among an EditorDecision's actions: the exporters see the loci as cut.
    MERGE = "merge"  # a locus and the next one of its layer become one locus
    SPLIT = "split"  # a locus becomes two, at a character of the base's text


@dataclass(frozen=True, slots=True)
class EditorDecision:
    """The editor's decisions at a locus, merged from the decisions file, for the exporters.

    ``lemma`` is the editor's lemma: the base's reading, unless a witness's reading was
    adopted; then ``adopted`` is that reading's ``norm`` (find it with
    :meth:`~collate.apparatus.Locus.editor_lemma`) and ``siglum`` the witness the editor
    chose. The base's reading then stands among the rejected readings, with
    ``Locus.lemma_witnesses``.
    ``reclassified`` names (by ``norm``) the readings whose class the editor set; their
    ``cls`` on the locus already is the editor's. ``resp`` are the editors responsible
    (for ``@resp``), ``when`` the ISO time of the latest decision, ``comment`` their reasons.
    """

    actions: tuple[DecisionAction, ...]
    resp: tuple[str, ...]
    when: str
    lemma: str
    adopted: str | None = None
    siglum: str | None = None
    reclassified: tuple[str, ...] = ()
    doubtful: bool = False
    comment: str = ""
