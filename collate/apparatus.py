"""The critical apparatus: variant loci with classified readings, built from an alignment.

An aligned layer (:class:`~collate.alignment.LayerAlignment`) becomes a
:class:`LayerResult`: runs of columns where some extant witness differs from the base
are grouped into :class:`Locus` records; in each, the base's reading is the lemma and
the other witnesses' readings are grouped by normalized form into :class:`Reading`s,
each with a :class:`ReadingClass` and every witness's own text and place
(:class:`WitnessReading`). A whole run is a :class:`Collation`.

Invariants every consumer may rely on:

* In every locus each witness of the alignment appears exactly once: in
  ``lemma_witnesses`` or in one reading. Sparse witnesses (readings files) appear only
  in the loci where they report something (their readings are ``derived``).
* A witness that differs from the base only by script (賓/宾) agrees with the lemma:
  simplified/traditional is not a variant and never makes a locus or a reading.
* Text outside a witness's extent is ``NOT_EXTANT``, never an omission.
* Output is deterministic and does not depend on the order witnesses are given in.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from enum import Enum
from typing import TYPE_CHECKING

from collate.alignment import Extent, LayerAlignment
from collate.model import ChangeClass, Diagnostic, Layer, Severity, SourceLocation, SparseReading, Token, Witness

# The reading classes and rule records live with the shared records (the normalizer uses them
# too, and importing them from here made the two modules import each other); named here as well.
from collate.model import ReadingClass as ReadingClass
from collate.model import RuleInfo as RuleInfo

if TYPE_CHECKING:
    # Imported on first use: the normalizer loads its tables, which most callers never need.
    from collate.normalize import Normalizer



# Values of ``Reading.cause`` the builder sets (editors may set others, e.g. for scribal errors).
CAUSE_TABOO = "taboo"  # 避諱 forms (玄→元)
CAUSE_SEMANTIC = "semantic"  # semantic variants the normalizer folds (its rule ``semantic-variant``)
CAUSE_VARIANT = "variant"  # variant graphs (筭/算)
CAUSE_ARTIFACT = "artifact"  # a declared substitution artifact of the e-text (防 for a rare glyph)
CAUSE_LOAN = "loan"  # 通假: the normalizer relates the two characters as a loan (罷/疲)

# The normalizer's rule (and cause) that folds simplified and traditional characters.
SCRIPT_RULE = "script"


@dataclass(frozen=True, slots=True)
class WitnessReading:
    """What one witness has at a locus: its original characters and where they are.

    ``text`` is the witness's own characters ('' for an omission or where it is not
    extant); ``tokens`` are its tokens there (empty for derived readings, which have no
    tokens). ``location`` is the first token's place, or for an empty reading the place
    where the text would be; for a derived reading, the entry in the readings file. It is
    None only when the witness has no text at all in the layer.
    """

    siglum: str
    text: str
    tokens: tuple[Token, ...] = ()
    location: SourceLocation | None = None

    @property
    def norm(self) -> str:
        """The normalized form compared in alignment (the tokens' ``n`` joined)."""
        return "".join(t.n for t in self.tokens)


@dataclass(frozen=True, slots=True)
class Reading:
    """Witnesses that share one reading (one normalized form) at a locus.

    ``cause`` explains an orthographic or placeholder reading (``taboo``, ``semantic``,
    ``variant``, ``artifact`` …). ``rules`` name the normalization rules that make an orthographic
    reading equal to the lemma. ``source`` names where a derived reading comes from
    (e.g. ``蕙田案``); ``derived`` is True for a reading reported by a sparse witness, which
    is never grouped with the readings of collated full texts.
    """

    norm: str
    cls: ReadingClass
    witnesses: tuple[WitnessReading, ...]
    cause: str | None = None
    rules: tuple[str, ...] = ()
    source: str | None = None
    derived: bool = False

    @property
    def sigla(self) -> tuple[str, ...]:
        """The sigla of the witnesses that have this reading."""
        return tuple(w.siglum for w in self.witnesses)

    @property
    def text(self) -> str:
        """The reading's text as the first of its witnesses writes it."""
        return self.witnesses[0].text if self.witnesses else ""

    def reclassified(self, cls: ReadingClass, cause: str | None = None) -> Reading:
        """The same reading with an editor's class (e.g. ``SCRIBAL_ERROR``) and cause."""
        return replace(self, cls=cls, cause=cause)


@dataclass(frozen=True, slots=True)
class AttachedNote:
    """An editorial note (蕙田案, the Siku editors' 【案】) attached to the locus it judges.

    ``claims`` are one-line summaries of what the note says about witnesses
    (e.g. ``DD reads 峭 for 哨``). The note also stays at its own place in the base text.
    """

    id: str
    resp: str
    text: str
    location: SourceLocation | None = None
    claims: tuple[str, ...] = ()


class DecisionAction(str, Enum):
    """What an editor decided at a locus in ``collate review``."""

    KEEP = "keep"  # the base reading stands as the lemma
    ADOPT = "adopt"  # a witness's reading becomes the lemma
    RECLASSIFY = "reclassify"  # a reading gets another class (e.g. scribal error)
    DOUBT = "doubt"  # 存疑: left open, with a comment


@dataclass(frozen=True, slots=True)
class EditorDecision:
    """The editor's decisions at a locus, merged from the decisions file, for the exporters.

    ``lemma`` is the editor's lemma: the base's reading, unless a witness's reading was
    adopted; then ``adopted`` is that reading's ``norm`` (find it with
    :meth:`Locus.editor_lemma`) and ``siglum`` the witness the editor chose. The base's
    reading then stands among the rejected readings, with ``Locus.lemma_witnesses``.
    ``reclassified`` names (by ``norm``) the readings whose class the editor set; their
    ``cls`` on the locus already is the editor's. ``resp`` are the editors responsible
    (for ``@resp``), ``when`` the ISO time of the latest decision, ``comment`` their reasons.
    """

    actions: tuple[DecisionAction, ...]
    resp: tuple[str, ...]
    when: str
    lemma: str
    adopted: str | None = None
    siglum: str | None = None
    reclassified: tuple[str, ...] = ()
    doubtful: bool = False
    comment: str = ""


@dataclass(frozen=True, slots=True)
class Locus:
    """One place of variation: a run of alignment columns and what each witness has there.

    ``base_start``/``base_end`` are the base's token range [start, end) in its layer token
    stream (equal for text the base lacks: the insertion point); ``col_start``/``col_end``
    the column range [start, end) in the layer's alignment. ``lemma`` is the base's
    reading; ``lemma_witnesses`` every witness that agrees with it (the base included).
    ``cls`` is the strongest class among the readings. ``decision`` is what the editor
    decided here (``collate review``), if anything.
    """

    id: str
    layer: Layer
    base_start: int
    base_end: int
    col_start: int
    col_end: int
    lemma: WitnessReading
    lemma_witnesses: tuple[str, ...]
    readings: tuple[Reading, ...]
    cls: ReadingClass
    notes: tuple[AttachedNote, ...] = ()
    decision: EditorDecision | None = None

    @property
    def sigla(self) -> tuple[str, ...]:
        """Every witness the locus speaks of: lemma witnesses, then each reading's."""
        return self.lemma_witnesses + tuple(s for r in self.readings for s in r.sigla)

    def reading_of(self, siglum: str) -> Reading | None:
        """The reading a witness has here, or None if it agrees with the lemma or is silent."""
        for r in self.readings:
            if siglum in r.sigla:
                return r
        return None

    def variants(self) -> tuple[Reading, ...]:
        """The readings that are real variants: not those of witnesses not extant here."""
        return tuple(r for r in self.readings if r.cls is not ReadingClass.NOT_EXTANT)

    def with_readings(self, readings: tuple[Reading, ...]) -> Locus:
        """The locus with other readings (e.g. reclassified), its class recomputed."""
        return replace(self, readings=readings, cls=strongest(readings))

    def with_notes(self, notes: tuple[AttachedNote, ...]) -> Locus:
        """The locus with these editorial notes attached."""
        return replace(self, notes=notes)

    def with_decision(self, decision: EditorDecision | None) -> Locus:
        """The locus with the editor's decision attached."""
        return replace(self, decision=decision)

    def editor_lemma(self) -> Reading | None:
        """The reading the editor adopted as the lemma, or None if the base reading stands."""
        if self.decision is None or self.decision.adopted is None:
            return None
        same = [r for r in self.readings if r.norm == self.decision.adopted]
        return next((r for r in same if self.decision.siglum in r.sigla), same[0] if same else None)


def strongest(readings: tuple[Reading, ...]) -> ReadingClass:
    """The strongest class among ``readings`` (``NOT_EXTANT`` if there are none)."""
    classes = [r.cls for r in readings]
    return max(classes, key=lambda c: c.rank) if classes else ReadingClass.NOT_EXTANT


@dataclass(frozen=True, slots=True)
class SparsePlacement:
    """Where one entry of a readings file was placed in the base: base tokens [start, end).

    ``base_start == base_end`` for an addition (the insertion point, before that base
    token). ``location`` is the entry's place in the readings file.
    """

    siglum: str
    entry: SparseReading
    base_start: int
    base_end: int
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class Coverage:
    """Where a witness is extant in a layer, as editors cite it: first and last token's place.

    ``tokens`` counts the witness's tokens (characters) inside its extent.
    """

    siglum: str
    first: SourceLocation | None
    last: SourceLocation | None
    tokens: int


@dataclass(frozen=True, slots=True)
class ApparatusDiagnostic:
    """A recoverable oddity met while building the apparatus, with the witness it concerns."""

    siglum: str
    diagnostic: Diagnostic
    location: SourceLocation | None = None


@dataclass(frozen=True, slots=True)
class LayerResult:
    """One layer collated: the alignment it came from, its variant loci and extents.

    ``sparse`` lists the sparse witnesses that report readings in this layer and
    ``placements`` where their entries were placed. ``script_differences`` counts the
    columns where a witness differs from the base only by script: folded, never listed.
    ``coverage`` gives each aligned witness's extent as places in its file.
    """

    layer: Layer
    alignment: LayerAlignment
    loci: tuple[Locus, ...]
    extents: tuple[Extent, ...]
    sparse: tuple[str, ...] = ()
    placements: tuple[SparsePlacement, ...] = ()
    script_differences: int = 0
    diagnostics: tuple[ApparatusDiagnostic, ...] = ()
    coverage: tuple[Coverage, ...] = ()

    @property
    def sigla(self) -> tuple[str, ...]:
        """Every witness of the layer: the aligned ones (base first), then the sparse ones."""
        return self.alignment.sigla + self.sparse

    def with_loci(self, loci: tuple[Locus, ...]) -> LayerResult:
        """The same layer with other loci (e.g. with notes attached)."""
        return replace(self, loci=loci)

    def locus(self, locus_id: str) -> Locus | None:
        """The locus with this id, if any."""
        return next((x for x in self.loci if x.id == locus_id), None)

    def coverage_of(self, siglum: str) -> Coverage | None:
        """Where ``siglum`` is extant in this layer, if it is an aligned witness."""
        return next((c for c in self.coverage if c.siglum == siglum), None)


@dataclass(frozen=True, slots=True)
class WitnessInfo:
    """A witness as the collation describes it (the full :class:`Witness` stays with the reader)."""

    siglum: str
    label: str
    path: str
    layout: str
    sparse: bool = False


@dataclass(frozen=True, slots=True)
class Collation:
    """A whole run: the project, its witnesses, each layer's result, the rules, diagnostics."""

    title: str
    name: str
    base: str
    witnesses: tuple[WitnessInfo, ...]
    layers: tuple[LayerResult, ...]
    rules: tuple[RuleInfo, ...] = ()
    diagnostics: tuple[ApparatusDiagnostic, ...] = ()

    def layer(self, layer: Layer) -> LayerResult | None:
        """The result for one layer, if it was collated."""
        return next((r for r in self.layers if r.layer is layer), None)

    def loci(self) -> Iterator[Locus]:
        """Every locus, layer by layer, in base order."""
        for result in self.layers:
            yield from result.loci

    def locus(self, locus_id: str) -> Locus | None:
        """The locus with this id, in any layer."""
        return next((x for x in self.loci() if x.id == locus_id), None)

    def with_layer(self, result: LayerResult) -> Collation:
        """The collation with ``result`` replacing the result for the same layer (or added)."""
        layers = tuple(result if r.layer is result.layer else r for r in self.layers)
        if all(r.layer is not result.layer for r in self.layers):
            layers += (result,)
        return replace(self, layers=layers)

    def with_locus(self, locus: Locus) -> Collation:
        """The collation with the locus of the same id replaced by ``locus``."""
        result = self.layer(locus.layer)
        if result is None:
            return self
        return self.with_layer(result.with_loci(tuple(locus if x.id == locus.id else x for x in result.loci)))

    def witness(self, siglum: str) -> WitnessInfo | None:
        """The witness with this siglum, if any."""
        return next((w for w in self.witnesses if w.siglum == siglum), None)


# --- Building -------------------------------------------------------------------------


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
    base = result.alignment.base
    # Where each character stands in the base, built once: an entry looks up its phrase's
    # rarest character instead of scanning the whole base (entries × base characters).
    starts = base.positions()
    placements = [p for p in result.placements if p.siglum != witness.siglum]
    diagnostics = [d for d in result.diagnostics if d.siglum != witness.siglum]
    for entry in witness.readings:
        if entry.layer is not result.layer:
            continue
        placed, found = _place(entry, base.tokens, starts, witness, normalizer)
        diagnostics.extend(found)
        if placed is not None:
            placements.append(placed)
    sparse = tuple(sorted({*result.sparse, witness.siglum}))
    return _build(result.alignment, witnesses, sparse, tuple(placements), tuple(diagnostics), normalizer)


def _is_placeholder(tok: Token) -> bool:
    """A placeholder or a declared artifact: its character says nothing about the edition."""
    return any(c.cls in (ChangeClass.PLACEHOLDER, ChangeClass.UNCERTAIN) for c in tok.changes)


_Verdict = tuple[ReadingClass, "str | None", tuple[str, ...]]


def _classify(a: Token, b: Token, normalizer: Normalizer) -> _Verdict | None:
    """``b``'s reading against ``a``'s, as the normalizer explains it; None if they agree.

    :func:`collate.normalize.explain.compare` classes the pair. A difference of script alone
    (賓/宾, cause ``script``) agrees: it is declared once in the header, never listed. Two
    characters whose keys differ are substantive unless the normalizer relates them: a
    one-to-many script pair (着/著) agrees as a difference of script, a 通假 pair (罷/疲) is a
    loan, noted but never folded.
    """
    from collate.normalize.explain import compare, explain

    verdict = compare(a, b)
    if verdict is None:
        return None
    cls, cause = verdict
    if cls is ReadingClass.SUBSTANTIVE and len(a.t) == 1 and len(b.t) == 1:
        change = normalizer.relation(a.t, b.t)
        if change is not None and change.cls is ChangeClass.LOAN:
            return ReadingClass.LOAN, CAUSE_LOAN, (change.rule,)
        if change is not None:
            return None  # a script pair: one character written in two scripts
    if cls is ReadingClass.ORTHOGRAPHIC:
        if cause == SCRIPT_RULE:
            return None
        kept = (ChangeClass.ORTHOGRAPHIC, ChangeClass.TABOO)
        return cls, cause or CAUSE_VARIANT, tuple(sorted({c.rule for c in explain(a, b) if c.cls in kept}))
    return cls, cause, ()


def _agree(a: Token | None, b: Token | None, normalizer: Normalizer) -> bool:
    if a is None or b is None:
        return a is b
    return _classify(a, b, normalizer) is None


def _compare(lemma: Sequence[Token], wit: Sequence[Token], normalizer: Normalizer) -> _Verdict | None:
    """Classify a witness's tokens against the lemma's; None if they agree."""
    if len(lemma) == len(wit) and all(_agree(a, b, normalizer) for a, b in zip(lemma, wit, strict=True)):
        return None
    if not wit:
        return ReadingClass.OMISSION, None, ()
    if not lemma:
        return ReadingClass.ADDITION, None, ()
    verdicts: list[_Verdict] = []
    matcher = SequenceMatcher(None, [t.n for t in lemma], [t.n for t in wit], autojunk=False)
    for _, i1, i2, j1, j2 in matcher.get_opcodes():
        left, right = lemma[i1:i2], wit[j1:j2]
        if len(left) == len(right):
            # Character against character: the normalizer says what each pair is.
            verdicts.extend(v for a, b in zip(left, right, strict=True) if (v := _classify(a, b, normalizer)))
        elif any(_is_placeholder(t) for t in (*left, *right)):
            artifact = bool(_placeholder_causes((*left, *right)))
            verdicts.append((ReadingClass.PLACEHOLDER, CAUSE_ARTIFACT if artifact else None, ()))
        else:
            verdicts.append((ReadingClass.SUBSTANTIVE, None, ()))
    if not verdicts:
        return None
    cls = max((v[0] for v in verdicts), key=lambda c: c.rank)
    causes = {v[1] for v in verdicts if v[0] is cls and v[1]}
    rules = tuple(sorted({r for v in verdicts if v[0] is cls for r in v[2]}))
    if cls is ReadingClass.ORTHOGRAPHIC:
        return cls, next(k for k in (CAUSE_TABOO, CAUSE_SEMANTIC, CAUSE_VARIANT) if k in causes), rules
    if cls is ReadingClass.PLACEHOLDER:
        return cls, (CAUSE_ARTIFACT if CAUSE_ARTIFACT in causes else None), ()
    if cls is ReadingClass.LOAN:
        return cls, CAUSE_LOAN, rules
    return cls, None, ()


def _placeholder_causes(tokens: Sequence[Token]) -> set[str]:
    if any(c.cls is ChangeClass.UNCERTAIN for t in tokens for c in t.changes):
        return {CAUSE_ARTIFACT}
    return set()


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

    def segments(self) -> tuple[list[_Interval], int]:
        """Maximal runs of variant columns, split where extents or transpositions change."""
        runs: list[_Interval] = []
        script = 0
        previous: tuple[object, ...] | None = None
        for i, col in enumerate(self.columns):
            base = col[0]
            differs = folded = False
            for j in range(1, len(self.sigla)):
                if not self.extents[j].covers(i):
                    continue
                other = col[j]
                if not _agree(base, other, self.normalizer):
                    differs = True
                elif base is not None and other is not None and base.t != other.t:
                    folded = True
            moved = tuple(k for k, (_, a, b) in enumerate(self.transposed) if a <= i < b)
            if not differs and not moved:
                script += folded
                previous = None
                continue
            signature = (tuple(e.covers(i) for e in self.extents), moved)
            if previous == signature:
                runs[-1].end = i + 1
            else:
                runs.append(_Interval(i, i + 1, [], pure_addition=base is None))
            runs[-1].pure_addition = runs[-1].pure_addition and base is None
            previous = signature
        return runs, script

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
        groups: dict[tuple[ReadingClass, str, str | None], list[WitnessReading]] = {}
        group_rules: dict[tuple[ReadingClass, str, str | None], set[str]] = {}
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
            cls=strongest(tuple(readings)),
        )
        return locus, diagnostics


