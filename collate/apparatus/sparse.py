"""A readings file (a sparse witness) in the apparatus: its entries placed in the base, its readings derived.

A sparse witness has no text to align, only entries (:class:`~collate.model.SparseReading`)
naming a place by a phrase of the base. :func:`_place_readings` finds each entry's base
tokens; the builder (:mod:`collate.apparatus.build`) widens or adds loci around them and asks
:func:`_derived` for the witness's reading over each locus: the lemma with its entries
applied, classed by :func:`~collate.apparatus.compare._derived_class`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from collate.apparatus.compare import _derived_class
from collate.apparatus.records import ApparatusDiagnostic, LayerResult, Reading, SparsePlacement, WitnessReading
from collate.model import Diagnostic, Position, ReadingClass, Severity, SourceLocation, SparseReading, Token, Witness

if TYPE_CHECKING:
    from collate.normalize import Normalizer


def _place_readings(
    result: LayerResult, witness: Witness, normalizer: Normalizer
) -> tuple[tuple[SparsePlacement, ...], tuple[ApparatusDiagnostic, ...]]:
    """The layer's placements and diagnostics with ``witness``'s entries placed anew.

    Each entry of the layer is found in the base by its ``at`` phrase (in either script),
    then its ``base`` part (or, for an addition, the point ``before``/``after`` the phrase);
    entries that cannot be placed become diagnostics. The witness's earlier placements and
    diagnostics are dropped, the other witnesses' kept.
    """
    base = result.alignment.base
    # Where each character stands in the base, built once: an entry looks up its phrase's
    # rarest character instead of scanning the whole base (entries × base characters).
    starts = base.positions()
    placements = [p for p in result.placements if p.siglum != witness.siglum]
    diagnostics = [d for d in result.diagnostics if d.siglum != witness.siglum]
    for entry in witness.readings:
        if entry.layer is not result.layer:
            continue
        placed, found = _place(entry, base.tokens, starts, witness, normalizer)
        diagnostics.extend(found)
        if placed is not None:
            placements.append(placed)
    return tuple(placements), tuple(diagnostics)


def _derived(
    siglum: str,
    lemma: Sequence[Token],
    placements: Sequence[SparsePlacement],
    normalizer: Normalizer,
    simplified: tuple[bool, bool] = (False, False),
) -> tuple[Reading | None, list[ApparatusDiagnostic]]:
    """A sparse witness's reading over a whole locus: the lemma with its entries applied.

    Outside its entries the witness is taken to read as the base (it is extant only
    where it reports something, and reports only differences). None if it agrees.
    ``simplified``: whether the base and the readings file are written in simplified characters.
    """
    taken: set[int] = set()
    accepted: list[SparsePlacement] = []
    diagnostics: list[ApparatusDiagnostic] = []
    for p in sorted(placements, key=lambda p: (p.base_start, p.base_end, p.entry.start)):
        covered = set(range(p.base_start, p.base_end))
        if covered & taken:
            diagnostics.append(
                _diagnostic(p.siglum, p.entry, "sparse-overlap", "overlaps an earlier entry; ignored", p.location)
            )
            continue
        taken |= covered
        accepted.append(p)
    indexes = {tok.index for tok in lemma}
    out: list[str] = []
    for tok in lemma:
        out.extend(p.entry.reading for p in accepted if p.base_start == p.base_end == tok.index)
        if tok.index not in taken:
            out.append(tok.t)
        else:
            out.extend(p.entry.reading for p in accepted if p.base_start == tok.index < p.base_end)
    out.extend(p.entry.reading for p in accepted if p.base_start == p.base_end and p.base_start not in indexes)
    classes: set[ReadingClass] = set()
    for p in accepted:
        kind = p.entry.kind
        if kind == "addition":
            classes.add(ReadingClass.ADDITION)
        elif kind == "omission":
            classes.add(ReadingClass.OMISSION)
        else:
            base_text = "".join(t.t for t in lemma if p.base_start <= t.index < p.base_end)
            classes.update(_derived_class(base_text, p.entry.reading, normalizer, simplified))
    if not classes:
        return None, diagnostics
    text = "".join(out)
    sources = tuple(dict.fromkeys(p.entry.source for p in accepted if p.entry.source))
    reading = Reading(
        norm=normalizer.key(text),
        cls=max(classes, key=lambda c: c.rank),
        witnesses=(WitnessReading(siglum, text, (), accepted[0].location),),
        source="、".join(sources) or None,
        derived=True,
    )
    return reading, diagnostics


def _diagnostic(
    siglum: str,
    entry: SparseReading,
    code: str,
    message: str,
    location: SourceLocation | None,
    severity: Severity = Severity.WARNING,
) -> ApparatusDiagnostic:
    text = f"{entry.at or entry.base}: {message}"
    return ApparatusDiagnostic(siglum, Diagnostic(code, text, entry.start, entry.end, severity), location)


def _find(
    phrase: str,
    tokens: Sequence[Token],
    normalizer: Normalizer,
    lo: int = 0,
    hi: int | None = None,
    starts: Mapping[str, Sequence[int]] | None = None,
) -> list[int]:
    """Every position in tokens[lo:hi] where ``phrase`` starts, compared on the tokens' search keys.

    With ``starts`` (:meth:`~collate.align.alignment.TokenIndex.positions` of ``tokens``) only the
    places of the phrase's rarest character are tried; without it, every position in the range.
    A phrase is found in either script: a simplified 然后 where the base reads 然後.
    """
    hi = len(tokens) if hi is None else hi
    # A character matches a token it is (a placeholder only itself), or one with its search key.
    wanted = [(c, normalizer.fold(c)) for c in phrase]
    n = len(wanted)
    candidates: Iterable[int] = range(lo, hi - n + 1)
    if starts is not None and wanted:
        # A token matching character k is listed under its character or under its key (後 and 后
        # are both found by the search key 后).
        places = [
            (*starts.get(c, ()), *(p for k in normalizer.merged_keys(key) for p in starts.get(k, ())))
            for c, key in wanted
        ]
        k = min(range(n), key=lambda k: len(places[k]))
        candidates = sorted({p - k for p in places[k] if lo <= p - k <= hi - n})
    return [
        i
        for i in candidates
        if all(tokens[i + k].t == c or normalizer.loosen(tokens[i + k].n) == key for k, (c, key) in enumerate(wanted))
    ]


def _place(
    entry: SparseReading,
    base_tokens: Sequence[Token],
    starts: Mapping[str, Sequence[int]],
    witness: Witness,
    normalizer: Normalizer,
) -> tuple[SparsePlacement | None, list[ApparatusDiagnostic]]:
    """Find where one readings-file entry belongs in the base's token stream."""
    location = witness.locate(entry.start) if witness.text else None
    at = "".join(entry.at.split()) or "".join(entry.base.split())
    base = "".join(entry.base.split())
    if not at:
        return None, [_diagnostic(witness.siglum, entry, "sparse-unplaced", "the entry names no place", location)]
    hits = _find(at, base_tokens, normalizer, starts=starts)
    if not hits:
        return None, [_diagnostic(witness.siglum, entry, "sparse-unplaced", "not found in the base text", location)]
    diagnostics: list[ApparatusDiagnostic] = []
    if len(hits) > 1:
        diagnostics.append(
            _diagnostic(
                witness.siglum,
                entry,
                "sparse-ambiguous",
                f"found {len(hits)} times in the base; the first is used",
                location,
                # Readings files are documented to mean the first occurrence: worth knowing, not wrong.
                Severity.INFO,
            )
        )
    start = hits[0]
    end = start + len(at)
    if base:
        inner = _find(base, base_tokens, normalizer, start, end)
        if not inner:
            diagnostics.append(
                _diagnostic(witness.siglum, entry, "sparse-unplaced", f"{base} is not inside {at}", location)
            )
            return None, diagnostics
        first, last = base_tokens[inner[0]].index, base_tokens[inner[0] + len(base) - 1].index + 1
    else:
        point = start if entry.position is Position.BEFORE else end
        first = last = base_tokens[point].index if point < len(base_tokens) else base_tokens[-1].index + 1
    return SparsePlacement(witness.siglum, entry, first, last, location), diagnostics
