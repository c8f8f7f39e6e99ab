"""The apparatus's records: loci, readings, a layer's result and a whole run's collation.

Records of later stages hang on a :class:`Locus` but live below the apparatus, in
:mod:`collate.model.annotations`: the notes attached to it and the editor's decision. A print
habit the collation finds (:class:`Habit`, :mod:`collate.apparatus.habits`) is one of a
collation's records. Every annotation is importable at run time: the saved run builds these
records back from their annotations.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from collate.align.alignment import Extent, LayerAlignment
from collate.model import Cause, Diagnostic, Layer, ReadingClass, RuleInfo, SourceLocation, SparseReading, Token
from collate.model.annotations import AttachedNote, EditorDecision

# The causes by their former names, for the callers that still import them.
CAUSE_TABOO = Cause.TABOO
CAUSE_SEMANTIC = Cause.SEMANTIC
CAUSE_VARIANT = Cause.VARIANT
CAUSE_ARTIFACT = Cause.ARTIFACT
CAUSE_LOAN = Cause.LOAN

_CAUSES = frozenset(c.value for c in Cause)

# The normalizer's rule that folds simplified and traditional characters (its cause is ``Cause.SCRIPT``).
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
    # A passage the witness has at another place (a transposition): the differences of substance
    # inside it, each as (the base's characters, the witness's own, the two base characters before
    # them; "" for none), in the base's order.
    inner: tuple[tuple[str, str, str], ...] = ()

    @property
    def norm(self) -> str:
        """The normalized form compared in alignment (the tokens' ``n`` joined)."""
        return "".join(t.n for t in self.tokens)


@dataclass(frozen=True, slots=True)
class Reading:
    """Witnesses that share one reading (one normalized form) at a locus.

    ``cause`` explains an orthographic, placeholder or loan reading (:class:`Cause`; an
    editor's reclassification may give one of their own). ``rules`` name the normalization
    rules that make an orthographic reading equal to the lemma. ``source`` names where a
    derived reading comes from (e.g. ``蕙田案``); ``derived`` is True for a reading reported
    by a sparse witness, which is never grouped with the readings of collated full texts.
    """

    norm: str
    cls: ReadingClass
    witnesses: tuple[WitnessReading, ...]
    # A Cause (a str enum) or an editor's own word: typed as the str both are, so that the saved
    # run can decode it; __post_init__ gives back the Cause a string names.
    cause: str | None = None
    rules: tuple[str, ...] = ()
    source: str | None = None
    derived: bool = False

    def __post_init__(self) -> None:
        if self.cause is not None and not isinstance(self.cause, Cause) and self.cause in _CAUSES:
            object.__setattr__(self, "cause", Cause(self.cause))

    @property
    def sigla(self) -> tuple[str, ...]:
        """The sigla of the witnesses that have this reading."""
        return tuple(w.siglum for w in self.witnesses)

    @property
    def text(self) -> str:
        """The reading's text as the first of its witnesses writes it."""
        return self.witnesses[0].text if self.witnesses else ""

    def reclassified(self, cls: ReadingClass, cause: Cause | str | None = None) -> Reading:
        """The same reading with an editor's class (e.g. ``SCRIBAL_ERROR``) and cause."""
        return replace(self, cls=cls, cause=cause)

    def split(self, mine: Collection[WitnessReading], **changes: Any) -> tuple[Reading, ...]:
        """The reading of the other witnesses (if any), then that of ``mine`` with ``changes`` (a
        class, a cause …): a print's habit, an editor's regularization, a note's swapped graphs."""
        rest = tuple(w for w in self.witnesses if w not in mine)
        moved = replace(self, witnesses=tuple(w for w in self.witnesses if w in mine), **changes)
        return (replace(self, witnesses=rest), moved) if rest else (moved,)


def in_order(readings: Iterable[Reading]) -> tuple[Reading, ...]:
    """Readings in the order a locus keeps them: the strongest class first, derived ones after, by sigla."""
    return tuple(sorted(readings, key=lambda r: (-r.cls.rank, r.derived, r.sigla)))


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
        """The readings that are real variants: not those of witnesses not extant here, none
        where the base is not extant (text beyond a fragmentary base, a passage it does not quote)."""
        if self.cls is ReadingClass.NOT_EXTANT:
            return ()
        return tuple(r for r in self.readings if r.cls is not ReadingClass.NOT_EXTANT)

    def with_readings(self, readings: tuple[Reading, ...]) -> Locus:
        """The locus with other readings (e.g. reclassified), its class recomputed (a place where
        the base is not extant stays one)."""
        cls = ReadingClass.NOT_EXTANT if self.cls is ReadingClass.NOT_EXTANT else strongest(readings)
        return replace(self, readings=readings, cls=cls)

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


def is_script_only(reading: Reading) -> bool:
    """A reading that differs from the lemma only by script: not a variant, never shown."""
    # ``==``, not ``is``: a cause an editor named is a plain string.
    if reading.cause == Cause.SCRIPT:
        return True
    return reading.cls is ReadingClass.ORTHOGRAPHIC and bool(reading.rules) and set(reading.rules) <= {SCRIPT_RULE}


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
    ``coverage`` gives each aligned witness's extent as places in its file. ``headings`` are the
    cells ``(column, witness row)`` where a witness differs from the base only in setting a heading
    apart or running it into its text (:mod:`collate.apparatus.headings`): no variant.
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
    headings: tuple[tuple[int, int], ...] = ()

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
class Habit:
    """A witness that writes ``written`` where the base writes ``base``, at ``places`` places.

    ``agrees``: the places where it writes ``base`` as the base does; ``relation``: the
    dictionaries that relate the two ("" where the evidence is the witness's usage alone);
    ``verdict``: ``found`` by the collation, or the editor's ``confirm``/``reject``.
    """

    siglum: str
    base: str
    written: str
    places: int
    agrees: int
    relation: str
    verdict: str = "found"

    @property
    def applied(self) -> bool:
        """Whether its places are orthographic (every habit but a rejected one)."""
        return self.verdict != "reject"

    @property
    def id(self) -> str:
        """A stable name for the habit: witness, base character and written one (their code points)."""
        return f"habit-{self.siglum}-{ord(self.base):X}-{ord(self.written):X}"


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
    # The witnesses' print habits the collation shows (collate.apparatus.habits), each stated once.
    habits: tuple[Habit, ...] = ()

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
