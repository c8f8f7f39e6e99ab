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


class StrEnum(str, Enum):
    """An Enum whose members are their values wherever text is made of them.

    Python 3.11's ``enum.StrEnum``, for 3.10: ``str()``, ``format()`` and f-strings give the
    value (``text``, never ``Role.TEXT``), and a member equals its value, so JSON, TOML, XML
    and comparisons with the plain string are what they were when these sets were strings.
    """

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(str.__str__(self), spec)


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


class Role(StrEnum):
    """What the characters of a :class:`Span` do inside their layer."""

    TEXT = "text"  # the words: the only role tokenized and collated
    ATTRIBUTION = "attribution"  # a prefix naming who speaks (方氏愨曰, 注曰, 蕙田案) or what is explained (標起止)
    MARKER = "marker"  # a printed sign that is not the work's text: 注, 疏, 正義曰, 〇, brackets, page markers
    LAYOUT = "layout"  # whitespace, line ends, indentation


@dataclass(frozen=True, slots=True, init=False)
class Span:
    """A stretch ``text[start:end]`` of a witness in one layer.

    ``unit`` numbers the logical block the span belongs to (one 注 run, one 蕙田案 note,
    one commentator's passage), so a block split across lines and pages stays one unit.
    ``role`` says what the characters do inside their layer (:class:`Role`).

    A reader names what it knows of a span in at most one of these, each meaning one thing:

    - ``work``: the work a passage of 經 (and the 注 and 疏 on it) quotes, as its run-in title
      prints it (``礼记投壶``, ``少仪``), also on that title's heading span; ``previous chapter``
      for the end of the chapter before the one a file is of;
    - ``speaker``: who speaks, as the attribution prints it (``方氏悫曰``, ``注曰``, ``蕙田案``,
      ``臣紱``) or as a reader names them (``陸德明``), on the attribution and on the passage's words;
    - ``marker``: what a marker or a layout character is (``(``, ``column break``, ``note open``,
      ``正義曰``, ``pb``, ``lacuna``; ``疏 A…B`` keeps the lemma a 疏 header cites);
    - ``heading``: what a heading is (``title``, ``juan title``, ``chapter title``, ``tally``,
      ``section end``);
    - ``passage``: what part of the book a passage is, where its layer does not say (``考證``,
      ``正誤``, ``跋``, ``音`` for 陳澔's sound notes, ``標起止`` for a 單疏本's lemma,
      ``variant`` for a web editor's 一作 note, ``web page``).

    ``role`` may be given as its value (``"text"``). A bare ``label`` is still taken (tests pass
    one) and put in the field its span's layer and role imply; :attr:`label` reads whichever is set.
    """

    start: int
    end: int
    layer: Layer
    unit: int
    role: Role
    work: str | None
    speaker: str | None
    marker: str | None
    heading: str | None
    passage: str | None

    def __init__(
        self,
        start: int,
        end: int,
        layer: Layer,
        unit: int = 0,
        role: Role | str = Role.TEXT,
        label: str | None = None,
        *,
        work: str | None = None,
        speaker: str | None = None,
        marker: str | None = None,
        heading: str | None = None,
        passage: str | None = None,
    ) -> None:
        # A plain value ("text") becomes the member, so that comparisons with ``is`` hold.
        role = role if type(role) is Role else Role(role)
        if label is not None:
            # A caller that still gives one label (the tests): the meaning its layer and role imply.
            if role is Role.MARKER or role is Role.LAYOUT or layer is Layer.MARKUP:
                marker = label
            elif layer is Layer.HEADING:
                heading = label
            elif role is Role.ATTRIBUTION or layer in (Layer.COMMENTARY, Layer.NOTE):
                speaker = label
            elif layer.is_text:
                work = label
            else:
                passage = label
        put = object.__setattr__  # frozen: the generated __init__ sets its fields the same way
        put(self, "start", start)
        put(self, "end", end)
        put(self, "layer", layer)
        put(self, "unit", unit)
        put(self, "role", role)
        put(self, "work", work)
        put(self, "speaker", speaker)
        put(self, "marker", marker)
        put(self, "heading", heading)
        put(self, "passage", passage)

    @property
    def label(self) -> str | None:
        """Whichever of ``work``, ``speaker``, ``marker``, ``heading``, ``passage`` is set.

        Kept for the tests, which still read one label; the library reads the field it means.
        """
        for value in (self.work, self.speaker, self.marker, self.heading, self.passage):
            if value is not None:
                return value
        return None

    def alike(self, other: Span) -> bool:
        """Same layer, unit, role and names: side by side, the two would be one span."""
        return (
            self.layer is other.layer
            and self.unit == other.unit
            and self.role is other.role
            and self.work == other.work
            and self.speaker == other.speaker
            and self.marker == other.marker
            and self.heading == other.heading
            and self.passage == other.passage
        )

    def over(self, start: int, end: int) -> Span:
        """The same span (layer, unit, role, names) over ``text[start:end]``."""
        return Span(
            start,
            end,
            self.layer,
            self.unit,
            self.role,
            work=self.work,
            speaker=self.speaker,
            marker=self.marker,
            heading=self.heading,
            passage=self.passage,
        )


