"""A compilation as its base: every work it quotes collated against the witnesses that hold it.

五禮通考 quotes many works under run-in titles (:mod:`collate.align.holdings`). With no ``work``
in the project, each witness is aligned with the articles it holds (by their text, layer by
layer), and the run says, per quoted work, against which witnesses it was collated and how much
of it; a work no witness holds is listed as not collated, never silently dropped. With a
``work`` (or several), only those works' passages are collated (:func:`of_works`): the policy of
which work a compilation is collated for lives here, not in the pipeline that composes the stages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from collate.align.alignment import LayerAlignment
from collate.align.extents import merged
from collate.align.holdings import (
    WHOLE,
    Article,
    Holding,
    article_of,
    articles,
    borrowed_identities,
    holdings,
    keys_of,
    masked,
    without_parallels,
)
from collate.errors import InputError
from collate.model import Layer, MarkKind, Role, Span, Token, Witness, blank_width
from collate.readers.layouts.zhubracket import PREVIOUS_CHAPTER
from collate.readers.titles import OFFICES

if TYPE_CHECKING:
    from collate.normalize import Normalizer

Tokens = Mapping[str, Mapping[Layer, Sequence[Token]]]
Masks = dict[Layer, dict[str, tuple[tuple[int, int], ...]]]


# The books a run-in title may begin with, longest first, in the prints' forms and simplified:
# 禮記射義 is 《禮記·射義》.
BOOKS = (
    "大戴禮記", "大戴礼记", "大戴禮", "大戴礼", "禮記", "礼记", "儀禮", "仪礼", "周禮", "周礼", "尚書", "尚书",
    "論語", "论语", "孟子", "周易", "爾雅", "尔雅", "國語", "国语", "孝經", "孝经", "春秋",
    "詩", "诗", "書", "书", "易",
)  # fmt: skip


def work_title(title: str) -> str:
    """A run-in title as a citation names it: 禮記射義 → 禮記·射義, 夏官 → 周禮·夏官, 論語 → 論語."""
    if "·" in title:
        return title  # a citation already
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


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A passage whose title names one work and whose text is another's: the witnesses holding it
    are editions of ``text_title`` (the work they hold most of). The text decides: it is collated
    with them, and the run says so."""

    article: Article
    text_title: str
    sigla: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Compilation:
    """The base's articles, what each witness is not aligned with, the coverage per work, and the
    passages whose title and text disagree."""

    articles: tuple[Article, ...]
    masks: Masks
    coverage: tuple[WorkCoverage, ...]
    disagreements: tuple[Disagreement, ...] = ()


def plan(
    base: Witness,
    tokens: Tokens,
    layers: Sequence[Layer],
    identities: Mapping[str, frozenset[tuple[str, str]]] | None = None,
    books: Mapping[str, str | None] | None = None,
) -> Compilation | None:
    """What each witness is aligned with in a compilation base, or None if the base is none.

    ``identities``: the chapters each witness's own headings name
    (:func:`collate.readers.titles.witness_identity`): a passage of another chapter of the same
    book is a parallel, never a source (:func:`collate.align.holdings.without_parallels`); ``books``:
    the book each witness is an edition of (:func:`collate.readers.titles.witness_book`), and a
    passage an edition of its title's book holds is no other book's.
    """
    found = articles(base)
    if not found:
        return None
    base_streams = {layer: tokens[base.siglum].get(layer, ()) for layer in layers}
    others = {
        s: {layer: keys_of(t) for layer, t in streams.items() if t} for s, streams in tokens.items() if s != base.siglum
    }
    named = borrowed_identities(others, identities or {})
    held = without_parallels(found, holdings(found, base_streams, others), named, books)
    masks: Masks = {}
    for layer in layers:
        stream = base_streams[layer]
        if not stream:
            continue
        where = article_of(found, stream)
        masks[layer] = {s: masked(found, stream, h.layers.get(layer, frozenset()), where) for s, h in held.items()}
    coverage = _coverage(found, base_streams, held)
    return Compilation(found, masks, coverage, _disagreements(found, coverage, held))


