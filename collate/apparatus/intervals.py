"""Which columns of a layer become loci: maximal runs of variant columns, cut where a witness's
kind of difference, a unit, an extent or a transposition changes; runs joined where a witness
only has a few characters in another order; widened to hold a readings file's entries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from collate.apparatus.columns import LayerColumns
from collate.apparatus.records import SparsePlacement
from collate.model import ReadingClass, Token

# A witness's other order is recognised where a passage of at most this many characters is
# missing and found again within this many agreeing characters (人奉 / 奉人).
_SWAP_LONGEST = 4
_SWAP_GAP = 4


@dataclass(slots=True)
class Interval:
    """A column range [start, end) becoming one locus, with the placements it holds."""

    start: int
    end: int
    placements: list[int]
    pure_addition: bool = False


@dataclass(slots=True)
class _Run:
    """What the walk over the columns remembers of the run of variant columns it is in."""

    signature: tuple[object, ...] | None
    kinds: list[ReadingClass | None]
    unit: int | None
    lacking: bool
    # Per witness, the unit of its last token in the run: an entry never runs from one of
    # its units into the next either (two notes a 集說 quotes apart, its 經 and a 注曰).
    wunits: list[int | None]

    @classmethod
    def fresh(cls, witnesses: int) -> _Run:
        """No run yet: after a column where every witness agrees."""
        return cls(None, [], None, False, [None] * witnesses)


def segments(cols: LayerColumns) -> tuple[list[Interval], int]:
    """Maximal runs of variant columns, split where extents or transpositions change; and how
    many columns differ by script alone."""
    runs: list[Interval] = []
    script = 0
    run = _Run.fresh(len(cols.sigla))
    for i, col in enumerate(cols.columns):
        base = col[0]
        kinds, differs, folded = _kinds(cols, i, col)
        moved = tuple(k for k, (_, a, b) in enumerate(cols.transposed) if a <= i < b)
        if not differs and not moved:
            script += folded
            run = _Run.fresh(len(cols.sigla))
            continue
        signature = (tuple(e.covers(i) for e in cols.extents), moved)
        cut = _cut(cols, run, i, col, kinds, moved)
        if run.signature == signature and not cut:
            runs[-1].end = i + 1
        else:
            runs.append(Interval(i, i + 1, [], pure_addition=base is None))
        runs[-1].pure_addition = runs[-1].pure_addition and base is None
        run.signature = signature
    return runs, script


def _kinds(cols: LayerColumns, i: int, col: Sequence[Token | None]) -> tuple[list[ReadingClass | None], bool, bool]:
    """How each other witness's cell of column ``i`` differs from the base's (None: agrees, or not
    extant); whether any differs; whether any agrees only once folded (script, form)."""
    base = col[0]
    differs = folded = False
    kinds: list[ReadingClass | None] = []
    for j in range(1, len(cols.sigla)):
        if not cols.extents[j].covers(i):
            kinds.append(None)
            continue
        other = col[j]
        kind = None if (i, j) in cols.heading_cells else cols.kind(base, other)
        kinds.append(kind)
        if kind is not None:
            differs = True
        elif base is not None and other is not None and base.t != other.t:
            folded = True
    return kinds, differs, folded


def _cut(
    cols: LayerColumns,
    run: _Run,
    i: int,
    col: Sequence[Token | None],
    kinds: list[ReadingClass | None],
    moved: tuple[int, ...],
) -> bool:
    """Whether variant column ``i`` starts a new entry rather than going on with ``run``, which
    is told of the column."""
    base = col[0]
    # Where a witness's difference changes kind from one column to the next (閒 for 間
    # beside 追 for 退), the entry is cut: joined, the whole would be classed substantive.
    # Columns where it agrees, and passages moved, never cut (nor does the run's first column).
    cut = not moved and any(
        a is not None and b is not None and a is not b for a, b in zip(run.kinds, kinds, strict=False)
    )
    # Nor does an entry run from one unit of the base into the next (two 注, a 經 and its 注),
    # but where witnesses only lack text on both sides: 「A」至「B」 lacking is one entry.
    lacking = base is not None and all(col[j] is None for j, kind in enumerate(kinds, 1) if kind is not None)
    if base is not None:
        new_unit = run.unit is not None and base.unit != run.unit
        cut = cut or (new_unit and not moved and not (lacking and run.lacking))
        run.unit = base.unit
    for j in range(1, len(cols.sigla)):
        other = col[j]
        if other is None or not cols.extents[j].covers(i) or not cols.extents[0].covers(i):
            continue
        cut = cut or (not moved and run.wunits[j] is not None and other.unit != run.wunits[j])
        run.wunits[j] = other.unit
    run.lacking = lacking
    run.kinds = kinds
    return cut


def swaps(cols: LayerColumns, runs: list[Interval]) -> list[Interval]:
    """Runs joined where a witness lacks a few characters and has them again a little later.

    「人奉」 read 「奉人」 aligns as an omission of 人 and, after the agreeing 奉, an addition
    of 人 (or the other way round): joined, the entry is the witness's other order (倒文).
    Only short passages close together are joined: a repeated formula far away is not a move.
    """
    out: list[Interval] = []
    for run in runs:
        last = out[-1] if out else None
        if last is not None and 0 < run.start - last.end <= _SWAP_GAP and _swapped(cols, last, run):
            out[-1] = Interval(last.start, run.end, last.placements + run.placements)
        elif (
            len(out) > 1
            and out[-1].end <= run.start
            and 0 < run.start - out[-2].end <= _SWAP_GAP
            and _in_form_only(cols, out[-1])
            and _swapped(cols, out[-2], run)
        ):
            # The characters between differ in form only (鄉射 read 射郷: 郷 for 鄉 in between).
            first, middle = out[-2], out.pop()
            out[-1] = Interval(first.start, run.end, first.placements + middle.placements + run.placements)
        else:
            out.append(run)
    return out


def _in_form_only(cols: LayerColumns, run: Interval) -> bool:
    """Whether every witness reads the run's characters as the base does, or in another form only."""
    for i in range(run.start, run.end):
        base = cols.columns[i][0]
        for j in range(1, len(cols.sigla)):
            other = cols.columns[i][j]
            if base is None or other is None or cols.kind(base, other) in (ReadingClass.SUBSTANTIVE, ReadingClass.LOAN):
                return False
    return True


