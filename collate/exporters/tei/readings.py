"""What the apparatus says of a reading: its class and cause, who reports it, the notes that judge it.

A reading's ``@type`` is its class and ``@cause`` why, where the Guidelines give a cause (an
omission, an addition, a transposition: the TEI Stylesheets mark an omission only by its cause).
A reading a sparse witness reports carries its source and a ``<witDetail>`` saying where it is
reported, inside the reading (in a note: viewers show a reading's content with that reading and
nowhere else, and a note as a note); an editorial note that judges readings stands in the entry,
pointing at them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from collate.apparatus import Locus, Reading, ReadingClass
from collate.exporters.tei.context import NOTE_LABELS, Context
from collate.exporters.tei.markup import XML_ID, E
from collate.model import Cause
from collate.model.annotations import Verdict
from collate.model.citation import TEI
from collate.model.claim_words import VERDICT_LABELS, chinese, chinese_evidence

if TYPE_CHECKING:
    from collate.model.annotations import AttachedNote, NoteVerdict


def reading_type(cls: ReadingClass) -> str:
    """The ``@type`` of a reading or entry of this class (TEI values are hyphenated: ``scribal-error``)."""
    return cls.value.replace("_", "-")


# Classes the Guidelines also name as a cause; the TEI Stylesheets read @cause (and mark an omission).
_CAUSED = frozenset({ReadingClass.OMISSION, ReadingClass.ADDITION, ReadingClass.TRANSPOSITION})


def classify(ctx: Context, element: Any, reading: Reading) -> None:
    """Give a ``<rdg>`` (or ``<rdgGrp>``) its class, its cause and the rules that make it equal to the lemma."""
    element.set("type", reading_type(reading.cls))
    if reading.cause:
        element.set("cause", reading.cause)
    elif reading.cls in _CAUSED:
        element.set("cause", reading_type(reading.cls))
    rules = [ctx.rule_ids[r] for r in reading.rules if r in ctx.rule_ids]
    if reading.cause == Cause.HABIT:
        # The habit's statement in the header (a 通例), for the witnesses whose habit it is.
        rules += [h.id for h in ctx.collation.habits if h.applied and h.siglum in reading.sigla]
    if rules:
        element.set("ana", " ".join(f"#{r}" for r in rules))


def derived(ctx: Context, reading: Reading, rdg_id: str, ids: list[str]) -> Any:
    """A reading reported by a sparse witness (a readings file, a note's claim), with its source."""
    ids.append(rdg_id)
    rdg = E.rdg(*ctx.text(reading.text), {XML_ID: rdg_id}, wit=ctx.wits(reading.sigla))
    classify(ctx, rdg, reading)
    if reading.source:
        rdg.set("source", ctx.source(reading.source))
    # Who reports it and where, as a 校勘記 cites it (據蕙田案（五禮通考卷165 頁3a））: the
    # readings file and its line are the project's, named in the header, not the edition's.
    detail = reading.source or "案語所引"
    # Inside the reading it describes, because viewers show a reading's content with that reading
    # only (the TEI Stylesheets print nothing of an entry but its readings; the Versioning Machine
    # would print an entry's own witDetail in every witness's column); and inside a note, so that
    # a column per witness shows it as a note on the reading, not as the witness's characters.
    detail_element = E.witDetail(
        *ctx.text(detail),
        wit=ctx.wits(reading.sigla),
        target=f"#{rdg_id}",
        type="derived",
    )
    # @n is what a publication tool prints as the note's label: 據, "according to".
    rdg.append(E.note(detail_element, type="critical", subtype="derived", target=f"#{rdg_id}", n="據"))
    return rdg


def note(ctx: Context, attached: AttachedNote, locus: Locus, ids: dict[int, list[str]]) -> Any:
    """An editorial note judging this entry; it also stays at its own place (``@corresp``).

    ``@n`` is how the print introduces its speaker (蕙田案), which a publication tool prints as
    the note's label. Each claim it makes about a witness of the document is checked there: one
    ``<witDetail>`` per claim and witness inside the note says how (``@subtype``: confirmed,
    partly, contradicted, not-checkable) and why, in the 校勘記's words: the claim, the verdict, what
    the witness reads and on which page (「敖本（JS）「就席」上多升。證實：JS實作升（頁006-31b）。」).
    """
    attrs: dict[str, str] = {"type": "editorial", "subtype": "an"}
    resp = ctx.person(attached.resp)
    if resp:
        attrs["resp"] = resp
    # The label a publication tool prints before the note: how the print introduces its speaker.
    # A note in another witness (a web edition's 一作「繁」) is that witness's word, not an 案: 維基本曰.
    own = attached.witness in ("", ctx.collation.base) or not attached.resp
    attrs["n"] = NOTE_LABELS.get((resp or "").lstrip("#"), "案" if own else f"{attached.resp}曰")
    if attached.id in ctx.note_blocks and attached.witness in ("", ctx.collation.base):
        # Only the base's notes stand in the body; another witness's note has no block there.
        attrs["corresp"] = f"#{ctx.note_blocks[attached.id]}"
    # The readings of the witnesses its claims name (by the siglum each claim's words give).
    named = {c.siglum for c in attached.claims}
    targets = [i for k, reading in enumerate(locus.readings) if named & set(reading.sigla) for i in ids.get(k, [])]
    if targets:
        attrs["target"] = " ".join(f"#{i}" for i in targets)
    details = [_verdict(ctx, v, locus, ids) for v in attached.verdicts if v.siglum and ctx.collation.witness(v.siglum)]
    return E.note(*ctx.text(attached.text), *details, attrs)


def _verdict(ctx: Context, verdict: NoteVerdict, locus: Locus, ids: dict[int, list[str]]) -> Any:
    """A claim's verdict for one witness: ``<witDetail>`` pointing at that witness's reading here
    (the entry itself where the witness reads with the lemma), the evidence as its text."""
    siglum = verdict.siglum or ""
    own = [i for k, reading in enumerate(locus.readings) if siglum in reading.sigla for i in ids.get(k, [])]
    where = TEI.cite(verdict.location) if verdict.location is not None else ""
    checked = verdict.verdict is not Verdict.NOT_CHECKABLE
    info = ctx.collation.witness(siglum)
    sparse = info is not None and info.sparse
    named = _named(ctx, siglum)
    # A full text that could not check the claim was searched, and the place not found there.
    searched = checked or (info is not None and not sparse)
    evidence = chinese_evidence(
        verdict.claim, checked, named if searched else "", verdict.actual, where, sparse=named if sparse else ""
    )
    said = f"{chinese(verdict.claim)}。{VERDICT_LABELS[verdict.verdict.value]}：{evidence}。"
    return E.witDetail(
        *ctx.text(said),
        wit=ctx.wits([siglum]),
        target=" ".join(f"#{i}" for i in own) if own else f"#app.{locus.id}",
        type="verdict",
        subtype=verdict.verdict.value.replace(" ", "-"),
    )


def _named(ctx: Context, siglum: str) -> str:
    """A witness as a claim's verdict names it: its label and siglum, 「注疏本（ZS）」."""
    info = ctx.collation.witness(siglum)
    label = info.label if info is not None else siglum
    return f"{label}（{siglum}）" if label != siglum else siglum
