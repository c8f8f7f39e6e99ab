"""What a container gives a layout, and how the layout's reading is mapped back: :func:`merge`.

A witness file is a *container* (how the file is wrapped: plain lines, blank-line pages, a
Kanripo Mandoku file) holding a *print layout* (how the print marks its layers). The container
takes out what is its own — org header lines, ``<pb:…>`` page markers, ``¶`` line ends, blank
page breaks — as spans over the raw text, and hands the rest to the layout as a :class:`Body`:
a string in which every character stands for one raw character, except that a gaiji entity
(``&KR0002;``) stands as one character (its resolved form, or ``〓`` when unresolved). So a
layout never sees a container's markup, and every layout resolves entities.

:func:`merge` maps the layout's spans (offsets in the body) back to raw offsets, cutting them
where the container took something out, joins them with the container's spans and checks that
together they partition the raw text: every character in exactly one span.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field, replace

from collate.errors import LayoutError
from collate.model import Diagnostic, Layer, Mark, MarkKind, Role, Span, Substitution
from collate.model.chars import GETA
from collate.readers.base import Parsed, SpanList

# What an unresolved entity reads as in the body: the digitizers' own placeholder.
UNRESOLVED = GETA


@dataclass(frozen=True, slots=True)
class Piece:
    """``body[body:body + length]`` stands for ``raw[raw:raw_end]``.

    A copy has ``raw_end - raw == length``; an entity is one body character for several raw ones.
    """

    body: int
    raw: int
    length: int
    raw_end: int

    @property
    def is_copy(self) -> bool:
        return self.raw_end - self.raw == self.length


@dataclass(frozen=True, slots=True)
class Body:
    """A container's result: the body text for the layout and the container's own annotations.

    ``spans``, ``marks``, ``substitutions`` and ``diagnostics`` are in raw offsets; ``spans``
    cover exactly the raw characters that are not in the body. ``breaks`` are the body offsets
    where the container took out the line end of another print (a Mandoku ``¶`` inside a line):
    a layout may use them to find a title printed on a line of its own in that print.
    """

    container: str
    reason: str
    text: str
    pieces: tuple[Piece, ...]
    spans: tuple[Span, ...] = ()
    marks: tuple[Mark, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    metadata: tuple[tuple[str, str], ...] = field(default=())
    breaks: frozenset[int] = frozenset()


def _raw_start(pieces: tuple[Piece, ...], starts: list[int], i: int) -> int:
    if not pieces:
        return 0
    k = bisect.bisect_right(starts, i) - 1
    if k < 0:
        return pieces[0].raw
    p = pieces[k]
    if i >= p.body + p.length:
        return p.raw_end
    return p.raw + (i - p.body) if p.is_copy else p.raw


def _raw_end(pieces: tuple[Piece, ...], starts: list[int], i: int) -> int:
    """The raw offset just after body character ``i - 1``."""
    if i <= 0 or not pieces:
        return pieces[0].raw if pieces else 0
    k = bisect.bisect_right(starts, i - 1) - 1
    p = pieces[k]
    return p.raw + (i - p.body) if p.is_copy else p.raw_end


class BodyBuilder:
    """Builds a :class:`Body` walking the raw text once, in order.

    ``keep`` copies raw characters into the body, ``entity`` puts one character for an entity,
    ``drop`` makes a container span of raw characters the body does not hold.
    """

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self._text: list[str] = []
        self._length = 0
        self._pieces: list[Piece] = []
        self.spans: list[Span] = []
        self.marks: list[Mark] = []
        self.substitutions: list[Substitution] = []
        self.diagnostics: list[Diagnostic] = []
        self.metadata: list[tuple[str, str]] = []
        self.breaks: set[int] = set()

    @property
    def body_length(self) -> int:
        """How many body characters were put so far."""
        return self._length

    def keep(self, start: int, end: int) -> None:
        """``raw[start:end]`` goes into the body as it is."""
        if end <= start:
            return
        last = self._pieces[-1] if self._pieces else None
        if last is not None and last.is_copy and last.raw_end == start:
            self._pieces[-1] = Piece(last.body, last.raw, last.length + end - start, end)
        else:
            self._pieces.append(Piece(self._length, start, end - start, end))
        self._text.append(self.raw[start:end])
        self._length += end - start

    def entity(
        self, start: int, end: int, char: str | None, source: str, code: str = "", description: str = ""
    ) -> None:
        """An entity ``raw[start:end]`` read as ``char`` (None: unresolved, a placeholder).

        ``code`` names it in its table and ``description`` is what the table says of its glyph.
        """
        self._pieces.append(Piece(self._length, start, 1, end))
        self._text.append(char or UNRESOLVED)
        self._length += 1
        self.substitutions.append(Substitution(start, end, char, source, code, description))

    def drop(
        self,
        start: int,
        end: int,
        layer: Layer = Layer.MARKUP,
        role: Role = Role.LAYOUT,
        *,
        marker: str | None = None,
        heading: str | None = None,
        passage: str | None = None,
    ) -> None:
        """``raw[start:end]`` is the container's own: a span, not body text (names as in :class:`Span`)."""
        if end <= start:
            return
        span = Span(start, end, layer, 0, role, marker=marker, heading=heading, passage=passage)
        last = self.spans[-1] if self.spans else None
        if last is not None and role is Role.LAYOUT and last.end == start and last.alike(span):
            self.spans[-1] = last.over(last.start, end)
            return
        self.spans.append(span)

    def build(self, container: str, reason: str) -> Body:
        """The body read so far."""
        self.diagnostics.sort(key=lambda d: d.start)
        return Body(
            container=container,
            reason=reason,
            text="".join(self._text),
            pieces=tuple(self._pieces),
            spans=tuple(self.spans),
            marks=tuple(self.marks),
            substitutions=tuple(self.substitutions),
            diagnostics=tuple(self.diagnostics),
            metadata=tuple(self.metadata),
            breaks=frozenset(self.breaks),
        )


