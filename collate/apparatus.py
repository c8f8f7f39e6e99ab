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

from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import Enum

from collate.alignment import Extent, LayerAlignment
from collate.model import Diagnostic, Layer, SourceLocation, SparseReading, Token


class ReadingClass(str, Enum):
    """What kind of difference a reading is from the lemma, strongest first."""

    SUBSTANTIVE = "substantive"  # different words: the readings an editor must judge
    TRANSPOSITION = "transposition"  # the same words in another order
    OMISSION = "omission"  # the witness lacks the base's text where it is extant
    ADDITION = "addition"  # the witness has text the base lacks
    SCRIBAL_ERROR = "scribal_error"  # set by an editor reclassifying a reading, never by the builder
    PLACEHOLDER = "placeholder"  # a digitization placeholder (? □ PUA …) on either side: never substantive
    ORTHOGRAPHIC = "orthographic"  # same normalized form, different graph (異體字, 避諱)
    NOT_EXTANT = "not_extant"  # the witness does not contain this place (fragment, lacuna)

    @property
    def rank(self) -> int:
        """Strength for choosing a locus's overall class: higher is stronger."""
        return len(_ORDER) - _ORDER.index(self)


_ORDER = tuple(ReadingClass)

# Values of ``Reading.cause`` the builder sets (editors may set others, e.g. for scribal errors).
CAUSE_TABOO = "taboo"  # 避諱 forms (玄→元)
CAUSE_VARIANT = "variant"  # variant graphs (筭/算)
CAUSE_SCRIPT = "script"  # simplified/traditional only: used for derived readings, never listed
CAUSE_UNCERTAIN = "uncertain"  # a declared substitution artifact of the e-text (防 for a rare glyph)


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

    ``cause`` explains an orthographic or placeholder reading (``taboo``, ``variant``,
    ``uncertain`` …). ``rules`` name the normalization rules that make an orthographic
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


@dataclass(frozen=True, slots=True)
class Locus:
    """One place of variation: a run of alignment columns and what each witness has there.

    ``base_start``/``base_end`` are the base's token range [start, end) in its layer token
    stream (equal for text the base lacks: the insertion point); ``col_start``/``col_end``
    the column range [start, end) in the layer's alignment. ``lemma`` is the base's
    reading; ``lemma_witnesses`` every witness that agrees with it (the base included).
    ``cls`` is the strongest class among the readings.
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
class LayerResult:
    """One layer collated: the alignment it came from, its variant loci and extents.

    ``sparse`` lists the sparse witnesses that report readings in this layer and
    ``placements`` where their entries were placed.
    """

    layer: Layer
    alignment: LayerAlignment
    loci: tuple[Locus, ...]
    extents: tuple[Extent, ...]
    sparse: tuple[str, ...] = ()
    placements: tuple[SparsePlacement, ...] = ()

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


@dataclass(frozen=True, slots=True)
class WitnessInfo:
    """A witness as the collation describes it (the full :class:`Witness` stays with the reader)."""

    siglum: str
    label: str
    path: str
    layout: str
    sparse: bool = False


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """A normalization rule and whether it was in force for this collation."""

    name: str
    description: str
    enabled: bool = True


@dataclass(frozen=True, slots=True)
class ApparatusDiagnostic:
    """A recoverable oddity met while building the apparatus, with the witness it concerns."""

    siglum: str
    diagnostic: Diagnostic
    location: SourceLocation | None = None


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
