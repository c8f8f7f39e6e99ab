"""Catching a stage that rescans a layer per locus, without timing it.

:class:`Visits` stands in for a layer's alignment columns (or an index's tokens) and counts
the cells read: a whole pass counts every cell, a slice its length, a look-up one. A stage
that indexes the layer once reads a few times the layer's length (plus a small window per
locus); one that rescans it per locus reads about loci × length. :func:`growth` runs a stage
on a text and on one twice as long: about 2 for the first, about 4 for the second.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, SupportsIndex

from builders import collate, layered

from collate.apparatus import Collation
from collate.model import Layer, Witness

UNITS = 40


class Visits(tuple[Any, ...]):
    """A tuple that counts the items read from it."""

    visited: int

    def __new__(cls, items: Any) -> Visits:
        made = super().__new__(cls, items)
        made.visited = 0
        return made

    def __iter__(self) -> Iterator[Any]:
        self.visited += len(self)
        return super().__iter__()

    def __getitem__(self, key: SupportsIndex | slice) -> Any:
        self.visited += len(range(*key.indices(len(self)))) if isinstance(key, slice) else 1
        return super().__getitem__(key)


def counted(collation: Collation) -> tuple[Collation, list[Visits]]:
    """The collation with each layer's columns counting reads (and its indexes not yet built)."""
    layers, columns = [], []
    for result in collation.layers:
        cols = Visits(result.alignment.columns)
        layers.append(replace(result, alignment=replace(result.alignment, columns=cols)))
        columns.append(cols)
    return replace(collation, layers=tuple(layers)), columns


def long_text(units: int = UNITS) -> tuple[str, str]:
    """A base of distinct characters and a witness with an addition and a substitution every 6."""
    base = wit = ""
    for k in range(units):
        chunk = "".join(chr(0x4E00 + 6 * k + i) for i in range(6))
        base += chunk
        wit += chunk[:2] + chr(0x5200 + k) + chunk[2:4] + chr(0x5400 + k) + chunk[5]
    return base, wit


def long_collation(units: int = UNITS) -> tuple[Collation, dict[str, Witness]]:
    """A one-layer collation with ``2 × units`` loci: half of them text the base lacks."""
    base, wit = long_text(units)
    sk = layered("SK", [(Layer.JING, base)], label="四庫本")
    zs = layered("ZS", [(Layer.JING, wit)], label="注疏本")
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    assert len(collation.layers[0].loci) == 2 * units
    return collation, witnesses


def growth(stage: Callable[[Collation, dict[str, Witness]], object], units: int = UNITS) -> float:
    """How many times more cells ``stage`` reads on a text twice as long (2: linear, 4: quadratic)."""
    reads = []
    for n in (units, 2 * units):
        collation, witnesses = long_collation(n)
        collation, columns = counted(collation)
        stage(collation, witnesses)
        reads.append(sum(c.visited for c in columns))
    return reads[1] / reads[0]
