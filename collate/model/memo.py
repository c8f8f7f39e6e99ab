"""A record's cache of what it computes on demand: no part of the record.

A frozen record may keep an index it builds on first use (a note's claims by note, a layer's
tokens by column). Kept in a :class:`Memo` rather than a plain dict, the cache is never compared,
never printed and never saved: the saved run (:mod:`collate.runs.saved`) writes a memo as nothing
and reads it back empty, to be built again when first asked for.
"""

from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """An empty cache, filled by its record on first use (``memo.table``)."""

    __slots__ = ("table",)

    def __init__(self) -> None:
        self.table: dict[K, V] = {}

    def __repr__(self) -> str:
        return f"Memo({len(self.table)} entries)"
