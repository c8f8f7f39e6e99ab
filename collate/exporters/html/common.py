"""What every part of the HTML page shares: labels, safe elements, which loci are shown, the index.

Elements are made with :func:`el`, which makes every string XML-safe: witness text is always
element text or an attribute value, never markup.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Protocol

from lxml.html import html_parser

from collate.apparatus import (
    SCRIPT_RULE,
    Collation,
    LayerResult,
    Locus,
    Reading,
    ReadingClass,
    strongest,
)
from collate.model import Cause, Layer, SourceLocation, Token, Witness
from collate.review.records import DecisionAction, EditorDecision

Element = Any  # lxml's element type (lxml ships no type information)

CLASS_LABELS: dict[ReadingClass, tuple[str, str]] = {
    ReadingClass.SUBSTANTIVE: ("異文", "substantive"),
    ReadingClass.TRANSPOSITION: ("倒文", "transposition"),
    ReadingClass.OMISSION: ("脫文", "omission"),
    ReadingClass.ADDITION: ("多文", "addition"),
    ReadingClass.SCRIBAL_ERROR: ("訛誤", "scribal error"),
    ReadingClass.LOAN: ("通假", "loan character"),
    ReadingClass.PLACEHOLDER: ("缺字", "placeholder"),
    ReadingClass.ORTHOGRAPHIC: ("異體", "orthographic"),
    ReadingClass.NOT_EXTANT: ("不存", "not extant"),
}
# By cause; a cause an editor named (haplography) is not among them and is shown as written.
CAUSE_LABELS: dict[Cause | str, str] = {
    Cause.TABOO: "避諱",
    Cause.VARIANT: "異體字",
    Cause.SEMANTIC: "通用字",
    Cause.ARTIFACT: "電子本替代字",
    Cause.SCRIPT: "繁簡",
}
LAYER_LABELS: dict[Layer, str] = {
    Layer.JING: "經",
    Layer.ZHU: "注",
    Layer.SHU: "疏",
    Layer.SHIWEN: "釋文",
    Layer.COMMENTARY: "諸家說",
    Layer.NOTE: "案語",
}
ACTION_LABELS: dict[DecisionAction, str] = {
    DecisionAction.KEEP: "從底本",
    DecisionAction.ADOPT: "改從",
    DecisionAction.RECLASSIFY: "改類",
    DecisionAction.DOUBT: "存疑",
}
# The notes stage's verdicts (by value, so this module does not depend on that stage).
VERDICT_LABELS: dict[str, str] = {
    "confirmed": "相合",
    "partly": "略合",
    "contradicted": "不合",
    "not checkable": "無從核對",
}
# Characters XML (and so lxml) cannot hold: shown as U+FFFD rather than failing the page.
_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


class ClaimNote(Protocol):
    """The note a claim comes from: where its words start in the base's raw text."""

    @property
    def start(self) -> int: ...


class Claim(Protocol):
    """A note's claim about a witness, placed in the base's raw text (or not placed: None)."""

    @property
    def note(self) -> ClaimNote: ...
    @property
    def base_start(self) -> int | None: ...
    @property
    def base_end(self) -> int | None: ...
    def summary(self) -> str: ...


class ClaimCheck(Protocol):
    """A note's claim checked against a witness (:class:`collate.notes.Check` fits)."""

    @property
    def claim(self) -> Claim: ...
    @property
    def verdict(self) -> Enum: ...
    @property
    def evidence(self) -> str: ...
    @property
    def actual(self) -> str: ...


# --- Elements ----------------------------------------------------------------------------------


def safe(text: str) -> str:
    """``text`` with the characters XML cannot hold (controls, lone surrogates) shown as U+FFFD."""
    if len(text) <= 2:
        # Most strings of a page are one character of the text: each is checked once.
        known = _SAFE_SHORT.get(text)
        if known is None:
            known = _SAFE_SHORT[text] = _NOT_XML.sub("\ufffd", text)
        return known
    return _NOT_XML.sub("\ufffd", text)


_SAFE_SHORT: dict[str, str] = {}
_MAKE = html_parser.makeelement


def el(tag: str, attrs: Mapping[str, str] | None = None, *children: str | Element | None) -> Element:
    """An element; every string (text or attribute) made XML-safe, ``None`` children skipped.

    As ``lxml.html.builder.E`` builds it (text before the first child, a child's tail after
    it), without its per-call dispatch on types: a page has a million elements.
    """
    node: Element = _MAKE(tag, {k: safe(v) for k, v in attrs.items()} if attrs else None)
    last: Element | None = None
    for child in children:
        if child is None:
            continue
        if isinstance(child, str):
            if last is None:
                node.text = (node.text or "") + safe(child)
            else:
                last.tail = (last.tail or "") + safe(child)
        else:
            node.append(child)
            last = child
    return node


