"""The editor's decisions (``collate review``) on an apparatus entry.

A witness's reading the editor adopted becomes the ``<lem>``, with ``@resp``, and the base's
reading stands as a ``<rdg>`` with its witnesses and characters. Only the elements' names
and order change, never which witnesses a reading lists, so every witness still reads back
its own text. Keeping the base's reading puts ``@resp`` on the ``<lem>``; a reclassified
reading carries the editor's class in ``@type`` (set with the other readings' classes) and
``@resp``; a doubtful place (存疑) has ``cert="low"`` on its ``<lem>``; the editor's comment
is a ``<note type="editorial">`` in the entry. ``@resp`` points at the editors the header
declares (``ed-<name>``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from collate.apparatus import Locus
from collate.exporters.tei.context import Context
from collate.exporters.tei.markup import NS, TEI_NS, XML_ID, XML_LANG, E
from collate.model.annotations import DecisionAction, EditorDecision

_LEM = f"{{{TEI_NS}}}lem"
_RDG = f"{{{TEI_NS}}}rdg"
_RDG_GRP = f"{{{TEI_NS}}}rdgGrp"
# What a reading group says of its readings; a reading taken out of the group keeps it.
_INHERITED = ("type", "cause", "ana")


def decide(
    ctx: Context,
    entry: Any,
    locus: Locus,
    ids: Mapping[int, Sequence[str]],
    new_id: Callable[[], str],
    first: bool,
) -> None:
    """Show ``locus.decision`` on ``entry`` (its ``<app>``, or one part of it).

    ``ids`` are the ``xml:id``s of each reading's ``<rdg>``s in this entry (by index in
    ``locus.readings``); ``new_id`` gives an id to the base's reading if it becomes a
    ``<rdg>``. The comment is written once, in the ``first`` part.
    """
    decision = locus.decision
    if decision is None:
        return
    resp = ctx.editor_resp(decision.resp)
    lem = entry[0]
    adopted = _adopted(entry, locus, decision, ids)
    if adopted is not None:
        _lift(adopted)
        lem.tag = _RDG
        lem.set(XML_ID, new_id())
        adopted.tag = _LEM
        entry.insert(0, adopted)  # the lemma comes first; the base's reading right after it
        lem = adopted
    if resp and (adopted is not None or DecisionAction.KEEP in decision.actions):
        lem.set("resp", resp)
    if decision.doubtful:
        lem.set("cert", "low")
        if resp:
            lem.set("resp", resp)
    if resp:
        for k, reading in enumerate(locus.readings):
            if reading.norm in decision.reclassified:
                for rdg in _by_ids(entry, ids.get(k, ())):
                    rdg.set("resp", resp)
    if first and decision.comment:
        # @n: the label a publication tool prints (按, the editor's remark; 存疑, left open).
        attrs = {
            "type": "editorial",
            "subtype": "doubt" if decision.doubtful else "decision",
            "n": "存疑" if decision.doubtful else "按",
        }
        if resp:
            attrs["resp"] = resp
        lang = {XML_LANG: "en"} if decision.comment.isascii() else {}
        entry.append(E.note(*ctx.text(decision.comment), attrs, lang))


def _by_ids(entry: Any, wanted: Sequence[str]) -> list[Any]:
    found: list[Any] = [r for i in wanted for r in entry.xpath(".//tei:rdg[@xml:id=$i]", namespaces=NS, i=i)]
    return found


def _adopted(entry: Any, locus: Locus, decision: EditorDecision, ids: Mapping[int, Sequence[str]]) -> Any | None:
    """The ``<rdg>`` of the adopted reading in this entry: the chosen witness's, else the first.

    None if no reading was adopted, or it has no ``<rdg>`` here (a reported reading is
    written in the first part of a locus only).
    """
    reading = locus.editor_lemma()
    if reading is None:
        return None
    k = next(k for k, r in enumerate(locus.readings) if r is reading)
    rdgs = _by_ids(entry, ids.get(k, ()))
    pointer = f"#{decision.siglum}"
    return next((r for r in rdgs if pointer in (r.get("wit") or "").split()), rdgs[0] if rdgs else None)


def _lift(rdg: Any) -> None:
    """Take ``rdg`` out of its ``<rdgGrp>`` (the lemma stands first in the ``<app>``, alone).

    It keeps what the group said of it; a group left with one reading gives way to that reading.
    """
    group = rdg.getparent()
    if group is None or group.tag != _RDG_GRP:
        return
    _inherit(rdg, group)
    group.remove(rdg)
    if len(group) == 1 and group[0].tag == _RDG:
        only = group[0]
        _inherit(only, group)
        group.addprevious(only)
        group.getparent().remove(group)


def _inherit(rdg: Any, group: Any) -> None:
    for attr in _INHERITED:
        value = group.get(attr)
        if value is not None and rdg.get(attr) is None:
            rdg.set(attr, value)
