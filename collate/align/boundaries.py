"""Layer boundaries the print does not mark, settled by the other witnesses of the collation.

Some prints leave a layer's end unmarked: the WYG 注疏 prints mark where a 注 begins (the bare
word ``注``) but not where the 經 resumes after it; a 纂圖互註 print sets the 音義 after the 注
in the same small print, usually after a ``○``, sometimes with nothing between. The reader
cuts such a stretch from the print alone (:class:`~collate.model.Unsettled`, its ``cut``); the
other witnesses of the project, which mark that boundary themselves, say where it is:

- the **after** layer of another witness (its 經) continues, where this witness's 經 before the
  stretch ends, with the stretch's last words: as many of them as it holds are the after layer
  (*suffix evidence*);
- the **before** layer of another witness (its 注) holds, where this witness's 注 before the
  stretch ends, the stretch's first words: as many as it holds are the before layer (*prefix
  evidence*).

Each witness that has either layer gives its evidence: the stretch's tokens are laid beside that
witness's layer around the place where both were last alike (found by shared 3-grams of
comparison keys, then aligned there by :mod:`rapidfuzz`'s Indel opcodes), and the run of the
stretch's tokens that witness matches densely from the stretch's start (or to its end) is
measured. Every witness's evidence votes for a cut, weighed by how many tokens it matched; the
cut with the most weight, if at least :data:`MIN_MATCH` tokens say so, is the boundary
(``boundary-settled``, naming the witnesses). Where no witness matches, the reader's cut stays,
and says so (``boundary-estimated``).

The work is linear in the text: each stretch is compared in a window of the other witness's
layer around one place, found by a dictionary of its 3-grams built once.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from collate.model import Diagnostic, Layer, MarkKind, Role, Severity, Span, Token, Unsettled, Witness

if TYPE_CHECKING:
    from collate.normalize import Normalizer

# The fewest tokens another witness must match to say where a boundary is.
MIN_MATCH = 2
# Tokens of context either side of a stretch, in the window compared with another witness.
CONTEXT = 40
# Length of the key strings that find a stretch's place in another witness.
GRAM = 3
# A run matched densely: at most one token in this many unmatched, never more than GAP_RUN in a row.
DENSITY = 5
GAP_RUN = 2


@dataclass(frozen=True, slots=True)
class _Stream:
    """One layer of a witness as comparison keys, with the raw offset of each token.

    ``lost``: the indices of the tokens a lost leaf stands before (a lacuna mark between them
    and the token before): what follows it in the stream did not follow it in the book.
    """

    keys: tuple[str, ...]
    starts: tuple[int, ...]
    grams: dict[tuple[str, ...], list[int]]
    lost: tuple[int, ...] = ()

    @classmethod
    def of(cls, tokens: Sequence[Token], witness: Witness | None = None) -> _Stream:
        import bisect

        keys = tuple(t.n for t in tokens)
        starts = tuple(t.start for t in tokens)
        grams: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for i in range(len(keys) - GRAM + 1):
            grams[keys[i : i + GRAM]].append(i)
        marks = [m.offset for m in witness.marks if m.kind is MarkKind.LACUNA] if witness is not None else []
        lost = tuple(sorted({bisect.bisect_left(starts, m) for m in marks}))
        return cls(keys, starts, dict(grams), lost)

    def until_lost(self, start: int, end: int) -> int:
        """``end``, or the first lost leaf after ``start`` if one comes before it."""
        import bisect

        k = bisect.bisect_right(self.lost, start)
        return min(end, self.lost[k]) if k < len(self.lost) else end


def settle_boundaries(witnesses: Sequence[Witness], normalizer: Normalizer) -> tuple[Witness, ...]:
    """The witnesses with each unmarked layer boundary cut where the other witnesses say it is.

    Twice over: the second round compares each witness with the others as the first settled
    them (a 纂圖互註's 注/音義 boundary is found against a 注疏本's 注 whose end the first round
    found against the 纂圖互註's 經).
    """
    settled = tuple(witnesses)
    for _ in range(2):
        settled = tuple(
            _settle(w, [r for r in settled if r.siglum != w.siglum and not r.sparse], normalizer)
            if w.unsettled and not w.sparse
            else w
            for w in (next(o for o in witnesses if o.siglum == s.siglum) for s in settled)
        )
    return settled


def _settle(witness: Witness, others: Sequence[Witness], normalizer: Normalizer) -> Witness:
    """``witness`` with its unsettled stretches cut by the evidence of ``others``."""
    from collate.tokenize import tokenize

    cuts: dict[int, tuple[int, str]] = {}
    pairs = {(u.before, u.after) for u in witness.unsettled}
    for before, after in pairs:
        stretches = [u for u in witness.unsettled if (u.before, u.after) == (before, after)]
        votes: dict[int, Counter[int]] = {k: Counter() for k in range(len(stretches))}
        voters: dict[int, dict[int, list[str]]] = {k: defaultdict(list) for k in range(len(stretches))}
        for layer, from_start in ((before, True), (after, False)):
            whole = tokenize(_as_layer(witness, stretches, layer), layer, normalizer)
            mine = _Stream.of(whole)
            ranges = [_token_range(mine.starts, u) for u in stretches]
            for other in others:
                theirs = _Stream.of(tokenize(other, layer, normalizer), other)
                if not theirs.keys:
                    continue
                for k, (lo, hi) in enumerate(ranges):
                    if hi <= lo:
                        continue
                    found = _placed(mine, theirs, lo, hi)
                    if found is None:
                        continue
                    placed, start = found
                    matched = [j is not None for j in placed]
                    run = _dense_prefix(matched) if from_start else _dense_prefix(matched[::-1])
                    if run < MIN_MATCH:
                        continue
                    at = _extended(mine, theirs, placed, lo, lo + run if from_start else hi - run, start)
                    # Voted for as an offset: the two layers' streams number their tokens apart.
                    offset = mine.starts[at] if at < hi else stretches[k].end
                    votes[k][offset] += run
                    voters[k][offset].append(other.siglum)
        for k, u in enumerate(stretches):
            if not votes[k]:
                continue
            at, _ = max(votes[k].items(), key=lambda kv: (kv[1], -abs(kv[0] - u.cut)))
            cuts[u.start] = (at, "、".join(sorted(set(voters[k][at]))))
    return _recut(witness, cuts)


class _Stretches:
    """The unsettled stretches of a witness, to find the one a span lies in (by bisection)."""

    def __init__(self, stretches: Sequence[Unsettled]) -> None:
        self.stretches = sorted(stretches, key=lambda u: u.start)
        self.starts = [u.start for u in self.stretches]

    def holding(self, span: Span) -> Unsettled | None:
        """The stretch ``span`` lies in, if it is a text span of one of its two layers."""
        import bisect

        k = bisect.bisect_right(self.starts, span.start) - 1
        if k < 0:
            return None
        u = self.stretches[k]
        inside = span.end <= u.end and span.role is Role.TEXT and span.layer in (u.before, u.after)
        return u if inside else None


def _in_layer(span: Span, start: int, end: int, layer: Layer, unit: int) -> Span:
    """``span``'s names over ``[start, end)``, in ``layer`` and ``unit``."""
    return Span(start, end, layer, unit, span.role, work=span.work, speaker=span.speaker, passage=span.passage)


def _as_layer(witness: Witness, stretches: Sequence[Unsettled], layer: Layer) -> Witness:
    """``witness`` with the text of ``stretches`` all in ``layer``: the stretch read one way whole."""
    found = _Stretches(stretches)
    spans = []
    for s in witness.spans:
        u = found.holding(s)
        if u is not None and s.layer is not layer:
            s = _in_layer(s, s.start, s.end, layer, u.before_unit if layer is u.before else u.after_unit)
        spans.append(s)
    return replace(witness, spans=tuple(spans))


def _token_range(starts: Sequence[int], u: Unsettled) -> tuple[int, int]:
    """The indices of the tokens of ``starts`` inside the stretch ``u``."""
    import bisect

    return bisect.bisect_left(starts, u.start), bisect.bisect_left(starts, u.end)


def _placed(mine: _Stream, theirs: _Stream, lo: int, hi: int) -> tuple[list[int | None], int] | None:
    """For each token of ``mine[lo:hi]``, the index of the token of ``theirs`` it matches, or None;
    and where in ``theirs`` the stretch was compared from.

    None for the whole if no place is found. The place: where the words just before the stretch
    stand in ``theirs`` (the offset most of their 3-grams agree on, then the last of them the
    alignment matches); the stretch is aligned with what follows that place, up to a leaf
    ``theirs`` has lost. So words of the stretch that also end the text before it (也, 之) are
    never matched there, nor is a formula the text repeats after a lost leaf.
    """
    from rapidfuzz.distance import Indel

    a0 = max(0, lo - CONTEXT)
    # The words before the stretch place it; only a stretch at the layer's start is placed by its own.
    probe = range(a0, lo - GRAM + 1) if lo - a0 >= GRAM + 1 else range(lo, min(len(mine.keys) - GRAM + 1, hi))
    shifts: Counter[int] = Counter()
    for i in probe:
        for j in theirs.grams.get(mine.keys[i : i + GRAM], ())[:8]:
            shifts[j - i] += 1
    if not shifts:
        return None
    shift, support = shifts.most_common(1)[0]
    if support < 2:
        return None
    start = min(max(0, lo + shift), len(theirs.keys))
    if lo > a0:
        b0 = max(0, a0 + shift - CONTEXT)
        b1 = min(len(theirs.keys), lo + shift + CONTEXT)
        last = None
        for op in Indel.opcodes(mine.keys[a0:lo], theirs.keys[b0:b1]):
            if op.tag == "equal":
                last = b0 + op.dest_end
        if last is None:
            return None
        start = last
    if start in theirs.lost:
        return None  # the text right after the place is on a lost leaf
    a1 = min(len(mine.keys), hi + CONTEXT)
    end = theirs.until_lost(start, min(len(theirs.keys), start + (a1 - lo) + CONTEXT))
    placed: list[int | None] = [None] * (a1 - lo)
    for op in Indel.opcodes(mine.keys[lo:a1], theirs.keys[start:end]):
        if op.tag == "equal":
            for i in range(op.src_start, op.src_end):
                placed[i] = start + op.dest_start + (i - op.src_start)
    return placed[: hi - lo], start


def _extended(
    mine: _Stream, theirs: _Stream, placed: Sequence[int | None], lo: int, at: int, start: int
) -> int:
    """The cut ``at`` moved over the tokens that go on matching ``theirs`` beside the matched run.

    The alignment may match a token at the run's edge elsewhere, leaving it out of the run; the
    words just beside the run that read as the other witness's words just beside its match
    belong to the run (never before ``start``, where the text before the stretch ends there).
    A run from the stretch's start (``at`` after it) goes on forward, one to its end backward.
    """
    hi = lo + len(placed)
    if at > lo and placed[at - lo - 1] is not None and (at == hi or placed[at - lo] is None):
        j = placed[at - lo - 1]
        while j is not None and at < hi and j + 1 < len(theirs.keys) and mine.keys[at] == theirs.keys[j + 1]:
            at, j = at + 1, j + 1
        return at
    k = placed[at - lo] if at < hi else None
    while k is not None and at > lo and k > start and mine.keys[at - 1] == theirs.keys[k - 1]:
        at, k = at - 1, k - 1
    return at


def _dense_prefix(matched: Sequence[bool]) -> int:
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


def _recut(witness: Witness, cuts: dict[int, tuple[int, str]]) -> Witness:
    """``witness`` with each stretch cut at its settled offset, the others left at the reader's cut.

    The stretches settled leave ``unsettled``; those no witness spoke for stay in it.
    """
    found = _Stretches([u for u in witness.unsettled if u.start in cuts])
    spans: list[Span] = []
    for s in witness.spans:
        u = found.holding(s)
        if u is None:
            spans.append(s)
            continue
        at = cuts[u.start][0]
        if s.start < at:
            spans.append(_in_layer(s, s.start, min(s.end, at), u.before, u.before_unit))
        if s.end > at:
            spans.append(_in_layer(s, max(s.start, at), s.end, u.after, u.after_unit))
    diagnostics = [d for d in witness.diagnostics if d.code != "estimated-boundary"]
    for u in witness.unsettled:
        if u.start in cuts:
            at, who = cuts[u.start]
            said = "where it ends" if at < u.end else "that it runs to the end of the stretch"
            message = f"the print does not mark where this {u.before.chinese} ends; {who} say {said}"
            if at != u.cut:
                line, column = witness.line_col(u.cut)
                message += f" (the print alone suggested {line}:{column})"
            diagnostics.append(Diagnostic("boundary-settled", message, at, min(at + 1, u.end), Severity.INFO))
        else:
            message = (
                f"the print does not mark where this {u.before.chinese} ends, and no other witness says: "
                f"{u.after.chinese} is taken to resume here"
            )
            diagnostics.append(Diagnostic("boundary-estimated", message, u.cut, min(u.cut + 1, u.end), Severity.INFO))
    diagnostics.sort(key=lambda d: d.start)
    return replace(
        witness,
        spans=tuple(_joined(spans)),
        diagnostics=tuple(diagnostics),
        unsettled=tuple(u for u in witness.unsettled if u.start not in cuts),
    )


def _joined(spans: Sequence[Span]) -> list[Span]:
    """Neighbouring spans alike in every name made one (a cut moved back to where two met)."""
    out: list[Span] = []
    for s in spans:
        if s.end <= s.start:
            continue
        if out and out[-1].end == s.start and out[-1].alike(s):
            out[-1] = out[-1].over(out[-1].start, s.end)
        else:
            out.append(s)
    return out


__all__ = ["settle_boundaries"]
