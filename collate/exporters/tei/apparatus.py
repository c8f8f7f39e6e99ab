"""Apparatus entries: ``<app>`` with ``<lem>``, ``<rdg>``, ``<rdgGrp>``, ``<witDetail>``, notes, milestones.

An entry comes from a locus of the collation (its id and class), or exists only so the file is
lossless: ``type="script"`` where a witness differs from the base by script alone, and
``type="extent"`` where a ``witStart``/``witEnd`` must sit inside a reading. A passage a
witness has in another order is two entries linked by ``@exclude``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from collate.apparatus import Locus, ReadingClass
from collate.exporters.tei.context import Context, Event
from collate.exporters.tei.decisions import decide
from collate.exporters.tei.markup import EXTENT, LAYOUT, SCRIPT, XML_ID, E, Item
from collate.exporters.tei.plan import CollatedLayer, Move, Piece
from collate.exporters.tei.readings import classify, derived, note, reading_type
from collate.model import Token


@dataclass(slots=True)
class Member:
    """A witness's part in one apparatus entry: its tokens there and how they pair with the base."""

    siglum: str
    columns: list[int]
    tokens: list[Token]
    moved: bool = False
    paired: bool = True


def _members(
    ctx: Context, lay: CollatedLayer, start: int, end: int, locus: Locus | None, point: bool
) -> tuple[list[Member], dict[int, list[Member]], list[Member]]:
    """Who goes in the lemma, in which reading (by index in the locus), or in a script reading."""
    lem: list[Member] = []
    readings: dict[int, list[Member]] = {}
    fallback: list[Member] = []
    for w in lay.readers:
        j = lay.index[w]
        cols = [c for c in range(start, end) if lay.extant(w, c)]
        held = [t for c in cols if (t := lay.columns[c][j]) is not None]
        here = [t for t in held if t.index not in lay.moved[w]]
        arriving = [t for m in lay.inside.get(locus.id, []) if m.siglum == w for t in m.tokens] if locus else []
        toks = sorted(here + arriving, key=lambda t: t.index)
        member = Member(w, cols, toks, moved=len(here) != len(held) or bool(arriving))
        if point:
            if locus is not None and w in locus.lemma_witnesses:
                lem.append(member)
            continue
        if not cols:
            continue
        role: int | None = None  # None: the lemma; else the reading's index
        if locus is not None and w not in locus.lemma_witnesses:
            reading = locus.reading_of(w)
            if reading is not None and reading.cls is not ReadingClass.NOT_EXTANT:
                role = locus.readings.index(reading)
        member.paired = not member.moved and all(
            (lay.columns[c][0] is None) == (lay.columns[c][j] is None) for c in cols
        )
        own = "".join(t.t for t in toks)
        base = "".join(t.t for c in cols if (t := lay.columns[c][0]) is not None)
        if role is not None and not (own == base and member.paired):
            readings.setdefault(role, []).append(member)
        elif own == base or (locus is not None and member.paired):
            # In a locus, a lemma witness that differs by script only keeps its place in the
            # lemma (its forms nested there); outside loci its forms make the entry itself.
            lem.append(member)
        else:
            fallback.append(member)
    return lem, readings, fallback


def app(ctx: Context, lay: CollatedLayer, unit: Piece, inner: list[Event]) -> Any:
    """The entry for a unit of columns: a locus (or its part), or a script or extent difference.

    ``inner`` are the base's marks and labels that fall inside the lemma.
    """
    start, end, locus, first, point, part = unit.start, unit.end, unit.locus, unit.first, unit.point, unit.part
    lem_members, by_reading, fallback = _members(ctx, lay, start, end, locus, point)
    base = ctx.collation.base
    sparse_agreeing = [s for s in (locus.lemma_witnesses if locus and first else ()) if s not in lay.index]
    lem = E.lem(
        *_lemma_content(ctx, lay, start, end, lem_members, inner, sparse_agreeing),
        wit=ctx.wits([base, *(m.siglum for m in lem_members), *sparse_agreeing]),
    )
    children: list[Item] = [lem]
    suffix = f".p{part + 1}" if part else ""
    app_attrs: dict[str, str] = {}
    ids: dict[int, list[str]] = {}
    if locus is not None:
        app_attrs[XML_ID] = f"app.{locus.id}{suffix}"
        app_attrs["type"] = reading_type(locus.cls)
        counter = [0]

        def next_id() -> str:
            counter[0] += 1
            return f"rdg.{locus.id}{suffix}.{counter[0]}"

        children.extend(_locus_readings(ctx, lay, locus, by_reading, first, next_id, ids))
    else:
        app_attrs["type"] = _entry_type(lay, start, end, lem_members, fallback)
    children.extend(_fallback_readings(ctx, lay, fallback, start, end))
    if locus is not None and first and locus.id in lay.excludes:
        app_attrs["exclude"] = " ".join(f"#app.{x}" for x in lay.excludes[locus.id])
    if locus is not None and first:
        children.extend(note(ctx, n, locus, ids) for n in locus.notes)
    entry = E.app(*children, app_attrs)
    if locus is not None:
        decide(ctx, entry, locus, ids, next_id, first)
    return entry


