"""Reading one witness's text back out of a TEI document the writer made.

In a collated layer, the shared text plus that witness's ``<lem>``/``<rdg>`` in each ``<app>``,
skipping what lies between its ``witEnd``/``lacunaStart`` and ``witStart``/``lacunaEnd``; in any
other layer, the blocks marked as its own text (``@source``). The tests use it to show the
document is lossless; it needs no more than the tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from collate.exporters.tei.markup import GETA, MILESTONES, NS, RESUMES, TEI_NS
from collate.model import Layer


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _has(element: Any, attr: str, pointer: str) -> bool:
    return pointer in (element.get(attr) or "").split()


def _choose(app: Any, pointer: str) -> Any | None:
    """The ``lem`` or ``rdg`` of ``app`` (inside ``rdgGrp``s too) that lists the witness."""
    for child in app:
        name = _local(child.tag)
        if name in ("lem", "rdg") and _has(child, "wit", pointer):
            return child
        if name == "rdgGrp":
            found = _choose(child, pointer)
            if found is not None:
                return found
    return None


@dataclass(slots=True)
class _State:
    pointer: str
    extant: bool
    out: list[str] = field(default_factory=list)

    def add(self, text: str | None) -> None:
        """Keep ``text`` if the witness is extant here."""
        if text and self.extant:
            self.out.append(text)


# Elements whose content is not the witness's text (apparatus notes, punctuation, labels, breaks).
_SKIP = frozenset({"note", "witDetail", "pc", "label", "pb", "lb", "milestone", "wit", "desc"})


def _walk(element: Any, state: _State) -> None:
    state.add(element.text)
    for child in element:
        name = _local(child.tag)
        if name == "app":
            chosen = _choose(child, state.pointer)
            if chosen is not None:
                _walk(chosen, state)
        elif name in MILESTONES:
            if _has(child, "wit", state.pointer):
                state.extant = name in RESUMES
        elif name == "g" and child.text == GETA and (child.get("ref") or "").startswith("#"):
            # A gaiji entity the file names but no table resolved: the file has the entity.
            state.add(f"&{child.get('ref')[1:]};")
        elif name == "gap":
            if child.get("reason") == "control-character":
                code = child.findtext(f"{{{TEI_NS}}}desc") or ""
                if code.startswith("U+"):
                    state.add(chr(int(code[2:], 16)))
        elif name and name not in _SKIP:
            _walk(child, state)
        state.add(child.tail)


def witness_text_from_tei(tree: Any, siglum: str, layer: Layer) -> str:
    """One witness's text of one layer, read back out of a TEI document this module wrote.

    In a layer collated for the witness (its ``<witness>``'s ``@ana`` lists it): the shared
    text plus the witness's own ``lem``/``rdg`` in each ``app`` (nested entries too), skipping
    what lies outside its extent (after ``witEnd``/``lacunaStart``, before ``witStart``/
    ``lacunaEnd``). In any other layer: the blocks of that layer marked as the witness's text
    only (``@source``: the base's uncollated blocks, another witness's own-text division).
    Punctuation (``pc``), labels, breaks and notes inside a block are not text. Empty for a
    witness the document does not list.
    """
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    witness = root.xpath("//tei:listWit//tei:witness[@xml:id=$s]", namespaces=NS, s=siglum)
    if not witness:
        return ""
    pointer = f"#{siglum}"
    if not _has(witness[0], "ana", f"#{layer.value}"):
        return _own(root, pointer, layer)
    blocks = root.xpath(
        "//tei:text//*[(self::tei:seg or self::tei:note) and contains(concat(' ', @ana, ' '), $a)]",
        namespaces=NS,
        a=f" #{layer.value} ",
    )
    first = next(
        (
            _local(m.tag)
            for block in blocks
            for m in block.iter(*(f"{{{TEI_NS}}}{x}" for x in MILESTONES))
            if _has(m, "wit", pointer)
        ),
        None,
    )
    state = _State(pointer, extant=first not in RESUMES)
    for block in blocks:
        if block.get("source") is None:  # text of one witness only: not collated
            _walk(block, state)
    return "".join(state.out)


def _own(root: Any, pointer: str, layer: Layer) -> str:
    """The witness's text of a layer not collated for it: its blocks of that layer with ``@source``."""
    if layer is Layer.HEADING:
        kind = "self::tei:head or self::tei:trailer"  # headings have no layer category of their own
    else:
        kind = "(self::tei:seg or self::tei:note) and contains(concat(' ', @ana, ' '), $a)"
    blocks = root.xpath(
        f"//tei:text//*[({kind}) and contains(concat(' ', @source, ' '), $p)]",
        namespaces=NS,
        a=f" #{layer.value} ",
        p=f" {pointer} ",
    )
    state = _State(pointer, extant=True)
    for block in blocks:
        _walk(block, state)
    return "".join(state.out)
