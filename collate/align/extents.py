"""Where each witness of an aligned layer is extant, the base included.

The columns say who has a token where; extents say where a witness *contains* the text, so
that a gap there is an omission or an addition, and outside it neither:

* A witness is extant from its first to its last token (a fragment begins later or ends
  earlier than the base).
* The base is extant from its first to its last token too, unless the text the other
  witnesses have before or after it is short (at most ``slack`` columns: a witness's extra
  words at the end of a chapter are an addition; a whole chapter beyond a fragmentary base is
  not). A base that quotes in pieces is extant from its first token to its last, whatever the
  witnesses have beyond them: the rest of the work it quotes.
* A witness that quotes in pieces — 五禮通考 quoting a chapter a few articles at a time (its
  passages name the work they quote), a 集說 quoting 鄭注 by the phrase (注曰…) — does not
  contain what it skips: a run of at least ``QUOTE_GAP`` base tokens it lacks is ``absent``
  from it, and where the base quotes in pieces, a run of at least ``QUOTE_GAP`` columns that
  only the other witnesses have is ``absent`` from the base.
* Nor does a witness contain a passage a quoting base takes from elsewhere (another office of
  the same 周禮 book): a run of at least ``QUOTE_GAP`` base tokens that the witness lacks and
  that begins or ends a unit of the base (a quotation, its 注) is ``absent`` from the witness,
  and so is a whole unit of at least ``WHOLE_UNIT`` tokens (the 注 on such a passage).
* A quoting base that abridges the commentary it quotes (五禮通考 quoting a 疏: 之射也 quoted 之射, a
  clause here and there left out) is not extant at the words it leaves out of a witness, as an
  abridging quoter is not at its skips: which kind of quoter it is, its habit in the layer says
  (``ABRIDGES``). A 經 it quotes whole.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from itertools import pairwise

from collate.align.alignment import Extent, column_runs
from collate.model import Layer, Token

Column = tuple[Token | None, ...]

# The shortest passage a quoting base is taken to skip, or to quote from elsewhere: about a
# sentence. Shorter gaps are omissions and additions, as in any text.
QUOTE_GAP = 20
# A whole unit of a quoting base that the witness lacks, from this many tokens, is absent from
# it however short: the 注 of a passage quoted from elsewhere.
WHOLE_UNIT = 4


def layer_extents(
    columns: Sequence[Column],
    sigla: Sequence[str],
    slack: int,
    quoting: frozenset[str] = frozenset(),
    *,
    symbols: Mapping[str, str] | None = None,
) -> tuple[Extent, ...]:
    """Every witness's extent, base first (see the module docstring); ``quoting``: the sigla
    of the witnesses (the base among them, perhaps) that quote the layer in pieces; ``symbols``:
    the aligner's symbol for each comparison key, equal where the tokens match (their search
    keys are equal, :mod:`collate.align.engine`); None: where their comparison keys are."""
    alike = _matcher(symbols)
    base_quotes = sigla[0] in quoting
    extents = [_base_extent(columns, sigla[0], slack, base_quotes)]
    own: list[int] = []
    for r, siglum in enumerate(sigla):
        if r:
            extent = _extent(columns, r, siglum)
            if base_quotes or siglum in quoting:
                extent = _without_quoted(columns, r, extent, siglum in quoting)
            if siglum in quoting and not base_quotes:
                extent, words = _quoted_only(columns, r, extent, alike)
                own.extend(c for c in words if _alone(columns, r, c))
            elif base_quotes and siglum not in quoting:
                own.extend(_abridged(columns, r, extent, alike))
            extents.append(extent)
    if own:
        # The quoter's own words between its quotations, and the words an abridging base leaves out of
        # what it quotes: no addition to the base, which has none there.
        base = extents[0]
        extents[0] = replace(base, absent=tuple(sorted({*base.absent, *column_runs(sorted(set(own)))})))
    return tuple(extents)


Alike = Callable[[Token, Token], bool]


def _matcher(symbols: Mapping[str, str] | None) -> Alike:
    """Whether two tokens match as the aligner matched them: on its symbols, else on ``n``.

    A placeholder has no symbol (it matches nothing), and its ``n`` is its own.
    """
    if symbols is None:
        return lambda a, b: a.n == b.n

    def alike(a: Token, b: Token) -> bool:
        sym = symbols.get(a.n)
        return sym is not None and sym == symbols.get(b.n)

    return alike


# A quotation is a run of the base's words the quoter reads as the base, QUOTED or more of them,
# that a small difference (a word or two written otherwise) does not break: a reading of the
# quotation. Anything else is the quoter's own doing: it skips (SKIP words or more it does not
# have), adds (ADD or more of its own) or rewords (REWORD or more written otherwise).
QUOTED = 4
SKIP = 2
ADD = 2
REWORD = 3
# A quoter that abridges as it quotes (a 集說, 五禮通考 quoting a 疏: 君無所為辱賜於使臣 quoted
# 無所辱賜) leaves words out and puts its own in one at a time; one that copies (五禮通考 quoting a
# 經) does so rarely, and a word it lacks or adds is a reading. Which kind it is, its own habit in
# the layer says: short skips (fewer than QUOTE_GAP words) among its quoted words, ABRIDGES per
# hundred or more, and it abridges: then a single word it skips or adds is its own doing.
ABRIDGES = 1.0


def _quoted_only(columns: Sequence[Column], r: int, extent: Extent, alike: Alike) -> tuple[Extent, list[int]]:
    """A quoting witness's extent limited to where it quotes; and the columns of its own words outside.

    A 集說 quotes the 注 and 疏 by the phrase (注曰…, 疏曰…), skips, rewords (假令堂深三丈… for
    若堂深二…) and adds its own words: collated as if it copied the whole, every phrase it skips
    would be an omission and every reworded sentence a long substitution. Where it quotes, it
    reads as the base; the base's words it skips are not extant in it, and its own words (added,
    or written for the base's) are no reading of the base. Inside a quotation a word it writes
    otherwise is a reading like any other, and so is one it leaves out or adds, unless it
    abridges. A column where the witness has a token stays in its extent (its text must stay
    where it stands); the caller makes the base not extant at the columns of its own words
    where no other witness reads otherwise. Where it quotes is told by the tokens the aligner
    matched (``alike``): a traditional 集說's 於 for a simplified base's 于 is the quotation going on.
    """
    if extent.first is None or extent.last is None:
        return extent, []
    held, kinds = _kinds(columns, r, extent.first, extent.last, alike)
    skip, add = (1, 1) if _abridges(kinds) else (SKIP, ADD)
    departs = [False] * len(held)
    i = 0
    while i < len(held):
        j = i
        if kinds[i] == "alike":
            while j < len(held) and kinds[j] == "alike":
                j += 1
            if j - i < QUOTED:
                departs[i:j] = [True] * (j - i)  # a few words alike by chance amid its own
        else:
            while j < len(held) and kinds[j] != "alike":
                j += 1
            run = kinds[i:j]
            small = run.count("skip") < skip and run.count("add") < add and run.count("diff") < REWORD
            if not small:
                departs[i:j] = [True] * (j - i)
        i = max(j, i + 1)
    outside = [c for c, d in zip(held, departs, strict=True) if d]
    skipped = [c for c in outside if columns[c][r] is None]
    own = [c for c in outside if columns[c][r] is not None]
    absent = sorted({*extent.absent, *column_runs(skipped)})
    return replace(extent, absent=tuple(merged(absent))), own


def _abridged(columns: Sequence[Column], r: int, extent: Extent, alike: Alike) -> list[int]:
    """The columns of the words a quoting base leaves out of witness ``r``'s text where it abridges as
    it quotes (五禮通考 quoting a 疏): its own doing, as an abridging quoter's skips are (``ABRIDGES``).

    Which kind of quoter the base is, its habit in the layer against this witness says: short skips
    among its quoted words, ABRIDGES per hundred or more. Then every shorter run of the witness's words
    the base lacks is left out (the longer ones are passages it does not quote, ``QUOTE_GAP``), where
    every witness that has words there has the same (two editions differing there is a reading).
    """
    if extent.first is None or extent.last is None:
        return []
    held, quoted = _kinds(columns, r, extent.first, extent.last, alike)
    layer = next((tok.layer for c in held[:1] for tok in columns[c] if tok is not None), None)
    if layer is Layer.JING:
        # A 經 is quoted whole (a compilation cuts the commentary, never the classic): a word the
        # base lacks there is a reading, and a parallel text's words (大戴禮's 投壺 quoted as 禮記's)
        # are no abridgement of the base's.
        return []
    # As the base quotes the witness: the witness's words it lacks are its skips, and the other way.
    kinds = [_TURNED.get(kind, kind) for kind in quoted]
    # A habit is more than one instance: a single short skip is the witness's addition, as in any text.
    if _short_skips(kinds) < 2 or not _abridges(kinds):
        return []
    return [c for c, kind in zip(held, kinds, strict=True) if kind == "skip" and _same_words(columns, c)]


# A column's kind seen from the other side: what one text skips the other adds.
_TURNED = {"skip": "add", "add": "skip"}


def _kinds(columns: Sequence[Column], r: int, first: int, last: int, alike: Alike) -> tuple[list[int], list[str]]:
    """The columns from ``first`` to ``last`` where the base or witness ``r`` has a word, and what
    each is as the witness quotes the base: ``alike``, ``diff``, ``skip`` (the base's word it lacks)
    or ``add`` (a word of its own)."""
    held: list[int] = []
    kinds: list[str] = []
    for c in range(first, last + 1):
        base, wit = columns[c][0], columns[c][r]
        if base is None and wit is None:
            continue
        held.append(c)
        if base is None:
            kinds.append("add")
        elif wit is None:
            kinds.append("skip")
        else:
            kinds.append("alike" if alike(base, wit) else "diff")
    return held, kinds


def _same_words(columns: Sequence[Column], c: int) -> bool:
    """Whether every witness with a word in column ``c`` has the same word."""
    words = {tok.n for tok in columns[c][1:] if tok is not None}
    return len(words) == 1


def _abridges(kinds: Sequence[str]) -> bool:
    """Whether a quoter abridges as it quotes (see ``ABRIDGES``), from the kinds of its columns."""
    alike = kinds.count("alike")
    return alike > 0 and _short_skips(kinds) * 100 >= ABRIDGES * alike


def _short_skips(kinds: Sequence[str]) -> int:
    """How many runs of skipped words, each shorter than a passage (``QUOTE_GAP``), ``kinds`` holds."""
    short = 0
    i = 0
    while i < len(kinds):
        j = i
        while j < len(kinds) and kinds[j] == kinds[i]:
            j += 1
        if kinds[i] == "skip" and j - i < QUOTE_GAP:
            short += 1
        i = j
    return short


def _alone(columns: Sequence[Column], r: int, c: int) -> bool:
    """Whether witness ``r`` is the only one whose word at column ``c`` is not the base's.

    The others there read as the base (or, where it has none, have nothing): the base not extant
    at the column silences the quoter's word alone. Read as the apparatus reads, on ``n``: between
    traditional witnesses 後 for 后 is a reading, which a match on search keys would silence.
    """
    base = columns[c][0]
    for k, token in enumerate(columns[c]):
        if k in (0, r):
            continue
        if base is None and token is not None:
            return False
        if base is not None and (token is None or token.n != base.n):
            return False
    return True


def merged(ranges: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Overlapping or touching ranges made one."""
    out: list[tuple[int, int]] = []
    for a, b in ranges:
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _extent(columns: Sequence[Column], r: int, siglum: str) -> Extent:
    """From the first to the last column holding one of the witness's tokens.

    Text of the base before or after those columns is not extant in the witness. That is
    the witness's first and last match with the base, unless the witness has text of its own
    beyond them, which stays inside its extent so that none of its tokens falls out.
    """
    first = next((c for c, col in enumerate(columns) if col[r] is not None), None)
    if first is None:
        return Extent(siglum, None, None)
    last = next(c for c in range(len(columns) - 1, -1, -1) if columns[c][r] is not None)
    return Extent(siglum, first, last)


def _base_extent(columns: Sequence[Column], siglum: str, slack: int, quotes: bool) -> Extent:
    if not columns:
        return Extent(siglum, None, None)
    held = [c for c, col in enumerate(columns) if col[0] is not None]
    if not held:
        return Extent(siglum, 0, len(columns) - 1)
    # A base that quotes in pieces begins and ends with its quotations: what a witness has before
    # its first word or after its last is the rest of the work it quotes, never an addition.
    first = held[0] if quotes or held[0] > slack else 0
    last = held[-1] if quotes or len(columns) - 1 - held[-1] > slack else len(columns) - 1
    absent: list[tuple[int, int]] = []
    if quotes:
        for a, b in pairwise(held):
            if b - a - 1 >= QUOTE_GAP:
                absent.append((a + 1, b))
    return Extent(siglum, first, last, absent=tuple(absent))


def _without_quoted(columns: Sequence[Column], r: int, extent: Extent, skips: bool) -> Extent:
    """The witness's extent less the passages of the base it lacks: any, if the witness quotes
    in pieces (``skips``); else those beginning or ending a unit (quoted from elsewhere).

    A run of base tokens the witness lacks is counted over the base's tokens in order: text
    the witness has between two of them, where the base has none, does not end it (the
    witness's own passage beside the one it lacks), nor does the witness's extent (a quotation
    it lacks may begin before its first token). The columns where the witness has a token stay
    in its extent.
    """
    if extent.first is None or extent.last is None:
        return extent
    held = [c for c, col in enumerate(columns) if col[0] is not None]
    absent: list[tuple[int, int]] = []
    k = 0
    while k < len(held):
        if columns[held[k]][r] is not None:
            k += 1
            continue
        start = k
        while k < len(held) and columns[held[k]][r] is None:
            k += 1
        # Base tokens held[start:k] are all lacked by the witness.
        tokens = [t for c in held[start:k] if (t := columns[c][0]) is not None]
        edges = _edges(columns, held[start], held[k - 1] + 1, tokens)
        long_enough = len(tokens) >= QUOTE_GAP and (skips or edges > 0)
        if long_enough or (len(tokens) >= WHOLE_UNIT and edges == 2):
            absent.extend(_pieces(columns, r, held[start], held[k - 1] + 1, extent))
    return Extent(extent.siglum, extent.first, extent.last, extent.lacunae, tuple(absent))


def _pieces(columns: Sequence[Column], r: int, start: int, end: int, extent: Extent) -> list[tuple[int, int]]:
    """Columns [start, end) within the extent, less those where witness ``r`` has a token."""
    assert extent.first is not None and extent.last is not None
    out: list[tuple[int, int]] = []
    a: int | None = None
    for c in range(max(start, extent.first), min(end, extent.last + 1)):
        if columns[c][r] is None:
            a = c if a is None else a
        elif a is not None:
            out.append((a, c))
            a = None
    if a is not None:
        out.append((a, min(end, extent.last + 1)))
    return out


def _edges(columns: Sequence[Column], start: int, end: int, held: Sequence[Token]) -> int:
    """How many edges of units of the base the base tokens in columns [start, end) begin or end on (0–2).

    One edge is enough for a long run: a quoting base runs quotations of several passages on
    into one unit where no 注 stands between them (小司馬… then 射人…), so only one edge of a
    passage quoted from elsewhere may fall on a unit's edge. A whole unit, however short, is
    the 注 of such a passage.
    """
    # Walked by index from the run's edges: a slice of the columns would copy the layer.
    before = next((tok for c in range(start - 1, -1, -1) if (tok := columns[c][0]) is not None), None)
    after = next((tok for c in range(end, len(columns)) if (tok := columns[c][0]) is not None), None)
    opens = before is None or before.unit != held[0].unit
    closes = after is None or after.unit != held[-1].unit
    return opens + closes
