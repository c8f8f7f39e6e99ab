"""The critical apparatus: variant loci with classified readings, built from an alignment.

An aligned layer (:class:`~collate.alignment.LayerAlignment`) becomes a
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

from typing import TYPE_CHECKING

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
    strongest,
)

# The reading classes and rule records live with the shared records (the normalizer uses them
# too, and importing them from here made the two modules import each other); named here as well.
from collate.model import Cause, ReadingClass, RuleInfo

# The editor's decision on a locus lives with the review stage; named here as well, for the
# modules that still import it from the apparatus.
from collate.review.records import DecisionAction, EditorDecision

if TYPE_CHECKING:
    from collate.notes.records import AttachedNote


def __getattr__(name: str) -> object:
    """``AttachedNote``, still importable from here; it lives with the notes stage.

    Imported when first asked for: importing :mod:`collate.notes.records` runs the notes
    package, which loads the whole stage and the normalizer.
    """
    if name == "AttachedNote":
        from collate.notes.records import AttachedNote

        return AttachedNote
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CAUSE_ARTIFACT",
    "CAUSE_LOAN",
    "CAUSE_SEMANTIC",
    "CAUSE_TABOO",
    "CAUSE_VARIANT",
    "SCRIPT_RULE",
    "ApparatusDiagnostic",
    "AttachedNote",
    "Cause",
    "Collation",
    "Coverage",
    "DecisionAction",
    "EditorDecision",
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
    "strongest",
]
