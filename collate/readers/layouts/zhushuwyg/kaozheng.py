"""The 考證 of a WYG 注疏 卷: the Siku editors' collation notes, rule 5 of :mod:`collate.readers.layouts.zhushuwyg`.

From a 卷 title ending in ``考證`` to the next 卷 title every line is read here, not by the
body scan: all NOTE with the ``passage`` ``考證``, one unit a note, with the editors' names as
attributions and ``○`` and reading marks as markers.
"""

from __future__ import annotations

import re
from typing import Protocol

from collate.model import Diagnostic, Layer, MarkerKind, Role
from collate.readers.base import LINE_SPACE, Line
from collate.readers.layouts.zhushuwyg.marks import EDITOR_PREFIX, KAOZHENG, READING_MARKS, SEGMENT_MARKS, ZHU_MARK


class Output(Protocol):
    """Where the notes go: the read they are part of, which keeps all spans in file order."""

    text: str
    diagnostics: list[Diagnostic]

    def add(
        self,
        start: int,
        end: int,
        layer: Layer,
        unit: int = 0,
        role: Role = Role.TEXT,
        *,
        speaker: str | None = None,
        marker: str | None = None,
        heading: str | None = None,
        passage: str | None = None,
    ) -> None:
        """Keep ``text[start:end]`` as one span (names as in :class:`~collate.model.Span`)."""

    def next_unit(self) -> int:
        """A fresh unit number."""


class KaozhengNotes:
    """Reading 考證 notes (mutable state): the note being read, its lemma, the last editor named."""

    def __init__(self, out: Output) -> None:
        self.out = out
        self.unit = 0  # the note being read
        self.lemma = False  # its lemma is not over yet
        self.editor: tuple[int, str] | None = None  # unit and name of the last editor piece

    def line(self, line: Line) -> None:
        """One line of the editors' collation notes."""
        out, text = self.out, self.out.text
        out.add(line.start, line.body_start, Layer.MARKUP, role=Role.LAYOUT)
        start, end = line.body_start, line.body_end
        opens = start == line.start or (
            text.startswith((ZHU_MARK, "疏"), start, end) and any(m in text[start:end] for m in SEGMENT_MARKS)
        )
        if start < end and (opens or not self.unit):
            self.unit = out.next_unit()
            self.lemma = True
            self.editor = None
        i = start
        unit = self.unit
        while i < end:
            char = text[i]
            if char in LINE_SPACE:
                out.add(i, i + 1, Layer.MARKUP, role=Role.LAYOUT)
                i += 1
            elif char in SEGMENT_MARKS:
                out.add(i, i + 1, Layer.MARKUP, unit, Role.MARKER, marker=char)
                self.lemma = False
                self.editor = None
                i += 1
            elif char == "(":
                i = self.group(i, end, unit)
            elif char == ")":
                out.diagnostics.append(Diagnostic("unbalanced", ") closes nothing", i, i + 1))
                out.add(i, i + 1, Layer.MARKUP, role=Role.LAYOUT, marker=")")
                i += 1
            else:
                self.editor = None
                out.add(i, i + 1, Layer.NOTE, unit, passage=KAOZHENG)
                i += 1
        out.add(line.body_end, line.end, Layer.MARKUP, role=Role.LAYOUT)

    def group(self, i: int, end: int, unit: int) -> int:
        """Small print in a note: an editor's name, a reading mark, or the note's own words."""
        out, text = self.out, self.out.text
        close = text.find(")", i + 1, end)
        if close < 0:
            out.diagnostics.append(Diagnostic("unbalanced", "( is not closed", i, i + 1))
            close = end
        inner = text[i + 1 : close].replace("/", "")
        out.add(i, i + 1, Layer.MARKUP, unit, Role.MARKER, marker="(")
        speaker: str | None = None
        marker: str | None = None
        passage: str | None = None
        if inner in READING_MARKS:
            role, layer, marker = Role.MARKER, Layer.MARKUP, inner
            self.editor = None
        elif inner.startswith(EDITOR_PREFIX) or (self.editor is not None and len(inner) <= 2):
            role, layer, speaker = Role.ATTRIBUTION, Layer.NOTE, self.editor_name(i, inner)
        else:
            role, layer, passage = Role.TEXT, Layer.NOTE, KAOZHENG
            self.editor = None
        for j in range(i + 1, close):
            if text[j] == "/":
                out.add(j, j + 1, Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.COLUMN_BREAK)
            elif text[j] in LINE_SPACE:
                out.add(j, j + 1, Layer.MARKUP, role=Role.LAYOUT)
            else:
                out.add(j, j + 1, layer, unit, role, speaker=speaker, marker=marker, passage=passage)
        if close < end:
            out.add(close, close + 1, Layer.MARKUP, unit, Role.MARKER, marker=")")
            if role is Role.ATTRIBUTION:
                self.editor = (unit, speaker or "")
            return close + 1
        return close

    def editor_name(self, i: int, inner: str) -> str:
        """An editor's whole name: this piece and the piece printed next to it, either side."""
        if self.editor is not None and not inner.startswith(EDITOR_PREFIX):
            return self.editor[1]
        text = self.out.text
        after = re.match(r"\)[\s\u3000]*\(([^()/]{1,2})/?\)", text[text.find(")", i) :])
        if after and after.group(1) not in READING_MARKS and len(inner) <= 2:
            return inner + after.group(1)
        return inner
