"""The 校勘記's entries for text a witness's print has lost (缺頁, a glyph lost in a line).

Each stretch of the base over which a witness has a lacuna is an entry at the stretch's start,
in the words its lacuna marks call for (:func:`~collate.exporters.jiaokanji.words.lacuna_words`):
``頁058-17a行4　〔疏〕四部叢刊本缺頁，無「一經明司」至「南也主黨」凡三百五十四字（自其頁003-10a起缺二頁）。``
"""

from __future__ import annotations

from collections.abc import Mapping

from collate.apparatus import Collation, LayerResult
from collate.exporters.jiaokanji.entry import Entry, Sigla
from collate.exporters.jiaokanji.place import Places
from collate.exporters.jiaokanji.words import lacuna_words, lost_pages, printed_place, quote
from collate.model import Layer, MarkKind, Witness, blank_width
from collate.model.citation import JIAOKANJI


def lacuna_entries(
    collation: Collation, witnesses: Mapping[str, Witness], sigla: Sigla, places: Mapping[Layer, Places]
) -> list[Entry]:
    """An entry for each stretch of the base on pages a witness's print has lost (缺頁), at its start.

    The base's place needs the base witness as read; without it (a collation alone) none is
    written. Where the witness as read says which pages it lost (its lacuna mark), so does
    the entry. Where the lost words occur again on the base's line (闕「不」字), the entry is
    headed by the fewest words around them that do not (``places``, by layer), as a reading's is.
    """
    base = witnesses.get(collation.base)
    if base is None:
        return []
    out = []
    for result in collation.layers:
        layer = "" if result.layer is Layer.JING else f"〔{result.layer.chinese}〕"
        for j, siglum in enumerate(result.alignment.sigla[1:], 1):
            for a, b in result.alignment.extent(siglum).lacunae:
                tokens = result.alignment.base.within(a, b)
                if not tokens:
                    continue
                loc = base.locate(tokens[0].start)
                marks = _lost(witnesses, result, j, a, b)
                labels = [label for label, _ in marks]
                said = [p for label in labels if (p := lost_pages(label))]
                pages = f"（{'；'.join(said)}）" if said else ""
                what = lacuna_words(labels, "".join(t.t for t in tokens))
                # A glyph lost inside a line: the witness's own page and line, as for a reading.
                own = witnesses.get(siglum)
                inline = own is not None and marks and all(blank_width(label) is not None for label in labels)
                where = printed_place(own.locate(marks[0][1])) if inline and own is not None else ""
                text = f"{layer}{_head(places.get(result.layer), tokens[0].index, tokens[-1].index + 1)}"
                text += f"{sigla.label(siglum)}{where}{what}"
                out.append(Entry(loc.line, loc.column, f"{JIAOKANJI.cite(loc)}　{text}{pages}。", ()))
    return out


def _head(places: Places | None, start: int, end: int) -> str:
    """「words」， before an entry whose lost words at base positions ``[start, end)`` occur again on their line."""
    if places is None or places.unique(start, end):
        return ""
    # Words running on past their line cannot be made unique on it: the entry stays as it was.
    span = places.phrase(start, end)
    return f"{quote(places.text(*span))}，" if places.unique(*span) else ""


def _lost(witnesses: Mapping[str, Witness], result: LayerResult, j: int, start: int, end: int) -> list[tuple[str, int]]:
    """The labels and offsets of witness ``j``'s lacuna marks where it has no text in columns [start, end)."""
    witness = witnesses.get(result.alignment.sigla[j])
    if witness is None:
        return []
    own = result.alignment.index(j)
    before, after = own.before(start), own.after(end)
    lo = before[0].end if before else 0
    hi = after[0].start if after else len(witness.text)
    return [(m.label, m.offset) for m in witness.marks if m.kind is MarkKind.LACUNA and lo <= m.offset <= hi]