def _locus_readings(
    ctx: Context,
    lay: CollatedLayer,
    locus: Locus,
    by_reading: dict[int, list[Member]],
    first: bool,
    next_id: Callable[[], str],
    ids: dict[int, list[str]],
) -> list[Item]:
    """The locus's readings in the entry: each reading's ``<rdg>``s (one a group of members with
    the same characters), grouped and classed; a derived reading in the entry's first part only."""
    children: list[Item] = []
    cluster: list[Any] = []
    for k, reading in enumerate(locus.readings):
        if reading.cls is ReadingClass.NOT_EXTANT:
            continue
        if reading.derived:
            if first:
                children.append(derived(ctx, reading, next_id(), ids.setdefault(k, [])))
            continue
        members = by_reading.get(k, [])
        if not members:
            continue
        rdgs = [_rdg(ctx, lay, group, next_id(), ids.setdefault(k, [])) for group in _groups(lay, members)]
        if locus.cls is ReadingClass.NOT_EXTANT:
            # Text where the base is not extant is no addition to it: the entry's type says why.
            children.extend(rdgs)
            continue
        if reading.cls is ReadingClass.ORTHOGRAPHIC:
            for rdg in rdgs:
                classify(ctx, rdg, reading)
            cluster.extend(rdgs)
        elif len(rdgs) == 1:
            classify(ctx, rdgs[0], reading)
            children.append(rdgs[0])
        else:
            group = E.rdgGrp(*rdgs)
            classify(ctx, group, reading)
            children.append(group)
    if len(cluster) > 1:
        # Orthographic sub-variation: one group, each reading keeping its own cause.
        children.append(E.rdgGrp(*cluster, type=reading_type(ReadingClass.ORTHOGRAPHIC)))
    else:
        children.extend(cluster)
    return children


def _entry_type(lay: CollatedLayer, start: int, end: int, lem_members: list[Member], fallback: list[Member]) -> str:
    """The type of an entry that is no locus: a transposition, an extent or a script difference."""
    differs = any(
        (t := lay.columns[c][0]) is not None
        and any((o := lay.token(m.siglum, c)) is not None and o.t != t.t for m in lem_members)
        for c in range(start, end)
    )
    if any(m.moved for m in fallback):
        return ReadingClass.TRANSPOSITION.value
    if fallback and all(_outside(lay, m) for m in fallback):
        return EXTENT  # the witnesses' pages are lost, or the passage is not theirs
    if fallback and not differs and all(_set_apart(lay, m.siglum, start, end) for m in fallback):
        return LAYOUT
    return SCRIPT if differs or fallback else EXTENT


def _set_apart(lay: CollatedLayer, siglum: str, start: int, end: int) -> bool:
    """The witness differs from the base in columns [start, end) only by a heading it sets apart or runs in (記)."""
    differ = []
    for c in range(start, end):
        base, tok = lay.columns[c][0], lay.token(siglum, c)
        if base is None and tok is None:
            continue
        if base is None or tok is None or tok.t != base.t:
            differ.append(c)
    return bool(differ) and all((c, siglum) in lay.headings for c in differ)


def _fallback_readings(ctx: Context, lay: CollatedLayer, fallback: list[Member], start: int, end: int) -> list[Item]:
    """The readings of witnesses in no reading of the locus: a lacuna, a passage not theirs, a
    passage moved, or a difference of script."""
    children: list[Item] = []
    for group in _groups(lay, fallback):
        wits = ctx.wits([m.siglum for m in group])
        if all(not m.tokens and lay.lost(m.siglum, m.columns) for m in group):
            # Pages the witness has lost: its reading is a lacuna, opened and closed here.
            children.append(E.rdg(E.lacunaStart(wit=wits), E.lacunaEnd(wit=wits), wit=wits))
            continue
        if all(not m.tokens and lay.missing(m.siglum, m.columns) for m in group):
            # A passage the witness does not contain (one a quoting text skips or takes from
            # elsewhere): the witness stops here and resumes after it, which is no omission.
            children.append(E.rdg(E.witEnd(wit=wits), E.witStart(wit=wits), wit=wits))
            continue
        rdg = _rdg(ctx, lay, group, None, [])
        kind = LAYOUT if all(_set_apart(lay, m.siglum, start, end) for m in group) else SCRIPT
        rdg.set("type", ReadingClass.TRANSPOSITION.value if group[0].moved else kind)
        if group[0].moved:
            rdg.set("cause", ReadingClass.TRANSPOSITION.value)
        children.append(rdg)
    return children


def _outside(lay: CollatedLayer, member: Member) -> bool:
    """The member has nothing here because its pages are lost or the passage is not its own."""
    return not member.tokens and (lay.lost(member.siglum, member.columns) or lay.missing(member.siglum, member.columns))


