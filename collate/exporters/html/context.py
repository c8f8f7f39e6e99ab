"""The page's index of a collation, built once: the loci marked in the base, the checked claims by place.

Every part of the page asks :class:`Context` rather than scanning the collation again: a
loop over loci that rebuilt a list of all columns for each would be quadratic at book size.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from collate.apparatus import Collation, LayerResult, Locus, ReadingClass
from collate.exporters.html.common import (
    LOOKALIKE_CSS,
    ClaimCheck,
    class_label,
    css,
    display_class,
    lookalike,
    quoted_works,
    shown_loci,
    witnesses_shown,
)
from collate.model import Layer, MarkKind, SourceLocation, Token, Witness
from collate.model.annotations import EditorDecision
from collate.model.facsimile import page_url


def base_tokens(result: LayerResult) -> Mapping[int, Token]:
    """The base's tokens of a layer by index (the base is the alignment's first witness) (indexed once per layer)."""
    return result.alignment.base.by_index


def raw_range(locus: Locus, tokens: Mapping[int, Token]) -> tuple[int, int] | None:
    """The locus's base characters as raw offsets [start, end).

    For text the base lacks, a point: after the preceding base token (as the notes stage
    attaches notes), or before the first one at the very start of the layer.
    """
    if locus.base_end > locus.base_start and locus.base_start in tokens and locus.base_end - 1 in tokens:
        return tokens[locus.base_start].start, tokens[locus.base_end - 1].end
    if locus.base_start - 1 in tokens:
        point = tokens[locus.base_start - 1].end
        return point, point
    if locus.base_start in tokens:
        point = tokens[locus.base_start].start
        return point, point
    return None


def overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Two raw ranges overlap; a point touches the range it lies in or on the edge of."""
    if a[0] < a[1] and b[0] < b[1]:
        return a[0] < b[1] and b[0] < a[1]
    return a[0] <= b[1] and b[0] <= a[1]


@dataclass(frozen=True, slots=True)
class CheckIndex:
    """The checked claims placed in the base, by raw start offset: built once for the page.

    ``placed`` holds (start, end, position in ``checks``) sorted by start; ``longest`` is the
    longest placed claim, which bounds how far before a range a claim touching it can start.
    """

    checks: tuple[ClaimCheck, ...]
    placed: tuple[tuple[int, int, int], ...]
    starts: tuple[int, ...]
    longest: int

    @classmethod
    def of(cls, checks: Sequence[ClaimCheck]) -> CheckIndex:
        """Index ``checks`` by the place of their claims in the base (unplaced claims are left out)."""
        placed = sorted(
            (a, b, k)
            for k, check in enumerate(checks)
            if (a := check.claim.base_start) is not None and (b := check.claim.base_end) is not None
        )
        longest = max((b - a for a, b, _ in placed), default=0)
        return cls(tuple(checks), tuple(placed), tuple(a for a, _, _ in placed), max(0, longest))

    def touching(self, span: tuple[int, int]) -> list[ClaimCheck]:
        """The checks whose claim's place touches ``span`` (:func:`overlaps`), in the order given."""
        # Touching needs start <= span end and end >= span start, so start >= span start - longest.
        lo = bisect.bisect_left(self.starts, span[0] - self.longest)
        hi = bisect.bisect_right(self.starts, span[1])
        found = sorted(k for a, b, k in self.placed[lo:hi] if overlaps(span, (a, b)))
        return [self.checks[k] for k in found]


@dataclass(frozen=True, slots=True)
class Mark:
    """A locus marked in the base text: raw offsets [start, end), a point if start == end.

    ``wits`` are the sigla of the witnesses whose readings are shown there, so that switching
    those witnesses off can take the mark away.
    """

    start: int
    end: int
    locus: Locus
    cls: ReadingClass
    decision: EditorDecision | None
    wits: str = ""

    @property
    def point(self) -> bool:
        """Text the base lacks: drawn as a caret at the place."""
        return self.start == self.end

    def attrs(self, extra: str = "") -> dict[str, str]:
        """The mark's attributes: class (colour, line style, decided), locus id, keyboard focus."""
        names = f"v {css(self.cls)}{extra}" + (f" {LOOKALIKE_CSS}" if lookalike(self.locus) else "")
        if self.decision is not None:
            names += " decided" + (" doubt" if self.decision.doubtful else "")
        return {
            "class": names,
            "data-locus": self.locus.id,
            "data-wits": self.wits,
            "tabindex": "0",
            "role": "button",
            "title": class_label(self.cls),
        }


