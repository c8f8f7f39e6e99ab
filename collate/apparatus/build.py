"""Building a layer's loci: runs of variant columns grouped, every witness's reading classed.

:class:`_Builder` indexes one layer's alignment once (each witness's extent and token
columns, the transpositions) and walks it: :meth:`_Builder.segments` finds the runs of columns
where an extant witness differs from the base, :meth:`_Builder.place` widens them to hold a
readings file's entries, :meth:`_Builder.locus` makes each run a :class:`Locus`. Readings
are classed by :mod:`collate.apparatus.compare`; a sparse witness's entries are placed and
its readings derived by :mod:`collate.apparatus.sparse`, which the builder calls and which
never calls back: :func:`apply_sparse` lives here because it rebuilds the layer.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from collate.align.alignment import LayerAlignment
from collate.apparatus.compare import _classify, _compare, _Verdict
from collate.apparatus.records import (
    ApparatusDiagnostic,
    Coverage,
    LayerResult,
    Locus,
    Reading,
    SparsePlacement,
    WitnessReading,
    strongest,
)
from collate.apparatus.sparse import _derived, _place_readings
from collate.model import Cause, ReadingClass, SourceLocation, Token, Witness

if TYPE_CHECKING:
    # Imported on first use: the normalizer loads its tables, which most callers never need.
    from collate.normalize import Normalizer


def build_layer(
    alignment: LayerAlignment, witnesses: Mapping[str, Witness], normalizer: Normalizer | None = None
) -> LayerResult:
    """Group an aligned layer into variant loci and classify every witness's reading.

    ``witnesses`` maps sigla to the witnesses as read (for ``file:line:col`` and pages);
    sparse witnesses in it (readings files) that report readings in this layer are
    placed with :func:`apply_sparse`, in siglum order. ``normalizer`` is the one that
    made the tokens' keys (the project's; the default rules if None): it explains why two
    readings are the same and relates characters whose keys differ (script pairs, 通假).
    """
    normalizer = _normalizer(normalizer)
    result = _build(alignment, witnesses, (), (), (), normalizer)
    for siglum in sorted(witnesses):
        w = witnesses[siglum]
        if w.sparse and siglum not in alignment.sigla and any(r.layer is alignment.layer for r in w.readings):
            result = apply_sparse(result, w, witnesses, normalizer)
    return result


def _normalizer(normalizer: Normalizer | None) -> Normalizer:
    from collate.normalize import Normalizer

    return normalizer if normalizer is not None else Normalizer()


def apply_sparse(
    result: LayerResult, witness: Witness, witnesses: Mapping[str, Witness], normalizer: Normalizer | None = None
) -> LayerResult:
    """Place a sparse witness's readings at their base places as derived readings.

    Each :class:`~collate.model.SparseReading` of the layer is found in the base by its
    ``at`` phrase (in either script), then its ``base`` part (or, for an addition, the
    point ``before``/``after`` the phrase). Loci are created or widened where needed; the
    witness is silent everywhere else (never an omission). Entries that cannot be placed
    become diagnostics. Applying the same witness again replaces its earlier placements.
    """
    normalizer = _normalizer(normalizer)
    placements, diagnostics = _place_readings(result, witness, normalizer)
    sparse = tuple(sorted({*result.sparse, witness.siglum}))
    return _build(result.alignment, witnesses, sparse, placements, diagnostics, normalizer)


# A witness's other order is recognised where a passage of at most this many characters is
# missing and found again within this many agreeing characters (人奉 / 奉人).
_SWAP_LONGEST = 4
_SWAP_GAP = 4
_REORDERED_LONGEST = 8


def _reordered(lemma: Sequence[Token], reading: Sequence[Token]) -> bool:
    """The reading has the lemma's characters (their keys), all of them, in another order."""
    a, b = [t.n for t in lemma], [t.n for t in reading]
    return 2 <= len(a) <= _REORDERED_LONGEST and a != b and sorted(a) == sorted(b)


@dataclass(slots=True)
class _Interval:
    """A column range [start, end) becoming one locus, with the placements it holds."""

    start: int
    end: int
    placements: list[int]
    pure_addition: bool = False


