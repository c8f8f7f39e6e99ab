"""Building a layer's loci: runs of variant columns grouped, every witness's reading classed.

:class:`~collate.apparatus.columns.LayerColumns` indexes one layer's alignment once (each
witness's extent and token columns, the transpositions); :mod:`collate.apparatus.intervals`
walks it: :func:`~collate.apparatus.intervals.segments` finds the runs of columns where an
extant witness differs from the base, :func:`~collate.apparatus.intervals.place` widens them to
hold a readings file's entries; :func:`_locus` here makes each run a :class:`Locus`. Readings
are classed by :mod:`collate.apparatus.compare`; a sparse witness's entries are placed and
its readings derived by :mod:`collate.apparatus.sparse`, which the builder calls and which
never calls back: :func:`apply_sparse` lives here because it rebuilds the layer.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from collate.align.alignment import LayerAlignment
from collate.apparatus.columns import LayerColumns
from collate.apparatus.compare import _compare, _Verdict
from collate.apparatus.intervals import Interval, place, segments, swaps
from collate.apparatus.records import (
    ApparatusDiagnostic,
    LayerResult,
    Locus,
    Reading,
    SparsePlacement,
    WitnessReading,
    in_order,
    strongest,
)
from collate.apparatus.sparse import _derived, _place_readings
from collate.model import Cause, ReadingClass, Token, Witness

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


# A reading is the lemma in another order where it has at most this many characters.
_REORDERED_LONGEST = 8


def _reordered(lemma: Sequence[Token], reading: Sequence[Token]) -> bool:
    """The reading has the lemma's characters (their keys), all of them, in another order."""
    a, b = [t.n for t in lemma], [t.n for t in reading]
    return 2 <= len(a) <= _REORDERED_LONGEST and a != b and sorted(a) == sorted(b)


def _locus(
    cols: LayerColumns, iv: Interval, placements: Sequence[SparsePlacement], sparse: Sequence[str]
) -> tuple[Locus | None, list[ApparatusDiagnostic]]:
    """The locus over one interval, or None if every witness agrees after all."""
    span = range(iv.start, iv.end)
    lemma = cols.reading_of(0, span, iv.start, iv.end)
    agreeing = [cols.sigla[0]]
    groups: dict[tuple[ReadingClass, str, Cause | None], list[WitnessReading]] = {}
    group_rules: dict[tuple[ReadingClass, str, Cause | None], set[str]] = {}
    for j in range(1, len(cols.sigla)):
        extant = cols.extant(j, iv.start, iv.end)
        reading = cols.reading_of(j, extant, iv.start, iv.end)
        verdict = _verdict(cols, j, iv, extant, reading)
        if verdict is None:
            agreeing.append(reading.siglum)
            continue
        if verdict[0] is ReadingClass.TRANSPOSITION:
            # Each witness's own characters: two witnesses of one reading may write them otherwise.
            reading = replace(reading, inner=_inner(cols, j, extant))
        key = (verdict[0], reading.norm, verdict[1])
        groups.setdefault(key, []).append(reading)
        group_rules.setdefault(key, set()).update(verdict[2])
    readings = [
        Reading(norm, cls, tuple(sorted(ws, key=lambda w: w.siglum)), cause, tuple(sorted(group_rules[key])))
        for key, ws in groups.items()
        for cls, norm, cause in [key]
    ]
    diagnostics = _derived_readings(cols, iv, placements, sparse, lemma.tokens, agreeing, readings)
    if not readings:
        return None, diagnostics
    readings[:] = in_order(readings)
    base_start, base_end = cols.base_range(lemma.tokens, iv.end)
    locus = Locus(
        id="",
        layer=cols.alignment.layer,
        base_start=base_start,
        base_end=base_end,
        col_start=iv.start,
        col_end=iv.end,
        lemma=lemma,
        lemma_witnesses=(agreeing[0], *sorted(agreeing[1:])),
        readings=tuple(readings),
        # Text the witnesses have where the base is not extant (a passage a quoting base
        # skips, text beyond a fragmentary base) is no addition: the base has no text here.
        cls=ReadingClass.NOT_EXTANT if cols.base_absent(iv) else strongest(tuple(readings)),
    )
    return locus, diagnostics


