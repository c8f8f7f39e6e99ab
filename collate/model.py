"""The witness model: a witness owns its raw text; everything else is an offset into it.

A reader turns a file into a :class:`Witness`: the decoded text, untouched, plus
stand-off annotations over it. Spans partition the text (every character belongs to
exactly one span), so nothing a file holds is ever lost, and every later record
(token, reading, diagnostic) can name ``file:line:col`` and the printed page.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from enum import Enum
from functools import cached_property


class Layer(str, Enum):
    """What a stretch of a witness file is.

    The first six are text layers; ``HEADING``, ``MARKUP`` and ``BOILERPLATE`` are kept
    (for display, page references and losslessness) but never collated.
    """

    JING = "jing"  # 經: the classic's main text
    ZHU = "zhu"  # 注: 鄭玄's commentary
    SHU = "shu"  # 疏: 正義 subcommentary
    SHIWEN = "shiwen"  # 釋文/音義: 陸德明's glosses
    COMMENTARY = "commentary"  # later commentators (方氏愨曰, 陳氏禮書, 集說 …)
    NOTE = "note"  # editorial notes: 蕙田案, the Siku editors' 【案…】
    HEADING = "heading"  # structure: volume headers, titles, 右投壺 section-closing lines
    MARKUP = "markup"  # layout: brackets, column marks, layer markers, whitespace, page markers
    BOILERPLATE = "boilerplate"  # non-text: web page furniture and the like

    @property
    def is_text(self) -> bool:
        """True for layers that carry the work's words (and so can be tokenized)."""
        return self not in (Layer.HEADING, Layer.MARKUP, Layer.BOILERPLATE)

    @property
    def chinese(self) -> str:
        """The layer's Chinese name, as editors say it."""
        return _CHINESE[self]


_CHINESE = {
    Layer.JING: "經",
    Layer.ZHU: "注",
    Layer.SHU: "疏",
    Layer.SHIWEN: "釋文",
    Layer.COMMENTARY: "集說",
    Layer.NOTE: "案",
    Layer.HEADING: "標題",
    Layer.MARKUP: "版式",
    Layer.BOILERPLATE: "非正文",
}


