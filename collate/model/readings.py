"""The entries of a readings file: a sparse witness's readings at places of the base."""

from __future__ import annotations

from dataclasses import dataclass

from collate.model.enums import Layer, Position


@dataclass(frozen=True, slots=True, init=False)
class SparseReading:
    """One entry of a readings file: what a sparse witness reads at one place of the base.

    ``at`` is a phrase of the base text that locates the place (any script); ``base`` is the
    part of it the reading concerns (empty for an addition, which goes ``position`` after or
    before ``at``); ``reading`` is what the witness has there (empty for a lack).
    ``start``/``end`` are the entry's offsets in the readings file. ``position`` may be given
    as its value (``"after"``; an empty one is ``AT``).
    """

    start: int
    end: int
    at: str
    base: str
    reading: str
    position: Position
    layer: Layer
    source: str
    note: str

    def __init__(
        self,
        start: int,
        end: int,
        at: str,
        base: str,
        reading: str,
        position: Position | str,
        layer: Layer,
        source: str,
        note: str = "",
    ) -> None:
        put = object.__setattr__  # frozen: the generated __init__ sets its fields the same way
        put(self, "start", start)
        put(self, "end", end)
        put(self, "at", at)
        put(self, "base", base)
        put(self, "reading", reading)
        # Only an addition needs a position: none given ("") is AT.
        put(self, "position", position if type(position) is Position else Position(position or Position.AT))
        put(self, "layer", layer)
        put(self, "source", source)
        put(self, "note", note)

    @property
    def kind(self) -> str:
        """``addition``, ``omission`` or ``substitution``."""
        if not self.base:
            return "addition"
        if not self.reading:
            return "omission"
        return "substitution"
