"""A column per witness: every stretch of the lossless document says whose text it is.

A viewer that lays out one text per witness (the Versioning Machine builds each column from the
``<lem>``/``<rdg>`` whose ``@wit`` names the column's witness) shows text outside an ``<app>`` in
every column, and knows nothing of ``witEnd`` or ``lacunaStart``. Left as they are, the base's
text after a fragment's end would stand in that fragment's column, and everything the base has
in a sparse witness's (大戴禮's) column, which is extant only at its readings.

So text stays outside an entry only where every witness of the ``<listWit>`` has it. Every
other stretch is wrapped in ``<app type="extent">`` whose one ``<lem>`` lists exactly the
witnesses that have it: a block of a layer some witnesses lack (a whole ``<seg>`` or ``<note>``
where nothing inside changes), a run of a collated block after a witness's ``witEnd`` or before
its ``witStart``, text of the base alone (headings, 蕙田案, a passage of another work) or of one
witness's own-text division. A witness absent from an entry has nothing there, which is what
"not extant" means; an empty reading would instead say it omits the text. Inside a reading the
same holds for the reading's witnesses: one that stops inside a longer lemma does not have the
lemma's characters after its ``witEnd``.

The pass adds no characters, moves none and changes no reading: each witness reads back exactly
as before (:mod:`.readback` follows the ``<lem>`` that names it), and a witness is never listed
where it is not extant, so the apparatus rules hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from collate.exporters.tei.markup import EXTENT, MILESTONES, NS, RESUMES, TEI_NS, XML_ID, E, Items, attach, detach

_APP = f"{{{TEI_NS}}}app"
_READINGS = frozenset({f"{{{TEI_NS}}}lem", f"{{{TEI_NS}}}rdg"})
_GROUP = f"{{{TEI_NS}}}rdgGrp"
_MARKS = frozenset(f"{{{TEI_NS}}}{m}" for m in MILESTONES)
_RESUMES = frozenset(f"{{{TEI_NS}}}{m}" for m in RESUMES)
# Blocks of running text (the writer's <seg> and <note>, with @ana or @source), and headings.
_INLINE_BLOCKS = frozenset({f"{{{TEI_NS}}}seg", f"{{{TEI_NS}}}note"})
_HEADINGS = frozenset({f"{{{TEI_NS}}}head", f"{{{TEI_NS}}}trailer"})


def synoptic(root: Any) -> None:
    """Wrap, in place, every stretch of ``root``'s body that not every witness has (see the module)."""
    _Pass(root).run()


def _wits(element: Any) -> list[str]:
    return [w[1:] for w in (element.get("wit") or "").split() if w.startswith("#")]


def _is_block(element: Any) -> bool:
    if not isinstance(element.tag, str):
        return False
    if element.tag in _HEADINGS:
        return True
    return element.tag in _INLINE_BLOCKS and bool(element.get("ana") or element.get("source"))


def _blocks(element: Any) -> Iterator[Any]:
    """The blocks under ``element`` in document order (a block's own notes are part of it)."""
    for child in element:
        if _is_block(child):
            yield child
        elif isinstance(child.tag, str):
            yield from _blocks(child)


