"""What a reader records over a witness's raw text, by offset: spans, marks, substitutions, diagnostics.

Spans partition the text (every character belongs to exactly one span), so nothing a file
holds is ever lost; marks, substitutions and diagnostics point into the same offsets.
"""

from __future__ import annotations

from dataclasses import dataclass

from collate.model.chars import described_everyday
from collate.model.enums import Layer, MarkKind, Role, Severity


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
    - ``marker``: what a marker or a layout character is: a kind its reader names, a
      :class:`MarkerKind` (``column break``, ``note open``, ``pb``, ``lacuna`` …), or else the
      printed sign itself (``(``, ``」``, ``正義曰``, ``注``, a TLS phrase number ``47.1``; ``疏 A…B``
      keeps the lemma a 疏 header cites), a Mandoku file's own keyword (``#+TITLE``), or a readings
      file's entry by its number (``reading 2``);
    - ``heading``: what a heading is: a kind its reader names, a :class:`HeadingKind` (``title``,
      ``juan title``, ``chapter title``, ``tally``, ``section end`` …), or else the print's own word
      for it (``正誤``, ``記``). A kind is its value wherever text is made of it; compare it with
      ``==``, never ``is``: a run loaded from its saved file holds it as the plain string;
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


@dataclass(frozen=True, slots=True, init=False)
class Mark:
    """A positional mark at an offset: a printed page or line beginning, a milestone, a lacuna.

    ``kind`` may be given as its value (``"page"``). ``ref`` is a page's full id where the file
    names it so (a Kanripo ``<pb:KR1d0053_WYG_062-1a>``; ``label`` is then ``062-1a``).
    """

    offset: int
    kind: MarkKind
    label: str
    ref: str = ""

    def __init__(self, offset: int, kind: MarkKind | str, label: str, ref: str = "") -> None:
        object.__setattr__(self, "offset", offset)
        object.__setattr__(self, "kind", kind if type(kind) is MarkKind else MarkKind(kind))
        object.__setattr__(self, "label", label)
        object.__setattr__(self, "ref", ref)


# A lacuna's label says what the evidence is: ``006-14a, 2 pages`` (pages the print lost: a
# ``# page missing`` of the file), ``006-14a, 1 page, empty in the file`` (a leaf whose text the
# e-text does not have), ``blank, 1`` (a glyph the print lost, shown as a blank a cell wide),
# ``short line, 3`` (glyphs lost at the end of a line three cells shorter than the print's).
BLANK = "blank"
SHORT_LINE = "short line"
EMPTY_LEAF = "empty in the file"


def blank_width(label: str) -> int | None:
    """How many cells of glyphs a lacuna's label says were lost in a line (None: a lacuna of pages)."""
    head, _, width = label.partition(",")
    return int(width) if head in (BLANK, SHORT_LINE) and width.strip().isdigit() else None


@dataclass(frozen=True, slots=True)
class Substitution:
    """Characters of the raw text that stand for something else: a resolved gaiji entity.

    ``text[start:end]`` (e.g. ``&KR0002;``) reads as ``replacement`` (e.g. 若). An entity
    that could not be resolved has ``replacement`` None and is a placeholder. ``code`` is the
    entity's name in its table (``KR0002``) and ``description`` what the table says of the
    glyph (its form and normalised character as the table writes them, ``[車*犬]``), if anything.
    """

    start: int
    end: int
    replacement: str | None
    source: str
    code: str = ""
    description: str = ""

    @property
    def everyday(self) -> str | None:
        """The everyday character the table gives for the glyph the entity reads as, where it names
        one plainly and it is another (``&KR0050;`` reads 𤓰, everyday 瓜); else None.

        The table's editors say so of this glyph, not of every such character elsewhere (their
        KR0880 shows 七 for a glyph that is 匙): a key for this token only.
        """
        found = described_everyday(self.description)
        return found[1] if found is not None and found[0] == self.replacement else None


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A recoverable oddity found while reading: data on the result, never a print."""

    code: str
    message: str
    start: int
    end: int
    severity: Severity = Severity.WARNING


@dataclass(frozen=True, slots=True)
class Unsettled:
    """A stretch ``text[start:end]`` where the print does not mark where one layer gives way to the next.

    It is ``before`` up to some point and ``after`` from there (a 注 whose end the WYG 注疏
    print leaves unmarked when 經 resumes; a 纂圖互註 small-print run whose 音義 follows the 注
    with no ``○``). The reader cut it at ``cut``, its best guess from the print alone, and gave
    the two parts ``before_unit`` and ``after_unit``. The collation decides it from the other
    witnesses (:mod:`collate.align.boundaries`), which mark that boundary themselves.
    """

    start: int
    end: int
    cut: int
    before: Layer
    after: Layer
    before_unit: int
    after_unit: int
