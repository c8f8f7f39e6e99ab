"""Attaching notes to loci (collate/notes/attach.py)."""

from __future__ import annotations

from scan_support import counted, long_collation

from collate.notes import NotesResult
from collate.notes.attach import attach


def test_attaching_reads_the_layer_a_few_times_not_once_per_locus() -> None:
    collation, _ = long_collation()
    collation, (columns,) = counted(collation)
    attach(collation, NotesResult((), (), (), (), (), ()))
    # One index of the base per layer; rebuilding the base column per locus reads 80 × the layer.
    assert columns.visited <= 3 * len(columns)
