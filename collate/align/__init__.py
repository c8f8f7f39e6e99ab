"""Alignment: witnesses of one layer aligned token by token (CollateX behind one adapter).

``engine.align_layer`` is the stage's entry point. Underneath: ``anchors`` (unique k-grams
chained in order), ``transpositions`` (passages out of that order), ``pairwise`` (one witness
against the base: anchors, then CollateX between them) and ``collatex_adapter`` (the only
module that imports CollateX, lazily).
"""

from collate.align.engine import align_layer
from collate.align.pairwise import AlignOptions

__all__ = ["AlignOptions", "align_layer"]
