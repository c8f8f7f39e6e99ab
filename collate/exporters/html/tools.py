"""The reader's tools in the bar and the filters: search, a jump to any witness's page, witness switches.

* **Search** compares folded characters (simplified/traditional, variant graphs) as the
  collation does: the page carries the keys its tokens were compared by (``t`` → ``n``), so
  that 壺 finds 壶 without a converter in the browser (:func:`fold_pairs`).
* **Pages**: every witness's printed pages (or, for a file without them, its lines) are
  places in the base text, through the alignment (:func:`page_targets`); the text carries an
  empty anchor at each, and the selector lists exactly those.
* **Witness switches** take a witness's readings out of the text, the synopsis and the panel.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from collate.exporters.html.common import Element, el
from collate.exporters.html.context import Context
from collate.model import MarkKind, Role, Witness


@dataclass(frozen=True, slots=True)
class PageTargets:
    """Each witness's pages as places in the base text.

    ``pages`` lists, per siglum in the page's order, the witness's page labels that have a
    place; ``anchors`` holds the anchors to draw in the base text, by raw offset: (siglum,
    label). The base's own printed pages need none: their labels are drawn where they fall.
    """

    pages: Mapping[str, tuple[str, ...]]
    anchors: Mapping[int, tuple[tuple[str, str], ...]]


def page_key(siglum: str, label: str) -> str:
    """The value a page's anchor and its option share: ``ZS:12a``."""
    return f"{siglum}:{label}"


def page_targets(ctx: Context) -> PageTargets:
    """Where each witness's pages (or lines) begin in the base text, one pass over each layer."""
    pages: dict[str, tuple[str, ...]] = {}
    anchors: dict[int, list[tuple[str, str]]] = {}
    base = ctx.base
    for siglum in ctx.order:
        witness = ctx.witnesses.get(siglum)
        if witness is None or witness.sparse:
            continue
        if siglum == base.siglum and any(m.kind is MarkKind.PAGE for m in base.marks):
            pages[siglum] = _drawn_pages(base)
            continue
        starts, places = _places_in_base(ctx, siglum)
        found: list[str] = []
        seen: set[str] = set()
        breaks = _breaks(witness)
        for k, (offset, label) in enumerate(breaks):
            end = breaks[k + 1][0] if k + 1 < len(breaks) else len(witness.text)
            i = bisect_left(starts, offset)
            if i == len(starts) or starts[i] >= end or label in seen:
                continue  # nothing of the page is collated (or the label was seen already)
            seen.add(label)
            found.append(label)
            anchors.setdefault(places[i], []).append((siglum, label))
        if found:
            pages[siglum] = tuple(found)
    return PageTargets(pages, {k: tuple(v) for k, v in anchors.items()})


def _breaks(witness: Witness) -> list[tuple[int, str]]:
    """A witness's printed pages, or its file's lines (行12) if it marks none."""
    printed = sorted((m.offset, m.label) for m in witness.marks if m.kind is MarkKind.PAGE)
    return printed or [(start, f"行{n}") for n, start in enumerate(witness.line_starts, 1)]


def _drawn_pages(base: Witness) -> tuple[str, ...]:
    """The base's pages that begin before its last text (later ones are not drawn)."""
    last = max((s.end for s in base.spans if s.role is Role.TEXT), default=0)
    labels = dict.fromkeys(
        m.label for m in sorted(base.marks, key=lambda m: m.offset) if m.kind is MarkKind.PAGE and m.offset < last
    )
    return tuple(labels)


