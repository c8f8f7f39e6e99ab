"""The statistics as one self-contained HTML page: a heat map of agreement per layer, the tree, the counts.

Built as a tree (``lxml.builder``) and serialized once; no script, no network. A cell's colour is
its rate in five steps of one blue (a legend above the maps says which), its text the rate and the
places it is over; a pair compared at too few places has no rate and no colour, only the reason
(its tooltip says it in full). Both axes name each witness by siglum and label. The tree section
says first which witnesses it leaves out and why, then draws the tree as SVG, its horizontal
branches to scale (distance ``1 - agreement``).
"""

from __future__ import annotations

from pathlib import Path

from lxml import html as lxml_html
from lxml.builder import ElementMaker

from collate.errors import ExportError
from collate.files import write_atomic
from collate.model import ReadingClass
from collate.stats.records import ALL_LAYERS, MIN_PLACES, Agreement, Node, Stats, by_pair, pair_key
from collate.stats.tree import leaves
from collate.stats.view import percent, unmeasured

E = ElementMaker()
_CSS = """
body { font-family: system-ui, "Noto Sans CJK TC", sans-serif; margin: 2em; color: #222; max-width: 75em; }
table { border-collapse: collapse; margin: 0.5em 0 2em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
small { opacity: 0.8; } table.counts { font-size: 0.9em; } td.causes { white-space: normal; min-width: 12em; }
table.heat td { text-align: center; min-width: 5.5em; padding: 0.35em 0.5em; line-height: 1.25; }
table.heat td b { font-size: 1.1em; }
table.heat th.col { white-space: normal; max-width: 8em; vertical-align: bottom; text-align: center; }
table.heat th small { display: block; font-weight: normal; word-break: keep-all; }
table.heat td.self { background: #e4e4e4; color: #888; }
table.heat td.few, .legend .few { background: #fff; color: #777; font-style: italic; }
.legend { display: flex; flex-wrap: wrap; gap: 0.4em; align-items: center; margin: 0.3em 0 0.2em; }
.legend span { border: 1px solid #ccc; padding: 0.25em 0.7em; }
.note { max-width: 60em; }
.left-out { border-left: 4px solid #c90; background: #fff8e6; padding: 0.4em 1em; max-width: 60em; }
.left-out li { margin: 0.3em 0; }
svg text { font-size: 13px; } svg line { stroke: #333; stroke-width: 1.5; }
"""
ROW = 28
WIDTH = 720
# Room kept at the right of the tree for the leaves' labels (siglum and label).
LABELS = 320
# The colour steps of the heat map: ColorBrewer's sequential Blues, one step per 20 points, the
# palest not white, so that an uncoloured cell (no rate) is never taken for 0%.
STEPS = ("#deebf7", "#9ecae1", "#6baed6", "#3182bd", "#08519c")
# From this step on the blue is dark enough that the numbers are written in white.
LIGHT_TEXT_FROM = 3


