"""The editorial notes of a witness: its ``Layer.NOTE`` units, each made one :class:`Note`."""

from __future__ import annotations

import re
from itertools import groupby

from collate.model import Layer, Role, Span, Witness
from collate.notes.lexicon import DEFAULT_LEXICON, Lexicon
from collate.notes.records import Note

_WORDS = re.compile(r"\S+")


def notes_of(witness: Witness, lexicon: Lexicon = DEFAULT_LEXICON) -> tuple[Note, ...]:
    """Every note of ``witness`` in file order, its words joined across lines and pages.

    A note is one ``Layer.NOTE`` unit: its ``attribution`` span (蕙田案, 案) says who
    speaks, its ``text`` spans are its words; indentation and line ends between them
    (markup spans) are layout and are left out.
    """
    note_spans = [s for s in witness.spans if s.layer is Layer.NOTE]
    notes = []
    for unit, group in groupby(sorted(note_spans, key=lambda s: (s.unit, s.start)), key=lambda s: s.unit):
        spans = list(group)
        notes.append(_note(witness, unit, spans, lexicon))
    notes.sort(key=lambda n: n.start)
    return tuple(
        Note(f"{n.witness}-n{i}", n.witness, n.unit, n.start, n.end, n.label, n.resp, n.text, n.pieces, n.location)
        for i, n in enumerate(notes, 1)
        if n.text
    )


def _note(witness: Witness, unit: int, spans: list[Span], lexicon: Lexicon) -> Note:
    label = next((s.speaker or witness.text[s.start : s.end] for s in spans if s.role is Role.ATTRIBUTION), None)
    words = [s for s in spans if s.role is Role.TEXT]
    pieces = tuple(piece for s in words for piece in _runs(witness.text, s))
    text = "".join(witness.text[a:b] for a, b in pieces)
    start = pieces[0][0] if pieces else spans[0].start
    end = pieces[-1][1] if pieces else spans[-1].end
    return Note(
        id="",
        witness=witness.siglum,
        unit=unit,
        start=start,
        end=end,
        label=label or "",
        resp=lexicon.author(label),
        text=text,
        pieces=pieces,
        location=witness.locate(start),
    )


def _runs(text: str, span: Span) -> list[tuple[int, int]]:
    """The stretches of a span between whitespace (a reader may leave line ends inside)."""
    return [(m.start(), m.end()) for m in _WORDS.finditer(text, span.start, span.end)]