def _places_in_base(ctx: Context, siglum: str) -> tuple[list[int], list[int]]:
    """A witness's token starts, sorted, each with the base's raw offset at its column.

    A column the base lacks takes the base token after it, where the base would have the
    text (the one before, at the end of a layer); a layer without base tokens gives no places.
    """
    rows: list[tuple[int, int]] = []
    for result in ctx.collation.layers:
        sigla = result.alignment.sigla
        if siglum not in sigla:
            continue
        j = sigla.index(siglum)
        at: int | None = None
        waiting: list[int] = []
        for col in result.alignment.columns:
            tok = col[j]
            if col[0] is None:
                if tok is not None:
                    waiting.append(tok.start)
                continue
            at = col[0].start
            rows.extend((start, at) for start in waiting)
            waiting = []
            if tok is not None:
                rows.append((tok.start, at))
        if at is not None:
            rows.extend((start, at) for start in waiting)
    rows.sort()
    return [r[0] for r in rows], [r[1] for r in rows]


def fold_pairs(ctx: Context) -> str:
    """The page's fold table: each character and its comparison key, pairs run together (壺壶賓宾…).

    Taken from the tokens' own keys (one answer to "why are these the same?"): for a character
    keyed more than one way, its most frequent key. Placeholders (keys of several characters)
    are left out: they match nothing.
    """
    counts: Counter[tuple[str, str]] = Counter()
    for result in ctx.collation.layers:
        for col in result.alignment.columns:
            for tok in col:
                if tok is not None and tok.t != tok.n and len(tok.t) == 1 and len(tok.n) == 1:
                    counts[tok.t, tok.n] += 1
    best: dict[str, tuple[int, str]] = {}
    for (t, n), count in counts.items():
        if t not in best or count > best[t][0]:
            best[t] = (count, n)
    return "".join(t + n for t, (_, n) in sorted(best.items()))


# --- The bar's tools ------------------------------------------------------------------------------


def tools(ctx: Context, targets: PageTargets) -> Element:
    """Search, jump to a page, and the side-by-side switch of 經 and its 注疏."""
    search = el(
        "span",
        {"class": "search", "role": "search"},
        el(
            "input",
            {
                "type": "search",
                "id": "q",
                "placeholder": "檢索",
                "aria-label": "檢索底本與各本異文（繁簡通檢）",
                "title": "檢索底本與各本異文，繁簡、異體通檢（/）",
                "data-fold": fold_pairs(ctx),
                "autocomplete": "off",
            },
        ),
        el("button", {"type": "button", "data-hit": "-1", "title": "上一處 (Shift+Enter)"}, "\u2039"),
        el("button", {"type": "button", "data-hit": "1", "title": "下一處 (Enter)"}, "\u203a"),
        el("span", {"id": "q-count", "class": "count", "aria-live": "polite"}),
    )
    return el("div", {"class": "tools"}, search, _jump(ctx, targets), _parallel())


def _jump(ctx: Context, targets: PageTargets) -> Element | None:
    if not targets.pages:
        return None
    who = el("select", {"id": "jump-w", "aria-label": "本"})
    box = el("span", {"class": "jump-to"}, who)
    for k, (siglum, labels) in enumerate(targets.pages.items()):
        who.append(el("option", {"value": siglum}, f"{ctx.label(siglum)} {siglum}"))
        pages = el("select", {"class": "jump-p", "data-for": siglum, "aria-label": f"{ctx.label(siglum)}之頁"})
        if k:
            pages.set("hidden", "")
        pages.extend(el("option", {"value": page_key(siglum, x)}, x) for x in labels)
        box.append(pages)
    box.append(el("button", {"type": "button", "id": "jump-go", "title": "跳至此頁"}, "往"))
    return box


def _parallel() -> Element:
    return el(
        "button",
        {"type": "button", "id": "parallel", "aria-pressed": "false", "title": "經與注疏並排對讀"},
        "經注並排",
    )


def witness_switches(ctx: Context) -> Element | None:
    """The filters' checkboxes, one per witness other than the base: its readings on or off."""
    box = el("fieldset", None, el("legend", None, "校本"))
    for info in ctx.collation.witnesses:
        if info.siglum == ctx.collation.base:
            continue
        switch = el("input", {"type": "checkbox", "data-wit": info.siglum, "checked": ""})
        box.append(
            el("label", {"title": info.path}, switch, f" {info.label} ", el("span", {"class": "sig"}, info.siglum))
        )
    return box if len(box) > 1 else None
