"""The critical apparatus: variant loci with classified readings, built from an alignment.

An aligned layer (:class:`~collate.align.alignment.LayerAlignment`) becomes a
:class:`LayerResult`: runs of columns where some extant witness differs from the base
are grouped into :class:`Locus` records; in each, the base's reading is the lemma and
the other witnesses' readings are grouped by normalized form into :class:`Reading`s,
each with a :class:`ReadingClass` and every witness's own text and place
(:class:`WitnessReading`). A whole run is a :class:`Collation`.

The stage, module by module:

* :mod:`~collate.apparatus.records` — the records above, and the causes a reading may have;
* :mod:`~collate.apparatus.compare` — the one classifier: a witness's reading against the lemma;
* :mod:`~collate.apparatus.sparse` — a readings file's entries placed in the base, their readings derived;
* :mod:`~collate.apparatus.build` — :func:`build_layer` and :func:`apply_sparse`, which group the
  columns into loci.

Records of later stages hang on a locus but live with their stages: the notes attached to it
(:class:`~collate.notes.records.AttachedNote`) and the editor's decision
(:class:`~collate.model.annotations.EditorDecision`, :class:`~collate.model.annotations.DecisionAction`).

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

from collate.apparatus.build import apply_sparse, build_layer
from collate.apparatus.records import (
    CAUSE_ARTIFACT,
    CAUSE_LOAN,
    CAUSE_SEMANTIC,
    CAUSE_TABOO,
    CAUSE_VARIANT,
    SCRIPT_RULE,
    ApparatusDiagnostic,
    Collation,
    Coverage,
    LayerResult,
    Locus,
    Reading,
    SparsePlacement,
    WitnessInfo,
    WitnessReading,
    is_script_only,
    strongest,
)

# The reading classes and rule records live with the shared records (the normalizer uses them
# too, and importing them from here made the two modules import each other); named here as well.
from collate.model import Cause, ReadingClass, RuleInfo

__all__ = [
    "CAUSE_ARTIFACT",
    "CAUSE_LOAN",
    "CAUSE_SEMANTIC",
    "CAUSE_TABOO",
    "CAUSE_VARIANT",
    "SCRIPT_RULE",
    "ApparatusDiagnostic",
    "Cause",
    "Collation",
    "Coverage",
    "LayerResult",
    "Locus",
    "Reading",
    "ReadingClass",
    "RuleInfo",
    "SparsePlacement",
    "WitnessInfo",
    "WitnessReading",
    "apply_sparse",
    "build_layer",
    "is_script_only",
    "strongest",
]
