"""The synoptic view: each layer a table, one column per witness, one row per passage of the base.

A row is one of the base's units (one 經 passage, one 注 run), headed by its printed place; each
witness's cell holds its own text of that passage, so the witnesses are read side by side, each
in its column, as a synoptic edition prints them. A locus is marked in every cell like the locus
in the text, and opens the same panel; a witness that reads otherwise there has its characters
set apart. A sparse witness (a readings file) has a column too, holding only what it reports,
beside the lemma it concerns. Stretches where only the base is extant are summed up in one row.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence

from lxml.html import fragments_fromstring

from collate.apparatus import LayerResult, Locus
from collate.exporters.html.common import (
    LAYER_LABELS,
    LOOKALIKE_CSS,
    Element,
    class_label,
    css,
    display_class,
    el,
    lookalike,
    place,
    shown_loci,
    witnesses_shown,
)
from collate.exporters.html.context import Context
from collate.exporters.html.markup import html_attr, html_text

SynopticLayer = tuple[dict[str, str], Element, Element, Iterator[Element]]


def layer_views(ctx: Context) -> Iterator[SynopticLayer]:
    """Each collated layer's section: its attributes, its heading, its table's head (a column a
    witness), and the table's bodies (a passage each) one by one.

    The bodies are made as they are asked for, so that a page can be written a passage at a
    time (a book's synopsis has millions of characters).
    """
    for result in ctx.collation.layers:
        name = LAYER_LABELS.get(result.layer, result.layer.value)
        layer = _Layer(ctx, result)
        yield {"class": f"s-{result.layer.value}"}, el("h2", None, name), layer.head(), layer.build()


class PartViews:
    """The synoptic view of a book cut into its parts: each layer's passages by the part of the base
    text they begin in (``starts``: the raw offset each part begins at, ascending, the first 0).

    The passages are grouped once for the book; each part's tables are made when it is written.
    """

    def __init__(self, ctx: Context, starts: Sequence[int]) -> None:
        self.layers: list[tuple[str, _Layer, list[list[list[int]]]]] = []
        for result in ctx.collation.layers:
            layer = _Layer(ctx, result)
            parts: list[list[list[int]]] = [[] for _ in starts]
            k = 0  # a passage without base text (only at a layer's start) goes with the one after
            waiting: list[list[int]] = []
            for group in layer.groups():
                tok = next((t for i in group if (t := result.alignment.columns[i][0]) is not None), None)
                if tok is None:
                    waiting.append(group)
                    continue
                k = max(0, bisect_right(starts, tok.start) - 1)
                parts[k].extend([*waiting, group])
                waiting = []
            parts[k].extend(waiting)
            self.layers.append((result.layer.value, layer, parts))

    def views(self, part: int) -> Iterator[SynopticLayer]:
        """The layers with passages in ``part`` (from 0), as :func:`layer_views` gives them."""
        for value, layer, parts in self.layers:
            if parts[part]:
                name = LAYER_LABELS.get(layer.result.layer, value)
                yield {"class": f"s-{value}"}, el("h2", None, name), layer.head(), layer.build(parts[part])


def no_layers() -> Element:
    """What the synopsis says when no layer was collated."""
    return el("p", {"class": "gapnote"}, "沒有可對照的層次。")


class _Layer:
    def __init__(self, ctx: Context, result: LayerResult) -> None:
        self.ctx = ctx
        self.result = result
        self.sigla = result.alignment.sigla
        self.extents = [result.alignment.extent(s) for s in self.sigla]
        self.locus_at: dict[int, Locus] = {}
        self.first: dict[int, list[Locus]] = {}  # the loci a sparse witness may report, by first column
        for locus in shown_loci(result):
            columns = range(locus.col_start, locus.col_end)
            if not columns:
                # Text only a sparse witness has: marked on the column before, as in the text.
                columns = range(max(0, locus.col_start - 1), max(0, locus.col_start - 1) + 1)
            self.first.setdefault(columns[0], []).append(locus)
            for i in columns:
                self.locus_at.setdefault(i, locus)

    def head(self) -> Element:
        """The table's head: a column a witness, base first, by its label and siglum."""
        row = el("tr")
        for siglum in (*self.sigla, *self.result.sparse):
            label = self.ctx.label(siglum)
            row.append(el("th", {"data-w": siglum, "title": label}, label, el("span", {"class": "sig"}, siglum)))
        return el("thead", None, row)

    def groups(self) -> list[list[int]]:
        """Column runs of one base unit; columns the base lacks join the run before."""
        out: list[list[int]] = []
        unit: int | None = None
        for i, col in enumerate(self.result.alignment.columns):
            tok = col[0]
            if (tok is not None and tok.unit != unit) or not out:
                unit = tok.unit if tok is not None else unit
                out.append([])
            out[-1].append(i)
        return out

    def build(self, groups: Sequence[list[int]] | None = None) -> Iterator[Element]:
        """The table's bodies: of ``groups`` (default: every passage of the layer)."""
        alone: list[list[int]] = []
        for group in self.groups() if groups is None else groups:
            if not self._compared(group):
                alone.append(group)
                continue
            if alone:
                yield self._alone(alone)
                alone = []
            yield self._group(group)
        if alone:
            yield self._alone(alone)

    def _compared(self, group: list[int]) -> bool:
        """Another witness is extant in the group, or a locus (of a sparse witness) lies in it."""
        others = range(1, len(self.sigla))
        return any(i in self.locus_at or any(self.extents[j].covers(i) for j in others) for i in group)

    def _place(self, group: list[int]) -> str:
        tok = next((t for i in group if (t := self.result.alignment.columns[i][0]) is not None), None)
        return place(self.ctx.base.locate(tok.start)) if tok is not None else ""

    @property
    def width(self) -> str:
        return str(len(self.sigla) + len(self.result.sparse))

    def _alone(self, groups: list[list[int]]) -> Element:
        first, last = self._place(groups[0]), self._place(groups[-1])
        where = first if first == last else f"{first} – {last}"
        note = el("td", {"class": "gapnote", "colspan": self.width}, f"{where}：只有底本，校本不存。")
        return el("tbody", {"class": "alone"}, el("tr", None, note))

    def _group(self, group: list[int]) -> Element:
        at = el("tr", {"class": "at"}, el("th", {"colspan": self.width, "class": "where"}, self._place(group)))
        # A book has millions of characters: the cells are written as HTML and parsed in one go
        # (libxml2 makes the same elements as building each would, many times faster).
        cells = [self._cell(j, group) for j in range(len(self.sigla))]
        cells += [self._sparse_cell(siglum, group) for siglum in self.result.sparse]
        row = el("tr", {"class": "texts"})
        row.extend(fragments_fromstring("".join(cells)))
        return el("tbody", {"class": "chunk"}, at, row)

    def _mark(self, locus: Locus, extra: str = "") -> str:
        """A locus's opening tag in a cell: marked like the locus in the text, opening its panel."""
        c = display_class(locus)
        names = f"v {css(c)}{extra}" + (f" {LOOKALIKE_CSS}" if lookalike(locus) else "")
        return (
            f'<span class="{names}" data-locus="{html_attr(locus.id)}"'
            f' data-wits="{html_attr(witnesses_shown(locus))}" title="{html_attr(class_label(c))}">'
        )

    def _cell(self, j: int, group: list[int]) -> str:
        """One aligned witness's text of the passage, its loci marked, where it is not extant shaded."""
        siglum = self.sigla[j]
        if not any(self.extents[j].covers(i) for i in group):
            return f'<td data-w="{html_attr(siglum)}" class="ne" title="不存"></td>'
        parts: list[str] = []
        shown: Locus | None = None
        for i in group:
            locus = self.locus_at.get(i)
            if locus is not shown:
                parts.append("</span>" if shown is not None else "")
                # A witness not of the lemma's reads otherwise here: its characters are set apart.
                differs = " d" if j and locus is not None and siglum not in locus.lemma_witnesses else ""
                parts.append(self._mark(locus, differs) if locus is not None else "")
                shown = locus
            tok = self.result.alignment.columns[i][j]
            if not self.extents[j].covers(i):
                parts.append(_ABSENT if not parts or parts[-1] != _ABSENT else "")
            elif tok is not None:
                parts.append(html_text(tok.t))
            elif locus is not None:
                parts.append(_GAP)
        parts.append("</span>" if shown is not None else "")
        return f'<td data-w="{html_attr(siglum)}">{"".join(parts)}</td>'

    def _sparse_cell(self, siglum: str, group: list[int]) -> str:
        """What a sparse witness reports in the passage: each reading beside the lemma it concerns."""
        parts = []
        for i in group:
            for locus in self.first.get(i, ()):
                reading = locus.reading_of(siglum)
                if reading is None:
                    continue
                text = html_text(reading.text) or _NONE
                lemma = html_text(locus.lemma.text) or _NONE
                parts.append(f'{self._mark(locus, " d")}<i class="lem">{lemma}</i>{text}</span>')
        return f'<td data-w="{html_attr(siglum)}" class="sparse">{"".join(parts)}</td>'


_ABSENT = '<i class="ne" title="不存">\u3000</i>'
_GAP = '<i class="gap">—</i>'
_NONE = "〔無〕"
