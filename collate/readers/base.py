"""What every layout reader gives back, and the helpers they share."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from collate.model import (
    Diagnostic,
    Layer,
    Mark,
    MarkerKind,
    Role,
    Severity,
    Span,
    SparseReading,
    Substitution,
    Unsettled,
)
from collate.model.chars import is_private_use


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What a reader may need beyond the text.

    ``gaiji_table`` resolves Mandoku entities (for the container); ``breaks`` are the body
    offsets where the container took out another print's line end (for the layout).
    """

    gaiji_table: Path | None = None
    path: str = ""
    breaks: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Parsed:
    """A reader's result: stand-off annotations over the text it was given.

    ``spans`` must partition the text: sorted, contiguous, covering every character.
    """

    spans: tuple[Span, ...]
    marks: tuple[Mark, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    metadata: tuple[tuple[str, str], ...] = ()
    readings: tuple[SparseReading, ...] = field(default=())
    unsettled: tuple[Unsettled, ...] = field(default=())


class LayoutReader(Protocol):
    """A layout: how one kind of witness file is laid out, and how to read it."""

    name: str
    description: str
    # A sparse witness reports readings at places of the base's text and has no text of its own.
    sparse: bool

    def detect(self, text: str) -> tuple[float, str]:
        """How well ``text`` fits this layout (0..1) and why, in a short phrase."""
        ...

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into spans, marks and diagnostics."""
        ...


class Layout:
    """What a layout is besides how it detects and reads: the defaults a layout reader overrides.

    A ``sparse`` layout (a readings file) is never detected from a text and is read without a
    container: a file's suffix names it (:data:`collate.readers.SUFFIXES`), or a project does.
    Every other layout is a text's.
    """

    sparse: bool = False


# Characters e-texts put for a glyph the digitizer could not encode. Only the ASCII ``?``:
# the full-width ``？`` is punctuation in punctuated texts.
PLACEHOLDERS = frozenset("?□■〓")

# Leading and trailing whitespace of a line is layout, never text.
LINE_SPACE = " \t\u3000\u00a0"

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a file: ``start`` ≤ ``body_start`` ≤ ``body_end`` ≤ ``end``.

    ``text[start:body_start]`` is indentation, ``text[body_start:body_end]`` the body,
    ``text[body_end:end]`` trailing space and the line end.
    """

    start: int
    body_start: int
    body_end: int
    end: int


def iter_lines(text: str) -> Iterator[Line]:
    """The lines of ``text`` with their indentation and line end set apart."""
    for m in _LINE.finditer(text):
        if m.start() == m.end():
            continue
        raw = m.group(0).rstrip("\r\n")
        body = raw.lstrip(LINE_SPACE)
        body_start = m.start() + len(raw) - len(body)
        yield Line(m.start(), body_start, body_start + len(body.rstrip(LINE_SPACE)), m.end())


class SpanList:
    """Spans collected in file order: empty ones dropped, adjacent alike ones joined.

    Markers are never joined (two markers stay two), so a marker's name always names one marker.
    """

    def __init__(self) -> None:
        self._spans: list[Span] = []

    def add(
        self,
        start: int,
        end: int,
        layer: Layer,
        unit: int = 0,
        role: Role = Role.TEXT,
        *,
        work: str | None = None,
        speaker: str | None = None,
        marker: str | None = None,
        heading: str | None = None,
        passage: str | None = None,
    ) -> None:
        """Append ``text[start:end]`` (see :class:`~collate.model.Span` for the names); joined like :meth:`append`."""
        if end > start:
            self.append(
                Span(
                    start,
                    end,
                    layer,
                    unit,
                    role,
                    work=work,
                    speaker=speaker,
                    marker=marker,
                    heading=heading,
                    passage=passage,
                )
            )

    def frozen_view(self) -> tuple[Span, ...]:
        """The spans added so far, in order (nothing is frozen: more may be added)."""
        return tuple(self._spans)

    def append(self, span: Span) -> None:
        """Append ``span``; joined to the previous span if that ends where it starts and is alike."""
        if span.end <= span.start:
            return
        if self._spans and span.role is not Role.MARKER:
            last = self._spans[-1]
            if last.end == span.start and last.alike(span):
                self._spans[-1] = last.over(last.start, span.end)
                return
        self._spans.append(span)

    def layout(self, start: int, end: int) -> None:
        """Append whitespace, line ends or indentation."""
        self.add(start, end, Layer.MARKUP, role=Role.LAYOUT)

    def words(
        self,
        text: str,
        start: int,
        end: int,
        layer: Layer,
        unit: int,
        *,
        work: str | None = None,
        speaker: str | None = None,
        passage: str | None = None,
    ) -> None:
        """``text[start:end]`` as ``layer`` text, its spaces set apart as layout and ``/`` as a column break."""
        pos = start
        for i in range(start, end + 1):
            if i == end or text[i] in LINE_SPACE or text[i] == "/":
                self.add(pos, i, layer, unit, work=work, speaker=speaker, passage=passage)
                if i < end and text[i] == "/":
                    self.add(i, i + 1, Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.COLUMN_BREAK)
                elif i < end:
                    self.layout(i, i + 1)
                pos = i + 1

    def freeze(self) -> tuple[Span, ...]:
        """The spans collected so far."""
        return tuple(self._spans)


class ReadState:
    """The state of one read, for readers that walk the file once: spans, diagnostics, units.

    Placeholders and PUA code points are reported over the whole text up front; a reader
    adds its own diagnostics as it goes, and :meth:`parsed` puts them in file order.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.spans = SpanList()
        self.diagnostics: list[Diagnostic] = glyph_diagnostics(text)
        self.metadata: list[tuple[str, str]] = []
        # Layer boundaries the print leaves unmarked, as the reader cut them (for the collation to settle).
        self.unsettled: list[Unsettled] = []
        # Marks the layout finds itself (a glyph the print lost, shown as a blank).
        self.marks: list[Mark] = []
        self.unit = 0

    def next_unit(self) -> int:
        """A fresh unit number."""
        self.unit += 1
        return self.unit

    def read_lines(self, line: Callable[[Line], None]) -> Parsed:
        """Each line of the text through ``line``, its indentation and line end as layout; what was read."""
        for each in iter_lines(self.text):
            self.spans.layout(each.start, each.body_start)
            line(each)
            self.spans.layout(each.body_end, each.end)
        return self.parsed()

    def parsed(self) -> Parsed:
        """What was read, diagnostics sorted by offset."""
        self.diagnostics.sort(key=lambda d: d.start)
        return Parsed(
            self.spans.freeze(),
            marks=tuple(sorted(self.marks, key=lambda m: m.offset)),
            diagnostics=tuple(self.diagnostics),
            metadata=tuple(self.metadata),
            unsettled=tuple(sorted(self.unsettled, key=lambda u: u.start)),
        )


def glyph_diagnostics(text: str, start: int = 0, end: int | None = None) -> list[Diagnostic]:
    """A ``placeholder`` diagnostic for each ``?``/□/■/〓 and a ``pua`` one for each PUA code point.

    Only ``text[start:end]`` is looked at; offsets are offsets in ``text``. A □ inside a drum
    score (鼓○□○○□) is the score's sign, no lost glyph (:mod:`collate.model.notation`).
    """
    from collate.model.notation import in_notation

    found = []
    for i in range(start, len(text) if end is None else end):
        char = text[i]
        if char in PLACEHOLDERS and not in_notation(text, i):
            found.append(Diagnostic("placeholder", f"{char!r} stands for a glyph the e-text lacks", i, i + 1))
        elif is_private_use(char):
            message = f"U+{ord(char):04X} is a Private Use Area glyph"
            found.append(Diagnostic("pua", message, i, i + 1, Severity.INFO))
    return found


def text_glyph_diagnostics(text: str, spans: Iterable[Span]) -> list[Diagnostic]:
    """:func:`glyph_diagnostics` inside the spans of text layers only.

    For readers whose markup, headings or web furniture may hold the same characters:
    there they stand for no glyph of the work, so they are not reported.
    """
    return [d for s in spans if s.layer.is_text for d in glyph_diagnostics(text, s.start, s.end)]


def bracket_diagnostics(text: str, start: int, end: int, pairs: Mapping[str, str]) -> list[Diagnostic]:
    """``unbalanced`` diagnostics for brackets of ``pairs`` (opener → closer) in ``text[start:end]``.

    A closer that matches an opener further down the stack closes it and reports the
    openers above it, so one missing bracket gives one diagnostic, not a cascade.
    """
    closers = {close: open_ for open_, close in pairs.items()}
    stack: list[tuple[str, int]] = []
    found = []
    for i in range(start, end):
        char = text[i]
        if char in pairs:
            stack.append((char, i))
        elif char in closers:
            depth = next((d for d in range(len(stack) - 1, -1, -1) if stack[d][0] == closers[char]), None)
            if depth is None:
                found.append(Diagnostic("unbalanced", f"{char} closes nothing", i, i + 1))
                continue
            for opener, at in stack[depth + 1 :]:
                found.append(Diagnostic("unbalanced", f"{opener} is not closed", at, at + 1))
            del stack[depth:]
    for opener, at in stack:
        found.append(Diagnostic("unbalanced", f"{opener} is not closed", at, at + 1))
    return sorted(found, key=lambda d: d.start)