def _step(rate: float) -> int:
    # By the percentage as shown, so that a cell reading "20%" has the colour the legend gives 20.
    return min(round(100 * rate) // 20, len(STEPS) - 1)


def _cell_style(rate: float) -> str:
    step = _step(rate)
    return f"background: {STEPS[step]}; color: {'#fff' if step >= LIGHT_TEXT_FROM else '#111'}"


def _legend() -> list[object]:
    swatches = [
        E.span(
            f"{20 * i}–{20 * i + 19 if i < len(STEPS) - 1 else 100}%",
            style=f"background: {colour}; color: {'#fff' if i >= LIGHT_TEXT_FROM else '#111'}",
        )
        for i, colour in enumerate(STEPS)
    ]
    return [
        E.p(
            {"class": "note"},
            "Each cell: the share of the places of substance where the two witnesses read the same, and below it ",
            "agreed / compared. A place counts for a pair only where a third witness is compared too: where the two ",
            "alone are compared, the place is one because one of them reads otherwise. ",
            f"Over fewer than {MIN_PLACES} places no rate is given. Point at a cell for its sentence.",
        ),
        E.div(
            {"class": "legend"},
            E.strong("agreement"),
            *swatches,
            E.span({"class": "few"}, f"too few: under {MIN_PLACES} places"),
            E.span({"class": "few"}, "only the two: never beside a third"),
            E.span({"class": "few"}, "– never at the same place"),
        ),
    ]


def _heat_cell(a: str, b: str, x: Agreement | None) -> object:
    if a == b:
        return E.td("—", {"class": "self"})
    if x is None:
        return E.td("–", {"class": "few"}, title=f"{a} and {b} are never compared at the same place")
    short = unmeasured(x)
    if short is not None:
        label, sentence = short
        return E.td(label, E.br(), E.small(str(x.compared or x.only_two)), {"class": "few"}, title=sentence)
    return E.td(
        E.b(percent(x.rate)),
        E.br(),
        E.small(f"{x.agreed}/{x.compared}"),
        style=_cell_style(x.agreed / x.compared),
        title=f"{a} and {b} agree at {x.agreed} of the {x.compared} places where both are compared beside a third",
    )


def _heat_map(stats: Stats, layer: str) -> list[object]:
    index = by_pair(stats)
    pairs = [x for x in stats.agreements if x.layer == layer]
    if not pairs:
        return []
    sigla = [s for s in stats.labels if any(s in (x.a, x.b) for x in pairs)]
    rows = [
        E.tr(E.th(""), *(E.th({"class": "col"}, s, E.small(_label_of(stats, s))) for s in sigla)),
    ]
    for a in sigla:
        cells = [E.th({"class": "name row"}, _named(stats, a))]
        cells += [_heat_cell(a, b, index.get(pair_key(a, b, layer)) if a != b else None) for b in sigla]
        rows.append(E.tr(*cells))
    name = "all layers" if layer == ALL_LAYERS else layer
    out: list[object] = [E.h2(f"{name}: {stats.places.get(layer, 0)} places of substance")]
    if not any(x.measured for x in pairs):
        out.append(
            E.p(
                {"class": "note"},
                f"No pair here is compared beside a third witness at {MIN_PLACES} places or more: no rate to show.",
            )
        )
    return [*out, E.table({"class": "heat"}, *rows)]


def _label_of(stats: Stats, siglum: str) -> str:
    # A readings file's low rates are by construction: the header says what it is.
    label = stats.labels.get(siglum, siglum)
    return f"{label} (readings file)" if siglum in stats.sparse else label


def _named(stats: Stats, siglum: str) -> str:
    """A witness as the page names it: its siglum and, where it differs, its label."""
    label = stats.labels.get(siglum, siglum)
    return siglum if label == siglum else f"{siglum} {label}"


def _tree_svg(stats: Stats, root: Node) -> object:
    """The tree drawn from its last join: leaves one a row, joins at the middle of their children, a scale below."""
    order = {name: i for i, name in enumerate(leaves(root))}
    lines: list[object] = []
    labels: list[object] = []

    def depth(node: Node) -> float:
        return max((length + depth(child) for child, length in node.children), default=0.0)

    scale = (WIDTH - LABELS) / max(depth(root), 1e-9)

    def draw(node: Node, x: float) -> float:
        if node.name is not None:
            y = ROW * order[node.name] + ROW / 2
            labels.append(E.text(_named(stats, node.name), x=f"{x + 6:.1f}", y=f"{y + 4:.1f}"))
            return y
        ys = []
        for child, length in node.children:
            cx = x + length * scale
            cy = draw(child, cx)
            lines.append(E.line(x1=f"{x:.1f}", y1=f"{cy:.1f}", x2=f"{cx:.1f}", y2=f"{cy:.1f}"))
            ys.append(cy)
        lines.append(E.line(x1=f"{x:.1f}", y1=f"{min(ys):.1f}", x2=f"{x:.1f}", y2=f"{max(ys):.1f}"))
        return sum(ys) / len(ys)

    draw(root, 10.0)
    # A scale bar of 0.1: ten points of disagreement.
    bar_y = ROW * len(order) + 16
    lines.append(E.line(x1="10", y1=f"{bar_y}", x2=f"{10 + 0.1 * scale:.1f}", y2=f"{bar_y}"))
    labels.append(E.text("0.1 (10 points less agreement)", x=f"{16 + 0.1 * scale:.1f}", y=f"{bar_y + 4}"))
    height = bar_y + 12
    return E.svg(*lines, *labels, width=str(WIDTH), height=str(height), viewBox=f"0 0 {WIDTH} {height}")


def _tree_section(stats: Stats) -> list[object]:
    """The tree's heading, then who it leaves out and why, then the tree itself."""
    out: list[object] = [E.h2("Witness tree", id="tree")]
    if stats.left_out:
        out.append(
            E.div(
                {"class": "left-out"},
                E.p(E.strong(f"Left out of the tree ({len(stats.left_out)}):")),
                E.ul(*(E.li(E.strong(_named(stats, x.siglum)), ": " + x.why) for x in stats.left_out)),
            )
        )
    if stats.tree is None:
        return [*out, E.p("No tree: fewer than two witnesses are left to compare.")]
    return [
        *out,
        E.p(
            {"class": "note"},
            "Neighbour joining on 1 - agreement over all layers; unrooted, drawn from its last join. "
            "A picture of overall likeness, not a stemma.",
        ),
        _tree_svg(stats, stats.tree.root),
        E.pre(stats.tree.newick),
    ]


def _counts(stats: Stats) -> object:
    classes = [c.value for c in ReadingClass if any(c.value in w.classes for w in stats.counts)]
    names = ("witness", "layer", "causes")
    rows = [
        E.tr(
            *(
                E.th(h, {"class": "name"} if h in names else {})
                for h in ("witness", "layer", *classes, "causes", "alone")
            )
        )
    ]
    for w in stats.counts:
        causes = ", ".join(f"{k} {v}" for k, v in sorted(w.causes.items()))
        rows.append(
            E.tr(
                E.td(w.siglum, {"class": "name"}),
                E.td(w.layer, {"class": "name"}),
                *(E.td(str(w.classes.get(c, ""))) for c in classes),
                E.td(causes, {"class": "name causes"}),
                E.td(str(w.alone or "")),
            )
        )
    return E.table({"class": "counts"}, *rows)


def _reading(text: str, cls: str) -> str:
    # The base standing alone reads its own lemma against every other witness.
    return "(the base, against all)" if cls == "lemma" else text or "∅"


def _alone(stats: Stats) -> object:
    rows = [E.tr(*(E.th(h) for h in ("witness", "collation", "locus", "base", "reading", "where")))]
    for a in stats.alone:
        rows.append(
            E.tr(
                *(
                    E.td(v, {"class": "name"})
                    for v in (a.siglum, a.run, a.locus, a.lemma or "∅", _reading(a.text, a.cls), a.ref or "")
                )
            )
        )
    return E.details(E.summary(f"places where a witness stands alone: {len(stats.alone)}"), E.table(*rows))


def stats_page(stats: Stats) -> str:
    """The page, as HTML text."""
    runs = f"{len(stats.runs)} collation{'' if len(stats.runs) == 1 else 's'}: " + ", ".join(stats.runs)
    body: list[object] = [E.h1("What the witnesses tell together"), E.p(runs), *_legend()]
    for layer in (ALL_LAYERS, *stats.layers):
        body += _heat_map(stats, layer)
    body += _tree_section(stats)
    body += [E.h2("Readings by class and cause"), _counts(stats), _alone(stats)]
    body += [E.p(note) for note in stats.notes]
    page = E.html(
        E.head(E.meta(charset="utf-8"), E.title("collate stats"), E.style(_CSS)),
        E.body(*body),
        lang="zh-Hant",
    )
    text: str = lxml_html.tostring(page, doctype="<!DOCTYPE html>", encoding="unicode")
    return text + "\n"


def write_stats_page(stats: Stats, path: Path) -> None:
    """Write the page to ``path`` (atomically: a page half-written is never left)."""
    try:
        write_atomic(path, stats_page(stats))
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None


__all__ = ["stats_page", "write_stats_page"]
