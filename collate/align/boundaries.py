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
search keys, then aligned there by :mod:`rapidfuzz`'s Indel opcodes), and the run of the
stretch's tokens that witness matches densely from the stretch's start (or to its end) is
measured (:mod:`collate.align.boundary_match`). Every witness's evidence votes for a cut,
weighed by how many tokens it matched; the cut with the most weight, if at least
:data:`MIN_MATCH` tokens say so, is the boundary
(``boundary-settled``, naming the witnesses). Where no witness matches, the reader's cut stays,
and says so (``boundary-estimated``).

The work is linear in the text: each stretch is compared in a window of the other witness's
layer around one place, found by a dictionary of its 3-grams built once.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from collate.align.boundary_match import Stream, dense_prefix, extended, place, token_range
from collate.model import Diagnostic, Layer, Role, Severity, Span, Unsettled, Witness

if TYPE_CHECKING:
    from collate.normalize import Normalizer

# The fewest tokens another witness must match to say where a boundary is.
MIN_MATCH = 2
# Words of a stretch neither layer's evidence claims, from this many, stay in doubt.
DOUBT = 3


def settle_boundaries(witnesses: Sequence[Witness], normalizer: Normalizer) -> tuple[Witness, ...]:
    """The witnesses with each unmarked layer boundary cut where the other witnesses say it is.

    Twice over: the second round compares each witness with the others as the first settled
    them (a 纂圖互註's 注/音義 boundary is found against a 注疏本's 注 whose end the first round
    found against the 纂圖互註's 經), and places each stretch by its neighbours as the first
    round cut them.
    """
    settled = tuple(witnesses)
    estimates: dict[str, dict[int, int]] = {}
    for _ in range(2):
        rounds = []
        for w in witnesses:
            if not w.unsettled or w.sparse:
                rounds.append(w)
                continue
            others = [r for r in settled if r.siglum != w.siglum and not r.sparse]
            done, cuts = _settle(w, others, normalizer, estimates.get(w.siglum, {}))
            estimates[w.siglum] = cuts
            rounds.append(done)
        settled = tuple(rounds)
    return settled


@dataclass(slots=True)
class _Evidence:
    """What the other witnesses say of one stretch: where its after layer begins, how far its before layer runs.

    Each is an offset with the weight of the tokens matched and the witnesses that matched them.
    """

    after: Counter[int]
    before: Counter[int]
    who: dict[int, list[str]]
    starts: tuple[int, ...] = ()

    @classmethod
    def none(cls) -> _Evidence:
        return cls(Counter(), Counter(), defaultdict(list))

    def cut(self, u: Unsettled) -> tuple[int, str, tuple[int, int] | None] | None:
        """The settled cut, the witnesses that say so, and what stays in doubt; None where none says anything.

        Where the after layer begins is what settles a cut: the words after it read as the other
        witnesses' after layer. How far their before layer runs is a bound only (a 注 one
        witness ends a word early does not make that word 經), which moves the cut later, never
        earlier, and settles it where it says the before layer runs to the stretch's end.
        Words between the two that neither claims (:data:`DOUBT` or more) stay in doubt: a range
        of offsets whose tokens are never reported as omitted or added.
        """

        def best(votes: Counter[int]) -> tuple[int, int]:
            return max(votes.items(), key=lambda kv: (kv[1], -abs(kv[0] - u.cut)))

        doubt: tuple[int, int] | None = None
        if self.after:
            at, weight = best(self.after)
            if self.before:
                bound, strength = best(self.before)
                if bound > at and strength > weight:
                    at = bound
                elif bound < at and self.tokens_between(bound, at) >= DOUBT:
                    doubt = (bound, at)
        elif self.before:
            # Only how far the before layer runs: the cut moves there if the reader's is earlier;
            # the words after it that nothing claims stay as the reader cut them, in doubt.
            at, _ = best(self.before)
            if at < u.cut:
                # In doubt only where the print shows a boundary inside (the reader cut before the
                # end): a run the print ends with a mark is the before layer to its end.
                if u.cut < u.end and self.tokens_between(at, u.end) >= DOUBT:
                    doubt = (at, u.end)
                at = u.cut
        else:
            return None
        who = self.who.get(at) or [w for ws in self.who.values() for w in ws]
        return at, "、".join(sorted(set(who))), doubt

    def tokens_between(self, start: int, end: int) -> int:
        """How many of the stretch's tokens stand in ``[start, end)``."""
        return sum(1 for x in self.starts if start <= x < end)


