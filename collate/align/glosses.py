"""The 音義's glosses as units: a gap that can slide is set where it ends a gloss.

陸德明's 音義 is a run of glosses, each a word and its sound: 治直吏反 (a 反切, which ends with 反),
大音泰 (a like-sounding character), 如字, often with 注同 or 下同 (the same below) after it. A
print that lacks a gloss lacks it whole, but the glosses round it share characters (every 反切
ends with 反), and a gap between two of them can be read one character off: 「反治直吏」 for
治直吏反, the first gloss's 反 taken for the lacking gloss's. An omission can slide where the
character before it is the one it ends with (or the one after it the one it begins with): the
same witness reads the same either way. Among those places, the one where the gap ends on a
character that ends glosses (:data:`GLOSS_ENDS`) is taken, the nearest to where the aligner put
it; where none does, the gap stays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from collate.align.alignment import Extent, LayerAlignment
from collate.align.slides import Cells, move, omission_at, room

# The characters a gloss of the 音義 ends with: 反 (a 反切), 同 (注同, 下同), 字 (如字).
GLOSS_ENDS = frozenset("反同字")


def gloss_gaps(alignment: LayerAlignment) -> LayerAlignment:
    """The alignment with each witness's omissions set to end a gloss where they can (see the module)."""
    columns: list[Cells] = [list(col) for col in alignment.columns]
    changed = False
    for j, siglum in enumerate(alignment.sigla[1:], 1):
        extent = alignment.extent(siglum)
        c = 0
        while c < len(columns):
            if columns[c][j] is not None or columns[c][0] is None:
                c += 1
                continue
            _, end = omission_at(columns, j, c)
            moved = _slide(columns, j, c, end, extent) if all(map(extent.covers, range(c, end))) else 0
            changed = changed or moved != 0
            c = end + max(moved, 0)
    if not changed:
        return alignment
    return replace(alignment, columns=tuple(tuple(col) for col in columns))


def _slide(columns: Sequence[Cells], j: int, start: int, end: int, extent: Extent) -> int:
    """Slide witness ``j``'s omission over columns [start, end) to end a gloss; by how many columns (0: not)."""
    if _ends_gloss(columns, end):
        return 0
    right = room(columns, j, start, end, 1, extent)
    left = room(columns, j, start, end, -1, extent)
    for step in range(1, max(right, left) + 1):
        # The nearest place first, the right one before the left at the same distance.
        for shift in [s for s, reach in ((step, right), (-step, left)) if step <= reach]:
            if _ends_gloss(columns, end + shift):
                move(columns, j, start, end, shift)
                return shift
    return 0


def _ends_gloss(columns: Sequence[Cells], end: int) -> bool:
    base = columns[end - 1][0]
    return base is not None and base.t in GLOSS_ENDS
