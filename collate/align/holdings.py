"""Which passages of a compilation each witness holds, and so may be aligned with.

五禮通考 quotes, article after article, 禮記射義, 周禮夏官, 詩小雅, 論語…, each under its run-in
title (a heading span naming its ``work``), with the 注 and 疏 it chose. An edition of 禮記·射義
holds the 射義 articles and none of the rest: aligned with the whole juan it would be read
against 詩 and 周禮 wherever a few characters happen to agree. So before the alignment each
witness is given the articles it holds, layer by layer, and is aligned with those alone; the
rest of the base is not extant in it (never an omission).

The text decides, not the title: an article is held where most of its 4-character strings of
comparison keys (``GRAM``) stand in the witness, at least ``HELD`` of them. A title can mislead
(the 孟子 quoted for 反求諸己 shares half its words with 射義, and is not 射義); an article
that names another office of the same book is told apart by its words. A layer of an article too
short to say (``FEW`` strings or fewer) goes with the article's other layers; one whose words
differ more (``BETWEEN`` of its strings or more) between two articles of its title the witness
holds is held too: the witness goes on with the passage.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import chain

from collate.model import Layer, Role, Token, Witness

GRAM = 4
# Of an article's strings, the share a witness must have to hold it: the editions of the
# chapter have 0.85–1.0 of them; a chapter that quotes the same sentence, about half.
HELD = 0.6
# An article with this share of its strings or more is held between two its witness holds (see holdings).
BETWEEN = 0.3
FEW = 6
# A witness holding this share of the articles or more is a copy of the compilation itself.
WHOLE = 0.9


@dataclass(frozen=True, slots=True)
class Article:
    """A passage of the base under one run-in title: offsets [start, end) of the base's text."""

    title: str
    start: int
    end: int


def articles(base: Witness) -> tuple[Article, ...]:
    """The base's quoted articles: from each run-in title, and from each 經 passage after small print.

    A title opens a run of the work it names; inside the run a new article begins where 經
    follows the small print of the one before (周禮夏官: 小司馬…, 射人…, 服不氏… each an article).
    Text that names no work (a later commentator, a 蕙田案) ends the article; text naming a work
    after it begins another.
    """
    out: list[Article] = []
    title: str | None = None
    start = end = 0
    last: Layer | None = None
    for s in base.spans:
        if s.role is not Role.TEXT or (not s.layer.is_text and s.layer is not Layer.HEADING):
            continue
        if s.layer is Layer.HEADING and s.work:
            if title is not None:
                out.append(Article(title, start, end))
            title, start, end, last = s.work, s.start, s.end, None
            continue
        if s.work != title:
            # Text of no work (a commentator amid the small print) ends the article; text that
            # names its work again after it (the 疏 going on) begins the next one.
            if title is not None:
                out.append(Article(title, start, end))
            title, last = s.work, None
            if title is None:
                continue
            start = s.start
        if title is None:
            continue
        if s.layer is Layer.JING and last is not None and last is not Layer.JING:
            out.append(Article(title, start, end))
            start = s.start
        end, last = s.end, s.layer
    if title is not None:
        out.append(Article(title, start, end))
    return tuple(a for a in out if a.end > a.start)


def grams(keys: str) -> set[str]:
    """The ``GRAM``-character strings of a string of comparison keys."""
    return {keys[i : i + GRAM] for i in range(len(keys) - GRAM + 1)}


def keys_of(tokens: Sequence[Token]) -> str:
    """The comparison keys of ``tokens``, one character each (placeholders and longer keys left out)."""
    return "".join(t.n for t in tokens if len(t.n) == 1 and not t.is_placeholder)


def article_of(found: Sequence[Article], tokens: Sequence[Token]) -> list[int | None]:
    """For each token (in file order), the index of the article it stands in, or None outside every article."""
    starts = [a.start for a in found]
    out: list[int | None] = []
    k = 0
    for tok in tokens:
        while k + 1 < len(found) and starts[k + 1] <= tok.start:
            k += 1
        out.append(k if found and found[k].start <= tok.start < found[k].end else None)
    return out


def opening_words(base: Witness, article: Article, size: int, layers: Sequence[Layer]) -> str:
    """The first ``size`` characters of an article's text in ``layers`` (letters and ideographs only)."""
    # Spans partition the file in order: the article's are found by bisection, and read only
    # until ``size`` characters are had (a book has thousands of articles and spans).
    words: list[str] = []
    for i in range(bisect.bisect_left(base.spans, article.start, key=lambda s: s.start), len(base.spans)):
        span = base.spans[i]
        if span.start >= article.end or len(words) >= size:
            break
        if span.layer in layers and span.role is Role.TEXT:
            words.extend(ch for ch in base.text[span.start : span.end] if ch.isalnum())
    return "".join(words[:size])


