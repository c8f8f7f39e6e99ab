"""Which loci the review walks: by class, layer and witness, undecided only, with a note, or a search;
and where a page of the base begins among them. The loci where the witnesses differ only in graphs
of one word (異體: 爲/為) are left out unless asked for, as ``collate diff`` and the HTML leave them.

A search is for characters in any witness: a phrase is found where some witness's own text
around a locus (within the base's unit) holds it across or beside the locus, so ``枉矢哨`` finds
every 哨 of 枉矢哨壺. Texts and query are compared folded (:func:`collate.notes.fold.fold`, the
notes' comparison keys), so a query in traditional characters finds the simplified base too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from collate.apparatus import Locus, ReadingClass, is_script_only
from collate.model import Layer
from collate.model.citation import page_order
from collate.review.context import Context


@lru_cache(maxsize=4096)
def folded(text: str) -> str:
    """``text``'s comparison keys, one per character (cached: the same readings recur in every search)."""
    from collate.notes.fold import fold

    return fold(text)


def graphs_only(locus: Locus) -> bool:
    """True for a locus where the witnesses differ from the base only in graphs of one word (異體).

    What ``collate diff`` and the HTML fold into a count (:meth:`collate.views.variants.DiffFilter.folded`):
    every variant reading orthographic; a difference of script alone is none.
    """
    readings = [r for r in locus.variants() if not is_script_only(r)]
    return bool(readings) and all(r.cls is ReadingClass.ORTHOGRAPHIC for r in readings)


@dataclass(frozen=True, slots=True)
class LocusFilter:
    """What loci to show; an empty set or False is no restriction, except that ``LocusFilter()``
    leaves out the loci that differ only in graphs (:func:`graphs_only`), as ``collate diff`` does.

    ``classes`` are classes of variant readings (a locus with one such reading qualifies),
    ``sigla`` the witnesses with a variant there, ``search`` characters to find (:func:`found`).
    ``graphs`` shows the loci of graphs only too; asked for a class, the editor chose what to see,
    and they are shown whatever ``graphs`` says.
    """

    classes: frozenset[ReadingClass] = field(default_factory=frozenset)
    layers: frozenset[Layer] = field(default_factory=frozenset)
    sigla: frozenset[str] = field(default_factory=frozenset)
    undecided: bool = False
    noted: bool = False
    search: str = ""
    graphs: bool = False

    @property
    def active(self) -> bool:
        """True if the filter is other than the default (which leaves out the loci of graphs only)."""
        return self != LocusFilter()

    @property
    def shown_graphs(self) -> LocusFilter:
        """The same filter showing the loci of graphs only too."""
        return replace(self, graphs=True)

    def hides_graphs(self, locus: Locus) -> bool:
        """True if the filter leaves ``locus`` out for differing only in graphs (whatever else it asks)."""
        return not self.graphs and not self.classes and graphs_only(locus)

    def matches(self, locus: Locus, contexts: Callable[[Locus, int], list[Context]] | None = None) -> bool:
        """True if ``locus`` passes; ``contexts(locus, width)`` gives each witness's context, for a search."""
        variants = locus.variants()
        if self.hides_graphs(locus):
            return False
        if self.classes and not any(r.cls in self.classes for r in variants):
            return False
        if self.layers and locus.layer not in self.layers:
            return False
        if self.sigla and not any(set(r.sigla) & self.sigla for r in variants):
            return False
        if self.undecided and locus.decision is not None:
            return False
        if self.noted and not locus.notes:
            return False
        if self.search:
            texts = contexts(locus, len(self.search)) if contexts is not None else []
            if not texts:
                texts = [Context(locus.lemma.siglum, "", locus.lemma.text, "")]
                texts += [Context(w.siglum, "", w.text, "") for r in variants for w in r.witnesses]
            return any(found(self.search, c) for c in texts)
        return True


def found(query: str, context: Context) -> bool:
    """True if ``query`` (folded) is in the witness's text so that it touches the locus's own text."""
    wanted = folded(query.strip())
    if not wanted:
        return True
    whole = folded(context.before + context.text + context.after)
    start, end = len(context.before), len(context.before) + len(context.text)
    at = whole.find(wanted)
    while at >= 0:
        # Over some of the locus's text, or for an omission (a point) on either side of it.
        over = at < end and at + len(wanted) > start if start < end else at <= start <= at + len(wanted)
        if over:
            return True
        at = whole.find(wanted, at + 1)
    return False


def find_page(loci: Sequence[Locus], page: str) -> int | None:
    """The index of the first of ``loci`` on base page ``page`` (e.g. ``3a``), else the first after it."""
    wanted = page.strip()
    if not wanted:
        return None
    for k, x in enumerate(loci):
        loc = x.lemma.location
        if loc is not None and loc.page == wanted:
            return k
    order = page_order(wanted)
    if order is None:
        return None
    for k, x in enumerate(loci):
        loc = x.lemma.location
        if loc is not None and loc.page is not None and (o := page_order(loc.page)) is not None and o >= order:
            return k
    return None
