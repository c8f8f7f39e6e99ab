"""One read of a WYG 注疏 file (layout ``zhushu-wyg``): rules 1–3 and 6 of :mod:`collate.readers.layouts.zhushuwyg`.

Each line is classed first (:func:`~collate.readers.layouts.zhushuwyg.marks.heading_label`): headings
are kept as they are, the lines of a 考證 go to :class:`~collate.readers.layouts.zhushuwyg.kaozheng.KaozhengNotes`,
and the body lines between two headings are scanned as one stream, since 注 and small-print
runs go on over line ends. The spans are kept in file order; a 注 whose end the print does not
mark waits as a :class:`~collate.readers.layouts.zhushuwyg.cuts.Stretch` until the whole file is read
and :func:`~collate.readers.layouts.zhushuwyg.cuts.cut_stretches` can cut it with models of this text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from collate.model import Diagnostic, HeadingKind, Layer, MarkerKind, Role, Severity, Span, Unsettled
from collate.model.notation import in_notation
from collate.readers.base import Line, Parsed, ReadState, iter_lines
from collate.readers.layouts.zhushuwyg.cuts import Stretch, cut_stretches
from collate.readers.layouts.zhushuwyg.kaozheng import KaozhengNotes
from collate.readers.layouts.zhushuwyg.marks import (
    INSIDE_WORD,
    JUAN_TITLE,
    NO_SECTION_FORMULA,
    NOT_SECTION,
    NOTE_OPENERS,
    RUN_LABELS,
    SECTION_FORMULA,
    SECTION_WORDS,
    SEGMENT_MARKS,
    SHU_OPENERS,
    SPACE,
    TALLY,
    ZHU_MARK,
    heading_label,
    match_word,
)


@dataclass
class _Run:
    """A large-print run being read (mutable): 經 or 注, its pieces kept until it ends."""

    layer: Layer
    unit: int
    clean_start: bool
    pieces: list[tuple[int, int, bool]] = field(default_factory=list)  # (start, end, is text)


class Reading(ReadState):
    """One read of a WYG 注疏 text: line classes first, then one scan of each body stretch."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.items: list[Span | Stretch] = []
        self.trained: dict[Layer, list[str]] = {Layer.JING: [], Layer.ZHU: []}
        self.large: _Run | None = None
        self.small: tuple[Layer, int] | None = None  # the open small-print run
        self.after_close = False  # the last thing read was a run's ``)``
        self.shu_start = False  # a 疏 run has had no text yet
        self.in_group = False  # inside ``(…)``
        self.group_open = 0  # where the open ``(`` stands
        self.kaozheng = KaozhengNotes(self)
        # Whether a section word at a paragraph's head is a heading: in a print of 賈公彦's 疏.
        self.sections = text.count(NO_SECTION_FORMULA) <= text.count(SECTION_FORMULA)

    # -- output -------------------------------------------------------------------------
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
        """Keep ``text[start:end]`` as one span (in order; joined to its neighbours at the end)."""
        if end > start:
            self.items.append(
                Span(start, end, layer, unit, role, speaker=speaker, marker=marker, heading=heading, passage=passage)
            )

    def layout(self, start: int, end: int) -> None:
        """Whitespace: inside a large-print run it waits with the run's pieces."""
        if self.large is not None:
            self.large.pieces.append((start, end, False))
        else:
            self.add(start, end, Layer.MARKUP, role=Role.LAYOUT)

    def marker(self, pieces: Iterable[tuple[int, int]], name: str, unit: int = 0) -> None:
        """A printed word that is not text; markup the e-text put inside it is layout."""
        last = None
        for start, end in pieces:
            if last is not None:
                self.add(last, start, Layer.MARKUP, role=Role.LAYOUT)
            self.add(start, end, Layer.MARKUP, unit, Role.MARKER, marker=name)
            last = end

    # -- the file -----------------------------------------------------------------------
    def run(self) -> Parsed:
        """Read the whole text, line by line: what was read."""
        kaozheng = False
        body: list[Line] = []
        for line in iter_lines(self.text):
            heading = heading_label(self.text, line, kaozheng)
            if heading is None:
                if kaozheng:
                    self.kaozheng.line(line)
                else:
                    body.append(line)
                continue
            self.body(body)
            body = []
            self.add(line.start, line.body_start, Layer.MARKUP, role=Role.LAYOUT)
            self.add(line.body_start, line.body_end, Layer.HEADING, self.next_unit(), heading=heading)
            self.add(line.body_end, line.end, Layer.MARKUP, role=Role.LAYOUT)
            if heading == HeadingKind.JUAN_TITLE:
                m = JUAN_TITLE.fullmatch(self.text, line.body_start, line.body_end)
                kaozheng = bool(m and m.group("kaozheng"))
        self.body(body)
        return self.finish()

    def finish(self) -> Parsed:
        """Cut the unmarked 注/經 stretches with models of this text, then freeze the spans."""
        self.spans = cut_stretches(self.text, self.items, self.trained, self.diagnostics, self.unsettled)
        return self.parsed()

    # -- the body: 經, 注 and small-print runs ---------------------------------------------
    def body(self, lines: Sequence[Line]) -> None:
        """Scan consecutive body lines as one stream: runs go on over line ends."""
        if not lines:
            return
        starts = {line.body_start for line in lines}
        i, stream_end = lines[0].start, lines[-1].end
        while i < stream_end:
            i = self.step(i, stream_end, i in starts)
        self.end_large(clean=True)
        if self.small is not None and self.in_group:
            self.diagnostics.append(Diagnostic("unbalanced", "( is not closed", self.group_open, self.group_open + 1))
        self.small = None
        self.in_group = False
        self.after_close = False

    def step(self, i: int, end: int, line_start: bool) -> int:
        """Read what stands at ``i``; return where the next thing starts."""
        text = self.text
        char = text[i]
        if char in "\r\n" and self.in_group:
            # Small print is closed on its printed line; the next line's ``(`` goes on with it.
            self.diagnostics.append(
                Diagnostic("unbalanced", "( is not closed before the line end", self.group_open, self.group_open + 1)
            )
            self.in_group = False
            self.after_close = True
        if char in SPACE:
            self.layout(i, i + 1)
            return i + 1
        if self.in_group:
            return self.group_char(i, end)
        if char == "(":
            return self.open_group(i, None, None)
        if char == ")":
            self.diagnostics.append(Diagnostic("unbalanced", ") closes nothing", i, i + 1))
            self.end_large(clean=True)
            self.add(i, i + 1, Layer.MARKUP, role=Role.LAYOUT, marker=")")
            return i + 1
        labelled = self.run_label(i, end)
        if labelled is not None:
            return labelled
        if char == ZHU_MARK:
            ambiguous = self.large is not None and self.large.layer is Layer.ZHU
            return self.marked_run(i, Layer.ZHU, clean=not ambiguous)
        # A ○ inside a drum score is a sign of it (collate.model.notation), not a segment mark.
        if char in SEGMENT_MARKS and not in_notation(text, i):
            return self.marked_run(i, Layer.JING, clean=True)
        return self.large_char(i, end, line_start)

    def run_label(self, i: int, end: int) -> int | None:
        """A run label and its ``(`` at ``i``: the small-print run opened; where it goes on (None: no label)."""
        text = self.text
        for label, layer in RUN_LABELS:
            pieces = match_word(text, i, end, label)
            if pieces is None:
                continue
            after = pieces[-1][1]
            while after < end and text[after] in SPACE:
                after += 1
            if after < end and text[after] == "(":
                self.end_large(clean=True)
                self.small = None
                self.marker(pieces, label)
                self.layout_between(pieces[-1][1], after)
                return self.open_group(after, label, layer)
        return None

    def marked_run(self, i: int, layer: Layer, *, clean: bool) -> int:
        """The mark at ``i`` (``注``, ``○``) ends the large-print run (``clean``: where it is marked)
        and opens one of ``layer``."""
        self.end_large(clean=clean)
        self.small = None
        self.after_close = False
        self.add(i, i + 1, Layer.MARKUP, role=Role.MARKER, marker=self.text[i])
        self.large = _Run(layer, self.next_unit(), clean_start=True)
        return i + 1

    def large_char(self, i: int, end: int, line_start: bool) -> int:
        """A large-print character: the run it goes on (a new 經 run if none), or a section word."""
        text = self.text
        if self.large is None:
            self.small = None
            if self.sections and line_start and (self.after_close or not self.items_since_heading()):
                word = next((w for w in SECTION_WORDS if text.startswith(w, i, end)), None)
                if word is not None and not text.startswith(tuple(NOT_SECTION), i + len(word), end):
                    self.add(i, i + len(word), Layer.HEADING, self.next_unit(), heading=HeadingKind.SECTION)
                    self.after_close = False
                    return i + len(word)
            self.after_close = False
            self.large = _Run(Layer.JING, self.next_unit(), clean_start=True)
        run = self.large
        if run.pieces and run.pieces[-1][2] and run.pieces[-1][1] == i:
            run.pieces[-1] = (run.pieces[-1][0], i + 1, True)
        else:
            run.pieces.append((i, i + 1, True))
        return i + 1

    def items_since_heading(self) -> bool:
        """Has anything but layout been read since the last heading (or the start)?"""
        for item in reversed(self.items):
            if isinstance(item, Stretch):
                return True
            if item.layer is Layer.HEADING:
                return False
            if item.layer is not Layer.MARKUP or item.role is not Role.LAYOUT:
                return True
        return False

    def layout_between(self, start: int, end: int) -> None:
        """Line ends between a run label and its ``(``."""
        if end > start:
            self.add(start, end, Layer.MARKUP, role=Role.LAYOUT)

    def end_large(self, clean: bool) -> None:
        """The large-print run ends: kept as read, or, if its end is not printed, cut later."""
        run = self.large
        self.large = None
        if run is None:
            return
        chars = "".join(self.text[a:b] for a, b, is_text in run.pieces if is_text)
        if not clean and chars:
            self.items.append(Stretch(tuple(run.pieces), run.unit, self.next_unit()))
            return
        if run.clean_start and clean and chars:
            self.trained[run.layer].append(chars)
        for a, b, is_text in run.pieces:
            if is_text:
                self.add(a, b, run.layer, run.unit)
            else:
                self.add(a, b, Layer.MARKUP, role=Role.LAYOUT)
        texts = [(a, b) for a, b, is_text in run.pieces if is_text and b > a]
        if run.layer is Layer.ZHU and texts:
            # A 注 ended by ○, a run label or a heading may still have let the 經 resume before
            # it (注卒盡主人阼階上答拜○): read as all 注, for the collation to settle.
            first, last = texts[0][0], texts[-1][1]
            self.unsettled.append(Unsettled(first, last, last, Layer.ZHU, Layer.JING, run.unit, self.next_unit()))

    def open_group(self, i: int, label: str | None, layer: Layer | None) -> int:
        """A ``(`` at ``i``: going on with the open run, or opening one."""
        text = self.text
        self.end_large(clean=True)
        self.in_group = True
        self.group_open = i
        if label is None and self.small is not None and self.after_close:
            self.add(i, i + 1, Layer.MARKUP, self.small[1], Role.MARKER, marker="(")
            self.after_close = False
            return i + 1
        self.after_close = False
        body = i + 1
        close = text.find(")", body)
        inner = text[body : close if close >= 0 else len(text)].replace("/", "")
        opener = next((w for w in SHU_OPENERS if inner.startswith(w) or inner.startswith(ZHU_MARK + w)), None)
        if label is None and TALLY.match(inner):
            self.add(i, body, Layer.MARKUP, role=Role.MARKER, marker="(")
            self.add(body, close if close >= 0 else body, Layer.HEADING, self.next_unit(), heading=HeadingKind.TALLY)
            self.small = (Layer.HEADING, 0)
            return close if close >= 0 else body
        if opener is not None:
            if label is not None and layer is not Layer.SHU:
                self.diagnostics.append(
                    Diagnostic("label", f"small print labelled {label} opens with {opener}: read as 疏", i, i + 1)
                )
            layer = Layer.SHU
        elif inner.startswith(NOTE_OPENERS):
            layer = Layer.NOTE
        elif layer is None:
            self.diagnostics.append(
                Diagnostic("label", "small print without a run label: read as 音義", i, i + 1, Severity.INFO)
            )
            layer = Layer.SHIWEN
        unit = self.next_unit()
        self.small = (layer, unit)
        self.shu_start = layer is Layer.SHU
        self.add(i, body, Layer.MARKUP, unit, Role.MARKER, marker="(")
        return body

    def group_char(self, i: int, end: int) -> int:
        """One character (or marker word) inside small print."""
        text = self.text
        assert self.small is not None
        layer, unit = self.small
        char = text[i]
        if char == ")":
            self.add(i, i + 1, Layer.MARKUP, unit, Role.MARKER, marker=")")
            self.in_group = False
            self.after_close = True
            return i + 1
        if char == "(":
            self.diagnostics.append(Diagnostic("unbalanced", "( is not closed", self.group_open, self.group_open + 1))
            self.group_open = i
            self.add(i, i + 1, Layer.MARKUP, unit, Role.MARKER, marker="(")
            return i + 1
        if char == "/":
            self.add(i, i + 1, Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.COLUMN_BREAK)
            return i + 1
        if char in SEGMENT_MARKS:
            self.add(i, i + 1, Layer.MARKUP, unit, Role.MARKER, marker=char)
            return i + 1
        if layer is Layer.SHU:
            found = self.shu_opener(i, end)
            if found is not None:
                pieces, word, on_zhu = found
                if on_zhu:
                    unit = self.next_unit()
                    self.small = (layer, unit)
                self.marker(pieces, word, unit)
                self.shu_start = False
                return pieces[-1][1]
        self.shu_start = False
        self.add(i, i + 1, layer, unit)
        return i + 1

    def shu_opener(self, i: int, end: int) -> tuple[list[tuple[int, int]], str, bool] | None:
        """正義曰/釋曰 opening a 疏, or 注正義曰/注釋曰 opening its part on the 注, at ``i``."""
        for word in SHU_OPENERS:
            on_zhu = match_word(self.text, i, end, ZHU_MARK + word, INSIDE_WORD)
            if on_zhu is not None:
                return on_zhu, ZHU_MARK + word, True
            if self.shu_start:
                plain = match_word(self.text, i, end, word, INSIDE_WORD)
                if plain is not None:
                    return plain, word, False
        return None
