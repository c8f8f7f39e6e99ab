"""The alignment of one layer across witnesses: what the aligner hands the apparatus.

A column holds, for each witness (base first), the token it has there or None. Columns
are in base order; a column whose base cell is None is text the base lacks. Every token
of every witness appears in exactly one column, in that witness's own order, except
tokens inside a reported transposition, which stand at the base's place of the passage.
"""

from __future__ import annotations

from dataclasses import dataclass

from collate.model import Layer, Token


@dataclass(frozen=True, slots=True)
class Transposition:
    """A passage a witness has in another order: base tokens [base_start, base_end) are read
    by ``siglum`` at its tokens [wit_start, wit_end), elsewhere in its sequence."""

    siglum: str
    base_start: int
    base_end: int
    wit_start: int
    wit_end: int


@dataclass(frozen=True, slots=True)
class Extent:
    """Where a witness is extant in a layer: columns [first, last] (inclusive).

    Outside it the witness does not contain the text (a lacuna, or a fragmentary or
    sparse witness), which is never an omission. ``None`` bounds: nothing extant.
    """

    siglum: str
    first: int | None
    last: int | None

    def covers(self, column: int) -> bool:
        """True if the witness is extant at ``column``."""
        return self.first is not None and self.last is not None and self.first <= column <= self.last


@dataclass(frozen=True, slots=True)
class LayerAlignment:
    """One layer aligned: ``columns[i][j]`` is witness ``sigla[j]``'s token in column ``i``."""

    layer: Layer
    sigla: tuple[str, ...]
    columns: tuple[tuple[Token | None, ...], ...]
    extents: tuple[Extent, ...] = ()
    transpositions: tuple[Transposition, ...] = ()

    def extent(self, siglum: str) -> Extent:
        """The extent of one witness (everything, if the aligner recorded none)."""
        for e in self.extents:
            if e.siglum == siglum:
                return e
        return Extent(siglum, 0, len(self.columns) - 1) if self.columns else Extent(siglum, None, None)
