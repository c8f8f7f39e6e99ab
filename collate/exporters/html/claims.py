"""What a note claims and how the claim checks out, in Chinese: the page is a Chinese page.

The notes stage words its claims and its evidence in English (``今本大戴礼 (DD) reads 峭 for
哨``, ``ZS reads 哨``) for the terminal and the logs. Here they are said again from the
claim's own fields (:func:`collate.model.claim_words.chinese`): 「今本大戴礼（DD）作峭，底本作哨」,
「注疏本（ZS）實作哨」. A locus carries its notes' claims as those fields too
(:class:`collate.model.annotations.NoteClaim`), so the panel words them the same way.

Under each editorial note in the text stand the loci it judges and its claims' verdicts
(:class:`NoteFooters`).
"""

from __future__ import annotations

from bisect import bisect_left

from collate.apparatus import Locus
from collate.exporters.html.common import (
    CARET,
    CLASS_LABELS,
    Claim,
    ClaimCheck,
    Element,
    css,
    display_class,
    el,
    place,
)
from collate.exporters.html.context import Context
from collate.model.claim_words import VERDICT_LABELS, VERDICT_TITLES, chinese, chinese_evidence


def verdict(value: str) -> Element:
    """A claim's verdict as a small label (證實, 部分相合, 相反, 無從核對)."""
    return el(
        "span",
        {"class": f"verdict {value.replace(' ', '-')}", "title": VERDICT_TITLES.get(value, "")},
        VERDICT_LABELS.get(value, value),
    )


def claim_words(claim: Claim) -> str:
    """A claim in Chinese, from its fields: 「今本大戴礼（DD）作峭，底本作哨」; 「據疏，…」 for a relayed one."""
    words = chinese(claim.record())
    return f"據{claim.via}，{words}" if claim.via else words


def evidence_words(ctx: Context, check: ClaimCheck) -> str:
    """What the witness checked has there, or why the claim could not be checked, in Chinese."""
    claim = check.claim
    checked = check.verdict.value != "not checkable" and bool(check.witness)
    sparse = any(info.sparse and info.siglum == claim.siglum for info in ctx.collation.witnesses)
    named = _named(ctx, claim.siglum) if sparse and claim.siglum else ""
    return chinese_evidence(
        claim.record(),
        checked,
        _named(ctx, check.witness) if check.witness else "",
        check.actual,
        place(check.location),
        placed=claim.base_start is not None,
        sparse=named,
    )


def check_item(ctx: Context, check: ClaimCheck) -> Element:
    """A checked claim as a list item: the verdict, the claim, what the witness has."""
    item = el("li", None, verdict(str(check.verdict.value)), f" {claim_words(check.claim)}")
    item.append(el("span", {"class": "src"}, evidence_words(ctx, check)))
    return item


def _named(ctx: Context, siglum: str) -> str:
    return f"{ctx.label(siglum)}（{siglum}）"


# --- Under a note: the loci it judges and its claims checked ----------------------------------


class NoteFooters:
    """The line under each editorial note in the text: links to the loci it judges, its verdicts.

    The notes of the shown loci and the checks are indexed by where the notes stand, once.
    """

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        rows = sorted(
            (
                (offset, i, locus)
                for i, (_, locus) in enumerate(ctx.shown)
                for note in locus.notes
                if (offset := ctx.offset_of(note.location)) is not None
            ),
            key=lambda r: (r[0], r[1]),
        )
        self.note_offsets = [r[0] for r in rows]
        self.note_loci = [(r[1], r[2]) for r in rows]
        checks = sorted((c.claim.note.start, n) for n, c in enumerate(ctx.checks))
        self.check_starts = [r[0] for r in checks]
        self.check_numbers = [r[1] for r in checks]

    def footer(self, start: int, end: int) -> Element | None:
        """The footer of a note standing in the base's raw ``[start, end)``, or None."""
        items: list[Element | str] = []
        seen: set[str] = set()
        for locus in self._loci_between(start, end):
            if locus.id not in seen:
                seen.add(locus.id)
                items.append(link(locus))
        for check in self._checks_between(start, end):
            items.extend((verdict(str(check.verdict.value)), f" {claim_words(check.claim)} "))
        if not items:
            return None
        return el("p", {"class": "judges"}, "校記：", *items)

    def _loci_between(self, start: int, end: int) -> list[Locus]:
        found = self.note_loci[bisect_left(self.note_offsets, start) : bisect_left(self.note_offsets, end)]
        return [locus for _, locus in sorted(found, key=lambda x: x[0])]

    def _checks_between(self, start: int, end: int) -> list[ClaimCheck]:
        lo, hi = bisect_left(self.check_starts, start), bisect_left(self.check_starts, end)
        return [self.ctx.checks[n] for n in sorted(self.check_numbers[lo:hi])]


def link(locus: Locus) -> Element:
    """A link to a locus, by its lemma and class: 哨（異文）."""
    c = display_class(locus)
    return el(
        "a",
        {"href": f"#{locus.id}", "data-locus": locus.id, "class": f"link {css(c)}"},
        f"{locus.lemma.text or CARET}（{CLASS_LABELS[c][0]}） ",
    )