def _derived(
    siglum: str, lemma: Sequence[Token], placements: Sequence[SparsePlacement], normalizer: Normalizer
) -> tuple[Reading | None, list[ApparatusDiagnostic]]:
    """A sparse witness's reading over a whole locus: the lemma with its entries applied.

    Outside its entries the witness is taken to read as the base (it is extant only
    where it reports something, and reports only differences). None if it agrees.
    """
    taken: set[int] = set()
    accepted: list[SparsePlacement] = []
    diagnostics: list[ApparatusDiagnostic] = []
    for p in sorted(placements, key=lambda p: (p.base_start, p.base_end, p.entry.start)):
        covered = set(range(p.base_start, p.base_end))
        if covered & taken:
            diagnostics.append(
                _diagnostic(p.siglum, p.entry, "sparse-overlap", "overlaps an earlier entry; ignored", p.location)
            )
            continue
        taken |= covered
        accepted.append(p)
    indexes = {tok.index for tok in lemma}
    out: list[str] = []
    for tok in lemma:
        out.extend(p.entry.reading for p in accepted if p.base_start == p.base_end == tok.index)
        if tok.index not in taken:
            out.append(tok.t)
        else:
            out.extend(p.entry.reading for p in accepted if p.base_start == tok.index < p.base_end)
    out.extend(p.entry.reading for p in accepted if p.base_start == p.base_end and p.base_start not in indexes)
    classes: set[ReadingClass] = set()
    for p in accepted:
        kind = p.entry.kind
        if kind == "addition":
            classes.add(ReadingClass.ADDITION)
        elif kind == "omission":
            classes.add(ReadingClass.OMISSION)
        else:
            base_text = "".join(t.t for t in lemma if p.base_start <= t.index < p.base_end)
            classes.update(_derived_class(base_text, p.entry.reading, normalizer))
    if not classes:
        return None, diagnostics
    text = "".join(out)
    sources = tuple(dict.fromkeys(p.entry.source for p in accepted if p.entry.source))
    reading = Reading(
        norm=normalizer.fold(text),
        cls=max(classes, key=lambda c: c.rank),
        witnesses=(WitnessReading(siglum, text, (), accepted[0].location),),
        source="、".join(sources) or None,
        derived=True,
    )
    return reading, diagnostics


