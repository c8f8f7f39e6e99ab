"""What the review shows around a locus: each witness's own text there, inside the base's unit.

A unit is one logical block of the base (one 經 passage, one 注 run, one 疏): the apparatus
never runs from one into the next, and neither does the context, so a 注 locus is never shown
with the end of the 經 before it. What a 注 or 疏 explains is shown instead as what it is:
the 經 passage it follows (:func:`glossed`).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

from collate.apparatus import LayerResult, Locus, ReadingClass
from collate.decisions.regroup import unit_of
from collate.model import Layer, SourceLocation, Witness

# The layers that explain the 經 and are printed after the passage they explain.
GLOSSES = (Layer.ZHU, Layer.SHU, Layer.SHIWEN)


class Shown(str, Enum):
    """Why a witness's context is what it is (the review words it in the editor's language)."""

    TEXT = "text"  # its own running text around the place
    SILENT = "silent"  # a witness that says nothing here: it reads as the base
    REPORTED = "reported"  # a readings file: only the reading it reports
    NOT_EXTANT = "not_extant"  # the witness does not contain this place


@dataclass(frozen=True, slots=True)
class Context:
    """One witness at a locus with the text around it: ``before`` + ``text`` + ``after``.

    ``location`` is where ``text`` is in the witness's file (page and line if known); ``shown``
    says why there is no running text, ``source`` where a reported reading comes from.
    """

    siglum: str
    before: str
    text: str
    after: str
    location: SourceLocation | None = None
    shown: Shown = Shown.TEXT
    source: str = ""


@dataclass(frozen=True, slots=True)
class Units:
    """A layer's base units by column, indexed once: ``bounds[unit]`` is its columns ``[first, end)``.

    The base's units follow its text, so each is one run of columns.
    """

    bounds: Mapping[int, tuple[int, int]]

    @classmethod
    def of(cls, result: LayerResult) -> Units:
        """The units of ``result``'s base (one pass over its tokens)."""
        index = result.alignment.base
        bounds: dict[int, tuple[int, int]] = {}
        for token, column in zip(index.tokens, index.columns, strict=True):
            first, _ = bounds.get(token.unit, (column, column))
            bounds[token.unit] = (first, column + 1)
        return cls(bounds)


def witness_context(
    result: LayerResult,
    locus: Locus,
    siglum: str,
    width: int | None = 12,
    witnesses: Mapping[str, Witness] | None = None,
    units: Units | None = None,
) -> Context:
    """``siglum``'s text at ``locus`` with up to ``width`` of its characters either side (None: all).

    The context comes from the alignment, so it is each witness's own text around the place,
    in its own characters; with ``units``, only what stands in the columns of the base's unit
    of the locus. A sparse witness has only its reported reading. A witness that agrees with
    the base has no reading of its own to cite: its place is found through ``witnesses`` (the
    witnesses as read), if given.
    """
    alignment = result.alignment
    reading = locus.reading_of(siglum)
    if siglum not in alignment.sigla:
        if reading is None:
            return Context(siglum, "", locus.lemma.text, "", None, Shown.SILENT)
        first = reading.witnesses[0]
        return Context(siglum, "", first.text, "", first.location, Shown.REPORTED, reading.source or "")
    if reading is not None and reading.cls is ReadingClass.NOT_EXTANT:
        return Context(siglum, "", "", "", None, Shown.NOT_EXTANT)
    j = alignment.sigla.index(siglum)
    own = locus.lemma if j == 0 else None
    if own is None:
        own = next((w for r in locus.readings for w in r.witnesses if w.siglum == siglum), None)
    unit = unit_of(result, locus) if units is not None else None
    low, high = units.bounds.get(unit, (0, len(alignment.columns))) if units and unit is not None else (0, None)
    # The witness's tokens, indexed once per layer: not a scan of the whole layer per locus shown.
    index = alignment.index(j)
    k, m = bisect.bisect_left(index.columns, locus.col_start), bisect.bisect_left(index.columns, locus.col_end)
    first_k = bisect.bisect_left(index.columns, low)
    end_k = len(index.tokens) if high is None else bisect.bisect_left(index.columns, high)
    start = first_k if width is None else max(first_k, k - width)
    stop = end_k if width is None else min(end_k, m + width)
    tokens = index.tokens[k:m]
    location = own.location if own is not None else None
    if location is None and tokens and witnesses and siglum in witnesses:
        location = witnesses[siglum].locate(min(t.start for t in tokens))
    before = "".join(t.t for t in index.tokens[start:k])
    after = "".join(t.t for t in index.tokens[m:stop])
    return Context(siglum, before, "".join(t.t for t in tokens), after, location)


@dataclass(frozen=True, slots=True)
class Passage:
    """A passage of the base: its text and where it begins."""

    text: str
    location: SourceLocation | None


class Glossed:
    """The 經 passage each 注, 疏 or 釋文 locus explains: the last 經 unit of the base before it.

    The base's 經 tokens are indexed once (their raw offsets, their units' text), so finding the
    passage for a locus is a bisection, not a scan.
    """

    def __init__(self, jing: LayerResult | None, witnesses: Mapping[str, Witness] | None = None) -> None:
        self.starts: list[int] = []
        self.units: list[int] = []
        self.texts: dict[int, list[str]] = {}
        self.first: dict[int, int] = {}
        self.base = jing.alignment.sigla[0] if jing is not None else ""
        self.witnesses = witnesses or {}
        for token in sorted(jing.alignment.base.tokens if jing is not None else (), key=lambda t: t.start):
            self.starts.append(token.start)
            self.units.append(token.unit)
            self.texts.setdefault(token.unit, []).append(token.t)
            self.first.setdefault(token.unit, token.start)

    def of(self, result: LayerResult, locus: Locus) -> Passage | None:
        """The 經 that ``locus`` explains, if it is in a layer that explains one and one precedes it."""
        if locus.layer not in GLOSSES or not self.starts:
            return None
        tokens = result.alignment.base.by_index
        token = tokens.get(locus.base_start) or tokens.get(locus.base_start - 1)
        if token is None:
            return None
        k = bisect.bisect_left(self.starts, token.start)
        if k == 0:
            return None
        unit = self.units[k - 1]
        witness = self.witnesses.get(self.base)
        location = witness.locate(self.first[unit]) if witness is not None else None
        return Passage("".join(self.texts[unit]), location)
