"""The closed sets every stage names: layers, span roles, mark kinds, severities, change and reading classes.

Each is an Enum whose values are the words the files, the TOML and the JSON use, so a member
can stand wherever the plain string stood (:class:`StrEnum`, or ``str`` mixed in).
"""

from __future__ import annotations

from enum import Enum


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


class Role(StrEnum):
    """What the characters of a :class:`Span` do inside their layer."""

    TEXT = "text"  # the words: the only role tokenized and collated
    ATTRIBUTION = "attribution"  # a prefix naming who speaks (方氏愨曰, 注曰, 蕙田案) or what is explained (標起止)
    MARKER = "marker"  # a printed sign that is not the work's text: 注, 疏, 正義曰, 〇, brackets, page markers
    LAYOUT = "layout"  # whitespace, line ends, indentation


class MarkKind(StrEnum):
    """What a :class:`Mark` marks; its ``label`` is what the print calls the place."""

    PAGE = "page"  # a printed page begins (``3a``, ``012-7a``)
    LINE = "line"  # a printed line begins (its number on the page)
    MILESTONE = "milestone"  # a page of another edition begins (``WYG 012-8a``)
    LACUNA = "lacuna"  # pages the print has lost start here (``006-14a, 2 pages``)


class Severity(str, Enum):
    """How much a diagnostic matters to the reader of the file."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"


class Position(StrEnum):
    """Where a :class:`SparseReading` stands against the phrase ``at`` that locates it."""

    AT = "at"  # inside ``at``: the reading replaces (or lacks) its ``base``
    AFTER = "after"  # an addition after ``at``
    BEFORE = "before"  # an addition before ``at``


class ChangeClass(str, Enum):
    """What kind of difference a normalization rule explains away (maps to apparatus classes)."""

    ORTHOGRAPHIC = "orthographic"  # script folding, variant graphs (異體字)
    TABOO = "taboo"  # 避諱 forms: orthographic with cause taboo
    PLACEHOLDER = "placeholder"  # ? □ ■ 〓, PUA, unresolved entities: match nothing
    UNCERTAIN = "uncertain"  # a declared per-witness substitution artifact (e.g. 防)
    LOAN = "loan"  # 通假: a loan character for another word; relates two keys, never folds them
    NOTATION = "notation"  # a sign of a score (○ 鼓, 囗 鼙 of the 投壺 drum scores): one sign whatever its encoding


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
    LOOKALIKE = "look-alike"  # 形近: a graphic confusion of two characters (己/已, 曰/日): a reading all the same
    HABIT = "habit"  # a print's habit the collation shows (凡讓皆作譲): orthographic for that witness
    SCRIPT = "script"  # simplified against traditional only (賓/宾): never listed, so never on a reading


class ReadingClass(str, Enum):
    """What kind of difference a reading is from the lemma, strongest first."""

    SUBSTANTIVE = "substantive"  # different words: the readings an editor must judge
    TRANSPOSITION = "transposition"  # the same words in another order
    OMISSION = "omission"  # the witness lacks the base's text where it is extant
    ADDITION = "addition"  # the witness has text the base lacks
    SCRIBAL_ERROR = "scribal_error"  # set by an editor reclassifying a reading, never by the builder
    LOAN = "loan"  # 通假: another word's character written for this one (罷/疲): noted, never folded
    NOTATION = "notation"  # signs of a score (○□○○□ of the 投壺 drum scores) read otherwise: listed apart
    PLACEHOLDER = "placeholder"  # a digitization placeholder (? □ PUA …) on either side: never substantive
    ORTHOGRAPHIC = "orthographic"  # same normalized form, different graph (異體字, 避諱)
    NOT_EXTANT = "not_extant"  # the witness does not contain this place (fragment, lacuna)

    @property
    def rank(self) -> int:
        """Strength for choosing a locus's overall class: higher is stronger."""
        return len(_ORDER) - _ORDER.index(self)

    @property
    def chinese(self) -> str:
        """The class's name in a Chinese apparatus (異文, 脫文, 異體 …), shared by every view."""
        return _CLASS_CHINESE[self]


_ORDER = tuple(ReadingClass)
_CLASS_CHINESE = {
    ReadingClass.SUBSTANTIVE: "異文",
    ReadingClass.TRANSPOSITION: "倒文",
    ReadingClass.OMISSION: "脫文",
    ReadingClass.ADDITION: "多文",
    ReadingClass.SCRIBAL_ERROR: "訛誤",
    ReadingClass.LOAN: "通假",
    ReadingClass.NOTATION: "譜",
    ReadingClass.PLACEHOLDER: "缺字",
    ReadingClass.ORTHOGRAPHIC: "異體",
    ReadingClass.NOT_EXTANT: "不存",
}
