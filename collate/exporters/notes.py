"""The editorial notes of a run as JSON: each note, its anchor, its claims and their checks.

Plain dicts, built only here at the edge (``<name>.notes.json``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from collate.exporters._jsontext import dump
from collate.exporters.json import location_json
from collate.files import write_atomic_with
from collate.notes.records import Anchor, Check, Claim, Note, ReadingDifference

if TYPE_CHECKING:
    from collate.notes import NotesResult
    from collate.results import ExportInput


def to_json(result: NotesResult) -> dict[str, Any]:
    """Notes with their anchor, claims and checks; unanchored notes; reading differences."""
    return {
        "notes": [_note(n, result.anchor_of(n), result.claims_of(n), result) for n in result.notes],
        "unanchored": [n.id for n in result.unanchored],
        "unplaced": [_claim_ref(c) for c in result.unplaced],
        "counts": {v.value: n for v, n in result.counts().items()},
        "derived": {
            siglum: [
                {"at": r.at, "base": r.base, "reading": r.reading, "position": r.position, "source": r.source}
                for r in readings
            ]
            for siglum, readings in result.derived
        },
        "differences": [_difference(d) for d in result.differences],
    }


def _note(note: Note, anchor: Anchor | None, claims: tuple[Claim, ...], result: NotesResult) -> dict[str, Any]:
    return {
        "id": note.id,
        "witness": note.witness,
        "resp": note.resp,
        "label": note.label,
        "text": note.text,
        "start": note.start,
        "end": note.end,
        "location": location_json(note.location),
        "heading": note.text[: note.heading],
        "anchor": None
        if anchor is None
        else {
            "method": anchor.method.value,
            "layer": anchor.layer.value,
            "start": anchor.start,
            "end": anchor.end,
            "text": anchor.text,
            "quote": anchor.quote,
            "score": anchor.score,
            "location": location_json(anchor.location),
        },
        "claims": [_claim(c, result.checks_of(c)) for c in claims],
    }


def _claim(claim: Claim, checks: tuple[Check, ...]) -> dict[str, Any]:
    return {
        "summary": claim.summary(),
        "witness": claim.witness,
        "siglum": claim.siglum,
        "kind": claim.kind.value,
        "base": claim.base,
        "reading": claim.reading,
        "place": claim.place.value,
        "phrase": claim.phrase,
        "base_start": claim.base_start,
        "base_end": claim.base_end,
        "resp": claim.resp,
        "via": claim.via,
        "count": claim.count,
        "clause": claim.clause,
        "layer": claim.layer.value,
        "checks": [
            {
                "witness": c.witness,
                "verdict": c.verdict.value,
                "evidence": c.evidence,
                "actual": c.actual,
                "score": c.score,
                "location": location_json(c.location),
            }
            for c in checks
        ],
    }


def _claim_ref(claim: Claim) -> dict[str, Any]:
    return {"note": claim.note.id, "summary": claim.summary()}


def _difference(d: ReadingDifference) -> dict[str, Any]:
    return {
        "siglum": d.siglum,
        "message": d.message,
        "note": d.claim.note.id if d.claim else None,
        "entry_at": d.entry_at,
        "entry_reading": d.entry_reading,
    }


class NotesExporter:
    """The registry's handle on the notes table (``<name>.notes.json``)."""

    name = "notes"
    suffix = ".notes.json"
    description = "editorial notes (蕙田案, 【案】): anchors, parsed claims and their verdicts, as JSON"

    def write(self, data: ExportInput, path: Path) -> None:
        """Write the notes to ``path`` atomically (an empty table if the stage did not run)."""
        table = to_json(data.notes) if data.notes is not None else {"notes": []}
        # The collation's JSON writer: a short record (a location, an anchor) on one line.
        write_atomic_with(path, lambda out: dump(table, out))


EXPORTER = NotesExporter()