# Tokens of a witness's stream between two of its tokens in neighbouring columns beyond which they
# are not one run of its text: in one run a token follows the one before it (a gap of one), a few
# more with an omission or addition between them.
STRAY_GAP = 12
# The most tokens a stray stretch has: a few words paired by chance, never a passage.
STRAY_RUN = 24
# The fewest a stretch needs to be judged stray when its text runs on, in the witness's order, into
# the words beside it (far only in the columns): fewer are a word an abridging quoter kept.
STRAY_MIN = 6


def _stray(cols: LayerColumns, j: int, iv: Interval, tokens: Sequence[Token]) -> bool:
    """The witness's characters here are a few words of it from elsewhere, paired by chance.

    The run of its text they stand in (its tokens in near columns, one after another in its own
    order) is short, apart from its tokens on either side (far in its order; or far in the columns
    only, for a run of at least :data:`STRAY_MIN` tokens), and mostly unlike the base: 五禮通考
    quotes 射人's 注 and 疏 in its own order, and a fragment was paired with words of the article's
    opening, two pages earlier (「令卒」作「受而」). Such a reading is not what the witness has at
    this place: the place is not extant in it.
    """
    if not tokens:
        return False
    row = cols.token_cols[j]
    lo = bisect.bisect_left(row, iv.start)
    hi = bisect.bisect_left(row, iv.end) - 1
    if hi < lo:
        return False

    def index(k: int) -> int:
        tok = cols.columns[row[k]][j]
        assert tok is not None, "token_cols lists only columns holding the witness's tokens"
        return tok.index

    def follows(a: int, b: int) -> bool:
        # One after another in the witness's order.
        return 0 < index(b) - index(a) <= STRAY_GAP

    def near(a: int, b: int) -> bool:
        # ... and in columns near each other.
        return follows(a, b) and row[b] - row[a] <= STRAY_GAP

    while lo > 0 and near(lo - 1, lo) and hi - lo < STRAY_RUN:
        lo -= 1
    while hi + 1 < len(row) and near(hi, hi + 1) and hi - lo < STRAY_RUN:
        hi += 1
    size = hi - lo + 1
    if size > STRAY_RUN or lo == 0 or hi + 1 == len(row) or near(lo - 1, lo) or near(hi, hi + 1):
        return False  # a longer run than a stray one, or the witness's first or last words here
    if (follows(lo - 1, lo) or follows(hi, hi + 1)) and size < STRAY_MIN:
        # Its text runs on into the words beside it, only far in the columns: a quoter that abridges
        # and keeps a word or two (in a variant form, perhaps) between long omissions.
        return False
    agree = sum(1 for k in range(lo, hi + 1) if cols.kind(cols.columns[row[k]][0], cols.columns[row[k]][j]) is None)
    return 2 * agree < size


# What differs in substance inside a moved passage: the classes a 校勘記 lists (not forms, not placeholders).
_OF_SUBSTANCE = (ReadingClass.SUBSTANTIVE, ReadingClass.LOAN)


def _inner(cols: LayerColumns, j: int, columns: Sequence[int]) -> tuple[tuple[str, str, str], ...]:
    """The differences of substance inside a passage witness ``j`` has at another place.

    Its tokens stand in the base's columns, position by position (:mod:`collate.align.engine`):
    each run of columns where the two differ in substance is one difference, (the base's
    characters, the witness's, the two base characters before the run, from inside the passage
    or before it). Differences of form (譲 for 讓) are none, as in every entry.
    """
    out: list[tuple[str, str, str]] = []
    run: list[tuple[str, str]] = []
    seen = _base_before(cols, columns[0]) if columns else ""
    context = ""
    for c in (*columns, None):
        base = cols.columns[c][0] if c is not None else None
        if c is not None:
            mine = cols.columns[c][j]
            if cols.kind(base, mine) in _OF_SUBSTANCE:
                if not run:
                    context = seen[-2:]
                run.append((base.t if base is not None else "", mine.t if mine is not None else ""))
                seen = (seen + base.t)[-2:] if base is not None else seen
                continue
        if run:
            out.append(("".join(b for b, _ in run), "".join(m for _, m in run), context))
            run = []
        if base is not None:
            seen = (seen + base.t)[-2:]
    return tuple(out)


