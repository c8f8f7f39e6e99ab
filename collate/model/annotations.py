"""What later stages attach to a collation's loci: an editor's decision, a note and its verdicts.

:func:`collate.decisions.apply.apply_decisions` sets an :class:`EditorDecision` on each locus it
decides (:meth:`collate.apparatus.Locus.with_decision`), :func:`collate.notes.attach_to_loci` an
:class:`AttachedNote`; the exporters write both. They live here, below the apparatus, so that a
locus can carry them without the apparatus importing the stages that make them. The decisions
file's own records (:class:`~collate.decisions.file.Decision`, its anchor) stay in
:mod:`collate.decisions.file`, the notes stage's in :mod:`collate.notes.records`.

A note's claims travel as records (:class:`NoteClaim`), field by field, never as sentences: whoever
shows one words it from its fields, in English or in Chinese (:mod:`collate.model.claim_words`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from collate.model.enums import Layer
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


class ClaimKind(str, Enum):
    """What a note says a witness has."""

    READS = "reads"  # 作, 讹作, 云: the witness reads `reading` where the base reads `base`
    ADDS = "adds"  # 多, 有, 增: the witness has `reading` in addition
    LACKS = "lacks"  # 无, 脱: the witness does not have `base`
    SUPERFLUOUS = "superfluous"  # 衍: the witness has `reading`, and it should go
    EMEND = "emend"  # 当为, 当作: `base` should be `reading` (a judgment, not a report)


class Place(str, Enum):
    """Where a claim is, relative to the phrase or passage that locates it."""

    AT = "at"  # the phrase itself
    AFTER = "after"  # X下, X以下, 此下
    BEFORE = "before"  # X上
    SECTION_START = "section-start"  # 此节之首
    SECTION_END = "section-end"  # 此节之下, 此二句之下
    CHAPTER_END = "chapter-end"  # 篇末


@dataclass(frozen=True, slots=True)
class NoteClaim:
    """One claim of an attached note, as the notes stage parsed it (:class:`collate.notes.Claim`).

    ``witness`` is the name as the note writes it (大戴礼, 今注疏本 …; empty where the note speaks
    of a layer of the base, 疏内…), ``sigla`` the project's sigla for it. ``base`` is the base's
    text the claim concerns (empty for an addition), ``reading`` what the witness has (empty for
    a lack); ``place`` is where, relative to ``phrase``, in ``layer`` of the base. ``resp`` is who
    makes the claim (the note's author, or the authority it cites). Two claims with the same
    fields say the same thing: a note carries it once.
    """

    kind: ClaimKind
    witness: str
    sigla: tuple[str, ...]
    base: str
    reading: str
    place: Place = Place.AT
    phrase: str = ""
    layer: Layer = Layer.JING
    resp: str = ""

    @property
    def siglum(self) -> str | None:
        """The first of ``sigla`` (the one a claim's words name), or None."""
        return self.sigla[0] if self.sigla else None


@dataclass(frozen=True, slots=True)
class NoteVerdict:
    """How one claim of an attached note fared against one witness of the project.

    ``claim`` is the claim (one of its note's :attr:`AttachedNote.claims`), ``siglum`` the
    witness checked (None when the claim names none of the project's), ``evidence`` why (in
    the notes stage's English), ``actual`` what that witness has there and ``location`` where
    (file:line and page), so that an exporter can say why without the notes stage.
    """

    claim: NoteClaim
    siglum: str | None
    verdict: Verdict
    evidence: str
    actual: str = ""
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class AttachedNote:
    """An editorial note (蕙田案, the Siku editors' 【案】) attached to the locus it judges.

    ``claims`` are what the note says about witnesses here, in the note's order
    (:class:`NoteClaim`), ``verdicts`` how those claims fared, one per claim and witness
    checked. ``witness`` is the siglum of the witness the note stands in (a note of
    another witness than the base has no place in the base text). The note also stays at its
    own place in its witness.
    """

    id: str
    resp: str
    text: str
    location: SourceLocation | None = None
    claims: tuple[NoteClaim, ...] = ()
    verdicts: tuple[NoteVerdict, ...] = ()
    witness: str = ""
