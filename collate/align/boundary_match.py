"""Laying an unsettled stretch beside another witness's layer: where it stands there, and which of
its tokens that witness matches.

The stretch is placed by the words around it (3-grams of search keys vote for an offset, then
the contexts are aligned there by :mod:`rapidfuzz`'s Indel opcodes), compared with what the other
witness has between those words alone, and the run it matches densely from one end is measured.
Used by :mod:`collate.align.boundaries`, which weighs each witness's run as a vote for a cut.
"""

from __future__ import annotations

import bisect
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from collate.model import MarkKind, Token, Unsettled, Witness

# Tokens of context either side of a stretch, in the window compared with another witness.
CONTEXT = 40
# Length of the key strings that find a stretch's place in another witness.
GRAM = 3
# A run matched densely: at most one token in this many unmatched, never more than GAP_RUN in a row.
DENSITY = 5
GAP_RUN = 2
# How many words of a context decide where it stands, when it reads alike in several places.
TIGHT = 16


@dataclass(frozen=True, slots=True)
class Stream:
    """One layer of a witness as the keys its tokens match on, with the raw offset of each token.

    ``lost``: the indices of the tokens a lost leaf stands before (a lacuna mark between them
    and the token before): what follows it in the stream did not follow it in the book.
    """

    keys: tuple[str, ...]
    starts: tuple[int, ...]
    grams: dict[tuple[str, ...], list[int]]
    lost: tuple[int, ...] = ()

    @classmethod
    def of(
        cls, tokens: Sequence[Token], witness: Witness | None = None, loosen: Callable[[str], str] | None = None
    ) -> Stream:
        """The stream of ``tokens``; ``witness``'s lacuna marks say where its leaves are lost.

        ``loosen`` (:meth:`collate.normalize.Normalizer.loosen`) makes the keys search keys, as the
        aligner matches tokens: a simplified 于 is a traditional 於's word here.
        """
        keys = tuple(t.n for t in tokens) if loosen is None else _loosened(tokens, loosen)
        starts = tuple(t.start for t in tokens)
        grams: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for i in range(len(keys) - GRAM + 1):
            grams[keys[i : i + GRAM]].append(i)
        marks = [m.offset for m in witness.marks if m.kind is MarkKind.LACUNA] if witness is not None else []
        lost = tuple(sorted({bisect.bisect_left(starts, m) for m in marks}))
        return cls(keys, starts, dict(grams), lost)


def _loosened(tokens: Sequence[Token], loosen: Callable[[str], str]) -> tuple[str, ...]:
    """The tokens' search keys, each distinct key loosened once; a placeholder's key is its own."""
    seen: dict[str, str] = {}
    out = []
    for t in tokens:
        key = seen.get(t.n)
        if key is None:
            key = seen[t.n] = t.n if t.changes and t.is_placeholder else loosen(t.n)
        out.append(key)
    return tuple(out)


def token_range(starts: Sequence[int], u: Unsettled) -> tuple[int, int]:
    """The indices of the tokens of ``starts`` inside the stretch ``u``."""
    return bisect.bisect_left(starts, u.start), bisect.bisect_left(starts, u.end)


def _context(certain: Sequence[bool], start: int, step: int) -> list[int]:
    """Up to :data:`CONTEXT` indices of tokens outside every stretch, from ``start`` on in ``step``'s direction."""
    found: list[int] = []
    i = start
    while 0 <= i < len(certain) and len(found) < CONTEXT:
        if certain[i]:
            found.append(i)
        i += step
    return found if step > 0 else found[::-1]


def place(
    mine: Stream, theirs: Stream, lo: int, hi: int, certain: Sequence[bool]
) -> tuple[list[int | None], tuple[int, int]] | None:
    """For each token of ``mine[lo:hi]``, the index of the token of ``theirs`` it matches, or None;
    and the gap of ``theirs`` it was compared with, ``(start, end)``.

    The gap is what ``theirs`` has between the words around the stretch (those of ``mine`` outside
    every stretch, just before it and just after): first where the words before it stand (the
    offset most of their 3-grams agree on), then the two contexts aligned there without the
    stretch, so that no word of the stretch is taken for a word of the context (a 注 that ends on
    the word the 經 resumes with). The stretch is compared with that gap alone. None where no
    place is found, or the gap runs over a leaf ``theirs`` has lost.
    """
    before = _context(certain, lo - 1, -1)  # the stretch itself is never its own context
    after = _context(certain, hi, 1)
    guess = _guess(mine, theirs, before, after)
    if guess is None:
        return None
    between = (after[0] - lo if after else hi - lo) + CONTEXT
    if not before:
        guess -= between  # the guess was where the context after stands
    b0 = max(0, guess - len(before) - CONTEXT)
    b1 = min(len(theirs.keys), guess + between + len(after) + CONTEXT)
    if b1 <= b0:
        return None
    gap = _gap(mine, theirs, before, after, (b0, b1), between)
    if gap is None:
        return None
    start, end = gap
    if any(start < x <= end for x in theirs.lost):
        return None  # what stood between is on a lost leaf
    return _matched(mine.keys[lo:hi], theirs.keys, start, end), (start, end)


def _guess(mine: Stream, theirs: Stream, before: Sequence[int], after: Sequence[int]) -> int | None:
    """Where in ``theirs`` the context before the stretch ends (else where the one after starts):
    the offset most of the context's 3-grams agree on, if at least two do."""
    probe, anchor = (before, len(before)) if len(before) > GRAM else (after, 0)
    ends: Counter[int] = Counter()
    for p in range(len(probe) - GRAM + 1):
        gram = tuple(mine.keys[i] for i in probe[p : p + GRAM])
        for j in theirs.grams.get(gram, ())[:8]:
            ends[j - p + anchor] += 1
    if not ends:
        return None
    guess, support = ends.most_common(1)[0]
    if support < 2:
        return None
    return guess


