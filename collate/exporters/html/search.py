"""What a book's search looks in: a script a part, holding its text block by block and its loci's readings.

A part's page searches itself as the one page does (tools.js). Across the parts, the search
(book-search.js) reads these scripts, loaded with ``<script src>`` when a search is first made: a page
opened from disk may not ``fetch()`` another file (Chromium refuses it), but it may load a script.
Each assigns its part's data to a global, ``collateSearch[n]``::

    {"title": "礼记投壶", "pages": "頁1a – 頁16b",
     "blocks": [["b-12", "投壺之禮，主人奉矢…"], …],
     "loci": [["jing-0012", "哨", [["DD", "峭"]], 0], …]}

A block's text is what the page shows of the base there (page labels, carets, printed markers and the
links under a note left out, as tools.js leaves them out); a locus lists every witness's reading with
its characters, and the block its mark is in (so that its hits are listed in the order of the text).
The characters are compared folded in the browser, by the page's own fold table.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from collate.apparatus import Locus
from collate.exporters.html.common import Element, safe

# What the text view's search does not read as the base's text (tools.js: ".pb, .ins, .mk, .judges"),
# and another witness's page anchor, which holds no text.
_NOT_TEXT = frozenset({"pb", "ins", "mk", "judges", "pg"})
# The global the scripts fill, one key a part (book-search.js reads it).
GLOBAL = "collateSearch"


def block_text(element: Element) -> str:
    """The base's text a block shows, as the text view's search reads it."""
    out: list[str] = []
    _collect(element, out)
    return "".join(out)


def _collect(node: Element, out: list[str]) -> None:
    if not _NOT_TEXT.isdisjoint((node.get("class") or "").split()):
        return
    if node.text:
        out.append(node.text)
    for child in node:
        _collect(child, out)
        if child.tail:
            out.append(child.tail)


def readings(locus: Locus) -> list[list[str]]:
    """Each witness's reading of ``locus`` that has characters: [siglum, its characters]."""
    return [[w.siglum, safe(w.text)] for reading in locus.readings for w in reading.witnesses if w.text]


def part_script(
    number: int, title: str, pages: str, blocks: Sequence[tuple[str, Element]], loci: Iterable[Locus]
) -> str:
    """The search script of part ``number`` (from 1): its ``blocks`` (id, element) and ``loci``."""
    where: dict[str, int] = {}
    for k, (_, element) in enumerate(blocks):
        for node in element.iter("span"):
            if (locus_id := node.get("data-locus")) is not None:
                where.setdefault(locus_id, k)
    # A locus the text draws no mark for is listed after the part's blocks, as its 校勘記 lists it.
    data = {
        "title": title,
        "pages": pages,
        "blocks": [[block_id, block_text(element)] for block_id, element in blocks],
        "loci": [[x.id, safe(x.lemma.text), readings(x), where.get(x.id, len(blocks))] for x in loci],
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"(window.{GLOBAL} = window.{GLOBAL} || {{}})[{number}] = {text};\n"