@dataclass(frozen=True)
class Context:
    """Everything the page is built from, indexed once.

    ``order`` lists the sigla base first, then as the collation lists its witnesses;
    ``shown`` the marked loci with their layer, in layer and base order; ``marks`` each
    layer's marked loci as raw ranges in the base; ``decisions`` the editor's decision per
    locus id (given ones over those the loci carry).
    """

    collation: Collation
    base: Witness
    witnesses: Mapping[str, Witness]
    checks: Sequence[ClaimCheck]
    labels: Mapping[str, str]
    order: tuple[str, ...]
    shown: tuple[tuple[LayerResult, Locus], ...]
    marks: Mapping[Layer, tuple[Mark, ...]]
    decisions: Mapping[str, EditorDecision]
    line_starts: tuple[int, ...] = field(default=())
    # Where the pictures of each witness's pages are: a URL pattern by siglum (collate.model.facsimile).
    facs: Mapping[str, str] = field(default_factory=dict)
    # The works a compilation base quotes (common.quoted_works), found once: the filters and rules ask for them.
    works: tuple[str, ...] = ()
    # Per witness with a pattern, its pages' full ids by label, indexed on first use.
    _page_ids: dict[str, dict[str, str]] = field(default_factory=dict, init=False, repr=False, compare=False)
    # The checks by place, so that each locus finds its own without a scan of them all.
    check_index: CheckIndex = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "check_index", CheckIndex.of(self.checks))

    @classmethod
    def of(
        cls,
        collation: Collation,
        base: Witness,
        witnesses: Mapping[str, Witness],
        decisions: Mapping[str, EditorDecision],
        checks: Sequence[ClaimCheck],
        facs: Mapping[str, str] | None = None,
    ) -> Context:
        """Index a collation for the page; ``facs``: the page-image pattern of each witness that has one."""
        labels = {w.siglum: w.label for w in collation.witnesses}
        labels.setdefault(base.siglum, base.label)
        order = (base.siglum, *(w.siglum for w in collation.witnesses if w.siglum != base.siglum))
        shown: list[tuple[LayerResult, Locus]] = []
        marks: dict[Layer, tuple[Mark, ...]] = {}
        decided: dict[str, EditorDecision] = {}
        for result in collation.layers:
            tokens = base_tokens(result)
            layer_marks = []
            for locus in shown_loci(result):
                decision = decisions.get(locus.id, locus.decision)
                if decision is not None:
                    decided[locus.id] = decision
                shown.append((result, locus))
                span = raw_range(locus, tokens)
                if span is not None:
                    mark = Mark(span[0], span[1], locus, display_class(locus), decision, witnesses_shown(locus))
                    layer_marks.append(mark)
            marks[result.layer] = tuple(sorted(layer_marks, key=lambda m: (m.start, m.end)))
        starts = (0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", base.text)))
        patterns = {siglum: pattern for siglum, pattern in (facs or {}).items() if pattern}
        works = quoted_works(base)
        return cls(
            collation, base, witnesses, checks, labels, order, tuple(shown), marks, decided, starts, patterns, works
        )

    def page_image(self, siglum: str, loc: SourceLocation | None) -> str | None:
        """The picture of the printed page a place of a witness is on, where the project says where they are."""
        pattern = self.facs.get(siglum)
        if pattern is None or loc is None or loc.page is None:
            return None
        ids = self._page_ids.get(siglum)
        if ids is None:
            witness = self.witnesses.get(siglum)
            marks = witness.marks if witness is not None else ()
            ids = self._page_ids[siglum] = {m.label: m.ref for m in marks if m.kind is MarkKind.PAGE and m.ref}
        return page_url(pattern, loc.page, ids.get(loc.page, ""))

    def label(self, siglum: str) -> str:
        """A witness's Chinese label (四庫本), or its siglum."""
        return self.labels.get(siglum, siglum)

    def offset_of(self, loc: SourceLocation | None) -> int | None:
        """The base's raw offset at a place in the base file (None for a place elsewhere)."""
        if loc is None or loc.path != self.base.path or not 0 < loc.line <= len(self.line_starts):
            return None
        return self.line_starts[loc.line - 1] + loc.column - 1
