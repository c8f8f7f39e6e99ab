"""The chapter titles of the classics, from the shipped table (``collate/data/titles.tsv``).

A compilation names the work it quotes by a run-in title (禮記射義, 儀禮既夕禮, 大戴禮記主言): the
reader of its layout recognises a title by the chapter names of the works, which come from the
table (the chapter headings of the prints, 曲禮上第一; its header says from where). The table
keeps each print's characters; a compilation may print a title otherwise, so the reader adds:

* the usual print variants of a chapter's characters (内/內, 曽/曾, 䘮/喪, 閒/間, 衞/衛, 乗/乘,
  徳/德, 圎/圓), either way;
* 儀禮's names with and without their last 禮 (既夕 and 既夕禮; 大射儀 and 大射);
* the simplified forms (OpenCC), for a simplified e-text (礼记射义).
"""

from __future__ import annotations

import re
from functools import cache

from collate.model import Layer, Witness
from collate.model.numerals import NUMERAL
from collate.normalize.script import convert
from collate.normalize.tables import data_path, read_rows

# Characters the prints write two ways in chapter titles: each form gives the other.
PRINT_VARIANTS = {"内": "內", "曽": "曾", "䘮": "喪", "閒": "間", "衞": "衛", "乗": "乘", "徳": "德", "圎": "圓"}


@cache
def table() -> tuple[tuple[str, str, str, str], ...]:
    """The rows of the table: (book, chapter, heading as printed, source file)."""
    return tuple((f[0], f[1], f[2], f[3]) for _, f in read_rows(data_path("titles.tsv"), 4))


def chapters(book: str) -> tuple[str, ...]:
    """The chapters of ``book`` as its print heads them, in order, once each."""
    return tuple(dict.fromkeys(chapter for b, chapter, _, _ in table() if b == book))


def print_forms(names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` with each one's print variants (see the module docstring), in order, once each."""
    out: dict[str, None] = {}
    swap = {**PRINT_VARIANTS, **{b: a for a, b in PRINT_VARIANTS.items()}}
    for name in names:
        out[name] = None
        out["".join(swap.get(c, c) for c in name)] = None
        for i, c in enumerate(name):
            if c in swap:
                out[name[:i] + swap[c] + name[i + 1 :]] = None
    return tuple(out)


def yili_forms(names: tuple[str, ...]) -> tuple[str, ...]:
    """儀禮's chapter names with and without their last 禮 or 儀 (既夕/既夕禮, 大射儀/大射)."""
    out: dict[str, None] = {}
    for name in names:
        out[name] = None
        if name.endswith(("禮", "儀")) and len(name) > 2:
            out[name[:-1]] = None
        else:
            out[name + "禮"] = None
    return tuple(out)


def simplified(names: tuple[str, ...]) -> tuple[str, ...]:
    """The simplified forms of ``names`` (OpenCC, traditional to simplified, through the fold's one converter)."""
    return tuple(dict.fromkeys(convert("t2s", name) for name in names))


__all__ = ["PRINT_VARIANTS", "chapters", "print_forms", "simplified", "table", "yili_forms"]


# The books of the table, by the names a title or a file's header may give them.
BOOK_NAMES = {
    "禮記": ("禮記", "礼记"),
    "儀禮": ("儀禮", "仪礼"),
    "周禮": ("周禮", "周礼"),
    "大戴禮記": ("大戴禮記", "大戴禮", "大戴礼记", "大戴礼"),
}
# The six offices of 周禮, which a print cites alone once the book is named (夏官 after 周禮春官).
OFFICES = ("天官", "地官", "春官", "夏官", "秋官", "冬官", "考工記", "考工记")
_NUMBERED = re.compile(rf"第{NUMERAL}+$")


@cache
def _forms() -> dict[str, tuple[tuple[str, str], ...]]:
    """Every form of every chapter name (print variants, simplified), with the (book, chapter) it names."""
    out: dict[str, list[tuple[str, str]]] = {}
    for book in BOOK_NAMES:
        for chapter in chapters(book):
            names = print_forms(yili_forms((chapter,)) if book == "儀禮" else (chapter,))
            if book == "周禮":
                # 夏官司馬: cited as 夏官 (周禮夏官), 冬官考工記 as 考工記 too.
                names = (*names, chapter[:2], chapter[2:])
            for form in (*names, *simplified(names)):
                out.setdefault(form, []).append((book, chapter))
    return {form: tuple(dict.fromkeys(found)) for form, found in out.items()}


def book_of(text: str) -> str | None:
    """The book ``text`` names first among the table's (大戴禮記 before 禮記), if any."""
    for book, names in sorted(BOOK_NAMES.items(), key=lambda item: -max(map(len, item[1]))):
        if any(name in text for name in names):
            return book
    return None


def chapter_of(title: str) -> tuple[str, str] | None:
    """The (book, chapter) a run-in title names (禮記射義, 射義, 儀禮既夕禮), if the table has it."""
    book = next((b for b, names in BOOK_NAMES.items() for n in names if title.startswith(n) and b != "禮記"), None)
    if book is None and title.startswith(BOOK_NAMES["禮記"]) and not title.startswith(BOOK_NAMES["大戴禮記"]):
        book = "禮記"
    rest = title
    if book is not None:
        rest = next(title[len(n) :] for n in sorted(BOOK_NAMES[book], key=len, reverse=True) if title.startswith(n))
    found = [bc for bc in _forms().get(rest, ()) if book is None or bc[0] == book]
    return found[0] if len(found) == 1 else None


def identity(headings: tuple[str, ...], title: str = "") -> frozenset[tuple[str, str]]:
    """The chapters a file is an edition of, by its own headings (鄉射禮第五, ``=== 20 | 射義 ===``).

    A heading names a chapter when, less its number (第五) and what is no ideograph, it is one of
    the chapter's forms; the book the file's title names (儀禮注疏, 大戴禮記) picks among chapters
    of one name in several books (投壺).
    """
    book = book_of(title)
    out: set[tuple[str, str]] = set()
    forms = _forms()
    for heading in headings:
        for piece in re.split(r"[^\u3400-\u9fff\U00020000-\U0003134f]+", heading):
            for found in forms.get(_NUMBERED.sub("", piece), ()):
                if book is None or found[0] == book:
                    out.add(found)
    return frozenset(out)


def witness_book(witness: Witness) -> str | None:
    """The book a witness is an edition of: the one its header's title names (周禮注疏 → 周禮, 陳氏禮記集說 →
    禮記), else the one book its own chapter headings name; None for a compilation (another copy of
    五禮通考 holds many books) or a file that names none."""
    if any(s.work for s in witness.spans):
        return None
    title = next((value for key, value in witness.metadata if key == "title"), "")
    books = {book for book, _ in witness_identity(witness)}
    return book_of(title) or (next(iter(books)) if len(books) == 1 else None)


def witness_identity(witness: Witness) -> frozenset[tuple[str, str]]:
    """:func:`identity` of a witness as read: its headings and the title its header gives.

    A compilation (its passages under run-in titles: another copy of 五禮通考) is an edition of
    no one chapter: none.
    """
    if any(s.work for s in witness.spans):
        return frozenset()
    headings = tuple(witness.text[s.start : s.end] for s in witness.spans if s.layer is Layer.HEADING)
    title = next((value for key, value in witness.metadata if key == "title"), "")
    return identity(headings, title)
