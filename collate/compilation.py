"""A compilation as its base: every work it quotes collated against the witnesses that hold it.

五禮通考 quotes many works under run-in titles (:mod:`collate.align.holdings`). With no ``work``
in the project, each witness is aligned with the articles it holds (by their text, layer by
layer), and the run says, per quoted work, against which witnesses it was collated and how much
of it; a work no witness holds is listed as not collated, never silently dropped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from collate.align.holdings import Article, Holding, articles, holdings, keys_of, masked
from collate.model import Layer, Token, Witness

Tokens = Mapping[str, Mapping[Layer, Sequence[Token]]]
Masks = dict[Layer, dict[str, tuple[tuple[int, int], ...]]]


# The books a run-in title may begin with, longest first, in the prints' forms and simplified:
# 禮記射義 is 《禮記·射義》.
BOOKS = (
    "大戴禮記", "大戴礼记", "大戴禮", "大戴礼", "禮記", "礼记", "儀禮", "仪礼", "周禮", "周礼", "尚書", "尚书",
    "論語", "论语", "孟子", "周易", "爾雅", "尔雅", "國語", "国语", "孝經", "孝经", "春秋",
    "詩", "诗", "書", "书", "易",
)  # fmt: skip
# The six offices of 周禮, which a compilation prints alone once the book is named (夏官 after 周禮春官).
OFFICES = ("天官", "地官", "春官", "夏官", "秋官", "冬官", "考工記", "考工记")


def work_title(title: str) -> str:
    """A run-in title as a citation names it: 禮記射義 → 禮記·射義, 夏官 → 周禮·夏官, 論語 → 論語."""
    if title in OFFICES:
        return f"周禮·{title}"
    for book in BOOKS:
        if title.startswith(book) and len(title) > len(book):
            return f"{book}·{title[len(book) :]}"
    return title


@dataclass(frozen=True, slots=True)
class WorkCoverage:
    """One quoted work (as its run-in titles name it): how many of its characters the base
    quotes in the layers collated, and how many of them each witness holding it was collated with."""

    title: str
    chars: int
    collated: tuple[tuple[str, int], ...]  # (siglum, characters), witnesses holding some of it

    @property
    def collated_chars(self) -> int:
        """The characters collated against at least one witness (the largest holding)."""
        return max((n for _, n in self.collated), default=0)


@dataclass(frozen=True, slots=True)
class Compilation:
    """The base's articles, what each witness is not aligned with, and the coverage per work."""

    articles: tuple[Article, ...]
    masks: Masks
    coverage: tuple[WorkCoverage, ...]


def is_compilation(base: Witness) -> bool:
    """The base quotes works under run-in titles (its spans name them)."""
    return bool(articles(base))


def plan(base: Witness, tokens: Tokens, layers: Sequence[Layer]) -> Compilation | None:
    """What each witness is aligned with in a compilation base, or None if the base is none."""
    found = articles(base)
    if not found:
        return None
    base_streams = {layer: tokens[base.siglum].get(layer, ()) for layer in layers}
    others = {
        s: {layer: keys_of(t) for layer, t in streams.items() if t} for s, streams in tokens.items() if s != base.siglum
    }
    held = holdings(found, base_streams, others)
    masks: Masks = {}
    for layer in layers:
        stream = base_streams[layer]
        if not stream:
            continue
        masks[layer] = {s: masked(found, stream, h.layers.get(layer, frozenset())) for s, h in held.items()}
    return Compilation(found, masks, _coverage(found, base_streams, held))


def _coverage(
    found: Sequence[Article], base: Mapping[Layer, Sequence[Token]], held: Mapping[str, Holding]
) -> tuple[WorkCoverage, ...]:
    per_article: list[dict[Layer, int]] = [{} for _ in found]
    starts = [a.start for a in found]
    for layer, tokens in base.items():
        k = 0
        for tok in tokens:
            while k + 1 < len(found) and starts[k + 1] <= tok.start:
                k += 1
            if found[k].start <= tok.start < found[k].end:
                per_article[k][layer] = per_article[k].get(layer, 0) + 1
    titles = list(dict.fromkeys(a.title for a in found))
    out = []
    for title in titles:
        ks = [k for k, a in enumerate(found) if a.title == title]
        chars = sum(sum(per_article[k].values()) for k in ks)
        collated = []
        for siglum, h in held.items():
            n = sum(per_article[k].get(layer, 0) for layer, mine in h.layers.items() for k in ks if k in mine)
            if n:
                collated.append((siglum, n))
        if chars:
            out.append(WorkCoverage(title, chars, tuple(collated)))
    return tuple(out)
