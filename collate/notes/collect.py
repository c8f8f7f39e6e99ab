"""The editorial notes of a witness: its ``Layer.NOTE`` units, each made one :class:`Note`."""

from __future__ import annotations

import re
from itertools import groupby

from collate.model import Layer, Role, Span, Witness
from collate.notes.lexicon import DEFAULT_LEXICON, Lexicon
from collate.notes.records import Note

_WORDS = re.compile(r"\S+")
# A 考證 note quotes the passage it is about, then ○, then what it says (實監本譌作賓…).
HEADING_MARKS = ("○", "〇")
# What a reader calls the words of a witness's report of another text's reading (一作「繁」).
VARIANT = "variant"


def notes_of(witness: Witness, lexicon: Lexicon = DEFAULT_LEXICON) -> tuple[Note, ...]:
    """Every note of ``witness`` in file order, its words joined across lines and pages.

    A note is one ``Layer.NOTE`` unit: its ``attribution`` span (蕙田案, 案) says who
    speaks, its ``text`` spans are its words; indentation and line ends between them
    (markup spans) are layout and are left out.
    """
    note_spans = [s for s in witness.spans if s.layer is Layer.NOTE]
    marks: dict[int, list[int]] = {}
    for s in witness.spans:
        # The ○ of a note's unit, printed as a marker (not as the note's words).
        if s.layer is Layer.MARKUP and s.unit and witness.text[s.start : s.end] in HEADING_MARKS:
            marks.setdefault(s.unit, []).append(s.start)
    notes = []
    for unit, group in groupby(sorted(note_spans, key=lambda s: (s.unit, s.start)), key=lambda s: s.unit):
        spans = list(group)
        notes.append(_note(witness, unit, spans, lexicon, marks.get(unit, [])))
    notes.sort(key=lambda n: n.start)
    return tuple(
        Note(
            f"{n.witness}-n{i}",
            n.witness,
            n.unit,
            n.start,
            n.end,
            n.label,
            n.resp,
            n.text,
            n.pieces,
            n.location,
            n.heading,
            n.variant,
        )
        for i, n in enumerate(notes, 1)
        if n.text
    )


def _note(witness: Witness, unit: int, spans: list[Span], lexicon: Lexicon, marks: list[int]) -> Note:
    label = next((s.speaker or witness.text[s.start : s.end] for s in spans if s.role is Role.ATTRIBUTION), None)
    words = [s for s in spans if s.role is Role.TEXT]
    pieces = tuple(piece for s in words for piece in _runs(witness.text, s))
    text = "".join(witness.text[a:b] for a, b in pieces)
    start = pieces[0][0] if pieces else spans[0].start
    end = pieces[-1][1] if pieces else spans[-1].end
    mark = next((m for m in marks if start < m < end), None)
    heading = sum(b - a for a, b in pieces if b <= mark) if mark is not None else 0
    # A witness's report of another text's reading (一作「繁」): its own editors speak, by its name.
    variant = any(s.passage == VARIANT for s in words)
    resp = (witness.label or witness.siglum) if variant else lexicon.author(label)
    return Note(
        id="",
        witness=witness.siglum,
        unit=unit,
        start=start,
        end=end,
        label=label or "",
        resp=resp,
        text=text,
        pieces=pieces,
        location=witness.locate(start),
        heading=heading,
        variant=variant,
    )


def _runs(text: str, span: Span) -> list[tuple[int, int]]:
    """The stretches of a span between whitespace (a reader may leave line ends inside)."""
    return [(m.start(), m.end()) for m in _WORDS.finditer(text, span.start, span.end)]