class _Builder:
    """One layer's alignment with the indexes the locus builder needs."""

    def __init__(self, alignment: LayerAlignment, witnesses: Mapping[str, Witness], normalizer: Normalizer) -> None:
        self.alignment = alignment
        self.normalizer = normalizer
        self.witnesses = witnesses
        self.columns = alignment.columns
        self.sigla = alignment.sigla
        self.extents = tuple(alignment.extent(s) for s in self.sigla)
        self.base_col = alignment.base.column_of
        # Per witness: the columns holding its tokens, to find the place of an empty reading.
        self.token_cols: list[list[int]] = [
            [i for i, col in enumerate(self.columns) if col[j] is not None] for j in range(len(self.sigla))
        ]
        # Transpositions count positions in the base's token stream, which are its columns in order.
        base_cols = self.token_cols[0]
        self.transposed: list[tuple[int, int, int]] = [
            (self.sigla.index(t.siglum), base_cols[t.base_start], base_cols[t.base_end - 1] + 1)
            for t in alignment.transpositions
            if t.siglum in self.sigla and 0 <= t.base_start < t.base_end <= len(base_cols)
        ]

    def locate(self, siglum: str, offset: int) -> SourceLocation | None:
        w = self.witnesses.get(siglum)
        return w.locate(offset) if w is not None else None

    def extant(self, j: int, start: int, end: int) -> list[int]:
        """The columns of [start, end) where witness ``j`` is extant."""
        return [i for i in range(start, end) if self.extents[j].covers(i)]

    def extant_at(self, j: int, point: int) -> bool:
        """Whether witness ``j`` is extant on both sides of the point before column ``point``."""
        return all(self.extents[j].covers(i) for i in (point - 1, point) if 0 <= i < len(self.columns))

    def _kind(self, base: Token | None, other: Token | None) -> ReadingClass | None:
        """How the witness's cell differs from the base's: None where it agrees.

        A gap (omission, addition) is of a kind with a different character (substantive), so
        "AB" read "C" stays one entry; a difference in form only (orthographic, loan,
        placeholder) is a kind of its own.
        """
        if base is None or other is None:
            return None if base is other else ReadingClass.SUBSTANTIVE
        verdict = _classify(base, other, self.normalizer)
        return None if verdict is None else verdict[0]

    def segments(self) -> tuple[list[_Interval], int]:
        """Maximal runs of variant columns, split where extents or transpositions change."""
        runs: list[_Interval] = []
        script = 0
        previous: tuple[object, ...] | None = None
        last_kinds: list[ReadingClass | None] = []
        last_unit: int | None = None
        last_lacking = False
        # Per witness, the unit of its last token in the run: an entry never runs from one of
        # its units into the next either (two notes a 集說 quotes apart, its 經 and a 注曰).
        wunits: list[int | None] = [None] * len(self.sigla)
        for i, col in enumerate(self.columns):
            base = col[0]
            differs = folded = False
            kinds: list[ReadingClass | None] = []
            for j in range(1, len(self.sigla)):
                if not self.extents[j].covers(i):
                    kinds.append(None)
                    continue
                other = col[j]
                kind = self._kind(base, other)
                kinds.append(kind)
                if kind is not None:
                    differs = True
                elif base is not None and other is not None and base.t != other.t:
                    folded = True
            moved = tuple(k for k, (_, a, b) in enumerate(self.transposed) if a <= i < b)
            if not differs and not moved:
                script += folded
                previous = None
                last_kinds = []
                last_unit = None
                last_lacking = False
                wunits = [None] * len(self.sigla)
                continue
            signature = (tuple(e.covers(i) for e in self.extents), moved)
            # Where a witness's difference changes kind from one column to the next (閒 for 間
            # beside 追 for 退), the entry is cut: joined, the whole would be classed substantive.
            # Columns where it agrees, and passages moved, never cut (nor does the run's first column).
            cut = not moved and any(
                a is not None and b is not None and a is not b for a, b in zip(last_kinds, kinds, strict=False)
            )
            # Nor does an entry run from one unit of the base into the next (two 注, a 經 and its 注),
            # but where witnesses only lack text on both sides: 「A」至「B」 lacking is one entry.
            lacking = base is not None and all(col[j] is None for j, kind in enumerate(kinds, 1) if kind is not None)
            if base is not None:
                new_unit = last_unit is not None and base.unit != last_unit
                cut = cut or (new_unit and not moved and not (lacking and last_lacking))
                last_unit = base.unit
            for j in range(1, len(self.sigla)):
                other = col[j]
                if other is None or not self.extents[j].covers(i) or not self.extents[0].covers(i):
                    continue
                cut = cut or (not moved and wunits[j] is not None and other.unit != wunits[j])
                wunits[j] = other.unit
            last_lacking = lacking
            last_kinds = kinds
            if previous == signature and not cut:
                runs[-1].end = i + 1
            else:
                runs.append(_Interval(i, i + 1, [], pure_addition=base is None))
            runs[-1].pure_addition = runs[-1].pure_addition and base is None
            previous = signature
        return runs, script

    def swaps(self, runs: list[_Interval]) -> list[_Interval]:
        """Runs joined where a witness lacks a few characters and has them again a little later.

        「人奉」 read 「奉人」 aligns as an omission of 人 and, after the agreeing 奉, an addition
        of 人 (or the other way round): joined, the entry is the witness's other order (倒文).
        Only short passages close together are joined: a repeated formula far away is not a move.
        """
        out: list[_Interval] = []
        for run in runs:
            last = out[-1] if out else None
            if last is not None and 0 < run.start - last.end <= _SWAP_GAP and self._swapped(last, run):
                out[-1] = _Interval(last.start, run.end, last.placements + run.placements)
            else:
                out.append(run)
        return out

    def _swapped(self, first: _Interval, second: _Interval) -> bool:
        for j in range(1, len(self.sigla)):
            if not all(self.extents[j].covers(i) for i in range(first.start, second.end)):
                continue
            one = self._only(first, j)
            two = self._only(second, j)
            if one is None or two is None or one[0] == two[0]:
                continue
            if one[1] == two[1] and 0 < len(one[1]) <= _SWAP_LONGEST:
                return True
        return False

    def _only(self, run: _Interval, j: int) -> tuple[bool, tuple[str, ...]] | None:
        """(True, keys) if only the base has text in ``run`` for witness ``j``; (False, keys) if only ``j``."""
        cells = [(self.columns[i][0], self.columns[i][j]) for i in range(run.start, run.end)]
        if all(b is not None and w is None for b, w in cells):
            return True, tuple(b.n for b, _ in cells if b is not None)
        if all(b is None and w is not None for b, w in cells):
            return False, tuple(w.n for _, w in cells if w is not None)
        return None

    def coverage(self) -> tuple[Coverage, ...]:
        """Each witness's extent: the places of its first and last extant token, and their count."""
        out = []
        for j, siglum in enumerate(self.sigla):
            extent = self.extents[j]
            cols = self.token_cols[j]
            if extent.first is None or extent.last is None:
                out.append(Coverage(siglum, None, None, 0))
                continue
            inside = cols[bisect.bisect_left(cols, extent.first) : bisect.bisect_right(cols, extent.last)]
            tokens = [tok for i in inside if (tok := self.columns[i][j]) is not None]
            if not tokens:
                out.append(Coverage(siglum, None, None, 0))
                continue
            first, last = min(tokens, key=lambda t: t.index), max(tokens, key=lambda t: t.index)
            out.append(Coverage(siglum, self.locate(siglum, first.start), self.locate(siglum, last.start), len(tokens)))
        return tuple(out)

    def place_span(self, p: SparsePlacement) -> tuple[int, int]:
        """The column range of a placement: its base tokens, or an empty range at its point."""
        if p.base_end > p.base_start:
            return self.base_col[p.base_start], self.base_col[p.base_end - 1] + 1
        return self.base_col.get(p.base_start, len(self.columns)), self.base_col.get(p.base_start, len(self.columns))

    def place(self, intervals: list[_Interval], placements: Sequence[SparsePlacement]) -> list[_Interval]:
        """Widen or add intervals so that each placement lies inside exactly one."""
        for k, p in enumerate(placements):
            start, end = self.place_span(p)
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
                    home = _Interval(start, start, [])
                    intervals.append(home)
                home.placements.append(k)
                continue
            hit = [iv for iv in intervals if iv.start < end and start < iv.end]
            merged = _Interval(
                min([start, *(iv.start for iv in hit)]),
                max([end, *(iv.end for iv in hit)]),
                [k, *(m for iv in hit for m in iv.placements)],
            )
            intervals = [iv for iv in intervals if all(iv is not h for h in hit)] + [merged]
        intervals.sort(key=lambda iv: (iv.start, iv.end))
        return intervals

    def place_of(self, j: int, start: int, end: int) -> SourceLocation | None:
        """Where an empty reading of witness ``j`` stands: after its previous token, or before its next."""
        cols = self.token_cols[j]
        k = bisect.bisect_left(cols, start)
        siglum = self.sigla[j]
        if k > 0:
            prev = self.columns[cols[k - 1]][j]
            return self.locate(siglum, prev.end) if prev is not None else None
        k = bisect.bisect_left(cols, end)
        if k < len(cols):
            nxt = self.columns[cols[k]][j]
            return self.locate(siglum, nxt.start) if nxt is not None else None
        return None

    def reading_of(self, j: int, columns: Sequence[int], start: int, end: int) -> WitnessReading:
        # In the witness's own order: a transposed passage stands at the base's place in the columns.
        tokens = tuple(sorted((tok for i in columns if (tok := self.columns[i][j]) is not None), key=lambda t: t.index))
        siglum = self.sigla[j]
        location = self.locate(siglum, tokens[0].start) if tokens else self.place_of(j, start, end)
        return WitnessReading(siglum, "".join(t.t for t in tokens), tokens, location)

    def base_range(self, lemma: Sequence[Token], end: int) -> tuple[int, int]:
        """The base token range of a locus; for text the base lacks, the next base token's index."""
        if lemma:
            return lemma[0].index, lemma[-1].index + 1
        cols = self.token_cols[0]
        k = bisect.bisect_left(cols, end)
        if k < len(cols):
            point = self._base_token(cols[k]).index
        else:
            point = self._base_token(cols[-1]).index + 1 if cols else 0
        return point, point

    def _base_token(self, column: int) -> Token:
        tok = self.columns[column][0]
        assert tok is not None, "token_cols[0] lists only columns holding a base token"
        return tok

    def locus(
        self, iv: _Interval, placements: Sequence[SparsePlacement], sparse: Sequence[str]
    ) -> tuple[Locus | None, list[ApparatusDiagnostic]]:
        """The locus over one interval, or None if every witness agrees after all."""
        span = range(iv.start, iv.end)
        lemma = self.reading_of(0, span, iv.start, iv.end)
        agreeing = [self.sigla[0]]
        groups: dict[tuple[ReadingClass, str, Cause | None], list[WitnessReading]] = {}
        group_rules: dict[tuple[ReadingClass, str, Cause | None], set[str]] = {}
        for j in range(1, len(self.sigla)):
            extant = self.extant(j, iv.start, iv.end)
            reading = self.reading_of(j, extant, iv.start, iv.end)
            verdict: _Verdict | None
            if iv.start == iv.end:
                # An empty locus holds only a sparse witness's addition: the others have nothing
                # here, which agrees with the base wherever they are extant.
                verdict = None if self.extant_at(j, iv.start) else (ReadingClass.NOT_EXTANT, None, ())
            elif not extant:
                verdict = ReadingClass.NOT_EXTANT, None, ()
            elif any(jj == j and a < iv.end and iv.start < b for jj, a, b in self.transposed):
                verdict = ReadingClass.TRANSPOSITION, None, ()
            else:
                base_part = [tok for i in extant if (tok := self.columns[i][0]) is not None]
                verdict = _compare(base_part, reading.tokens, self.normalizer)
                if verdict is not None and verdict[0] is ReadingClass.SUBSTANTIVE:
                    if _reordered(base_part, reading.tokens):
                        verdict = ReadingClass.TRANSPOSITION, None, ()
                if verdict is None and len(extant) < len(span):
                    verdict = ReadingClass.NOT_EXTANT, None, ()  # extant in part only, agreeing there
            if verdict is None:
                agreeing.append(reading.siglum)
                continue
            key = (verdict[0], reading.norm, verdict[1])
            groups.setdefault(key, []).append(reading)
            group_rules.setdefault(key, set()).update(verdict[2])
        readings = [
            Reading(norm, cls, tuple(sorted(ws, key=lambda w: w.siglum)), cause, tuple(sorted(group_rules[key])))
            for key, ws in groups.items()
            for cls, norm, cause in [key]
        ]
        diagnostics: list[ApparatusDiagnostic] = []
        for siglum in sparse:
            mine = [placements[k] for k in iv.placements if placements[k].siglum == siglum]
            if not mine:
                continue
            derived, found = _derived(siglum, lemma.tokens, mine, self.normalizer)
            diagnostics.extend(found)
            if derived is None:
                agreeing.append(siglum)
            else:
                readings.append(derived)
        if not readings:
            return None, diagnostics
        readings.sort(key=lambda r: (-r.cls.rank, r.derived, r.sigla))
        base_start, base_end = self.base_range(lemma.tokens, iv.end)
        locus = Locus(
            id="",
            layer=self.alignment.layer,
            base_start=base_start,
            base_end=base_end,
            col_start=iv.start,
            col_end=iv.end,
            lemma=lemma,
            lemma_witnesses=(agreeing[0], *sorted(agreeing[1:])),
            readings=tuple(readings),
            # Text the witnesses have where the base is not extant (a passage a quoting base
            # skips, text beyond a fragmentary base) is no addition: the base has no text here.
            cls=ReadingClass.NOT_EXTANT if self._base_absent(iv) else strongest(tuple(readings)),
        )
        return locus, diagnostics

    def _base_absent(self, iv: _Interval) -> bool:
        """The base is extant at none of the interval's columns (an empty interval: not at its point)."""
        if iv.start == iv.end:
            return not self.extant_at(0, iv.start)
        return not any(self.extents[0].covers(i) for i in range(iv.start, iv.end))