def append_text(parent: Element, text: str) -> None:
    """Append text at the end of ``parent`` (its text, or its last child's tail)."""
    if not text:
        return
    text = safe(text)
    if len(parent):
        parent[-1].tail = (parent[-1].tail or "") + text
    else:
        parent.text = (parent.text or "") + text


def css(c: ReadingClass) -> str:
    """The CSS class of a reading class (``c-substantive``): colour and line style."""
    return f"c-{c.value}"


def class_label(c: ReadingClass) -> str:
    """``異文 substantive``."""
    zh, en = CLASS_LABELS[c]
    return f"{zh} {en}"


def badge(c: ReadingClass) -> Element:
    """A reading class as a small coloured label."""
    zh, en = CLASS_LABELS[c]
    return el("span", {"class": f"badge {css(c)}", "title": en}, zh)


def verdict(value: str) -> Element:
    """A claim's verdict as a small label."""
    return el("span", {"class": f"verdict {value.replace(' ', '-')}", "title": value}, VERDICT_LABELS.get(value, value))


def place(loc: SourceLocation | None) -> str:
    """A place as editors cite it: ``頁3a 行5`` if the file has printed pages, else the file's
    line and column (``行7 列120``)."""
    if loc is None:
        return ""
    if loc.page is not None:
        return f"頁{loc.page}" + (f" 行{loc.page_line}" if loc.page_line else "")
    return f"行{loc.line} 列{loc.column}"


def full_place(loc: SourceLocation | None) -> str:
    """A place with its file, for a tooltip: ``000_….txt:23:4 (p. 3a, l. 5)``."""
    return "" if loc is None else str(loc).replace(loc.path, Path(loc.path).name, 1)


# --- What is shown -------------------------------------------------------------------------------


def is_script_only(reading: Reading) -> bool:
    """A reading that differs from the lemma only by script: not a variant, never shown."""
    # ``==``, not ``is``: a cause an editor named is a plain string.
    if reading.cause == Cause.SCRIPT:
        return True
    return reading.cls is ReadingClass.ORTHOGRAPHIC and bool(reading.rules) and set(reading.rules) <= {SCRIPT_RULE}


def shown_readings(locus: Locus) -> tuple[Reading, ...]:
    """The readings of a locus shown as variants: not 'not extant', not script-only."""
    return tuple(r for r in locus.variants() if not is_script_only(r))


def shown_loci(result: LayerResult) -> tuple[Locus, ...]:
    """The loci of a layer that are marked: those with at least one reading shown."""
    return tuple(x for x in result.loci if shown_readings(x))


def display_class(locus: Locus) -> ReadingClass:
    """The class a locus is marked with: the strongest among its shown readings."""
    return strongest(shown_readings(locus))


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
    """A locus marked in the base text: raw offsets [start, end), a point if start == end."""

    start: int
    end: int
    locus: Locus
    cls: ReadingClass
    decision: EditorDecision | None

    @property
    def point(self) -> bool:
        """Text the base lacks: drawn as a caret at the place."""
        return self.start == self.end

    def attrs(self, extra: str = "") -> dict[str, str]:
        """The mark's attributes: class (colour, line style, decided), locus id, keyboard focus."""
        names = f"v {css(self.cls)}{extra}"
        if self.decision is not None:
            names += " decided" + (" doubt" if self.decision.doubtful else "")
        return {
            "class": names,
            "data-locus": self.locus.id,
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
    ) -> Context:
        """Index a collation for the page."""
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
                    layer_marks.append(Mark(span[0], span[1], locus, display_class(locus), decision))
            marks[result.layer] = tuple(sorted(layer_marks, key=lambda m: (m.start, m.end)))
        starts = (0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", base.text)))
        return cls(collation, base, witnesses, checks, labels, order, tuple(shown), marks, decided, starts)

    def label(self, siglum: str) -> str:
        """A witness's Chinese label (四庫本), or its siglum."""
        return self.labels.get(siglum, siglum)

    def offset_of(self, loc: SourceLocation | None) -> int | None:
        """The base's raw offset at a place in the base file (None for a place elsewhere)."""
        if loc is None or loc.path != self.base.path or not 0 < loc.line <= len(self.line_starts):
            return None
        return self.line_starts[loc.line - 1] + loc.column - 1
