"""Passages moved far and written differently: a paragraph one text places elsewhere, with its own variants.

The transpositions :mod:`collate.align.transpositions` finds are anchored by unique k-grams;
a passage that a witness both moves and words differently (大戴禮's 投壺 has the 壺 and its
矢 after the 童子 paragraph, not before the drum scores, and reads 壺中置小豆爲其矢躍而去也
for 壺中實小豆焉爲其矢之躍而出也) keeps too few of them. Aligned without it, the base's
passage is a long omission and the witness's a long addition pages away.

So after a first alignment each long stretch one text has alone (a base stretch the witness
lacks, a witness stretch the base lacks, at different places) is compared with those of the
other text that share 3-grams with it: where their longest common subsequence has a dense
core — at least ``MIN_CORE`` tokens long, half of it in common — the core is a moved
passage. It is reported only if it is unique enough to be the same passage: most of its
4-grams occur nowhere else in either text (a formula repeated through a chapter is no move).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from collate.align.anchors import Match
from collate.align.transpositions import Moved

# The shortest moved passage reported, the least share of it in common, and the largest gap
# (on either side) between two common tokens of one core.
MIN_CORE = 20
DENSITY = 0.5
_GAP = 6
# Candidates are the other text's stretches sharing at least this many 3-grams.
_SHARED = 3


def far_moves(a: str, b: str, base: Sequence[int], witness: Sequence[int], taken: Sequence[Moved]) -> list[Moved]:
    """Moved passages among the stretches that ``a`` (base) and ``b`` (witness) each have alone.

    ``base``/``witness`` are a first alignment's columns (positions, -1 for none); ``taken``
    the moves already found, which no new one overlaps. Sorted by base start.
    """
    lone_a, lone_b = _lone(base, witness), _lone(witness, base)
    runs_a = [r for r in lone_a if r[1] - r[0] >= MIN_CORE]
    runs_b = [r for r in lone_b if r[1] - r[0] >= MIN_CORE]
    if not runs_a or not runs_b:
        return []
    index: dict[str, set[int]] = {}
    for k, (s, e, _) in enumerate(runs_b):
        for i in range(s, e - 2):
            index.setdefault(b[i : i + 3], set()).add(k)
    used_a = bytearray(len(a))
    used_b = bytearray(len(b))
    for m in taken:
        bs, be, ws, we = m.move
        used_a[bs:be] = b"\x01" * (be - bs)
        used_b[ws:we] = b"\x01" * (we - ws)
    counts_a: Counter[str] | None = None
    counts_b: Counter[str] | None = None
    found: list[Moved] = []
    for s, e, place in runs_a:
        hits: Counter[int] = Counter()
        for i in range(s, e - 2):
            for k in index.get(a[i : i + 3], ()):
                hits[k] += 1
        for k, shared in hits.most_common(2):
            ws_, we_, there = runs_b[k]
            if shared < _SHARED or there == place:
                continue  # too little in common, or at the same place (no move: a variant there)
            core = _core(a, b, s, e, ws_, we_)
            if core is None:
                continue
            bs, be, ws, we, pairs = core
            if 1 in used_a[bs:be] or 1 in used_b[ws:we]:
                continue
            counts_a = counts_a or _grams(a)
            counts_b = counts_b or _grams(b)
            if not _unique(a[bs:be], counts_a) or not _unique(b[ws:we], counts_b):
                continue
            used_a[bs:be] = b"\x01" * (be - bs)
            used_b[ws:we] = b"\x01" * (we - ws)
            found.append(Moved((bs, be, ws, we), pairs))
            break
    return sorted(found, key=lambda m: m.move)


def _lone(mine: Sequence[int], theirs: Sequence[int]) -> list[tuple[int, int, int]]:
    """Runs [start, end) of consecutive positions of one side that stand alone, with their place.

    The place counts the columns where both sides have a token before the run: two runs with
    the same place stand in the same gap of the alignment.
    """
    out: list[tuple[int, int, int]] = []
    place = run_place = 0
    start = last = -1
    for p, q in zip(mine, theirs, strict=True):
        if p >= 0 and q >= 0:
            place += 1
        if p >= 0 and q < 0:
            if start >= 0 and p == last + 1:
                last = p
                continue
            if start >= 0:
                out.append((start, last + 1, run_place))
            start = last = p
            run_place = place
        elif p >= 0 and start >= 0:
            out.append((start, last + 1, run_place))
            start = last = -1
    if start >= 0:
        out.append((start, last + 1, run_place))
    return out


def _core(a: str, b: str, s: int, e: int, ws: int, we: int) -> tuple[int, int, int, int, tuple[Match, ...]] | None:
    """The densest stretch of common tokens of a[s:e] and b[ws:we] (their LCS), if dense enough."""
    from rapidfuzz.distance import Indel

    common: list[Match] = []
    for op in Indel.opcodes(a[s:e], b[ws:we]):
        if op.tag == "equal":
            common.extend((s + op.src_start + t, ws + op.dest_start + t) for t in range(op.src_end - op.src_start))
    best: tuple[int, int, int] | None = None  # (count, first, last) of a cluster
    first = 0
    for k in range(1, len(common) + 1):
        if k < len(common) and common[k][0] - common[k - 1][0] <= _GAP and common[k][1] - common[k - 1][1] <= _GAP:
            continue
        count = k - first
        (i0, j0), (i1, j1) = common[first], common[k - 1]
        span_a, span_b = i1 - i0 + 1, j1 - j0 + 1
        if max(span_a, span_b) >= MIN_CORE and 2 * count >= DENSITY * (span_a + span_b):
            if best is None or count > best[0]:
                best = (count, first, k - 1)
        first = k
    if best is None:
        return None
    _, f, last = best
    (bs, ws_), (be, we_) = common[f], common[last]
    return bs, be + 1, ws_, we_ + 1, _pairs(common[f : last + 1])


def _pairs(common: Sequence[Match]) -> tuple[Match, ...]:
    """The core's token pairs: its common tokens, and between two of them the others paired
    left to right as CollateX pairs unmatched tokens (-1 where one side has fewer)."""
    out: list[Match] = []
    for n, (i, j) in enumerate(common):
        if n:
            pi, pj = common[n - 1]
            gap_a, gap_b = i - pi - 1, j - pj - 1
            for t in range(max(gap_a, gap_b)):
                out.append((pi + 1 + t if t < gap_a else -1, pj + 1 + t if t < gap_b else -1))
        out.append((i, j))
    return tuple(out)


def _grams(text: str) -> Counter[str]:
    return Counter(text[i : i + 4] for i in range(len(text) - 3))


def _unique(passage: str, counts: Counter[str]) -> bool:
    """Most of the passage's 4-grams occur once in its text (here): it is not a repeated formula."""
    grams = [passage[i : i + 4] for i in range(len(passage) - 3)]
    return bool(grams) and 2 * sum(counts[g] == 1 for g in grams) > len(grams)