def _disagreements(
    found: Sequence[Article], coverage: Sequence[WorkCoverage], held: Mapping[str, Holding]
) -> tuple[Disagreement, ...]:
    """Each passage held by witnesses that are editions of another work than its title names.

    A witness is an edition of the work it holds most characters of; a passage of another title
    it holds (論語's 君子無所爭, which 射義 quotes) is one whose text is that work's.
    """
    main: dict[str, str] = {}
    for siglum, h in held.items():
        # A copy of the compilation itself holds every work: it is an edition of none of them.
        if len({k for ks in h.layers.values() for k in ks}) >= WHOLE * len(found):
            continue
        mine = [(n, w.title) for w in coverage for s, n in w.collated if s == siglum]
        if mine:
            main[siglum] = max(mine)[1]
    out = []
    for k, article in enumerate(found):
        others: dict[str, list[str]] = {}
        for siglum, h in held.items():
            title = main.get(siglum)
            if title is None or work_title(title) == work_title(article.title):
                continue
            if any(k in ks for ks in h.layers.values()):
                others.setdefault(title, []).append(siglum)
        if others:
            title, sigla = max(others.items(), key=lambda item: len(item[1]))
            # Where witnesses of the title's own work hold it too, title and text agree.
            if not any(
                main.get(s) is not None and work_title(main[s]) == work_title(article.title)
                for s, h in held.items()
                if any(k in ks for ks in h.layers.values())
            ):
                out.append(Disagreement(article, title, tuple(sorted(sigla))))
    return tuple(out)


def _coverage(
    found: Sequence[Article], base: Mapping[Layer, Sequence[Token]], held: Mapping[str, Holding]
) -> tuple[WorkCoverage, ...]:
    per_article: list[dict[Layer, int]] = [{} for _ in found]
    for layer, tokens in base.items():
        for k in article_of(found, tokens):
            if k is not None:
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


# --- Which work a project collates, when it names one -----------------------------------


# A passage a witness agrees with in fewer than this share of the base's words it is aligned with
# (READ_FEW words at least) is none it holds: a formula of the book chained it there.
READ = 0.5
READ_FEW = 4


def unread_passages(alignment: LayerAlignment, found: Sequence[Article]) -> LayerAlignment:
    """The alignment with each witness not extant in the passages it agrees with in less than ``READ``.

    A witness is given the articles whose words it holds (:func:`~collate.align.holdings.holdings`),
    but a short passage of a formulaic book (儀禮's 擯者以命升賓賓升就席) is held by an edition that
    has the formula elsewhere and not the passage (a shelf file of the first part of 大射, the juan
    quoting the whole chapter): aligned there, its other words are read against the passage's and
    every one is a false reading. The alignment tells: an edition agrees with most of a passage
    it has; one that agrees with less than half of it does not have it.
    """
    base_tokens = [col[0] for col in alignment.columns if col[0] is not None]
    where = dict(zip((t.index for t in base_tokens), article_of(found, base_tokens), strict=True))
    spans: dict[int, tuple[int, int]] = {}
    per_column: list[int | None] = []
    for c, col in enumerate(alignment.columns):
        k = where.get(col[0].index) if col[0] is not None else None
        per_column.append(k)
        if k is not None:
            first, _ = spans.get(k, (c, c))
            spans[k] = (first, c + 1)
    extents = [alignment.extent(s) for s in alignment.sigla]
    changed = False
    for j in range(1, len(alignment.sigla)):
        extent = extents[j]
        words: dict[int, list[int]] = {}
        for c, (col, k) in enumerate(zip(alignment.columns, per_column, strict=True)):
            base, other = col[0], col[j]
            if k is not None and base is not None and extent.covers(c):
                tally = words.setdefault(k, [0, 0])
                tally[0] += 1
                tally[1] += other is not None and other.n == base.n
        unread = [spans[k] for k, (n, agree) in words.items() if n >= READ_FEW and agree < READ * n]
        if unread:
            changed = True
            extents[j] = replace(extent, absent=tuple(merged(sorted({*extent.absent, *unread}))))
    return replace(alignment, extents=tuple(extents)) if changed else alignment


def of_works(witness: Witness, works: Sequence[str], normalizer: Normalizer) -> Witness:
    """The witness with only the text of ``works`` left to collate (none named: all of it).

    A passage labelled with another work (a passage of 少儀 or 左傳 that 五禮通考 quotes after
    投壺, with the 注 and 疏 it quotes on it; the end of the previous chapter in a full text) is
    text of the witness but not of the work collated: it is kept in the witness and its
    exports, never aligned. Spans that name no work (a full text's, a note's) all stay.
    """
    if not works:
        return witness
    wanted = [normalizer.fold(work) for work in works]

    def keep(span: Span) -> bool:
        if not span.layer.is_text or span.work is None:
            return True
        named = normalizer.fold(span.work)
        return any(w in named or named in w for w in wanted)

    spans = tuple(s for s in witness.spans if keep(s))
    return witness if len(spans) == len(witness.spans) else replace(witness, spans=spans)