def _build(
    alignment: LayerAlignment,
    witnesses: Mapping[str, Witness],
    sparse: tuple[str, ...],
    placements: tuple[SparsePlacement, ...],
    diagnostics: tuple[ApparatusDiagnostic, ...],
    normalizer: Normalizer,
) -> LayerResult:
    builder = _Builder(alignment, witnesses, normalizer)
    placements = tuple(sorted(placements, key=lambda p: (p.base_start, p.base_end, p.siglum, p.entry.start)))
    runs, script = builder.segments()
    runs = builder.swaps(runs)
    intervals = builder.place(runs, placements)
    loci: list[Locus] = []
    found = list(diagnostics)
    for iv in intervals:
        locus, more = builder.locus(iv, placements, sparse)
        found.extend(more)
        if locus is not None:
            loci.append(locus)
    return LayerResult(
        layer=alignment.layer,
        alignment=alignment,
        loci=_with_ids(loci),
        extents=builder.extents,
        sparse=sparse,
        placements=placements,
        script_differences=script,
        # Rebuilding for another sparse witness meets the same locus-level findings again.
        diagnostics=tuple(dict.fromkeys(found)),
        coverage=builder.coverage(),
    )


def _with_ids(loci: Sequence[Locus]) -> tuple[Locus, ...]:
    """Ids from the base position (``jing-00042``): a new locus elsewhere does not renumber this one."""
    seen: dict[str, int] = {}
    out = []
    for locus in loci:
        stem = f"{locus.layer.value}-{locus.base_start:05d}"
        n = seen.get(stem, 0)
        seen[stem] = n + 1
        out.append(replace(locus, id=stem if n == 0 else f"{stem}.{n}"))
    return tuple(out)