def _gap(
    mine: Stream, theirs: Stream, before: Sequence[int], after: Sequence[int], window: tuple[int, int], between: int
) -> tuple[int, int] | None:
    """What ``theirs`` has between the contexts, inside ``window``: from just after the context
    before to the first word of the context after (None where its start is not found)."""
    b0, b1 = window
    start, end = _edges(mine, theirs, before, after, b0, b1)
    keys = theirs.keys
    if before and start is not None:
        start = _tightest(
            before,
            mine.keys,
            keys,
            range(max(b0 + 1, start - CONTEXT), min(b1, start + CONTEXT) + 1),
            start,
            backward=True,
        )
    if not before:
        # A stretch at the layer's start: the gap runs from the other's start of the window.
        start = b0 if end is None else max(b0, end - between)
    if start is None:
        return None
    if after and end is not None:
        end = _tightest(after, mine.keys, keys, range(start, min(b1, end + CONTEXT)), end, backward=False)
    if end is None or end < start:
        end = min(b1, start + between)
    return start, end


def _edges(
    mine: Stream, theirs: Stream, before: Sequence[int], after: Sequence[int], b0: int, b1: int
) -> tuple[int | None, int | None]:
    """The two contexts, without the stretch, aligned with ``theirs[b0:b1]``: just after the last
    word matched of the context before, and the first word matched of the context after."""
    from rapidfuzz.distance import Indel

    around = [mine.keys[i] for i in before] + [mine.keys[i] for i in after]
    start: int | None = None
    end: int | None = None
    for op in Indel.opcodes(around, theirs.keys[b0:b1]):
        if op.tag != "equal":
            continue
        for i in range(op.src_start, op.src_end):
            j = b0 + op.dest_start + (i - op.src_start)
            if i < len(before):
                start = j + 1  # just after the last word of the context before
            elif end is None:
                end = j  # the first word of the context after
    return start, end


def _matched(stretch: Sequence[str], keys: Sequence[str], start: int, end: int) -> list[int | None]:
    """For each key of ``stretch``, the index in ``keys`` of the one it is aligned with in
    ``keys[start:end]``, or None."""
    from rapidfuzz.distance import Indel

    placed: list[int | None] = [None] * len(stretch)
    for op in Indel.opcodes(stretch, keys[start:end]):
        if op.tag == "equal":
            for i in range(op.src_start, op.src_end):
                placed[i] = start + op.dest_start + (i - op.src_start)
    return placed


def _tightest(
    context: Sequence[int], keys: Sequence[str], theirs: Sequence[str], candidates: range, found: int, *, backward: bool
) -> int:
    """Where a context stands in ``theirs`` most nearly word for word: the end of the context
    before a stretch (``backward``), or the start of the one after it.

    An alignment of the whole context matches a formula the text repeats (主人阼階上答拜 twice
    in a few lines) wherever it can, the first occurrence as well as the right one: the place
    where the context's nearest :data:`TIGHT` words stand together, in order, is the right one.
    Ties go to ``found``'s side: the place nearest it.
    """
    from rapidfuzz.distance import Indel

    words = [keys[i] for i in (context[-TIGHT:] if backward else context[:TIGHT])]
    edge = words[-1] if backward else words[0]
    best, score = found, -1.0
    for j in candidates:
        if backward:
            if j < 1 or theirs[j - 1] != edge:
                continue
            piece = theirs[max(0, j - len(words) - 2) : j]
        else:
            if j >= len(theirs) or theirs[j] != edge:
                continue
            piece = theirs[j : j + len(words) + 2]
        value = Indel.similarity(words, piece) - abs(j - found) * 1e-6
        if value > score:
            best, score = j, value
    return best


def extended(mine: Stream, theirs: Stream, placed: Sequence[int | None], lo: int, at: int, gap: tuple[int, int]) -> int:
    """The cut ``at`` moved over the tokens that go on matching ``theirs`` beside the matched run.

    The alignment may match a token at the run's edge elsewhere in the gap, leaving it out of the
    run; the words just beside the run that read as the other witness's words just beside its
    match (within the gap) belong to the run. A run from the stretch's start (``at`` after it)
    goes on forward, one to its end backward.
    """
    hi = lo + len(placed)
    if at > lo and placed[at - lo - 1] is not None and (at == hi or placed[at - lo] is None):
        j = placed[at - lo - 1]
        while j is not None and at < hi and j + 1 < gap[1] and mine.keys[at] == theirs.keys[j + 1]:
            at, j = at + 1, j + 1
        return at
    k = placed[at - lo] if at < hi else None
    while k is not None and at > lo and k > gap[0] and mine.keys[at - 1] == theirs.keys[k - 1]:
        at, k = at - 1, k - 1
    return at


def dense_prefix(matched: Sequence[bool]) -> int:
    """How many of ``matched`` from its start are a densely matched run ending on a match."""
    best = 0
    misses = 0
    gap = 0
    for i, m in enumerate(matched):
        if m:
            gap = 0
            if (i + 1) >= DENSITY * misses:
                best = i + 1
            continue
        misses += 1
        gap += 1
        if gap > GAP_RUN or misses * DENSITY > i + 1 + DENSITY:
            break
    return best