def _settle(
    witness: Witness, others: Sequence[Witness], normalizer: Normalizer, estimates: Mapping[int, int]
) -> tuple[Witness, dict[int, int]]:
    """``witness`` with its unsettled stretches cut by the evidence of ``others``; each stretch's cut.

    ``estimates`` are the cuts of the stretches (by start) to read their neighbours by (the
    reader's where there is none): a stretch is placed by the words around it that are of the
    layer compared, its neighbours' parts in that layer included.
    """
    from collate.normalize.tokenize import tokenize

    cuts: dict[int, tuple[int, str, tuple[int, int] | None]] = {}
    pairs = {(u.before, u.after) for u in witness.unsettled}
    for before, after in pairs:
        stretches = [u for u in witness.unsettled if (u.before, u.after) == (before, after)]
        evidence = [_Evidence.none() for _ in stretches]
        for layer, from_start in ((before, True), (after, False)):
            whole = tokenize(_as_layer(witness, stretches, layer), layer, normalizer)
            mine = Stream.of(whole, loosen=normalizer.loosen)
            ranges = [token_range(mine.starts, u) for u in stretches]
            for said, (lo, hi) in zip(evidence, ranges, strict=True):
                said.starts = mine.starts[lo:hi]
            # The tokens of the layer compared: those outside every stretch, and the part of each
            # stretch that its estimated cut gives this layer. What a stretch is placed by.
            certain = [True] * len(mine.keys)
            for u, (lo, hi) in zip(stretches, ranges, strict=True):
                estimate = estimates.get(u.start, u.cut)
                for i in range(lo, hi):
                    certain[i] = (mine.starts[i] < estimate) == from_start
            for other in others:
                theirs = Stream.of(tokenize(other, layer, normalizer), other, normalizer.loosen)
                if not theirs.keys:
                    continue
                for k, (lo, hi) in enumerate(ranges):
                    if hi <= lo:
                        continue
                    found = place(mine, theirs, lo, hi, certain)
                    if found is None:
                        continue
                    placed, gap = found
                    matched = [j is not None for j in placed]
                    run = dense_prefix(matched) if from_start else dense_prefix(matched[::-1])
                    # A single word is enough where it is the whole of what the other has there.
                    if run < MIN_MATCH and not (run and run == gap[1] - gap[0]):
                        continue
                    at = extended(mine, theirs, placed, lo, lo + run if from_start else hi - run, gap)
                    # An offset: the two layers' streams number their tokens apart.
                    offset = mine.starts[at] if at < hi else stretches[k].end
                    (evidence[k].before if from_start else evidence[k].after)[offset] += run
                    evidence[k].who[offset].append(other.siglum)
        for u, said in zip(stretches, evidence, strict=True):
            settled = said.cut(u)
            if settled is not None:
                cuts[u.start] = settled
    return _recut(witness, cuts), {start: c[0] for start, c in cuts.items()}


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


def _recut(witness: Witness, cuts: dict[int, tuple[int, str, tuple[int, int] | None]]) -> Witness:
    """``witness`` with each stretch cut at its settled offset, the others left at the reader's cut.

    ``unsettled`` then holds what stays in doubt: the whole of each stretch no witness spoke
    for, and the words of a settled one that neither layer's evidence claims.
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
    doubts: list[Unsettled] = []
    for u in witness.unsettled:
        if u.start in cuts:
            at, who, doubt = cuts[u.start]
            said = "where it ends" if at < u.end else "that it runs to the end of the stretch"
            message = f"the print does not mark where this {u.before.chinese} ends; {who} say {said}"
            if at != u.cut:
                line, column = witness.line_col(u.cut)
                message += f" (the print alone suggested {line}:{column})"
            if doubt is not None:
                doubts.append(replace(u, start=doubt[0], end=doubt[1], cut=at))
                message += "; the words before it are in doubt, and are not reported as variants"
            diagnostics.append(Diagnostic("boundary-settled", message, at, min(at + 1, u.end), Severity.INFO))
        elif u.cut < u.end:
            # The print shows a boundary inside (a 注 up to the next 注), and no witness says where.
            doubts.append(u)
            message = (
                f"the print does not mark where this {u.before.chinese} ends, and no other witness says: "
                f"{u.after.chinese} is taken to resume here, and the stretch is not reported as variants"
            )
            diagnostics.append(Diagnostic("boundary-estimated", message, u.cut, min(u.cut + 1, u.end), Severity.INFO))
    diagnostics.sort(key=lambda d: d.start)
    return replace(witness, spans=tuple(_joined(spans)), diagnostics=tuple(diagnostics), unsettled=tuple(doubts))


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
