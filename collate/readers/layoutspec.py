"""Indentation-driven printings as data: one :class:`IndentLayout` a printing.

Some e-texts keep the printed page: each file line is a printed line, a blank line is a
page break, and what a line *is* shows in how far it is indented and whether it opens
with small print. Such a layout is fully described by a few tables, gathered here in an
:class:`IndentLayout`; :mod:`collate.readers.indented` reads any file by such a table.

The API is small on purpose:

- :class:`Block` — the kinds of block an indentation can open.
- :class:`Marker` — a printed word in small print that names a layer (注, 疏).
- :class:`IndentLayout` — the tables; :meth:`IndentLayout.block_at` maps an indent to a block.

A page of such a print is named as :func:`collate.model.citation.half_folio` names it (``1a``, ``1b``, ``2a`` …).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from collate.model import Layer


class Block(str, Enum):
    """What a line opens, by its indentation."""

    CLASSIC = "classic"  # the quoted classic (經), with its small-print 注/疏 runs
    COMMENTATOR = "commentator"  # a later commentator: large print, or small print when the line opens with it
    NOTE = "note"  # the compiler's own notes (蕙田案)


@dataclass(frozen=True, slots=True)
class Marker:
    """A printed word in small print that is not the text but names the layer after it.

    An ``opens`` marker must stand at the start of a run (``注``); any other switches the
    run's layer at its first occurrence (``疏``), once. With ``spaced``, a space printed
    just before the marker belongs to it (the e-text writes `` 疏``).
    """

    text: str
    layer: Layer
    opens: bool
    spaced: bool = True


@dataclass(frozen=True, slots=True)
class IndentLayout:
    """The tables of one printing's layout.

    - ``indents``: ``(lowest, highest, block)``: lines indented by that many indent
      characters open (or continue) a block of that kind.
    - ``header``: metadata keys of the file's leading printed lines, which are headings;
      their number is the header's length.
    - ``headings``: ``(pattern, lowest indent)``: a line whose body matches a pattern as a
      whole, and is indented at least that far, is a heading (右投壶, a volume title).
    - ``titles``: patterns of the run-in title that opens a quotation of a classic
      (礼记投壶, 春秋昭公十二年左氏传); ``bare_titles`` the same for titles printed without
      their book (少仪 inside a run of 礼记 quotations): those count only when they name a
      work other than the one being quoted.
    - ``note_attributions`` / ``commentator_attributions``: patterns of the words that open
      a note (蕙田案) or a commentator's passage (方氏悫曰, 陈氏礼书).
    - ``markers``: the printed layer markers of small print after the classic;
      ``unmarked`` is the layer of such small print when it opens with no marker.
    - ``small_print`` (opener, closer), ``column_break``, ``indent_char``: the e-text's signs.
    """

    name: str
    description: str
    indents: tuple[tuple[int, int, Block], ...]
    header: tuple[str, ...]
    headings: tuple[tuple[str, int], ...]
    titles: tuple[str, ...]
    bare_titles: tuple[str, ...]
    note_attributions: tuple[str, ...]
    commentator_attributions: tuple[str, ...]
    markers: tuple[Marker, ...]
    unmarked: Layer = Layer.ZHU
    small_print: tuple[str, str] = ("(", ")")
    column_break: str = "/"
    indent_char: str = "\u3000"

    def block_at(self, indent: int) -> Block | None:
        """The block a line indented by ``indent`` characters opens, or None if none does."""
        for low, high, block in self.indents:
            if low <= indent <= high:
                return block
        return None
