"""Handing notes to the apparatus: each note goes to the loci its claims concern.

A claim's place is a stretch (or an insertion point) of the note's own witness in one layer;
the alignment of that layer maps it to columns, through that witness's tokens (so a 考證 note of
a witness that is not the base is placed by its own text, never by the base's offsets). Of the
loci there, a note goes to those that answer its claim best:

0. the claimed witness's reading there is the one claimed (an addition of the words claimed for
   an ``adds`` claim, an omission for a ``lacks`` claim; the lemma for a witness said to agree
   with the base);
1. the claimed witness has a reading of that kind there;
2. a locus of substance (not a placeholder or a difference of form) at the very place;
3. a placeholder or orthographic locus on the very characters (never for an insertion point).

A note whose claims find no locus is not attached; it is listed among the collation's
diagnostics (``note-unattached``) rather than dropped. A note without claims that quotes the
passage it discusses goes to the loci of substance on the words it quotes; where its own words
name characters of that passage (按鍾鼓之鍾古皆作鍾 after quoting 賜鍾人於門内霤), it speaks of
those, and goes only to the loci whose lemma or readings hold one of them.

A witness's report of another text's reading (``修一作「脩」``, :attr:`Note.variant`) goes to every
locus on the characters it follows, whatever its class (脩 for 修 may be a difference of form),
and is checked there, on the alignment: each witness that reads the reported characters at that
place (the same characters, or the same comparison key) confirms it; where none does, it stays
not checkable (the text the note means may be one the project does not collate).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from collate.apparatus import Collation, Locus
from collate.apparatus.records import ApparatusDiagnostic
from collate.model import Diagnostic, Layer, ReadingClass, Severity, SourceLocation, Token
from collate.model.annotations import AttachedNote, NoteClaim, NoteVerdict, Verdict
from collate.normalize.tokenize import is_token_char
from collate.notes.fold import default_normalizer, fold
from collate.notes.records import AnchorMethod, Claim, ClaimKind, Note

if TYPE_CHECKING:
    from collate.align.alignment import TokenIndex
    from collate.apparatus import LayerResult
    from collate.notes import NotesResult

UNATTACHED = "note-unattached"
# Differences of form and digitization placeholders: a note on a reading is not about them.
_SLIGHT = (ReadingClass.PLACEHOLDER, ReadingClass.ORTHOGRAPHIC, ReadingClass.NOT_EXTANT)
_KIND = {
    ClaimKind.ADDS: ReadingClass.ADDITION,
    ClaimKind.SUPERFLUOUS: ReadingClass.ADDITION,
    ClaimKind.LACKS: ReadingClass.OMISSION,
}


@dataclass(frozen=True, slots=True)
class _Target:
    """A place a note speaks of: raw ``[start, end)`` of its witness in ``layer``, and the claim there."""

    note: Note
    layer: Layer
    start: int
    end: int
    claim: Claim | None
    # A note without claims that quotes its passage: the characters of the passage its own words
    # (its quotation left out) name (鍾 in 賓所執脯以賜鍾人於門内霤按鍾鼓之鍾古皆作鍾…); empty
    # where they name none.
    named: frozenset[str] = frozenset()


def attach(collation: Collation, result: NotesResult) -> Collation:
    """The collation with notes attached to the loci their claims concern; the unattached listed."""
    targets = _targets(result)
    found: dict[str, dict[str, list[Claim | None]]] = {}  # locus id → note id → its claims there
    # A variant note's claim, checked where it is attached: locus id → claim → as the locus has it.
    checked: dict[str, dict[Claim, _Checked]] = {}
    for layer in collation.layers:
        mine = [t for t in targets if t.layer is layer.layer and t.note.witness in layer.alignment.sigla]
        if not mine:
            continue
        near = _Loci(layer.loci)
        by_witness: dict[str, _Offsets] = {}
        for target in mine:
            w = target.note.witness
            if w not in by_witness:
                by_witness[w] = _Offsets(layer.alignment.index(layer.alignment.sigla.index(w)))
            cols = by_witness[w].columns(target.start, target.end)
            if cols is None:
                continue
            claim = target.claim
            if claim is not None and target.note.variant and not cols[2]:
                for locus in near.near(cols[0], cols[1]):
                    if locus.col_start <= cols[1] and locus.col_end > cols[0]:
                        found.setdefault(locus.id, {}).setdefault(target.note.id, []).append(claim)
                        checked.setdefault(locus.id, {})[claim] = _readers(layer, locus, claim, cols[0], cols[1])
                continue
            for locus in _best(near.near(cols[0], cols[1]), target, cols):
                found.setdefault(locus.id, {}).setdefault(target.note.id, []).append(target.claim)
    notes = {n.id: n for n in result.notes}
    for layer in collation.layers:
        loci = tuple(
            _with(locus, found.get(locus.id, {}), notes, result, checked.get(locus.id, {})) for locus in layer.loci
        )
        collation = collation.with_layer(layer.with_loci(loci))
    return _listed(collation, unattached(collation, result))


def unattached(collation: Collation, result: NotesResult) -> tuple[Note, ...]:
    """The notes that make claims yet stand on no locus of ``collation``."""
    on = {n.id for locus in collation.loci() for n in locus.notes}
    return tuple(n for n in result.notes if result.claims_of(n) and n.id not in on)


def _targets(result: NotesResult) -> list[_Target]:
    out: list[_Target] = []
    for note in result.notes:
        claims = result.claims_of(note)
        placed = [c for c in claims if c.base_start is not None and c.base_end is not None]
        out.extend(_Target(note, c.layer, c.base_start or 0, c.base_end or 0, c) for c in placed)
        if claims:
            continue
        anchor = result.anchor_of(note)
        if anchor is not None and anchor.method is AnchorMethod.QUOTE and anchor.end > anchor.start:
            out.append(_Target(note, anchor.layer, anchor.start, anchor.end, None, _named(note.text, anchor.quote)))
    return out


def _named(text: str, quote: str) -> frozenset[str]:
    """The characters of the passage ``quote`` that a note's own words (``text``, each phrase it
    quotes left out) name: keys of characters, never punctuation or layout."""
    phrases = [p for p in quote.split("…") if p]
    if not phrases:
        return frozenset()
    own = text
    for phrase in phrases:
        own = own.replace(phrase, "", 1)
    words = {k for c, k in zip(own, fold(own), strict=True) if is_token_char(c)}
    return frozenset(words & {k for c, k in zip(quote, fold(quote), strict=True) if is_token_char(c)})


class _Offsets:
    """One witness's tokens of a layer by raw offset, with the column each stands in."""

    def __init__(self, index: TokenIndex) -> None:
        pairs = sorted(zip((t.start for t in index.tokens), index.columns, strict=True))
        self.starts = [s for s, _ in pairs]
        self.cols = [c for _, c in pairs]

    def columns(self, start: int, end: int) -> tuple[int, int, bool] | None:
        """The columns ``[first, last]`` of the tokens in raw ``[start, end)`` and False; for an
        insertion point the columns of the tokens either side of it and True."""
        lo, hi = bisect.bisect_left(self.starts, start), bisect.bisect_left(self.starts, end)
        if start < end:
            cols = self.cols[lo:hi]
            return (min(cols), max(cols), False) if cols else None
        if not self.cols:
            return None
        before = self.cols[lo - 1] if lo > 0 else -1
        after = self.cols[lo] if lo < len(self.cols) else max(self.cols) + 1
        return min(before, after), max(before, after), True


