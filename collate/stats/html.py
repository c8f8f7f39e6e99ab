"""The statistics as one self-contained HTML page: a heat map of agreement per layer, the tree, the counts.

Built as a tree (``lxml.builder``) and serialized once; no script, no network. A cell's colour is
its rate (white 0% to deep blue 100%), its text the rate and the places it is over; the tree is an
SVG drawing, its horizontal branches drawn to scale (distance ``1 - agreement``).
"""

from __future__ import annotations

from pathlib import Path

from lxml import html as lxml_html
from lxml.builder import ElementMaker

from collate.errors import ExportError
from collate.files import write_atomic
from collate.model import ReadingClass
from collate.stats.records import ALL_LAYERS, Node, Stats, by_pair, pair_key
from collate.stats.tree import leaves
from collate.stats.view import percent

E = ElementMaker()
_CSS = """
body { font-family: system-ui, "Noto Sans CJK TC", sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin: 1em 0 2em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; white-space: nowrap; }
th { background: #f4f4f4; } td.name, th.name { text-align: left; }
td.self { background: #eee; } small { opacity: 0.75; }
svg text { font-size: 13px; } svg line { stroke: #333; stroke-width: 1.5; }
"""
ROW = 28
WIDTH = 480


def _cell_style(rate: float) -> str:
    # From white to a deep blue; text turns white where the blue gets dark.
    light = round(97 - 62 * rate)
    return f"background: hsl(215, 70%, {light}%); color: {'#fff' if light < 60 else '#222'}"


def _heat_map(stats: Stats, layer: str) -> list[object]:
    index = by_pair(stats)
    pairs = [x for x in stats.agreements if x.layer == layer]
    if not pairs:
        return []
    sigla = [s for s in stats.labels if any(s in (x.a, x.b) for x in pairs)]
    rows = [E.tr(E.th(""), *(E.th(s, title=stats.labels[s]) for s in sigla))]
    for a in sigla:
        cells = [E.th(f"{a} {stats.labels[a]}", {"class": "name"})]
        for b in sigla:
            x = index.get(pair_key(a, b, layer)) if a != b else None
            if a == b:
                cells.append(E.td("", {"class": "self"}))
            elif x is None or x.rate is None:
                cells.append(E.td("–"))
            else:
                cells.append(
                    E.td(
                        percent(x.rate),
                        E.br(),
                        E.small(f"{x.agreed}/{x.compared}"),
                        style=_cell_style(x.rate),
                        title=f"{a} and {b} agree at {x.agreed} of {x.compared} places",
                    )
                )
        rows.append(E.tr(*cells))
    name = "all layers" if layer == ALL_LAYERS else layer
    return [E.h2(f"{name}: {stats.places.get(layer, 0)} places of substance"), E.table(*rows)]


def _tree_svg(root: Node) -> object:
    """The tree drawn from its last join: leaves one a row, joins at the middle of their children."""
    order = {name: i for i, name in enumerate(leaves(root))}
    lines: list[object] = []
    labels: list[object] = []

    def depth(node: Node) -> float:
        return max((length + depth(child) for child, length in node.children), default=0.0)

    scale = (WIDTH - 160) / max(depth(root), 1e-9)

    def draw(node: Node, x: float) -> float:
        if node.name is not None:
            y = ROW * order[node.name] + ROW / 2
            labels.append(E.text(node.name, x=f"{x + 6:.1f}", y=f"{y + 4:.1f}"))
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
    height = ROW * len(order)
    return E.svg(*lines, *labels, width=str(WIDTH), height=str(height), viewBox=f"0 0 {WIDTH} {height}")


def _counts(stats: Stats) -> object:
    classes = [c.value for c in ReadingClass if any(c.value in w.classes for w in stats.counts)]
    rows = [E.tr(*(E.th(h) for h in ("witness", "layer", *classes, "causes", "alone")))]
    for w in stats.counts:
        causes = ", ".join(f"{k} {v}" for k, v in sorted(w.causes.items()))
        rows.append(
            E.tr(
                E.td(w.siglum, {"class": "name"}),
                E.td(w.layer, {"class": "name"}),
                *(E.td(str(w.classes.get(c, ""))) for c in classes),
                E.td(causes, {"class": "name"}),
                E.td(str(w.alone or "")),
            )
        )
    return E.table(*rows)


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
    body: list[object] = [
        E.h1("What the witnesses tell together"),
        E.p(f"{len(stats.runs)} collations: " + ", ".join(stats.runs)),
    ]
    for layer in (ALL_LAYERS, *stats.layers):
        body += _heat_map(stats, layer)
    body.append(E.h2("Witness tree"))
    if stats.tree is None:
        body.append(E.p("no tree: fewer than two witnesses share places of substance"))
    else:
        body += [
            E.p("Neighbour joining on 1 - agreement over all layers; unrooted, drawn from its last join."),
            _tree_svg(stats.tree.root),
            E.pre(stats.tree.newick),
        ]
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
