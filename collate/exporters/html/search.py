"""What a book's search looks in: a script a part, holding its text block by block and its loci's readings.

A part's page searches itself as the one page does (tools.js). Across the parts, the search
(book-search.js) reads these scripts, loaded with ``<script src>`` when a search is first made: a page
opened from disk may not ``fetch()`` another file (Chromium refuses it), but it may load a script.
Each assigns its part's data to a global, ``collateSearch[n]``::

    {"title": "礼记投壶", "pages": "頁1a – 頁16b",
     "hides": ["l-jing", "l-zhu", "c-substantive l-jing", …],
     "blocks": [["b-12", "投壺之禮，主人奉矢…", [0, 0, 9, 1, …]], …],
     "loci": [["jing-0012", "哨", [["DD", "峭"]], 0, 2], …]}

A block's text is what the page shows of the base there (page labels, carets, printed markers and the
links under a note left out, as tools.js leaves them out), with where in it the filters that hide text
change (its layer, ``l-zhu``, and a compilation's quoted work, ``w-3``): pairs of the character each
run begins at and its filter classes, an index into ``hides``. A locus lists every witness's reading
with its characters, the block its mark is in (so that its hits are listed in the order of the text),
and the filter classes that hide it (its class, its layer, its work, 形近), an index into ``hides``
too (a book has a few dozen such sets, so each is written once). A filter switched off leaves its hits
out, as the page's own search leaves out what the filter hides. The characters are compared folded in
the browser, by the page's own fold table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence

from collate.apparatus import Locus
from collate.exporters.html.common import Element, safe

# What the text view's search does not read as the base's text (tools.js: ".pb, .ins, .mk, .judges"),
# and another witness's page anchor, which holds no text.
_NOT_TEXT = frozenset({"pb", "ins", "mk", "judges", "pg"})
# The classes a filter hides text by: a layer's (l-zhu) and a quoted work's (w-3).
_HIDES_TEXT = re.compile(r"l-[a-z_]+|w-[0-9]+")
# The global the scripts fill, one key a part (book-search.js reads it).
GLOBAL = "collateSearch"


def block_text(element: Element) -> str:
    """The base's text a block shows, as the text view's search reads it."""
    return _Text.of(element).text


class _Text:
    """A block's text as the search reads it, and the filter classes in force over each run of it."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.runs: list[tuple[int, str]] = []

    @classmethod
    def of(cls, element: Element) -> _Text:
        found = cls()
        found.collect(element, ())
        return found

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def add(self, text: str, hides: tuple[str, ...]) -> None:
        names = " ".join(hides)
        if not self.runs or self.runs[-1][1] != names:
            self.runs.append((self.size, names))
        self.parts.append(text)
        self.size += len(text)

    def collect(self, node: Element, hides: tuple[str, ...]) -> None:
        classes = (node.get("class") or "").split()
        if not _NOT_TEXT.isdisjoint(classes):
            return
        # What a filter hides the text by: its layer (l-zhu) and its quoted work (w-3).
        mine = tuple(c for c in classes if _HIDES_TEXT.fullmatch(c))
        if mine:
            # A layer within a layer (a 注 inside a 經 paragraph) replaces it; a work, a work.
            replaced = {m[:2] for m in mine}
            hides = (*(h for h in hides if h[:2] not in replaced), *mine)
        if node.text:
            self.add(node.text, hides)
        for child in node:
            self.collect(child, hides)
            if child.tail:
                self.add(child.tail, hides)


def readings(locus: Locus) -> list[list[str]]:
    """Each witness's reading of ``locus`` that has characters: [siglum, its characters]."""
    return [[w.siglum, safe(w.text)] for reading in locus.readings for w in reading.witnesses if w.text]


def part_script(
    number: int,
    title: str,
    pages: str,
    blocks: Sequence[tuple[str, Element]],
    loci: Iterable[Locus],
    hides: Mapping[str, str],
) -> str:
    """The search script of part ``number`` (from 1): its ``blocks`` (id, element) and ``loci``, with
    the filter classes that hide each locus (``hides``, by id)."""
    where: dict[str, int] = {}
    for k, (_, element) in enumerate(blocks):
        for node in element.iter("span"):
            if (locus_id := node.get("data-locus")) is not None:
                where.setdefault(locus_id, k)
    texts = [(block_id, _Text.of(element)) for block_id, element in blocks]
    table: list[str] = []
    known: dict[str, int] = {}

    def index(names: str) -> int:
        if names not in known:
            known[names] = len(table)
            table.append(names)
        return known[names]

    # A locus the text draws no mark for is listed after the part's blocks, as its 校勘記 lists it.
    data = {
        "title": title,
        "pages": pages,
        "hides": table,
        "blocks": [
            [block_id, found.text, [n for at, names in found.runs for n in (at, index(names))]]
            for block_id, found in texts
        ],
        "loci": [
            [x.id, safe(x.lemma.text), readings(x), where.get(x.id, len(blocks)), index(hides.get(x.id, ""))]
            for x in loci
        ],
    }
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"(window.{GLOBAL} = window.{GLOBAL} || {{}})[{number}] = {text};\n"