def identity(raw: str, container: str, reason: str) -> Body:
    """The whole file is the body (a plain text file)."""
    builder = BodyBuilder(raw)
    builder.keep(0, len(raw))
    return builder.build(container, reason)


def _map_span(span: Span, pieces: tuple[Piece, ...], starts: list[int]) -> list[Span]:
    """``span`` (body offsets) as raw spans, cut where the container took characters out."""
    out: list[Span] = []
    k = max(0, bisect.bisect_right(starts, span.start) - 1)
    while k < len(pieces) and pieces[k].body < span.end:
        p = pieces[k]
        lo, hi = max(span.start, p.body), min(span.end, p.body + p.length)
        if hi > lo:
            if p.is_copy:
                a, b = p.raw + lo - p.body, p.raw + hi - p.body
            else:
                a, b = p.raw, p.raw_end
            if out and out[-1].end == a:
                out[-1] = span.over(out[-1].start, b)
            else:
                out.append(span.over(a, b))
        k += 1
    return out


def merge(raw: str, body: Body, parsed: Parsed, layout: str, path: str) -> Parsed:
    """The layout's reading of ``body`` in raw offsets, joined with the container's own.

    Marks of a kind the container gives (pages, lines) replace the layout's of that kind: the
    container knows the print's pages better than a guess from the body. Raises a
    :class:`LayoutError` if the result does not partition ``raw`` (a bug, never bad input).
    """
    pieces = body.pieces
    starts = [p.body for p in pieces]
    spans = _partition(raw, body, parsed, layout, path, starts)
    # Pages and lines: a lacuna the layout finds (a blank in the line) joins the container's own.
    own_kinds = {m.kind for m in body.marks} & {MarkKind.PAGE, MarkKind.LINE}
    marks = list(body.marks) + [
        Mark(_raw_start(pieces, starts, m.offset), m.kind, m.label) for m in parsed.marks if m.kind not in own_kinds
    ]
    marks.sort(key=lambda m: m.offset)
    diagnostics = list(body.diagnostics) + [
        Diagnostic(d.code, d.message, _raw_start(pieces, starts, d.start), _raw_end(pieces, starts, d.end), d.severity)
        for d in parsed.diagnostics
    ]
    diagnostics.sort(key=lambda d: d.start)
    return Parsed(
        spans=tuple(spans),
        marks=tuple(marks),
        substitutions=body.substitutions,
        diagnostics=tuple(diagnostics),
        metadata=body.metadata + parsed.metadata,
        readings=parsed.readings,
        unsettled=tuple(
            replace(
                u,
                start=_raw_start(pieces, starts, u.start),
                end=_raw_end(pieces, starts, u.end),
                cut=_raw_start(pieces, starts, u.cut) if u.cut < u.end else _raw_end(pieces, starts, u.end),
            )
            for u in parsed.unsettled
        ),
    )


def _partition(raw: str, body: Body, parsed: Parsed, layout: str, path: str, starts: list[int]) -> list[Span]:
    """The layout's spans in raw offsets and the container's, joined; a :class:`LayoutError` unless
    they partition ``raw``."""
    pieces = body.pieces
    spans: list[Span] = list(body.spans)
    for span in parsed.spans:
        spans.extend(_map_span(span, pieces, starts))
    spans.sort(key=lambda s: s.start)
    # Alike neighbours join as a reader's own SpanList joins them: a page break the container
    # took out between two stretches of layout is one stretch of layout, as in a plain file.
    joined = SpanList()
    for span in spans:
        joined.append(span)
    spans = list(joined.freeze())
    pos = 0
    for span in spans:
        if span.start != pos or span.end <= span.start:
            raise LayoutError(
                f"container {body.container!r} and layout {layout!r} left a gap or overlap at offset {pos}",
                where=path,
                hint="this is a bug",
            )
        pos = span.end
    if pos != len(raw):
        raise LayoutError(
            f"container {body.container!r} and layout {layout!r} did not cover the whole file",
            where=path,
            hint="this is a bug",
        )
    return spans