def without_title_notes(witness: Witness, noted: frozenset[Layer]) -> Witness:
    """The witness without the commentary on its chapter's title, where the base has none to set against it.

    The 纂圖互註 prints 陸德明's note on the title after it (昬義第四十四(陸曰鄭云昬義者…)), the 單疏本
    opens with the 疏 on the title (冠義第四十三　正義曰案鄭目録云…); the 四庫 注疏 moves both to the
    table of contents of its volume. Aligned with the base's first 音義 or 疏, such a note is read as an
    addition at a place it has nothing to do with. Where the base has commentary on its title in the
    layer, the witness's is collated with it; where not, it stays in the witness, never aligned. A
    title note is a layer's text before the chapter's first 經 (or, in a print of the 疏 alone, its first
    paragraph where the chapter's title heads it). ``noted``: the layers the base has such commentary
    in (:func:`title_noted`), worked out once for every witness.
    """
    dropped = {id(s) for layer in _COMMENTARY if layer not in noted for s in _title_note(witness, layer)}
    if not dropped:
        return witness
    return replace(witness, spans=tuple(s for s in witness.spans if id(s) not in dropped))


def title_noted(base: Witness) -> frozenset[Layer]:
    """The commentary layers in which the base has commentary on its chapter's title."""
    return frozenset(layer for layer in _COMMENTARY if _title_note(base, layer))


# The layers that comment on the 經, and so may comment on a chapter's title.
_COMMENTARY = tuple(layer for layer in Layer if layer.is_text and layer is not Layer.JING)


def _title_note(witness: Witness, layer: Layer) -> list[Span]:
    """The spans of ``layer`` commenting on the chapter's title (see :func:`without_title_notes`)."""
    mine = [s for s in witness.spans if s.layer is layer]
    if not mine:
        return []
    first = min(mine, key=lambda s: s.start)
    # Only commentary the chapter's title heads: an excerpt that opens inside a 注 opens with none.
    before = [s for s in witness.spans if s.end <= first.start and s.layer is not Layer.MARKUP]
    if not before or before[-1].layer is not Layer.HEADING:
        return []
    chapter = (s for s in witness.spans if s.layer is Layer.JING and s.role is Role.TEXT)
    jing = next((s.start for s in chapter if s.work != PREVIOUS_CHAPTER), None)
    if jing is not None:
        return [s for s in mine if s.end <= jing]
    # The paragraph up to pages the print lost: what follows them may be the next paragraph's.
    pages = (m for m in witness.marks if m.kind is MarkKind.LACUNA and not blank_width(m.label))
    lost = min((m.offset for m in pages if m.offset > first.start), default=None)
    return [s for s in mine if s.unit == first.unit and (lost is None or s.end <= lost)]


def quotes_in_pieces(witness: Witness, layer: Layer) -> bool:
    """The witness quotes the layer in pieces, as a compilation or a commentary quotes.

    五禮通考 names the work each passage it quotes comes from (a span's ``work``); a 集說
    opens the 注 and 疏 it quotes with 注曰, 疏曰 (a named attribution) on at least a third of
    the layer's units. A 注疏本's text names neither.
    """
    units: set[int] = set()
    attributed: set[int] = set()
    for s in witness.spans:
        if not s.layer.is_text:
            continue
        if s.work and s.work != PREVIOUS_CHAPTER and s.role is Role.TEXT:
            return True
        if s.layer is layer:
            units.add(s.unit)
            if s.role is Role.ATTRIBUTION and s.speaker:
                attributed.add(s.unit)
    return bool(units) and 3 * len(attributed) >= len(units)


def same_layer(witness: Witness, collated: Witness, layer: Layer) -> bool:
    """True if nothing of ``layer`` was left out of ``collated`` (:func:`of_works`)."""
    return sum(1 for s in witness.spans if s.layer is layer) == sum(1 for s in collated.spans if s.layer is layer)


def check_work(base: Witness, work: str | None, normalizer: Normalizer, source: str) -> None:
    """The work the project names must be one the base quotes, if the base names any."""
    if work is None:
        return
    named = sorted(
        {s.work for s in base.spans if s.layer.is_text and s.role is Role.TEXT and s.work} - {PREVIOUS_CHAPTER}
    )
    wanted = normalizer.fold(work)
    if named and not any(wanted in normalizer.fold(n) or normalizer.fold(n) in wanted for n in named):
        raise InputError(
            f"the project's work {work!r} names no passage of the base {base.siglum}",
            where=source,
            hint="name one of the works the base quotes, as its run-in titles print them: " + "、".join(named),
        )