class _Loci:
    """A layer's loci by their first column, to find those near some columns without a scan of all."""

    def __init__(self, loci: Sequence[Locus]) -> None:
        self.loci = sorted(loci, key=lambda x: x.col_start)
        self.starts = [x.col_start for x in self.loci]
        self.longest = max((x.col_end - x.col_start for x in self.loci), default=0)

    def near(self, first: int, last: int) -> list[Locus]:
        """The loci that touch columns ``[first, last]``."""
        lo = bisect.bisect_left(self.starts, first - self.longest - 1)
        hi = bisect.bisect_right(self.starts, last + 1)
        return [x for x in self.loci[lo:hi] if x.col_start <= last + 1 and x.col_end >= first]


def _best(loci: list[Locus], target: _Target, cols: tuple[int, int, bool]) -> list[Locus]:
    """The loci of the best tier (see the module's docstring) for one target; none if no tier has any."""
    first, last, point = cols
    tiers: dict[int, list[Locus]] = {}
    for locus in loci:
        if point:
            # Between the characters either side of the point (an addition there), or a locus
            # on the character before it (text the base lacks goes with the text before it).
            exact = (first < locus.col_start and locus.col_end <= last) or locus.col_start <= first < locus.col_end
        else:
            exact = locus.col_start <= last and locus.col_end > first
        tier = _tier(locus, target.claim, exact, point)
        if tier is not None and (not target.named or _names(target.named, locus)):
            tiers.setdefault(tier, []).append(locus)
    return tiers[min(tiers)] if tiers else []


