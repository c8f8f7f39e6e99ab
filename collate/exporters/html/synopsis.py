"""The synoptic view: each layer's witnesses interlinear, one alignment column a column.

Columns are grouped by the base's units (one 經 passage, one 注 run), each group headed by
its printed place; groups where only the base is extant are summed up in one line. A
column inside a locus is marked like the locus in the text and opens the same panel. A
sparse witness's reading is noted under the first column of the locus it concerns, and the
groups holding one are shown even where only the base is extant.
"""

from __future__ import annotations

from collections.abc import Iterator

from lxml.html import fragments_fromstring

from collate.apparatus import LayerResult, Locus
from collate.exporters.html.common import (
    LAYER_LABELS,
    Element,
    class_label,
    css,
    display_class,
    el,
    place,
    shown_loci,
    witnesses_shown,
)
from collate.exporters.html.context import Context
from collate.exporters.html.markup import html_attr, html_text

# Characters of a sparse witness's reading shown under its column (the panel has all).
SPARSE_SHOWN = 4


def layer_views(ctx: Context) -> Iterator[tuple[dict[str, str], Element, Iterator[Element]]]:
    """Each collated layer's section: its attributes, its heading, and its groups one by one.

    The groups are made as they are asked for, so that a page can be written a group at a
    time (a book's synopsis has millions of cells).
    """
    for result in ctx.collation.layers:
        name = LAYER_LABELS.get(result.layer, result.layer.value)
        yield {"class": f"s-{result.layer.value}"}, el("h2", None, name), _Layer(ctx, result).build()


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
        self.first: dict[str, int] = {}
        for locus in shown_loci(result):
            columns = range(locus.col_start, locus.col_end)
            if not columns:
                # Text only a sparse witness has: marked on the column before, as in the text.
                columns = range(max(0, locus.col_start - 1), max(0, locus.col_start - 1) + 1)
            self.first[locus.id] = columns[0]
            for i in columns:
                self.locus_at.setdefault(i, locus)

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

    def build(self) -> Iterator[Element]:
        alone: list[list[int]] = []
        for group in self.groups():
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

    def _alone(self, groups: list[list[int]]) -> Element:
        first, last = self._place(groups[0]), self._place(groups[-1])
        where = first if first == last else f"{first} – {last}"
        return el("p", {"class": "gapnote"}, f"{where}：只有底本，校本不存。")

    def _group(self, group: list[int]) -> Element:
        box = el("div", {"class": "chunk"}, el("span", {"class": "where"}, self._place(group)))
        key = el("span", {"class": "sc key", "aria-hidden": "true"})
        key.extend(el("i", {"title": self.ctx.label(s)}, s) for s in self.sigla)
        box.append(key)
        # A book has millions of cells: they are written as HTML and parsed in one go (libxml2
        # makes the same elements as building each would, many times faster).
        columns = "".join(self._column(i) for i in group)
        if columns:
            box.extend(fragments_fromstring(columns))
        return box

    def _column(self, i: int) -> str:
        """One alignment column as HTML: a cell a witness, marked like its locus."""
        locus = self.locus_at.get(i)
        attrs = ' class="sc"'
        if locus is not None:
            c = display_class(locus)
            attrs = (
                f' class="sc v {css(c)}" data-locus="{html_attr(locus.id)}"'
                f' data-wits="{html_attr(witnesses_shown(locus))}" title="{html_attr(class_label(c))}"'
            )
        cells = []
        for j, tok in enumerate(self.result.alignment.columns[i]):
            if not self.extents[j].covers(i):
                cells.append(_ABSENT)
            elif tok is None:
                cells.append(_GAP)
            elif locus is not None and j and self.sigla[j] not in locus.lemma_witnesses:
                cells.append(f'<i class="d">{html_text(tok.t)}</i>')
            else:
                cells.append(f"<i>{html_text(tok.t)}</i>")
        if locus is not None and i == self.first[locus.id]:
            for siglum in self.result.sparse:
                reading = locus.reading_of(siglum)
                if reading is not None:
                    text = reading.text or "〔無〕"
                    short = text if len(text) <= SPARSE_SHOWN else text[:SPARSE_SHOWN] + "…"
                    title = html_attr(f"{self.ctx.label(siglum)}：{text}")
                    attrs_w = f'class="sparse" data-w="{html_attr(siglum)}" title="{title}"'
                    cells.append(f"<i {attrs_w}>{html_text(short)}</i>")
        return f"<span{attrs}>{''.join(cells)}</span>"


_ABSENT = '<i class="ne" title="不存">\u3000</i>'
_GAP = '<i class="gap">—</i>'