@dataclass(frozen=True, slots=True)
class Holding:
    """Which articles (by index into the base's ``articles``) a witness holds in each layer."""

    siglum: str
    layers: Mapping[Layer, frozenset[int]]


def article_keys(found: Sequence[Article], base: Mapping[Layer, Sequence[Token]]) -> list[dict[Layer, str]]:
    """Each article's comparison keys per layer, from the base's token streams."""
    by_article: list[dict[Layer, list[Token]]] = [{} for _ in found]
    for layer, tokens in base.items():
        for tok, k in zip(tokens, article_of(found, tokens), strict=True):
            if k is not None:
                by_article[k].setdefault(layer, []).append(tok)
    return [{layer: keys_of(toks) for layer, toks in parts.items()} for parts in by_article]


def holdings(
    found: Sequence[Article],
    base: Mapping[Layer, Sequence[Token]],
    witnesses: Mapping[str, Mapping[Layer, str]],
) -> dict[str, Holding]:
    """For each witness, the articles it holds per layer (see the module docstring).

    ``base`` is the base's token streams per layer, ``witnesses`` each witness's comparison keys
    per layer (:func:`keys_of`). A layer of an article is compared with the same layer of the
    witness: a 鄉飲酒義 whose 疏 quotes the 鄉飲酒禮 holds no passage of 鄉飲酒禮, and a layer the
    witness has not (the 單疏本's 經) says nothing.
    """
    by_article = article_keys(found, base)
    strings = [{layer: grams(keys) for layer, keys in parts.items()} for parts in by_article]
    out: dict[str, Holding] = {}
    for siglum, streams in witnesses.items():
        theirs = {layer: grams(keys) for layer, keys in streams.items()}
        held: dict[Layer, set[int]] = {layer: set() for layer in streams}
        short: list[int] = []
        pending: list[tuple[int, Layer]] = []
        between: list[tuple[int, Layer]] = []
        for k, parts in enumerate(strings):
            shares = {
                layer: len(g & theirs[layer]) / len(g) for layer, g in parts.items() if len(g) > FEW and layer in theirs
            }
            if not shares:
                short.append(k)
                continue
            between += [(k, layer) for layer, share in shares.items() if BETWEEN <= share < HELD]
            # A layer too short to say goes with the article's others: held if any is; if none
            # is (a 集說 quoting the 注 in pieces), with the same layer of the passage it continues.
            whole = any(share >= HELD for share in shares.values())
            for layer in parts:
                if layer in held and (shares[layer] >= HELD if layer in shares else whole):
                    held[layer].add(k)
                elif layer in held and layer not in shares:
                    pending.append((k, layer))
        # An article whose words differ more (于 for 於, 鍾 for 鐘 in a short 經) between two of its
        # title's articles the witness holds: the witness goes on with the passage.
        said = _said_by_title(found, set(short)) if between else {}
        for k, layer in between:
            if all(n is not None and n in held[layer] for n in _neighbours(found, k, said)):
                held[layer].add(k)
        # An article too short to say anything by its words goes with the passage it continues:
        # the nearest article of its title before it that says something (after it, if none).
        decided = {k for ks in held.values() for k in ks}
        unsaid = set(short)
        for k in short:
            near = _nearest(found, k, unsaid)
            if near is not None and near in decided:
                for layer in by_article[k]:
                    if layer in held:
                        held[layer].add(k)
        for k, layer in pending:
            near = _nearest(found, k, unsaid)
            if near is not None and near in held[layer]:
                held[layer].add(k)
        out[siglum] = Holding(siglum, {layer: frozenset(ks) for layer, ks in held.items()})
    return out


def _said_by_title(found: Sequence[Article], short: set[int]) -> dict[str, list[int]]:
    """Per title, its articles (in order) that are not in ``short``."""
    out: dict[str, list[int]] = {}
    for j, article in enumerate(found):
        if j not in short:
            out.setdefault(article.title, []).append(j)
    return out


def _neighbours(found: Sequence[Article], k: int, said: Mapping[str, list[int]]) -> tuple[int | None, int | None]:
    """The nearest articles of ``found[k]``'s title in ``said`` (:func:`_said_by_title`), before it and after it."""
    mine = said.get(found[k].title, [])
    at = bisect.bisect_left(mine, k)
    before = mine[at - 1] if at > 0 else None
    after = mine[at + 1] if at < len(mine) and mine[at] == k and at + 1 < len(mine) else None
    if after is None and at < len(mine) and mine[at] != k:
        after = mine[at]
    return before, after


def _nearest(found: Sequence[Article], k: int, short: set[int]) -> int | None:
    """The nearest article of ``found[k]``'s title not in ``short``: before it, else after it."""
    title = found[k].title
    for j in chain(range(k - 1, -1, -1), range(k + 1, len(found))):
        if found[j].title == title and j not in short:
            return j
    return None