def _diagnostic(
    siglum: str,
    entry: SparseReading,
    code: str,
    message: str,
    location: SourceLocation | None,
    severity: Severity = Severity.WARNING,
) -> ApparatusDiagnostic:
    text = f"{entry.at or entry.base}: {message}"
    return ApparatusDiagnostic(siglum, Diagnostic(code, text, entry.start, entry.end, severity), location)


def _derived_class(base: str, reading: str, normalizer: Normalizer) -> set[ReadingClass]:
    """The class of a reported reading against the base's characters it replaces (empty: the same)."""
    if normalizer.fold(base) == normalizer.fold(reading):
        return set()
    if len(base) == len(reading):
        relations = [normalizer.relation(a, b) for a, b in zip(base, reading, strict=True) if a != b]
        related = [r for r in relations if r is not None]
        if relations and len(related) == len(relations):
            loans = any(r.cls is ChangeClass.LOAN for r in related)
            return {ReadingClass.LOAN} if loans else set()
    return {ReadingClass.SUBSTANTIVE}


def _find(
    phrase: str,
    tokens: Sequence[Token],
    normalizer: Normalizer,
    lo: int = 0,
    hi: int | None = None,
    starts: Mapping[str, Sequence[int]] | None = None,
) -> list[int]:
    """Every position in tokens[lo:hi] where ``phrase`` starts, compared on the tokens' keys.

    With ``starts`` (:meth:`~collate.alignment.TokenIndex.positions` of ``tokens``) only the
    places of the phrase's rarest character are tried; without it, every position in the range.
    """
    hi = len(tokens) if hi is None else hi
    # A character matches a token it is (a placeholder only itself), or one with its key.
    wanted = [(c, normalizer.fold(c)) for c in phrase]
    n = len(wanted)
    candidates: Iterable[int] = range(lo, hi - n + 1)
    if starts is not None and wanted:
        # A token matching character k is listed under its character or under its key.
        places = [(*starts.get(c, ()), *starts.get(key, ())) for c, key in wanted]
        k = min(range(n), key=lambda k: len(places[k]))
        candidates = sorted({p - k for p in places[k] if lo <= p - k <= hi - n})
    return [
        i
        for i in candidates
        if all(tokens[i + k].t == c or tokens[i + k].n == key for k, (c, key) in enumerate(wanted))
    ]


