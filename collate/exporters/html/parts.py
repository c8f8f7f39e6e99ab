"""A book's text cut into parts, each a page of its own: the base's divisions, small ones merged, long ones cut.

A division is what the base's headings make of its text: a run-in title (礼记投壶, 少仪) opens one,
a heading closing a section (右投壺) ends one, and the front matter goes with the first. A division
is the page a reader expects, but not every one is a page's worth: a quoted passage of two lines,
or what stands between a closing heading and the next title, joins the part before it (at the
start, the one after); one longer than a part may be is cut between its blocks, and a paragraph
longer than that between its units (a 經 run and its small print). No cut falls inside a locus:
each locus is in one part, so the parts number their loci as the whole book does.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from collate.exporters.html.common import Element, el
from collate.exporters.html.text import Block

# When a collation is a book: its marked loci, and characters of the base's text. What a page costs
# a browser grows with it: measured in headless Chromium (bench/bench_book.py's books, three
# witnesses; load, switch to 對照, click a variant), 531 loci and 30k characters (a 2.2 MB page)
# take 0.3 s, 0.13 s, 0.11 s; 975 and 48k (3.9 MB) 0.4, 0.2, 0.2; 1,804 and 100k (7.1 MB) 0.8, 0.3,
# 0.3; 5,143 and 300k (20 MB) 1.7, 0.8, 1.7 s and half a gigabyte. The largest chapters of the real
# witnesses (射義 in six editions, 524 loci, 1.9 MB; 燕禮 注疏 in three, 511 loci and 30k, 2.4 MB)
# answer within 0.3 s: a page up to about twice theirs is one page, as it always was.
ONE_PAGE_LOCI = 1_000
ONE_PAGE_CHARS = 60_000
# A part's bounds: a page that answers at once (a bench book's part of 181 loci and 9.6k characters,
# 0.9 MB, 0.2 s, 0.04 s, 0.06 s), however large the book.
PART_LOCI = 600
PART_CHARS = 40_000
# A division under an eighth of both bounds is small: no page of its own (a bench book's 投壺 of
# 9,500 characters and 160 loci is a page; the 少儀 of two lines quoted after it is not).
SMALL = 8


@dataclass(frozen=True, slots=True)
class Weight:
    """What a block holds: the loci marked in it (their ids, in order) and its characters."""

    loci: tuple[str, ...]
    chars: int

    @classmethod
    def of(cls, element: Element) -> Weight:
        """Weigh a block: the loci its marks open (``.v[data-locus]``), the characters of its text."""
        loci = dict.fromkeys(
            locus
            for node in element.iter("span")
            if (locus := node.get("data-locus")) is not None and "v" in (node.get("class") or "").split()
        )
        return cls(tuple(loci), sum(len(text) for text in element.itertext()))


def fits(loci: int, chars: int) -> bool:
    """Whether a part of ``loci`` marked loci and ``chars`` characters is within the bounds."""
    return loci <= PART_LOCI and chars <= PART_CHARS


def one_page(loci: int, chars: int) -> bool:
    """Whether a collation of ``loci`` marked loci and ``chars`` characters of base text is one page."""
    return loci <= ONE_PAGE_LOCI and chars <= ONE_PAGE_CHARS


def _small(loci: int, chars: int) -> bool:
    return loci * SMALL < PART_LOCI and chars * SMALL < PART_CHARS


def cut_paragraphs(blocks: Sequence[Block]) -> tuple[list[Block], list[Weight], dict[Element, Element]]:
    """``blocks`` with each paragraph longer than a part cut into pieces between its units, each weighed.

    The pieces are small (an eighth of a part at most, a unit longer than that alone), so that a
    part can end at any of them; :func:`rejoin` puts the pieces a part holds together again. Also
    returns the paragraph each later piece was cut from.
    """
    out: list[Block] = []
    weights: list[Weight] = []
    origin: dict[Element, Element] = {}
    for block in blocks:
        weight = Weight.of(block.element)
        if fits(len(weight.loci), weight.chars) or not block.units:
            out.append(block)
            weights.append(weight)
            continue
        pieces = _pieces(block)
        out.extend(pieces)
        weights.extend(Weight.of(piece.element) for piece in pieces)
        origin.update((piece.element, block.element) for piece in pieces[1:])
    return out, weights, origin


def _pieces(block: Block) -> list[Block]:
    """A long paragraph in pieces: its children moved into new paragraphs of its class, cut before a unit."""
    para = block.element
    pieces = [block]
    loci = chars = 0
    for child in list(para):
        weight = Weight.of(child)
        at = block.units.get(child)
        if at is not None and (loci or chars) and not _small(loci + len(weight.loci), chars + weight.chars):
            piece = el("p", dict(para.attrib))
            pieces.append(Block(piece, at, "para"))
            loci = chars = 0
        if len(pieces) > 1:
            pieces[-1].element.append(child)  # its tail goes with it
        loci, chars = loci + len(weight.loci), chars + weight.chars
    return pieces


def rejoin(blocks: Sequence[Block], origin: dict[Element, Element]) -> list[Block]:
    """The blocks of one part with the pieces of a paragraph (:func:`cut_paragraphs`) one paragraph again."""
    out: list[Block] = []
    for block in blocks:
        source = origin.get(block.element)
        if source is not None and out and origin.get(out[-1].element, out[-1].element) is source:
            out[-1].element.extend(list(block.element))  # the piece before, of the same paragraph
            continue
        out.append(block)
    return out


def divide(kinds: Sequence[str], weights: Sequence[Weight]) -> list[range]:
    """The parts of a book, as ranges of its blocks: its divisions, small ones merged, long ones cut.

    ``kinds`` are the blocks' kinds (:class:`~collate.exporters.html.text.Block`), ``weights`` what each holds.
    """
    can = _cuttable(weights)
    n = len(weights)
    heads = (i for i in range(1, n) if can[i] and (kinds[i] == "title" or kinds[i - 1] == "close"))
    pieces: list[range] = []
    for a, b in pairwise([0, *heads, n]):
        pieces.extend(_cut(range(a, b), weights, can))
    parts: list[range] = []
    for piece in pieces:
        if parts:
            last = _size(weights, parts[-1])
            grown = _size(weights, range(parts[-1].start, piece.stop))
            if (_small(*last) or _small(*_size(weights, piece))) and fits(*grown):
                parts[-1] = range(parts[-1].start, piece.stop)
                continue
        parts.append(piece)
    return parts


def _size(weights: Sequence[Weight], blocks: range) -> tuple[int, int]:
    """Loci and characters of a run of blocks (a locus in two blocks counts twice: a bound, not a count)."""
    return sum(len(weights[i].loci) for i in blocks), sum(weights[i].chars for i in blocks)


def _cuttable(weights: Sequence[Weight]) -> list[bool]:
    """Whether a part may begin at each block: no locus has marks both before it and in or after it."""
    first: dict[str, int] = {}
    last: dict[str, int] = {}
    for i, weight in enumerate(weights):
        for locus in weight.loci:
            first.setdefault(locus, i)
            last[locus] = i
    depth = [0] * (len(weights) + 1)
    for locus, a in first.items():
        if last[locus] > a:
            depth[a + 1] += 1
            depth[last[locus] + 1] -= 1
    out, running = [], 0
    for i in range(len(weights)):
        running += depth[i]
        out.append(running == 0)
    return out


def _cut(division: range, weights: Sequence[Weight], can: Sequence[bool]) -> list[range]:
    """A division in runs of blocks within the bounds, each cut where a part may begin.

    A run grows while it fits and is cut at the last place it may be; where there is none (a locus
    over many blocks), at the first place after: a part may then exceed the bounds.
    """
    out: list[range] = []
    start, stop = division.start, division.stop
    while start < stop:
        end, loci, chars = start + 1, len(weights[start].loci), weights[start].chars
        best: int | None = None
        while end < stop:
            if can[end]:
                best = end
            if not fits(loci + len(weights[end].loci), chars + weights[end].chars):
                break
            loci, chars, end = loci + len(weights[end].loci), chars + weights[end].chars, end + 1
        if end >= stop:
            out.append(range(start, stop))
            break
        cut = best if best is not None else next((i for i in range(end + 1, stop) if can[i]), stop)
        out.append(range(start, cut))
        start = cut
    return out
