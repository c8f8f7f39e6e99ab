"""What later stages attach to a collation's loci: an editor's decision, a note and its verdicts.

:func:`collate.decisions.apply.apply_decisions` sets an :class:`EditorDecision` on each locus it
decides (:meth:`collate.apparatus.Locus.with_decision`), :func:`collate.notes.attach_to_loci` an
:class:`AttachedNote`; the exporters write both. They live here, below the apparatus, so that a
locus can carry them without the apparatus importing the stages that make them. The decisions
file's own records (:class:`~collate.decisions.file.Decision`, its anchor) stay in
:mod:`collate.decisions.file`, the notes stage's in :mod:`collate.notes.records`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from collate.model.witness import SourceLocation


class DecisionAction(str, Enum):
    """What an editor decided at a locus in ``collate review``."""

    KEEP = "keep"  # the base reading stands as the lemma
    ADOPT = "adopt"  # a witness's reading becomes the lemma
    RECLASSIFY = "reclassify"  # a reading gets another class (e.g. scribal error)
    DOUBT = "doubt"  # 存疑: left open, with a comment
    # How the loci are cut, decided before any other decision is placed (collate.decisions.regroup);
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


class Verdict(str, Enum):
    """How a claim fares against a witness collated as a full text."""

    CONFIRMED = "confirmed"  # the witness has exactly what the note says
    PARTLY = "partly"  # it has it at that place, but differs in some characters
    CONTRADICTED = "contradicted"  # it reads otherwise there
    NOT_CHECKABLE = "not checkable"  # no full text of that witness, place not found, or not a report


@dataclass(frozen=True, slots=True)
class NoteVerdict:
    """How one claim of an attached note fared against one witness of the project.

    ``claim`` is the claim's summary, ``siglum`` the witness checked (None when the claim
    names none of the project's), ``actual`` what that witness has there and ``location``
    where (file:line and page), so that an exporter can say why without the notes stage.
    """

    claim: str
    siglum: str | None
    verdict: Verdict
    evidence: str
    actual: str = ""
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class AttachedNote:
    """An editorial note (蕙田案, the Siku editors' 【案】) attached to the locus it judges.

    ``claims`` are one-line summaries of what the note says about witnesses
    (e.g. ``DD reads 峭 for 哨``), ``verdicts`` how those claims fared, one per claim and
    witness checked. ``witness`` is the siglum of the witness the note stands in (a note of
    another witness than the base has no place in the base text). The note also stays at its
    own place in its witness.
    """

    id: str
    resp: str
    text: str
    location: SourceLocation | None = None
    claims: tuple[str, ...] = ()
    verdicts: tuple[NoteVerdict, ...] = ()
    witness: str = ""