def _place(
    entry: SparseReading,
    base_tokens: Sequence[Token],
    starts: Mapping[str, Sequence[int]],
    witness: Witness,
    normalizer: Normalizer,
) -> tuple[SparsePlacement | None, list[ApparatusDiagnostic]]:
    """Find where one readings-file entry belongs in the base's token stream."""
    location = witness.locate(entry.start) if witness.text else None
    at = "".join(entry.at.split()) or "".join(entry.base.split())
    base = "".join(entry.base.split())
    if not at:
        return None, [_diagnostic(witness.siglum, entry, "sparse-unplaced", "the entry names no place", location)]
    hits = _find(at, base_tokens, normalizer, starts=starts)
    if not hits:
        return None, [_diagnostic(witness.siglum, entry, "sparse-unplaced", "not found in the base text", location)]
    diagnostics: list[ApparatusDiagnostic] = []
    if len(hits) > 1:
        diagnostics.append(
            _diagnostic(
                witness.siglum,
                entry,
                "sparse-ambiguous",
                f"found {len(hits)} times in the base; the first is used",
                location,
                # Readings files are documented to mean the first occurrence: worth knowing, not wrong.
                Severity.INFO,
            )
        )
    start = hits[0]
    end = start + len(at)
    if base:
        inner = _find(base, base_tokens, normalizer, start, end)
        if not inner:
            diagnostics.append(
                _diagnostic(witness.siglum, entry, "sparse-unplaced", f"{base} is not inside {at}", location)
            )
            return None, diagnostics
        first, last = base_tokens[inner[0]].index, base_tokens[inner[0] + len(base) - 1].index + 1
    else:
        point = start if entry.position == "before" else end
        first = last = base_tokens[point].index if point < len(base_tokens) else base_tokens[-1].index + 1
    return SparsePlacement(witness.siglum, entry, first, last, location), diagnostics


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
