"""The project's title: the work and the chapter the witness files share (``禮記·射義``).

Editions of one chapter are titled by their commentary (禮記註疏, 纂圖互註禮記, 陳氏禮記集說), while
each prints the chapter's own title (射義, 射義第四十六; a TLS outline's ``** 47 射義``, a wiki
section's ``=== 20 | 射義 ===``: :attr:`~collate.init.headers.Header.chapters`). The chapter is the
one most files name; the work is the one their titles name once the words of an edition are taken
out (:data:`~collate.init.naming.EDITION_WORDS`), the one most of them name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from collate.init.headers import Header, chapter_name
from collate.init.naming import EDITION_WORDS

_JUAN = re.compile(r"[卷巻].*$")
# A commentator named before the work (陳氏禮記集說: 陳澔's 集說 on 禮記), where a work of two or
# more characters follows: a one-character rest would be no work's title.
_COMMENTATOR = re.compile(r"^[\u3400-\u4dbf\u4e00-\u9fff]氏(?=[\u3400-\u4dbf\u4e00-\u9fff]{2})")
# Longest first: 纂圖互註 goes whole, not as 互註 leaving 纂圖 behind.
_WORDS_LONGEST_FIRST = sorted(EDITION_WORDS, key=len, reverse=True)


def work_of(title: str) -> str:
    """The work an edition's title names (``陳氏禮記集說`` → ``禮記``), or "" where the title is a chapter's.

    The juan goes (``禮記正義卷第六十九``), then the words of the edition (註疏, 纂圖互註, 集說) and a
    commentator named before the work (陳氏); a title ``work·chapter`` names the work before the dot.
    """
    if "·" in title:
        title = title.partition("·")[0]
    elif chapter_name(title):
        return ""  # 投壺第四十(一): the title line of a chapter, naming no work
    work = _JUAN.sub("", title)
    for word in _WORDS_LONGEST_FIRST:
        work = work.replace(word, "")
    return _COMMENTATOR.sub("", work).strip(" \t\u3000")


def _work(h: Header) -> str:
    """The work ``h``'s title names; a title that is the chapter's own (a wiki section's) names none."""
    work = work_of(h.title)
    return "" if work in h.chapters else work


def project_title(headers: Sequence[Header], base: Header) -> str:
    """``work·chapter`` for the chapter most files name, the base's first among as many; "" where none names one.

    The work is the one most files holding that chapter name; among as many, the base's, then the
    one the others' titles extend (禮記 in 禮記註疏 and 纂圖互註禮記), then the shortest. A readings
    file names the chapter but not the work: its title names the print its readings come from
    (大戴禮記·投壺), not the text edited. Where no title names a work, the chapter alone.
    """
    votes = Counter(c for h in headers for c in h.chapters)
    if not votes:
        return ""
    order = [*base.chapters, *(c for h in headers for c in h.chapters)]
    chapter = max(votes, key=lambda c: (votes[c], -order.index(c)))
    holders = [h for h in headers if chapter in h.chapters and h.path.suffix != ".toml"]
    works = [w for h in holders if (w := _work(h))]
    if not works:
        return chapter
    counts = Counter(works)
    own = _work(base) if base in holders else ""

    def rank(work: str) -> tuple[int, bool, int, int, int]:
        extended = sum(work in h.title for h in holders)
        return counts[work], work == own, extended, -len(work), -works.index(work)

    return f"{max(counts, key=rank)}·{chapter}"