def _names(named: frozenset[str], locus: Locus) -> bool:
    """Whether a note whose words name ``named`` of the passage it quotes speaks of this locus: the
    lemma or a reading holds one of them (a note on 鍾 is none of the 於/于 beside it)."""
    texts = [locus.lemma.text, *(r.text for r in locus.readings)]
    return any(not named.isdisjoint(fold(text)) for text in texts)


def _tier(locus: Locus, claim: Claim | None, exact: bool, point: bool) -> int | None:
    if claim is None:
        return 2 if exact and locus.cls not in _SLIGHT else None
    kind = _KIND.get(claim.kind)
    wanted = fold(claim.reading)
    # Readings, not variants: a note may speak of text the base leaves out where the entry is
    # not a variant of it (the 疏 a 五禮通考 quotation starts after).
    for reading in (r for r in locus.readings if r.cls is not ReadingClass.NOT_EXTANT):
        if claim.sigla and not set(claim.sigla) & set(reading.sigla):
            continue
        if kind is not None and reading.cls is not kind:
            continue
        if kind is None and reading.cls in _SLIGHT:
            continue
        words = fold(reading.text)
        if kind is ReadingClass.OMISSION or (wanted and (words == wanted or (not claim.sigla and wanted in words))):
            # An addition may stand just beside the place it is reported at; a reading on the place.
            if exact or kind is not None:
                return 0
        if claim.sigla and exact:
            return 1
    if not claim.witness and claim.kind is not ClaimKind.EMEND:
        # 疏内却兼言天子 names no edition and a whole stretch: only a reading with its words will do.
        return None
    agrees = claim.kind is ClaimKind.READS and claim.reading == claim.base
    if agrees and exact and set(claim.sigla) & set(locus.lemma_witnesses):
        return 0
    if exact and locus.cls not in _SLIGHT:
        return 2
    if exact and not point:
        return 3
    return None


@dataclass(frozen=True, slots=True)
class _Checked:
    """A variant note's claim as a locus carries it (the base's characters its ``base``) and its verdicts there."""

    record: NoteClaim
    verdicts: tuple[NoteVerdict, ...]


