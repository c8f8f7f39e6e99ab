"""The closed sets every stage names: layers, span roles, mark, heading and marker kinds, severities, change
and reading classes (with the names each output gives a reading class).

Each is an Enum whose values are the words the files, the TOML and the JSON use, so a member
can stand wherever the plain string stood (:class:`StrEnum`, or ``str`` mixed in).
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple


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
        """The layer's Chinese name, as editors say it (經, 集說, 案): the TEI's ``@n``, the 校勘記's 〔注〕."""
        return _NAMES[self][0]

    @property
    def edition_name(self) -> str:
        """The layer's name over its section of an edition, and in its filters (經, 諸家說, 案語)."""
        return _NAMES[self][1]

    @property
    def english(self) -> str:
        """What the layer is, in English (the TEI header's description of it)."""
        return _NAMES[self][2]

    @property
    def label(self) -> str:
        """The layer's Chinese name with its value, as the terminal views show it: ``經 jing``."""
        return f"{self.chinese} {self.value}"


# Each layer's names: (Chinese, in an edition, English).
_NAMES: dict[Layer, tuple[str, str, str]] = {
    Layer.JING: ("經", "經", "經 the classic's main text"),
    Layer.ZHU: ("注", "注", "注 鄭玄's commentary"),
    Layer.SHU: ("疏", "疏", "疏 正義 subcommentary"),
    Layer.SHIWEN: ("釋文", "釋文", "釋文 陸德明's glosses on readings and pronunciations"),
    Layer.COMMENTARY: ("集說", "諸家說", "later commentators quoted by the base text (方氏愨曰 …)"),
    Layer.NOTE: ("案", "案語", "editorial notes: 蕙田案, the Siku editors' 【案】"),
    Layer.HEADING: ("標題", "標題", "structure: volume headers, titles, section-closing lines (右投壺)"),
    Layer.MARKUP: ("版式", "版式", "layout: brackets, column marks, layer markers, whitespace, page markers"),
    Layer.BOILERPLATE: ("非正文", "非正文", "non-text: web page furniture and the like"),
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


class HeadingKind(StrEnum):
    """What a heading is, as the reader that found it names it: a :class:`Span`'s ``heading``.

    A heading the print names with a word of its own (正誤 opening 敖繼公's corrections, 記 opening
    a 儀禮 chapter's 記) keeps that word, a plain string.
    """

    TITLE = "title"  # the work's or the chapter's title (a Mandoku ``#+TITLE``, a 集說's first line)
    COLLECTION = "collection"  # the collection the print belongs to (欽定四庫全書)
    JUAN_TITLE = "juan title"  # 禮記注疏卷六十二, 儀禮卷第一
    CHAPTER_TITLE = "chapter title"  # 射義第四十六, 燕禮第六
    CHAPTER_NUMBER = "chapter number"  # a chapter's number printed apart from its title (投壺, then 第七十八)
    BOOK_AND_COMMENTATOR = "book and commentator"  # 禮記　鄭氏註
    COMMENTATORS = "commentators"  # the line naming the commentaries (漢鄭氏注　唐陸德明音義　孔穎達疏)
    TALLY = "tally"  # a count of the characters (經三千二百二十三字, 凡三千五百五十四字)
    SECTION = "section"  # a word opening a section of 經 in its first line (儀禮's 記)
    SECTION_END = "section end"  # a section-closing line (右投壺)
    ORG_HEADING = "org heading"  # a Mandoku file's org-mode heading (``** 47 射義``)


class MarkerKind(StrEnum):
    """What a marker or a layout character is, as the reader that found it names it: a :class:`Span`'s ``marker``.

    A printed sign (``(``, ``」``, 正義曰, 注, ``○``), a file's own keyword (``#+TITLE``) or a
    TLS phrase number (``47.1``) is its own name, a plain string.
    """

    COLUMN_BREAK = "column break"  # the ``/`` between the two columns of small print
    NOTE_OPEN = "note open"  # the 【 opening an editors' 【案…】 note
    NOTE_CLOSE = "note close"  # the 】 closing it
    SMALL_PRINT_OPEN = "small-print open"  # the ``_{`` opening a 注疏 e-text's small print
    SMALL_PRINT_CLOSE = "small-print close"  # the ``}`` closing it
    SECTION_BREAK = "section break"  # a 〇 between two sections of one layer
    READING_MARK = "reading mark"  # a 句讀 sign printed in small print (句, 讀)
    STRAY = "stray"  # a character that is neither text nor a phrase number (in a TLS text)
    PAGE = "pb"  # a Mandoku page marker (``<pb:…>``)
    MILESTONE = "md"  # a Mandoku milestone: a page of another edition (``<md:…>``)
    LACUNA = "lacuna"  # a Mandoku ``# page missing`` line
    BLANK_PAGE = "blank page"  # a Mandoku line saying a leaf is blank in the print itself
    ORG = "org"  # another org-mode line of a Mandoku file (``# src: …``)
    ORG_HEADING = "org heading"  # the stars of a Mandoku org-mode heading (``**``)


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

    @property
    def chinese(self) -> str:
        """The cause's name as a Chinese apparatus says it (避諱, 形近, 通例 …), shared by every view."""
        return _CAUSE_NAMES[self]


# Each cause's Chinese name.
_CAUSE_NAMES: dict[Cause, str] = {
    Cause.TABOO: "避諱",
    Cause.SEMANTIC: "通用字",
    Cause.VARIANT: "異體字",
    Cause.ARTIFACT: "電子本替代字",
    Cause.LOAN: "通假",
    Cause.LOOKALIKE: "形近",
    Cause.HABIT: "通例",
    Cause.SCRIPT: "繁簡",
}


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
        return _CLASS_NAMES[self].chinese

    @property
    def english(self) -> str:
        """The class's name in an English interface (the review's ``--lang en``): ``substantive``, ``loan``."""
        return _CLASS_NAMES[self].english

    @property
    def gloss(self) -> str:
        """The class's Chinese name explained in English, beside it on the edition page: ``loan character``."""
        return _CLASS_NAMES[self].gloss

    @property
    def short(self) -> str:
        """The class's name cut to a column head of the terminal's summary table: ``subst``."""
        return _CLASS_NAMES[self].short

    @property
    def mark(self) -> str:
        """One character naming the class after a reading in the terminal views: 文 (異文), 借 (通假)."""
        return _CLASS_NAMES[self].mark


class _ClassNames(NamedTuple):
    """A reading class's names, one for each place it is written.

    The English name and the gloss differ where the English interface names the class for a
    choice (``loan``) and the edition page explains the Chinese word beside it (通假 ``loan
    character``); the column head and the mark are cut to fit a terminal.
    """

    chinese: str
    english: str
    gloss: str
    short: str
    mark: str  # the word a 校勘記 uses for the class, cut to its one telling character


_ORDER = tuple(ReadingClass)
_CLASS_NAMES: dict[ReadingClass, _ClassNames] = {
    ReadingClass.SUBSTANTIVE: _ClassNames("異文", "substantive", "substantive", "subst", "文"),  # other words
    ReadingClass.TRANSPOSITION: _ClassNames("倒文", "transposition", "transposition", "transp", "倒"),
    ReadingClass.OMISSION: _ClassNames("脫文", "omission", "omission", "omit", "脫"),
    ReadingClass.ADDITION: _ClassNames("多文", "addition", "addition", "add", "衍"),  # 衍文
    ReadingClass.SCRIBAL_ERROR: _ClassNames("訛誤", "scribal error", "scribal error", "scribal", "訛"),  # 訛字
    ReadingClass.LOAN: _ClassNames("通假", "loan", "loan character", "loan", "借"),  # 假借/通假
    ReadingClass.NOTATION: _ClassNames("譜", "score notation", "score notation", "score", "譜"),
    ReadingClass.PLACEHOLDER: _ClassNames("缺字", "placeholder", "placeholder", "placeh", "闕"),  # 闕字
    ReadingClass.ORTHOGRAPHIC: _ClassNames("異體", "orthographic", "orthographic", "orth", "異"),
    ReadingClass.NOT_EXTANT: _ClassNames("不存", "not extant", "not extant", "n/ext", "無"),
}
