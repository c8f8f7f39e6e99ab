"""The review's words: both languages for every text, the help in step with the keys, claims worded."""

from __future__ import annotations

import string

import pytest
from rich.cells import cell_len

from collate.apparatus import ReadingClass
from collate.model import Layer, SourceLocation
from collate.model.claim_words import chinese
from collate.notes.records import Claim, ClaimKind, Note, Place
from collate.review.app import ReviewApp
from collate.review.app_view import render_keys
from collate.review.look import Look
from collate.review.texts import _T, _WHY, HELP, Words, default_lang


def names(text: str) -> set[str]:
    """The ``{names}`` a text is filled in with."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


@pytest.mark.parametrize("table", [_T, _WHY])
def test_every_text_has_both_languages_with_the_same_names(table: dict[str, tuple[str, str]]) -> None:
    for key, (zh, en) in table.items():
        assert zh and en, key
        assert names(zh) == names(en), key


def test_the_help_lists_every_key_the_review_binds() -> None:
    shown = {key for keys, _, _ in HELP for key in keys.split()}
    spelled = {"slash": "/", "question_mark": "?", "down": "↓", "up": "↑"}
    bound = {spelled.get(key, key) for b in ReviewApp.BINDINGS for key in getattr(b, "key", "").split(",")}
    from collate.review.app_walk import ReviewBase

    bound |= {spelled.get(key, key) for b in ReviewBase.BINDINGS for key in getattr(b, "key", "").split(",")}
    assert bound <= shown, bound - shown


@pytest.mark.parametrize("width", [80, 60, 40, 120])
@pytest.mark.parametrize(("lang", "last"), [("zh", "? 說明  q 離開"), ("en", "? help  q quit")])
def test_the_key_bar_always_ends_with_help_and_quit(width: int, lang: str, last: str) -> None:
    bar = render_keys(Look(Words("zh" if lang == "zh" else "en")), width).plain
    assert bar.endswith(last) and cell_len(bar) <= width
    if width >= 80:
        assert bar.startswith("k ")  # room for the commonest decisions too


def claim(kind: ClaimKind, base: str, reading: str, place: Place = Place.AT, phrase: str = "") -> Claim:
    """A claim of 秦蕙田's about 大戴禮 (DD)."""
    note = Note("SK-n2", "SK", 1, 0, 4, "蕙田案", "秦蕙田", "…", ((0, 4),), SourceLocation("SK.txt", 1, 1))
    return Claim(note, "大戴礼", "DD", kind, base, reading, place, phrase, 0, 1, "秦蕙田", "…", sigla=("DD",))


@pytest.mark.parametrize(
    ("made", "zh", "en"),
    [
        (claim(ClaimKind.READS, "哨", "峭"), "大戴礼（DD）作峭，底本作哨", "大戴礼 (DD) reads 峭 for 哨"),
        (
            claim(ClaimKind.ADDS, "", "算", Place.AFTER, "比投不释"),
            "大戴礼（DD）「比投不释」下多算",
            "大戴礼 (DD) adds 算 after 比投不释",
        ),
        (claim(ClaimKind.LACKS, "一马从二马", ""), "大戴礼（DD）無一马从二马", "大戴礼 (DD) lacks 一马从二马"),
        (
            claim(ClaimKind.ADDS, "", "终则复始", Place.SECTION_END),
            "大戴礼（DD）此節之末多终则复始",
            "大戴礼 (DD) adds 终则复始 at the end of the section",
        ),
        (
            claim(ClaimKind.EMEND, "其", "奇"),
            "秦蕙田謂大戴礼（DD）其當作奇",
            "秦蕙田 emends 其 to 奇 in 大戴礼 (DD)",
        ),
    ],
)
def test_a_claim_is_worded_in_the_interfaces_language(made: Claim, zh: str, en: str) -> None:
    # The words of the edition (the HTML page, the JSON), and the notes stage's own English.
    assert Words("zh").claim(made.record()) == zh == chinese(made.record())
    assert Words("en").claim(made.record()) == en == made.summary()


def test_a_long_reading_in_a_claim_is_cut_by_the_caller() -> None:
    long = claim(ClaimKind.ADDS, "", "今日泰射" * 30, Place.CHAPTER_END).record()

    def cut(text: str) -> str:
        return text[:4] + "…"

    assert Words("zh").claim(long, cut) == "大戴礼（DD）篇末多今日泰射…"
    assert Words("en").claim(long, cut) == "大戴礼 (DD) adds 今日泰射… at the end of the chapter"


def test_a_chinese_title_gives_a_chinese_interface() -> None:
    assert default_lang("禮記·投壺") == "zh" and default_lang("𠀀") == "zh"
    assert default_lang("Touhu") == "en" and default_lang("") == "en"


def test_a_layer_and_a_change_are_named() -> None:
    zh, en = Words("zh"), Words("en")
    assert (zh.layer(Layer.ZHU), en.layer(Layer.ZHU)) == ("注", "注 zhu")
    assert (zh.what("keep"), zh.what("drop"), en.what("reattach")) == ("從底本", "刪除", "re-attach")


def test_a_class_is_named_in_each_language_from_the_one_table() -> None:
    assert [Words(lang).cls(ReadingClass.LOAN) for lang in ("zh", "en")] == ["通假", "loan"]
    assert all(Words("en").cls(c) == c.english and Words("zh").cls(c) == c.chinese for c in ReadingClass)