def _readers(layer: LayerResult, locus: Locus, claim: Claim, first: int, last: int) -> _Checked:
    """How a variant note's claim fares at ``locus``: a verdict per witness that reads the reported
    characters at columns ``[first, last]`` of ``layer``; one not-checkable verdict if none does.

    A witness reads them if its characters there are the reported ones, or have their comparison
    key: the key a witness that writes them exactly has, else the default rules' (the collation's
    normalizer is not at hand here; the two differ only in a project's own rules). The claim's
    ``base`` becomes the base's characters there: the note may stand in another witness, whose
    own characters (修 where the base reads 脩) are not the base's.
    """
    alignment = layer.alignment
    own = claim.note.witness
    cells: dict[str, list[Token]] = {}
    for j, siglum in enumerate(alignment.sigla):
        if not all(layer.extents[j].covers(c) for c in range(first, last + 1)):
            continue  # a witness not extant here reads nothing here
        cells[siglum] = [tok for c in range(first, last + 1) if (tok := alignment.columns[c][j]) is not None]
    base = "".join(t.t for t in cells.get(alignment.sigla[0], ()))
    cells.pop(own, None)  # the note's witness reads its own text, not the one it reports
    wanted = claim.reading
    exact = [toks for toks in cells.values() if "".join(t.t for t in toks) == wanted]
    key = "".join(t.n for t in exact[0]) if exact else default_normalizer().key(wanted)
    record = replace(claim.record(), base=base)
    verdicts = []
    for siglum, toks in cells.items():
        text = "".join(t.t for t in toks)
        if toks and (text == wanted or "".join(t.n for t in toks) == key):
            evidence = f"{siglum} reads {text} there"
            verdicts.append(NoteVerdict(record, siglum, Verdict.CONFIRMED, evidence, text, _place(locus, siglum)))
    if not verdicts:
        why = f"no witness of the project reads {wanted} there"
        verdicts.append(NoteVerdict(record, None, Verdict.NOT_CHECKABLE, why))
    return _Checked(record, tuple(verdicts))


def _place(locus: Locus, siglum: str) -> SourceLocation | None:
    """Where a witness's reading at ``locus`` stands (the lemma's place for the base), if known."""
    if siglum == locus.lemma.siglum:
        return locus.lemma.location
    reading = locus.reading_of(siglum)
    if reading is None:
        return None
    return next((w.location for w in reading.witnesses if w.siglum == siglum), None)


def _with(
    locus: Locus,
    here: dict[str, list[Claim | None]],
    notes: dict[str, Note],
    result: NotesResult,
    checked: dict[Claim, _Checked],
) -> Locus:
    """The locus with the notes found for it (a note already on it is not added twice)."""
    have = {n.id for n in locus.notes}
    fresh = tuple(_attached(notes[k], claims, result, checked) for k, claims in here.items() if k not in have)
    return locus.with_notes(locus.notes + fresh) if fresh else locus


def _attached(
    note: Note, claims: Iterable[Claim | None], result: NotesResult, checked: dict[Claim, _Checked]
) -> AttachedNote:
    mine = tuple(dict.fromkeys(c for c in claims if c is not None))
    records = {c: checked[c].record if c in checked else c.record() for c in mine}
    verdicts = tuple(
        v
        for c in mine
        for v in (
            checked[c].verdicts
            if c in checked
            else (
                NoteVerdict(records[c], k.witness or c.siglum, k.verdict, k.evidence, k.actual, k.location)
                for k in result.checks_of(c)
            )
        )
    )
    # A variant note is shown as its witness prints it (一作「繁」): its words alone are the reading.
    text = f"{note.label}「{note.text}」" if note.variant else note.text
    return AttachedNote(note.id, note.resp, text, note.location, tuple(records.values()), verdicts, note.witness)


def _listed(collation: Collation, notes: tuple[Note, ...]) -> Collation:
    """The collation with a ``note-unattached`` diagnostic for each note (once, if attached again)."""
    known = {(d.siglum, d.diagnostic.start) for d in collation.diagnostics if d.diagnostic.code == UNATTACHED}
    fresh = tuple(
        ApparatusDiagnostic(
            n.witness,
            Diagnostic(
                UNATTACHED,
                f"{n.id}: no locus of the collation is where its claims speak ({n.text[:24]})",
                n.start,
                n.end,
                Severity.INFO,
            ),
            n.location,
        )
        for n in notes
        if (n.witness, n.start) not in known
    )
    return replace(collation, diagnostics=collation.diagnostics + fresh) if fresh else collation