def _base_before(cols: LayerColumns, column: int) -> str:
    """The two base characters before ``column`` (fewer at the layer's start)."""
    found = ""
    c = column - 1
    while c >= 0 and len(found) < 2:
        tok = cols.columns[c][0]
        if tok is not None:
            found = tok.t + found
        c -= 1
    return found


def _verdict(
    cols: LayerColumns, j: int, iv: Interval, extant: Sequence[int], reading: WitnessReading
) -> _Verdict | None:
    """How witness ``j``'s reading over the interval differs from the base's (None: it agrees)."""
    if iv.start == iv.end:
        # An empty locus holds only a sparse witness's addition: the others have nothing
        # here, which agrees with the base wherever they are extant.
        return None if cols.extant_at(j, iv.start) else (ReadingClass.NOT_EXTANT, None, ())
    if not extant:
        return ReadingClass.NOT_EXTANT, None, ()
    if any(jj == j and a < iv.end and iv.start < b for jj, a, b in cols.transposed):
        return ReadingClass.TRANSPOSITION, None, ()
    if _stray(cols, j, iv, reading.tokens):
        return ReadingClass.NOT_EXTANT, None, ()
    base_part = [tok for i in extant if (tok := cols.columns[i][0]) is not None]
    verdict = _compare(base_part, reading.tokens, cols.normalizer, cols.simplified)
    if verdict is not None and verdict[0] is ReadingClass.SUBSTANTIVE:
        if _reordered(base_part, reading.tokens):
            verdict = ReadingClass.TRANSPOSITION, None, ()
    if verdict is None and len(extant) < iv.end - iv.start:
        verdict = ReadingClass.NOT_EXTANT, None, ()  # extant in part only, agreeing there
    return verdict


def _derived_readings(
    cols: LayerColumns,
    iv: Interval,
    placements: Sequence[SparsePlacement],
    sparse: Sequence[str],
    lemma: Sequence[Token],
    agreeing: list[str],
    readings: list[Reading],
) -> list[ApparatusDiagnostic]:
    """Each sparse witness's entries in the interval, as a derived reading added to ``readings``
    or, where it agrees with the lemma, a siglum added to ``agreeing``; what could not be derived."""
    diagnostics: list[ApparatusDiagnostic] = []
    for siglum in sparse:
        mine = [placements[k] for k in iv.placements if placements[k].siglum == siglum]
        if not mine:
            continue
        scripts = (cols.sigla[0] in cols.simplified, siglum in cols.simplified)
        derived, found = _derived(siglum, lemma, mine, cols.normalizer, scripts)
        diagnostics.extend(found)
        if derived is None:
            agreeing.append(siglum)
        else:
            readings.append(derived)
    return diagnostics


def _build(
    alignment: LayerAlignment,
    witnesses: Mapping[str, Witness],
    sparse: tuple[str, ...],
    placements: tuple[SparsePlacement, ...],
    diagnostics: tuple[ApparatusDiagnostic, ...],
    normalizer: Normalizer,
) -> LayerResult:
    cols = LayerColumns(alignment, witnesses, normalizer)
    placements = tuple(sorted(placements, key=lambda p: (p.base_start, p.base_end, p.siglum, p.entry.start)))
    runs, script = segments(cols)
    intervals = place(cols, swaps(cols, runs), placements)
    loci: list[Locus] = []
    found = list(diagnostics)
    for iv in intervals:
        locus, more = _locus(cols, iv, placements, sparse)
        found.extend(more)
        if locus is not None:
            loci.append(locus)
    return LayerResult(
        layer=alignment.layer,
        alignment=alignment,
        loci=_with_ids(loci),
        extents=cols.extents,
        sparse=sparse,
        placements=placements,
        script_differences=script,
        # Rebuilding for another sparse witness meets the same locus-level findings again.
        diagnostics=tuple(dict.fromkeys(found)),
        coverage=cols.coverage(),
        headings=tuple(sorted(cols.heading_cells)),
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