class Severity(str, Enum):
    """How much a diagnostic matters to the reader of the file."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class SourceLocation:
    """A place in a witness file: 1-based line and column, and the printed page/line if known."""

    path: str
    line: int
    column: int
    page: str | None = None
    page_line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}:{self.column}"
        if self.page is not None:
            where += f" (p. {self.page}" + (f", l. {self.page_line})" if self.page_line else ")")
        return where


@dataclass(frozen=True, slots=True)
class Span:
    """A stretch ``text[start:end]`` of a witness in one layer.

    ``unit`` numbers the logical block the span belongs to (one 注 run, one 蕙田案 note,
    one commentator's passage), so a block split across lines and pages stays one unit.
    ``role`` says what the characters do inside their layer: ``text`` (the words),
    ``attribution`` (a prefix naming who speaks: 方氏愨曰, 注曰, 蕙田案), ``marker``
    (a printed layer marker that is not the work's text: 注, 疏, 正義曰, 郑注) or ``layout``.
    ``label`` carries metadata: the attribution's name, a marker's kind, a page id.
    """

    start: int
    end: int
    layer: Layer
    unit: int = 0
    role: str = "text"
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Mark:
    """A positional mark at an offset: a printed page or line beginning, a milestone."""

    offset: int
    kind: str  # "page" | "line" | "milestone"
    label: str


@dataclass(frozen=True, slots=True)
class Substitution:
    """Characters of the raw text that stand for something else: a resolved gaiji entity.

    ``text[start:end]`` (e.g. ``&KR0002;``) reads as ``replacement`` (e.g. 若). An entity
    that could not be resolved has ``replacement`` None and is a placeholder.
    """

    start: int
    end: int
    replacement: str | None
    source: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A recoverable oddity found while reading: data on the result, never a print."""

    code: str
    message: str
    start: int
    end: int
    severity: Severity = Severity.WARNING


_NEWLINE = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Witness:
    """One witness file as read: raw text plus stand-off annotations.

    Not slotted because it caches the line index (``cached_property``).
    """

    siglum: str
    label: str
    path: str
    text: str
    layout: str
    layout_reason: str = ""
    container: str = "plain"
    container_reason: str = ""
    encoding: str = "utf-8"
    spans: tuple[Span, ...] = ()
    marks: tuple[Mark, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    metadata: tuple[tuple[str, str], ...] = field(default=())
    readings: tuple[SparseReading, ...] = ()

    @property
    def sparse(self) -> bool:
        """A readings file: extant only at its entries, silent (never omitting) elsewhere."""
        return self.layout == "readings"

    @cached_property
    def line_starts(self) -> list[int]:
        """The offset where each file line starts (line 1 at 0)."""
        return [0] + [m.end() for m in _NEWLINE.finditer(self.text)]

    @cached_property
    def _pages(self) -> tuple[list[int], list[str]]:
        pages = [m for m in self.marks if m.kind == "page"]
        return [m.offset for m in pages], [m.label for m in pages]

    @cached_property
    def _printed_lines(self) -> list[int]:
        return [m.offset for m in self.marks if m.kind == "line"]

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based file line and column of ``offset``."""
        starts = self.line_starts
        i = bisect.bisect_right(starts, offset) - 1
        return i + 1, offset - starts[i] + 1

    def page_at(self, offset: int) -> tuple[str | None, int | None]:
        """The printed page holding ``offset`` and the printed line within it, if the layout tells."""
        offsets, labels = self._pages
        i = bisect.bisect_right(offsets, offset) - 1
        if i < 0:
            return None, None
        lines = self._printed_lines
        if not lines:
            return labels[i], None
        lo = bisect.bisect_left(lines, offsets[i])
        hi = bisect.bisect_right(lines, offset)
        return labels[i], (hi - lo) if hi > lo else None

    def locate(self, offset: int) -> SourceLocation:
        """Where ``offset`` is, for messages and the apparatus."""
        line, col = self.line_col(offset)
        page, page_line = self.page_at(offset)
        return SourceLocation(self.path, line, col, page, page_line)

    def layer_text(self, layer: Layer) -> str:
        """The text of one layer: its spans joined in file order."""
        return "".join(self.text[s.start : s.end] for s in self.spans if s.layer is layer)

    def layers(self) -> list[Layer]:
        """The layers present, in the order of the enum."""
        present = {s.layer for s in self.spans}
        return [layer for layer in Layer if layer in present]

    def meta(self, key: str) -> str | None:
        """A metadata value the reader recorded (title, juan …), if any."""
        for k, v in self.metadata:
            if k == key:
                return v
        return None


@dataclass(frozen=True, slots=True)
class SparseReading:
    """One entry of a readings file: what a sparse witness reads at one place of the base.

    ``at`` is a phrase of the base text that locates the place (any script); ``base`` is the
    part of it the reading concerns (empty for an addition, which goes ``position`` "after"
    or "before" ``at``); ``reading`` is what the witness has there (empty for a lack).
    ``start``/``end`` are the entry's offsets in the readings file.
    """

    start: int
    end: int
    at: str
    base: str
    reading: str
    position: str
    layer: Layer
    source: str
    note: str = ""

    @property
    def kind(self) -> str:
        """``addition``, ``omission`` or ``substitution``."""
        if not self.base:
            return "addition"
        if not self.reading:
            return "omission"
        return "substitution"


class ChangeClass(str, Enum):
    """What kind of difference a normalization rule explains away (maps to apparatus classes)."""

    ORTHOGRAPHIC = "orthographic"  # script folding, variant graphs (異體字)
    TABOO = "taboo"  # 避諱 forms: orthographic with cause taboo
    PLACEHOLDER = "placeholder"  # ? □ ■ 〓, PUA, unresolved entities: match nothing
    UNCERTAIN = "uncertain"  # a declared per-witness substitution artifact (e.g. 防)
    LOAN = "loan"  # 通假: a loan character for another word; relates two keys, never folds them


@dataclass(frozen=True, slots=True)
class Change:
    """One step of normalization: ``before`` became ``after`` by ``rule`` (with its source)."""

    rule: str
    before: str
    after: str
    cls: ChangeClass
    source: str = ""


@dataclass(frozen=True, slots=True)
class Token:
    """One character of one layer of one witness: a view into the witness's text.

    ``start``/``end`` are offsets in the raw text (an entity such as ``&KR0002;`` spans
    several raw characters but is one token); ``t`` is the original character (the
    resolved gaiji, if any) and ``n`` the normalized form compared in alignment.
    ``before``/``after`` hold punctuation and layout attached to the token, kept for
    display and export. ``changes`` record why ``n`` differs from ``t``.
    """

    witness: str
    layer: Layer
    index: int
    start: int
    end: int
    t: str
    n: str
    unit: int = 0
    changes: tuple[Change, ...] = ()
    before: str = ""
    after: str = ""

    @property
    def is_placeholder(self) -> bool:
        """A digitization placeholder: matches nothing."""
        return any(c.cls is ChangeClass.PLACEHOLDER for c in self.changes)


class ReadingClass(str, Enum):
    """What kind of difference a reading is from the lemma, strongest first."""

    SUBSTANTIVE = "substantive"  # different words: the readings an editor must judge
    TRANSPOSITION = "transposition"  # the same words in another order
    OMISSION = "omission"  # the witness lacks the base's text where it is extant
    ADDITION = "addition"  # the witness has text the base lacks
    SCRIBAL_ERROR = "scribal_error"  # set by an editor reclassifying a reading, never by the builder
    LOAN = "loan"  # 通假: another word's character written for this one (罷/疲): noted, never folded
    PLACEHOLDER = "placeholder"  # a digitization placeholder (? □ PUA …) on either side: never substantive
    ORTHOGRAPHIC = "orthographic"  # same normalized form, different graph (異體字, 避諱)
    NOT_EXTANT = "not_extant"  # the witness does not contain this place (fragment, lacuna)

    @property
    def rank(self) -> int:
        """Strength for choosing a locus's overall class: higher is stronger."""
        return len(_ORDER) - _ORDER.index(self)


_ORDER = tuple(ReadingClass)


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """A normalization rule, whether it was in force for this collation, and where its data comes from."""

    name: str
    description: str
    enabled: bool = True
    source: str = ""
