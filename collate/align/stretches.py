"""What a stretch between two anchors is, by the shape of its two sides: two different passages,
or one side many times the other's length, which :mod:`collate.align.pairwise` then aligns apart.

Both sides are strings of symbols, one character per token.
"""

from __future__ import annotations

from collate.align.anchors import chain, expand, unique_matches

# A stretch is lopsided when one side has this many times the other's tokens (and 2 ×
# ``edge_slack`` more); its short side is placed at its best window in the long side when it
# matches there this well (rapidfuzz partial ratio, 0–100) and has at least this many tokens.
LOPSIDED = 4
PLACED = 60
PLACED_SHORTEST = 4
# The short side of a lopsided stretch that matches its best window in the long side this well
# (rapidfuzz partial ratio) is the same passage, however little of the long side it is: a
# witness that lost a leaf goes on with the words after it, a word or two read otherwise.
PLACED_WELL = 75
# Two sides of a stretch, each at least this long, are different passages when their
# similarity (2 × the common subsequence over their total length, rapidfuzz Indel) is below this.
UNRELATED_SHORTEST = 8
UNRELATED_BELOW = 1 / 3
# The fewest words a quotation's head must have to be read where its passage begins (see headed).
HEAD_MIN = 2
# Two edges of very different length still begin (end) together where anchors of this many words,
# unique to the two edges, chain from within the slack of their heads (tails) and match at least a
# TOGETHER_SHARE-th of the shorter edge (see together): shorter ones are chance in formulaic text.
TOGETHER_K = 3
TOGETHER_SHARE = 3


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


def placed_well(sa: str, sb: str, edge_slack: int, chunk: int) -> bool:
    """Whether a lopsided stretch's short side stands nearly whole in its long side (see
    :data:`PLACED_WELL`): placed there (:func:`lopsided_window`), never judged a different passage
    (:func:`unrelated`) for the many words of the long side it lacks."""
    if min(len(sa), len(sb)) < UNRELATED_SHORTEST or lopsided_window(sa, sb, edge_slack, chunk) is None:
        return False
    from rapidfuzz import fuzz

    s_text, l_text = (sa, sb) if len(sa) <= len(sb) else (sb, sa)
    found = fuzz.partial_ratio_alignment(s_text, l_text)
    return found is not None and found.score >= PLACED_WELL


def headed(sa: str, sb: str, edge_slack: int) -> bool:
    """Whether the longer of two edges before the first anchor, much longer, begins with the whole
    of the shorter one (a quotation headed by the words its passage begins with)."""
    short, long_side = (sa, sb) if len(sa) < len(sb) else (sb, sa)
    # A single word at the head of both may be chance (曰, 之); two or more name the passage.
    if len(short) < HEAD_MIN or len(long_side) <= len(short) + edge_slack:
        return False
    return long_side.startswith(short)


def together(sa: str, sb: str, edge_slack: int, head: bool) -> bool:
    """Whether two edges of very different length (before the first anchor, ``head``, or after the
    last) still begin or end together: the shorter is the same passage with less in it.

    Glosses a print gives fewer of (an edition's 音義 keeps 見賢遍反 and 不與音預 of 見君賢遍反下同
    不與音預鄉許亮反…) leave no word run long enough for an anchor of the whole texts, and the
    shorter edge would be read as text that begins later, next to the anchor. Shorter anchors,
    unique to the two edges, tell: chained from the edges' heads (tails) and matching a fair
    share of the shorter edge, the two are aligned as any stretch is.
    """
    local = expand(chain(unique_matches(sa, sb, TOGETHER_K)), TOGETHER_K)
    if not local or len(local) * TOGETHER_SHARE < min(len(sa), len(sb)):
        return False
    if head:
        i, j = local[0]
        return i <= edge_slack and j <= edge_slack
    i, j = local[-1]
    return len(sa) - 1 - i <= edge_slack and len(sb) - 1 - j <= edge_slack