class MarkKind(StrEnum):
    """What a :class:`Mark` marks; its ``label`` is what the print calls the place."""

    PAGE = "page"  # a printed page begins (``3a``, ``012-7a``)
    LINE = "line"  # a printed line begins (its number on the page)
    MILESTONE = "milestone"  # a page of another edition begins (``WYG 012-8a``)
    LACUNA = "lacuna"  # pages the print has lost start here (``006-14a, 2 pages``)


@dataclass(frozen=True, slots=True, init=False)
class Mark:
    """A positional mark at an offset: a printed page or line beginning, a milestone, a lacuna.

    ``kind`` may be given as its value (``"page"``).
    """

    offset: int
    kind: MarkKind
    label: str

    def __init__(self, offset: int, kind: MarkKind | str, label: str) -> None:
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "kind", kind if type(kind) is MarkKind else MarkKind(kind))
        object.__setattr__(self, "label", label)


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
        pages = [m for m in self.marks if m.kind is MarkKind.PAGE]
        return [m.offset for m in pages], [m.label for m in pages]

    @cached_property
    def _printed_lines(self) -> list[int]:
        return [m.offset for m in self.marks if m.kind is MarkKind.LINE]

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


class Position(StrEnum):
    """Where a :class:`SparseReading` stands against the phrase ``at`` that locates it."""

    AT = "at"  # inside ``at``: the reading replaces (or lacks) its ``base``
    AFTER = "after"  # an addition after ``at``
    BEFORE = "before"  # an addition before ``at``


@dataclass(frozen=True, slots=True, init=False)
class SparseReading:
    """One entry of a readings file: what a sparse witness reads at one place of the base.

    ``at`` is a phrase of the base text that locates the place (any script); ``base`` is the
    part of it the reading concerns (empty for an addition, which goes ``position`` after or
    before ``at``); ``reading`` is what the witness has there (empty for a lack).
    ``start``/``end`` are the entry's offsets in the readings file. ``position`` may be given
    as its value (``"after"``; an empty one is ``AT``).
    """

    start: int
    end: int
    at: str
    base: str
    reading: str
    position: Position
    layer: Layer
    source: str
    note: str

    def __init__(
        self,
        start: int,
        end: int,
        at: str,
        base: str,
        reading: str,
        position: Position | str,
        layer: Layer,
        source: str,
        note: str = "",
    ) -> None:
        put = object.__setattr__  # frozen: the generated __init__ sets its fields the same way
        put(self, "start", start)
        put(self, "end", end)
        put(self, "at", at)
        put(self, "base", base)
        put(self, "reading", reading)
        # Only an addition needs a position: none given ("") is AT.
        put(self, "position", position if type(position) is Position else Position(position or Position.AT))
        put(self, "layer", layer)
        put(self, "source", source)
        put(self, "note", note)

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


class Cause(StrEnum):
    """Why a reading differs from the lemma as it does: the ``Reading.cause`` the builder sets.

    An editor reclassifying a reading may name a cause of their own (``haplography``): that one
    is a plain string.
    """

    TABOO = "taboo"  # 避諱 forms (玄→元)
    SEMANTIC = "semantic"  # semantic variants the normalizer folds (its rule ``semantic-variant``)
    VARIANT = "variant"  # variant graphs (筭/算)
    ARTIFACT = "artifact"  # a declared substitution artifact of the e-text (防 for a rare glyph)
    LOAN = "loan"  # 通假: the normalizer relates the two characters as a loan (罷/疲)
    SCRIPT = "script"  # simplified against traditional only (賓/宾): never listed, so never on a reading


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