def moved_app(ctx: Context, lay: CollatedLayer, move: Move) -> Any:
    """A passage a witness has here, in its own order, that the base has elsewhere.

    The entry at the base's place gives the witness an empty reading of type
    ``transposition``; the two entries exclude each other (``@exclude``), as the
    Guidelines encode variation in order.
    """
    p = min(move.column, lay.n - 1)
    others = [w for w in lay.readers if w != move.siglum and lay.extant(w, p)]
    kind = ReadingClass.TRANSPOSITION.value
    rdg = E.rdg(
        *(item for tok in move.tokens for item in ctx.chars(tok)),
        {XML_ID: f"rdg.{move.id}"},
        wit=f"#{move.siglum}",
        type=kind,
        cause=kind,
    )
    attrs = {XML_ID: f"app.{move.id}", "type": kind}
    if move.id in lay.origins:
        attrs["exclude"] = f"#app.{lay.origins[move.id]}"
    return E.app(E.lem(wit=ctx.wits([ctx.collation.base, *others])), rdg, attrs)


def _lemma_content(
    ctx: Context,
    lay: CollatedLayer,
    start: int,
    end: int,
    members: list[Member],
    inner: list[Event],
    sparse: list[str],
) -> list[Item]:
    """The base's text over the columns, with the lemma witnesses' milestones, marks and script forms.

    ``sparse`` are the sparse witnesses that agree with the lemma: a script form nested in the
    lemma lists them with the base, or a viewer's column of theirs would lose the character.
    """
    items: list[Item] = []
    ev = 0
    paired = [m for m in members if m.paired]
    for c in range(start, end):
        starting = [m.siglum for m in members if lay.starts_at(m.siglum, c)]
        if starting:
            items.append(E.witStart(wit=ctx.wits(starting)))
        base = lay.columns[c][0]
        if base is not None:
            while ev < len(inner) and inner[ev].offset <= base.start:
                items.append(inner[ev].item)
                ev += 1
        items.extend(ctx.witness_marks(lay, c, [m.siglum for m in members if c in m.columns]))
        if base is not None:
            forms: dict[str, tuple[Token, list[str]]] = {}
            for m in paired:
                other = lay.token(m.siglum, c) if c in m.columns else None
                if other is not None and other.t != base.t:
                    forms.setdefault(other.t, (other, []))[1].append(m.siglum)
            if forms:
                differ = {s for _, sigla in forms.values() for s in sigla}
                same = [m.siglum for m in members if c in m.columns and m.siglum not in differ]
                nested = E.app(
                    E.lem(*ctx.base_token(base), wit=ctx.wits([ctx.collation.base, *same, *sparse])),
                    *(E.rdg(*ctx.chars(tok), wit=ctx.wits(sigla), type=SCRIPT) for tok, sigla in forms.values()),
                    type=SCRIPT,
                )
                items.append(nested)
            else:
                items.extend(ctx.base_token(base))
        ending = [m.siglum for m in members if lay.ends_at(m.siglum, c)]
        if ending:
            items.append(E.witEnd(wit=ctx.wits(ending)))
    items.extend(e.item for e in inner[ev:])
    return items


def _groups(lay: CollatedLayer, members: list[Member]) -> list[list[Member]]:
    """Witnesses of one reading with the very same characters and extent edges share a ``<rdg>``."""
    keyed: dict[tuple[Any, ...], list[Member]] = {}
    for m in members:
        starts = bool(m.columns) and lay.starts_at(m.siglum, m.columns[0])
        ends = bool(m.columns) and lay.ends_at(m.siglum, m.columns[-1])
        keyed.setdefault((tuple(t.t for t in m.tokens), starts, ends), []).append(m)
    return list(keyed.values())


def _rdg(ctx: Context, lay: CollatedLayer, group: list[Member], rdg_id: str | None, ids: list[str]) -> Any:
    """One reading: the first member's characters (all members have the same), their marks."""
    head = group[0]
    items: list[Item] = []
    sigla = [m.siglum for m in group]
    if head.columns and lay.starts_at(head.siglum, head.columns[0]):
        items.append(E.witStart(wit=ctx.wits(sigla)))
    col_of = {id(t): c for m in group for c in m.columns if (t := lay.token(m.siglum, c)) is not None}
    for i, tok in enumerate(head.tokens):
        for m in group:
            other = m.tokens[i]
            c = col_of.get(id(other))
            if c is not None:
                items.extend(ctx.milestone(mark, m.siglum) for mark in ctx.wit_marks.get((lay.layer, c, m.siglum), []))
        items.extend(ctx.chars(tok))
    if head.columns and lay.ends_at(head.siglum, head.columns[-1]):
        items.append(E.witEnd(wit=ctx.wits(sigla)))
    attrs: dict[str, str] = {"wit": ctx.wits(sigla)}
    if rdg_id:
        attrs[XML_ID] = rdg_id
        ids.append(rdg_id)
    return E.rdg(*items, attrs)