def _swapped(cols: LayerColumns, first: Interval, second: Interval) -> bool:
    for j in range(1, len(cols.sigla)):
        if not all(cols.extents[j].covers(i) for i in range(first.start, second.end)):
            continue
        one = _only(cols, first, j)
        two = _only(cols, second, j)
        if one is None or two is None or one[0] == two[0]:
            continue
        if one[1] == two[1] and 0 < len(one[1]) <= _SWAP_LONGEST:
            return True
    return False


def _only(cols: LayerColumns, run: Interval, j: int) -> tuple[bool, tuple[str, ...]] | None:
    """(True, keys) if only the base has text in ``run`` for witness ``j``; (False, keys) if only ``j``."""
    cells = [(cols.columns[i][0], cols.columns[i][j]) for i in range(run.start, run.end)]
    if all(b is not None and w is None for b, w in cells):
        return True, tuple(b.n for b, _ in cells if b is not None)
    if all(b is None and w is not None for b, w in cells):
        return False, tuple(w.n for _, w in cells if w is not None)
    return None


def place(cols: LayerColumns, intervals: list[Interval], placements: Sequence[SparsePlacement]) -> list[Interval]:
    """Widen or add intervals so that each placement lies inside exactly one."""
    for k, p in enumerate(placements):
        start, end = cols.place_span(p)
        if start == end:
            home = next(
                (
                    iv
                    for iv in intervals
                    if iv.start < start < iv.end
                    or (iv.pure_addition and iv.start <= start <= iv.end)
                    or iv.start == iv.end == start
                ),
                None,
            )
            if home is None:
                home = Interval(start, start, [])
                intervals.append(home)
            home.placements.append(k)
            continue
        hit = [iv for iv in intervals if iv.start < end and start < iv.end]
        merged = Interval(
            min([start, *(iv.start for iv in hit)]),
            max([end, *(iv.end for iv in hit)]),
            [k, *(m for iv in hit for m in iv.placements)],
        )
        intervals = [iv for iv in intervals if all(iv is not h for h in hit)] + [merged]
    intervals.sort(key=lambda iv: (iv.start, iv.end))
    return intervals
