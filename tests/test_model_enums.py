"""The closed sets' words: the layers' and reading classes' names in each output, the heading and marker kinds."""

from __future__ import annotations

import json

import pytest

from collate.model import Cause, HeadingKind, Layer, MarkerKind, ReadingClass, Span

NAMES = [
    (Layer.JING, "經", "經", "經 jing"),
    (Layer.ZHU, "注", "注", "注 zhu"),
    (Layer.SHU, "疏", "疏", "疏 shu"),
    (Layer.SHIWEN, "釋文", "釋文", "釋文 shiwen"),
    (Layer.COMMENTARY, "集說", "諸家說", "集說 commentary"),
    (Layer.NOTE, "案", "案語", "案 note"),
    (Layer.HEADING, "標題", "標題", "標題 heading"),
    (Layer.MARKUP, "版式", "版式", "版式 markup"),
    (Layer.BOILERPLATE, "非正文", "非正文", "非正文 boilerplate"),
]


@pytest.mark.parametrize(("layer", "chinese", "edition_name", "label"), NAMES, ids=[n[0].value for n in NAMES])
def test_each_layer_is_named(layer: Layer, chinese: str, edition_name: str, label: str) -> None:
    assert layer.chinese == chinese
    assert layer.edition_name == edition_name
    assert layer.label == label
    assert layer.english


def test_every_layer_has_its_names() -> None:
    assert [n[0] for n in NAMES] == list(Layer)


def test_the_text_layers_in_english_as_the_tei_header_describes_them() -> None:
    assert [layer.english for layer in Layer if layer.is_text] == [
        "經 the classic's main text",
        "注 鄭玄's commentary",
        "疏 正義 subcommentary",
        "釋文 陸德明's glosses on readings and pronunciations",
        "later commentators quoted by the base text (方氏愨曰 …)",
        "editorial notes: 蕙田案, the Siku editors' 【案】",
    ]


# Each reading class as each output writes it: (Chinese, the English interface, the edition page's
# gloss, the summary's column head, the terminal's mark).
CLASS_NAMES = [
    (ReadingClass.SUBSTANTIVE, "異文", "substantive", "substantive", "subst", "文"),
    (ReadingClass.TRANSPOSITION, "倒文", "transposition", "transposition", "transp", "倒"),
    (ReadingClass.OMISSION, "脫文", "omission", "omission", "omit", "脫"),
    (ReadingClass.ADDITION, "多文", "addition", "addition", "add", "衍"),
    (ReadingClass.SCRIBAL_ERROR, "訛誤", "scribal error", "scribal error", "scribal", "訛"),
    (ReadingClass.LOAN, "通假", "loan", "loan character", "loan", "借"),
    (ReadingClass.NOTATION, "譜", "score notation", "score notation", "score", "譜"),
    (ReadingClass.PLACEHOLDER, "缺字", "placeholder", "placeholder", "placeh", "闕"),
    (ReadingClass.ORTHOGRAPHIC, "異體", "orthographic", "orthographic", "orth", "異"),
    (ReadingClass.NOT_EXTANT, "不存", "not extant", "not extant", "n/ext", "無"),
]


@pytest.mark.parametrize(
    ("cls", "chinese", "english", "gloss", "short", "mark"), CLASS_NAMES, ids=[n[0].value for n in CLASS_NAMES]
)
def test_each_reading_class_is_named_for_each_output(
    cls: ReadingClass, chinese: str, english: str, gloss: str, short: str, mark: str
) -> None:
    assert (cls.chinese, cls.english, cls.gloss, cls.short, cls.mark) == (chinese, english, gloss, short, mark)


def test_every_reading_class_has_its_names_and_no_two_share_one() -> None:
    assert [n[0] for n in CLASS_NAMES] == list(ReadingClass)
    for column in range(1, 6):
        assert len({n[column] for n in CLASS_NAMES}) == len(CLASS_NAMES)
    assert all(len(n[5]) == 1 for n in CLASS_NAMES)


def test_every_cause_has_its_own_chinese_name() -> None:
    names = {c: c.chinese for c in Cause}
    assert (names[Cause.LOOKALIKE], names[Cause.HABIT], names[Cause.TABOO]) == ("形近", "通例", "避諱")
    assert len(set(names.values())) == len(names)


HEADING_KINDS = {
    HeadingKind.TITLE: "title",
    HeadingKind.COLLECTION: "collection",
    HeadingKind.JUAN_TITLE: "juan title",
    HeadingKind.CHAPTER_TITLE: "chapter title",
    HeadingKind.CHAPTER_NUMBER: "chapter number",
    HeadingKind.BOOK_AND_COMMENTATOR: "book and commentator",
    HeadingKind.COMMENTATORS: "commentators",
    HeadingKind.TALLY: "tally",
    HeadingKind.SECTION: "section",
    HeadingKind.SECTION_END: "section end",
    HeadingKind.ORG_HEADING: "org heading",
}
MARKER_KINDS = {
    MarkerKind.COLUMN_BREAK: "column break",
    MarkerKind.NOTE_OPEN: "note open",
    MarkerKind.NOTE_CLOSE: "note close",
    MarkerKind.SMALL_PRINT_OPEN: "small-print open",
    MarkerKind.SMALL_PRINT_CLOSE: "small-print close",
    MarkerKind.SECTION_BREAK: "section break",
    MarkerKind.READING_MARK: "reading mark",
    MarkerKind.STRAY: "stray",
    MarkerKind.PAGE: "pb",
    MarkerKind.MILESTONE: "md",
    MarkerKind.LACUNA: "lacuna",
    MarkerKind.BLANK_PAGE: "blank page",
    MarkerKind.ORG: "org",
    MarkerKind.ORG_HEADING: "org heading",
}


@pytest.mark.parametrize(("kind", "value"), [*HEADING_KINDS.items(), *MARKER_KINDS.items()])
def test_a_kind_is_the_word_the_readers_always_wrote(kind: HeadingKind | MarkerKind, value: str) -> None:
    # The outputs and a saved run hold the plain words: a member must be its word wherever text is made.
    assert kind == value and hash(kind) == hash(value)
    assert str(kind) == f"{kind}" == value
    assert json.dumps(kind) == json.dumps(value)


def test_every_kind_is_listed() -> None:
    assert list(HEADING_KINDS) == list(HeadingKind)
    assert list(MARKER_KINDS) == list(MarkerKind)


def test_a_span_keeps_a_kind_as_its_string() -> None:
    span = Span(0, 2, Layer.HEADING, 1, heading=HeadingKind.SECTION_END)
    assert span.heading == "section end"
    assert span.alike(Span(2, 4, Layer.HEADING, 1, heading="section end"))
