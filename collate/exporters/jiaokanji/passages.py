"""The headings of a compilation's 校勘記: each passage the base quotes, named by its work and first words.

``《禮記·射義》「射者仁之道也」``: an editor reads a compilation's 校勘記 passage by passage, and
heads each with the work and chapter, then the passage's opening. Where two passages open alike
(五禮通考 quotes 主人曰枉矢哨壺不足辭也… twice, once for each exchange), each is cited by its first
and last words, as a 疏 cites the passage it explains (主人曰枉矢至敢不敬從): the last words as few
as tell it from the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from collate.exporters.jiaokanji.entry import Entry
from collate.exporters.jiaokanji.words import ENDS, LONG
from collate.model import Layer, Witness
from collate.model.inert import inert

if TYPE_CHECKING:
    from collate.align.holdings import Article

# Characters of a quoted passage that name it in its heading.
PASSAGE_OPENING = 8


def passage_headings(base: Witness | None) -> list[Entry]:
    """A heading per passage a compilation base quotes (《禮記·射義》「射者仁之道也」), at its start.

    A base that quotes no titled work (or no base witness as read) has none.
    """
    from collate.align.holdings import articles, opening_words
    from collate.compilation import work_title

    if base is None:
        return []
    found = articles(base)
    openings = [opening_words(base, a, PASSAGE_OPENING, (Layer.JING,)) for a in found]
    words = _told_apart(base, found, openings)
    out = []
    for a, quoted in zip(found, words, strict=True):
        loc = base.locate(a.start)
        out.append(Entry(loc.line, loc.column, inert(f"《{work_title(a.title)}》{quoted}", keep="")))
    return out


def _told_apart(base: Witness, found: Sequence[Article], openings: Sequence[str]) -> list[str]:
    """Each passage's words in its heading: its opening, or where another of its work opens alike, its ends."""
    from collate.align.holdings import opening_words

    alike: dict[tuple[str, str], list[int]] = {}
    for k, (a, opening) in enumerate(zip(found, openings, strict=True)):
        alike.setdefault((a.title, opening), []).append(k)
    out = [f"「{opening}」" if opening else "" for opening in openings]
    for group in alike.values():
        if len(group) < 2 or not openings[group[0]]:
            continue
        # The whole of each passage's 經: read only for the few passages that open alike.
        texts = {k: opening_words(base, found[k], found[k].end - found[k].start, (Layer.JING,)) for k in group}
        for k in group:
            out[k] = _ends(texts[k], [t for j, t in texts.items() if j != k])
    return out


def _ends(text: str, others: Sequence[str]) -> str:
    """「opening」至「last words」, the last words as few (at least :data:`ENDS`) as no other passage ends with.

    A passage short enough is quoted whole; one whose every ending another shares keeps its opening alone.
    """
    opening = text[:PASSAGE_OPENING]
    if len(text) <= LONG:
        return f"「{text}」"
    for size in range(ENDS, len(text) - PASSAGE_OPENING + 1):
        if not any(t.endswith(text[-size:]) for t in others):
            return f"「{opening}」至「{text[-size:]}」"
    return f"「{opening}」"
