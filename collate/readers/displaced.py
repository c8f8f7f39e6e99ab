"""A glyph the Kanripo 五禮通考 moved out of the next column, before a marker of small print.

Where a 注 ends and the 疏 begins inside one double-column piece, the e-text sets a glyph of the
疏 just before the ``疏`` marker in the right column and leaves two spaces where the glyph stands
in the left one: ``(…貍首曾孫同疏凡此為節…/射節則不  故射人云…)`` reads 射節則不同故射人云. Read as
the 注's last word, the glyph would be a false reading of the 注. :func:`displaced_glyph` finds it;
the reader sets it apart (layout, with a diagnostic) and marks its place in the 疏 as a glyph the
base does not give there (a one-cell blank): never an omission, never a reading.

Two spaces before a marker that opens the left column (``…/之儀  疏此諸侯…``) are the print's
spacing before its label, and a glyph is moved only from the right column.
"""

from __future__ import annotations

# Where the e-text leaves the place of the glyph it moved.
BLANK_CELL = "  "
_SPACE = " \t\u3000\u00a0"


def displaced_glyph(
    text: str, at: int, start: int, end: int, column_break: str, markers: tuple[str, ...]
) -> tuple[int, int] | None:
    """The moved glyph before the marker at ``at`` and the offset of its blank, or None.

    ``text[start:end]`` is the small-print piece (its right column first, ``column_break`` between
    the two); ``markers`` are the marker words a column may open with after two spaces.
    """
    glyph = at - 1
    column = text.find(column_break, at, end)
    if glyph <= start or text[glyph] in _SPACE or column < 0:
        return None
    blank = text.find(BLANK_CELL, column, end)
    after = blank + len(BLANK_CELL)
    if blank < 0 or after >= end or text[after] in _SPACE or text.startswith(markers, after):
        return None
    return glyph, blank
