"""The 校勘記's words: counts (in Chinese numerals, :mod:`collate.model.numerals`), quotations, lost pages.

Pure functions of strings and locations, so the wording is tested apart from the collation.
"""

from __future__ import annotations

import re

from collate.model import EMPTY_LEAF, SHORT_LINE, SourceLocation, blank_width
from collate.model.citation import JIAOKANJI
from collate.model.numerals import chinese

# Longer passages are cited by their first and last words, as 校勘記 do: 「A」至「B」凡N字.
LONG = 12
ENDS = 4


# One character as a reader counts it: an entity the e-text could not resolve (``&KR0227;``) is one.
_GLYPH = re.compile(r"&[A-Za-z0-9_]+;|.", re.DOTALL)


def glyphs(text: str) -> list[str]:
    """``text`` character by character, an unresolved entity one character: what is counted and cut."""
    return _GLYPH.findall(text)


def quote(text: str) -> str:
    """「text」, or 「first」至「last」 for a long passage (never cutting an entity in two)."""
    each = glyphs(text)
    if len(each) <= LONG:
        return f"「{text}」"
    return f"「{''.join(each[:ENDS])}」至「{''.join(each[-ENDS:])}」"


def chars(text: str) -> str:
    """``「X」字`` with the count when more than one: 「固」字, 「奏投壺之令」五字, 「A」至「B」凡三百字."""
    count = len(glyphs(text))
    if count == 1:
        return f"「{text}」字"
    if count > LONG:
        return f"{quote(text)}凡{chinese(count)}字"
    return f"「{text}」{chinese(count)}字"


def printed_place(location: SourceLocation | None) -> str:
    """``（頁020-8b行3）`` after a witness's name where its print has pages, else nothing.

    A witness's file line is no place an editor can look up in the print, and the base's place
    already opens the entry, so only a printed page is worth the words.
    """
    if location is None or location.page is None:
        return ""
    return f"（{JIAOKANJI.cite(location)}）"


# The label of a lacuna mark: the first page lost and how many (``006-14a, 2 pages``), with what
# says so (``empty in the file``: the e-text has the leaf's marker and no text).
_LOST = re.compile(r"(?P<page>.+?),\s*(?P<n>\d+)\s+pages?(?P<empty>,\s*" + re.escape(EMPTY_LEAF) + ")?")


def lost_pages(label: str) -> str:
    """``自其頁006-14a起缺二頁`` from a lacuna mark's label; '' when it does not say which pages."""
    m = _LOST.fullmatch(label.strip())
    if m is None:
        page = label.removesuffix(f", {EMPTY_LEAF}").strip()
        return f"自其{JIAOKANJI.page_alone(page)}起缺" if page and page != "?" and blank_width(label) is None else ""
    return f"自其{JIAOKANJI.page_alone(m.group('page'))}起缺{chinese(int(m.group('n')))}頁"


def lacuna_words(labels: list[str], text: str) -> str:
    """What a witness's lacuna over the base's ``text`` is, in a 校勘記's words, by what the marks say.

    A blank in the line: 此處空一格，闕「中」字 (the print lost the glyph); a line shorter than the
    print's: 此行短三格，行末闕「阼階」二字. A leaf the e-text has
    no text for: 此頁無文，無「…」 (the file lacks it: the book may not). Pages the copy lacks
    (its ``# page missing``): 缺頁，無「…」.
    """
    widths = [w for label in labels if (w := blank_width(label)) is not None]
    if labels and len(widths) == len(labels):
        if all(label.startswith(SHORT_LINE) for label in labels):
            return f"此行短{chinese(sum(widths))}格，行末闕{chars(text)}"
        return f"此處空{chinese(sum(widths))}格，闕{chars(text)}"
    if labels and all(label.strip().endswith(EMPTY_LEAF) for label in labels):
        return f"此頁無文，無{chars(text)}"
    return f"缺頁，無{chars(text)}"


def plain(source: str) -> str:
    """A source such as ``蕙田案（五禮通考卷165 頁3a）`` without nested brackets."""
    return source.replace("（", "，").replace("）", "")
