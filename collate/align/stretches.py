"""What a stretch between two anchors is, by the shape of its two sides: two different passages,
or one side many times the other's length, which :mod:`collate.align.pairwise` then aligns apart.

Both sides are strings of symbols, one character per token.
"""

from __future__ import annotations

# A stretch is lopsided when one side has this many times the other's tokens (and 2 ×
# ``edge_slack`` more); its short side is placed at its best window in the long side when it
# matches there this well (rapidfuzz partial ratio, 0–100) and has at least this many tokens.
LOPSIDED = 4
PLACED = 60
PLACED_SHORTEST = 4
# Two sides of a stretch, each at least this long, are different passages when their
# similarity (2 × the common subsequence over their total length, rapidfuzz Indel) is below this.
UNRELATED_SHORTEST = 8
UNRELATED_BELOW = 1 / 3


def unrelated(sa: str, sb: str, fallback_cells: int) -> bool:
    """Whether the two sides have so little in common that they are different passages.

    Paired column by column, or by the few common characters they share (之, 也), two
    different passages (a passage the base quotes from another chapter, one the witness has
    and the base skips) would make a row of false substantive variants. A stretch of more than
    ``fallback_cells`` pairs is never judged whole: it is cut by anchors first.
    """
    if min(len(sa), len(sb)) < UNRELATED_SHORTEST or len(sa) * len(sb) > fallback_cells:
        return False
    from rapidfuzz.distance import Indel

    return bool(Indel.normalized_similarity(sa, sb) < UNRELATED_BELOW)


def lopsided_window(sa: str, sb: str, edge_slack: int, chunk: int) -> tuple[int, int] | None:
    """Where in the longer side the shorter is aligned, ``(lo, hi)``, if one side is many times longer.

    Between two anchors a base that quotes in pieces skips whole passages of the witness,
    and a witness may lack a passage the base has; aligned as a whole, the few tokens of the
    short side would be scattered over the long one (each a false variant). The short side
    goes to its best window in the long side (rapidfuzz's partial alignment; the head or the
    tail of the long side, next to an anchor, where nothing matches well). None where the
    stretch is not lopsided, or the short side (more than ``chunk``) too long to place this way.
    """
    short, long = sorted((len(sa), len(sb)))
    if long < LOPSIDED * short or long - short <= 2 * edge_slack or short > chunk:
        return None
    from rapidfuzz import fuzz
    from rapidfuzz.distance import Indel

    s_text, l_text = (sa, sb) if len(sa) <= len(sb) else (sb, sa)
    width = min(long, 2 * short)
    found = fuzz.partial_ratio_alignment(s_text, l_text)
    if found is not None and found.score >= PLACED and short >= PLACED_SHORTEST:
        pad = short // 2
        return max(0, found.dest_start - pad), min(long, found.dest_end + pad)
    if Indel.normalized_similarity(s_text, l_text[long - width :]) > Indel.normalized_similarity(
        s_text, l_text[:width]
    ):
        return long - width, long
    return 0, width