# Strings of an unnamed witness sampled to find the edition it copies (an index look each).
SAMPLE = 256


def borrowed_identities(
    keys: Mapping[str, Mapping[Layer, str]], identities: Mapping[str, frozenset[tuple[str, str]]]
) -> dict[str, frozenset[tuple[str, str]]]:
    """Each witness's chapters; one whose own headings name none (an excerpt cut below its
    heading) takes those of the witness it shares most of its words with (``HELD`` of them or more):
    another edition of the same chapter.

    The named witnesses' strings are indexed once; an unnamed witness looks up a sample of its
    own (``SAMPLE``, spread over them), so the work grows with the shelf, not with its square.
    """
    index: dict[str, list[str]] = {}
    for siglum, layers in keys.items():
        if identities.get(siglum):
            for gram in {g for k in layers.values() for g in grams(k)}:
                index.setdefault(gram, []).append(siglum)
    out = dict(identities)
    for siglum, layers in keys.items():
        if identities.get(siglum):
            continue
        mine = sorted({g for k in layers.values() for g in grams(k)})
        if not mine:
            continue
        sample = mine[:: max(1, len(mine) // SAMPLE)]
        votes: dict[str, int] = {}
        for gram in sample:
            for other in index.get(gram, ()):
                if other != siglum:
                    votes[other] = votes.get(other, 0) + 1
        if votes:
            best = max(sorted(votes), key=lambda other: votes[other])
            if votes[best] >= HELD * len(sample):
                out[siglum] = identities[best]
    return out


def without_parallels(
    found: Sequence[Article],
    held: Mapping[str, Holding],
    identities: Mapping[str, frozenset[tuple[str, str]]],
    books: Mapping[str, str | None] | None = None,
) -> dict[str, Holding]:
    """The holdings less the articles a witness holds only as a parallel of another chapter or book.

    The chapters of one book repeat each other's formulas (鄉飲酒禮 and 鄉射禮, 燕禮 share whole
    sentences), so the words alone would give an edition of 鄉射禮 a passage of 鄉飲酒禮. A witness
    whose own headings name chapters of a book (its ``identity``: 鄉射禮第五) holds no article
    whose title names another chapter of that book. Nor does an edition of one book (``books``: the
    book each witness is an edition of) hold an article whose title names another book that an
    edition of that book holds too: 燕義 quotes 周禮's 諸子 article, and where an edition of 周禮 is
    there, 五禮通考's 周禮 passage is collated with it alone. A title of another book no edition of
    which holds it (論語, which 射義 quotes) or a witness that names nothing leaves the words to decide.
    """
    from collate.readers.titles import book_of, chapter_of

    named = [chapter_of(a.title) for a in found]
    out: dict[str, Holding] = {}
    for siglum, holding in held.items():
        mine = identities.get(siglum, frozenset())
        of_book = {book for book, _ in mine}
        foreign = {k for k, bc in enumerate(named) if bc is not None and bc[0] in of_book and bc not in mine}
        out[siglum] = _less(holding, foreign) if foreign else holding
    if not books:
        return out
    for k, article in enumerate(found):
        chapter = named[k]
        book = chapter[0] if chapter is not None else book_of(article.title)
        holders = [s for s, h in out.items() if any(k in ks for ks in h.layers.values())]
        if book is None or not any(books.get(s) == book for s in holders):
            continue
        for s in holders:
            if books.get(s) is not None and books.get(s) != book:
                out[s] = _less(out[s], {k})
    return out


def _less(holding: Holding, articles: set[int]) -> Holding:
    """The holding without ``articles``."""
    return Holding(holding.siglum, {layer: ks - articles for layer, ks in holding.layers.items()})


def masked(
    found: Sequence[Article], tokens: Sequence[Token], held: frozenset[int], where: Sequence[int | None] | None = None
) -> tuple[tuple[int, int], ...]:
    """The positions [start, end) of ``tokens`` (the base's stream of a layer) in articles not
    ``held``, and outside every article: what the witness is not to be aligned with.

    A layer no article has text in (a commentator's, the notes) is not masked; nor is one whose
    articles the witness holds nearly all of (``WHOLE`` of them: another copy of the
    compilation itself). ``where``: :func:`article_of` the tokens, if the caller has it (it is
    the same for every witness of a layer).
    """
    if where is None:
        where = article_of(found, tokens)
    quoted = {k for k in where if k is not None}
    if not quoted or len(quoted & held) >= WHOLE * len(quoted):
        return ()
    out: list[tuple[int, int]] = []
    for i, at in enumerate(where):
        if at is not None and at in held:
            continue
        if out and out[-1][1] == i:
            out[-1] = (out[-1][0], i + 1)
        else:
            out.append((i, i + 1))
    return tuple(out)