class _Pass:
    def __init__(self, root: Any) -> None:
        self.order: list[str] = root.xpath("//tei:listWit//tei:witness/@xml:id", namespaces=NS)
        self.everyone = frozenset(self.order)
        # Per layer category (``#jing``), the witnesses that carry it (their <witness>'s @ana).
        self.carriers: dict[str, frozenset[str]] = {}
        for witness in root.xpath("//tei:listWit//tei:witness[@ana]", namespaces=NS):
            for layer in witness.get("ana").split():
                self.carriers[layer] = self.carriers.get(layer, frozenset()) | {witness.get(XML_ID)}
        bodies = root.xpath("//tei:text/tei:body", namespaces=NS)
        self.blocks = list(_blocks(bodies[0])) if bodies else []
        # Whether each (layer, witness) is extant at the point reached: as the readback decides,
        # a witness whose first milestone in the layer is a witStart begins not extant.
        self.extant: dict[tuple[str, str], bool] = {}
        for block in self.blocks:
            layer = self._layer(block)
            if layer is None:
                continue
            for mark in block.iter(*_MARKS):
                for w in _wits(mark):
                    self.extant.setdefault((layer, w), mark.tag not in _RESUMES)

    def run(self) -> None:
        for block in self.blocks:
            self._block(block)

    @staticmethod
    def _layer(block: Any) -> str | None:
        """The layer a collated block belongs to (its first @ana), None for text of one witness only."""
        if block.get("source") or block.tag in _HEADINGS:
            return None
        ana = (block.get("ana") or "").split()
        return ana[0] if ana else None

    def _owners(self, layer: str, present: frozenset[str], reading: bool) -> frozenset[str]:
        """Who of ``present`` has the text here: the layer's witnesses that are extant; inside a
        reading also its witnesses that are not collated in the layer (a sparse witness's reading)."""
        carriers = self.carriers.get(layer, frozenset())
        return frozenset(
            w for w in present if self.extant.get((layer, w), True) if w in carriers or (reading and w not in carriers)
        )

    def _entry(self, owners: frozenset[str], items: Items) -> Any:
        lem = E.lem(wit=" ".join(f"#{w}" for w in self.order if w in owners))
        attach(lem, items)
        return E.app(lem, type=EXTENT)

    def _block(self, block: Any) -> None:
        source = block.get("source")
        if source or block.tag in _HEADINGS:
            owners = frozenset(s[1:] for s in (source or "").split() if s.startswith("#"))
            if owners and owners != self.everyone:
                self._wrap_block(block, owners)
            return
        layer = self._layer(block)
        if layer is None:
            return
        owners = self._owners(layer, self.everyone, reading=False)
        named = {w for r in block.iter(*_READINGS) for w in _wits(r)}
        if not any(True for _ in block.iter(*_MARKS)) and named <= owners:
            # Nothing starts or stops inside and every reading is of these witnesses: the block is theirs.
            if owners and owners != self.everyone:
                self._wrap_block(block, owners)
            return
        self._content(block, layer, self.everyone, reading=False)

    def _wrap_block(self, block: Any, owners: frozenset[str]) -> None:
        """The whole block in one entry of ``owners``; a heading keeps its place and wraps its content."""
        if block.tag in _HEADINGS:
            # A <head> cannot stand inside a reading: its content goes into the entry instead.
            block.append(self._entry(owners, detach(block)))
            return
        entry = self._entry(owners, [])
        block.addprevious(entry)
        entry.tail, block.tail = block.tail, None
        entry[0].append(block)

    def _content(self, container: Any, layer: str, present: frozenset[str], reading: bool) -> None:
        """Wrap each run of ``container``'s content that not all of ``present`` have, following
        the milestones in document order."""
        runs: list[tuple[frozenset[str] | None, Items]] = []
        for item in detach(container):
            key: frozenset[str] | None
            if isinstance(item, str):
                key = None if not item.strip() else self._owners(layer, present, reading)
            elif item.tag == _APP:
                self._app(item, layer)
                key = None
            elif item.tag in _MARKS:
                for w in _wits(item):
                    self.extant[(layer, w)] = item.tag in _RESUMES
                key = None
            else:
                key = self._owners(layer, present, reading)
            if runs and key is not None and runs[-1][0] == key:
                runs[-1][1].append(item)
            else:
                runs.append((key, [item]))
        out: Items = []
        for key, items in runs:
            if key is None or key == present or not key:
                out.extend(items)
            else:
                out.append(self._entry(key, items))
        attach(container, out)

    def _app(self, app: Any, layer: str) -> None:
        for child in app:
            if child.tag in _READINGS:
                self._content(child, layer, frozenset(_wits(child)), reading=True)
            elif child.tag == _GROUP:
                self._app(child, layer)
