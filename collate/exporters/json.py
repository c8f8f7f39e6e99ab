"""The collation as JSON: schema ``collate/2`` (documented in ``docs/json-schema.md``).

Each layer carries a CollateX-compatible alignment table (rows are witnesses, each cell a
list of tokens or null) beside the loci with their classes and provenance, so a reader
of the file can both re-render the alignment and cite every reading as ``path:line:col``.

A token has CollateX's ``t`` and ``n`` (its character and its normalized form), so code
written for CollateX's output reads it as it is; beyond them it says only what its row (the
witness), its layer and its neighbours do not: its file offset, and whatever departs from the
run it stands in. Each witness gives its line starts once, so every token's ``line:column``
follows from its offset, and each distinct normalization step is written once and referred to
by number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from collate.apparatus import (
    ApparatusDiagnostic,
    Collation,
    Coverage,
    LayerResult,
    Locus,
    Reading,
    ReadingClass,
    WitnessReading,
)
from collate.exporters._jsontext import dump as _dump
from collate.exporters._jsontext import dumps as _dumps
from collate.files import write_atomic_with
from collate.model import Change, SourceLocation, Token, Witness
from collate.model.claim_words import english

if TYPE_CHECKING:
    from collate.model.annotations import AttachedNote, EditorDecision
    from collate.results import ExportInput

SCHEMA = "collate/2"

# Line breaks as Witness.line_col counts them (\r\n is one break), so the line starts
# written here give the same line:column as every location in the file.


def to_json(collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> dict[str, Any]:
    """The collation as a JSON-ready dict (plain str/int/bool/None, lists and dicts).

    ``witnesses`` (the files as read, by siglum) give each witness's line starts, from which
    a reader of the file finds any token's ``line:column``; without them ``lines`` is null.
    """
    changes = _ChangeTable()
    layers = [_layer(r, changes) for r in collation.layers]
    sources = witnesses or {}
    return {
        "schema": SCHEMA,
        "title": collation.title,
        "name": collation.name,
        "base": collation.base,
        "witnesses": [
            {
                "siglum": w.siglum,
                "label": w.label,
                "path": w.path,
                "layout": w.layout,
                "sparse": w.sparse,
                "lines": sources[w.siglum].line_starts if w.siglum in sources else None,
            }
            for w in collation.witnesses
        ],
        "rules": [{"name": r.name, "description": r.description, "enabled": r.enabled} for r in collation.rules],
        "changes": changes.rows,
        "layers": layers,
        "habits": [
            {
                "id": h.id,
                "siglum": h.siglum,
                "base": h.base,
                "written": h.written,
                "places": h.places,
                "agrees": h.agrees,
                "relation": h.relation,
                "verdict": h.verdict,
                "applied": h.applied,
            }
            for h in collation.habits
        ],
        "diagnostics": [_diagnostic(d) for d in collation.diagnostics],
    }


def dumps(collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> str:
    """The collation as JSON text: UTF-8 characters as they are, short records one a line."""
    return _dumps(to_json(collation, witnesses))


def write_json(collation: Collation, path: Path, witnesses: Mapping[str, Witness] | None = None) -> None:
    """Write the collation's JSON to ``path`` atomically (temporary file, then rename), as it is made."""
    data = to_json(collation, witnesses)
    write_atomic_with(path, lambda out: _dump(data, out))


class JsonExporter:
    """The registry's handle on this format."""

    name = "json"
    suffix = ".json"
    description = "the collation as JSON (schema collate/2): alignment tables and classified loci"

    def write(self, data: ExportInput, path: Path) -> None:
        """Write the collation to ``path``, with its witnesses' line starts."""
        write_json(data.collation, path, data.witnesses)


EXPORTER = JsonExporter()


def location_json(loc: SourceLocation | None) -> dict[str, Any] | None:
    """A place as JSON: path, line, column, printed page and line, and ``path:line:col``."""
    if loc is None:
        return None
    return {
        "path": loc.path,
        "line": loc.line,
        "column": loc.column,
        "page": loc.page,
        "page_line": loc.page_line,
        "ref": f"{loc.path}:{loc.line}:{loc.column}",
    }


class _ChangeTable:
    """Each distinct normalization step once, numbered in the order the tables first use it.

    Thousands of tokens share a handful of steps (繁 → 简 by OpenCC): the step and its
    authority are written once and tokens refer to them by number.
    """

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self._numbers: dict[Change, int] = {}

    def number(self, c: Change) -> int:
        n = self._numbers.get(c)
        if n is None:
            n = self._numbers[c] = len(self.rows)
            self.rows.append(
                {"rule": c.rule, "before": c.before, "after": c.after, "class": c.cls.value, "source": c.source}
            )
        return n


def _token(tok: Token, expected_index: int, changes: _ChangeTable) -> dict[str, Any]:
    """CollateX's ``t`` and ``n``, then only what the row, the layer and the token's run do not say."""
    # ``n`` even where it equals ``t``: code written against CollateX's output reads
    # ``token["n"]`` of every token, as CollateX's own tokenizer always writes both.
    out: dict[str, Any] = {"t": tok.t, "n": tok.n}
    if tok.index != expected_index:
        out["index"] = tok.index
    out["start"] = tok.start
    if tok.end != tok.start + 1:
        out["end"] = tok.end
    if tok.changes:
        out["changes"] = [changes.number(c) for c in tok.changes]
    if tok.before:
        out["before"] = tok.before
    if tok.after:
        out["after"] = tok.after
    return out


def _row(cells: list[Token | None], changes: _ChangeTable) -> list[list[dict[str, Any]] | None]:
    out: list[list[dict[str, Any]] | None] = []
    expected = 0
    for tok in cells:
        if tok is None:
            out.append(None)
            continue
        out.append([_token(tok, expected, changes)])
        expected = tok.index + 1
    return out


def _table(result: LayerResult, changes: _ChangeTable) -> dict[str, Any]:
    """CollateX's JSON output shape: one row a witness, one cell a column (tokens or null)."""
    sigla = result.alignment.sigla
    columns = result.alignment.columns
    rows = [_row([col[j] for col in columns], changes) for j in range(len(sigla))]
    # CollateX's optional "status": is the column part of a variant locus?
    varied = [False] * len(columns)
    for x in result.loci:
        varied[x.col_start : x.col_end] = [True] * (x.col_end - x.col_start)
    return {"witnesses": list(sigla), "table": rows, "status": varied}


def _coverage(result: LayerResult, siglum: str) -> dict[str, Any]:
    extent = result.alignment.extent(siglum)
    cov = result.coverage_of(siglum) or Coverage(siglum, None, None, 0)
    return {
        "siglum": siglum,
        "first_column": extent.first,
        "last_column": extent.last,
        "lacunae": [list(hole) for hole in extent.lacunae],
        "absent": [list(hole) for hole in extent.absent],
        "first": location_json(cov.first),
        "last": location_json(cov.last),
        "tokens": cov.tokens,
    }


def _witness_reading(w: WitnessReading) -> dict[str, Any]:
    out: dict[str, Any] = {
        "siglum": w.siglum,
        "text": w.text,
        "tokens": [t.index for t in w.tokens],
        "location": location_json(w.location),
    }
    if w.inner:
        # A passage the witness has at another place: what differs in it (only then, so that
        # every other reading is written as it was).
        out["inner"] = [{"base": b, "reading": r, "after": a} for b, r, a in w.inner]
    return out


def _reading(r: Reading, base_extant: bool = True) -> dict[str, Any]:
    # Where the base is not extant a witness's text is no variant of it, whatever its form.
    return {
        "norm": r.norm,
        "class": r.cls.value if base_extant else ReadingClass.NOT_EXTANT.value,
        "cause": r.cause,
        "rules": list(r.rules),
        "source": r.source,
        "derived": r.derived,
        "witnesses": [_witness_reading(w) for w in r.witnesses],
    }


def _note(n: AttachedNote) -> dict[str, Any]:
    claims = [english(c) for c in n.claims]
    return {"id": n.id, "resp": n.resp, "text": n.text, "location": location_json(n.location), "claims": claims}


def _locus(x: Locus) -> dict[str, Any]:
    return {
        "id": x.id,
        "layer": x.layer.value,
        "class": x.cls.value,
        "base": [x.base_start, x.base_end],
        "columns": [x.col_start, x.col_end],
        "lemma": _witness_reading(x.lemma),
        "lemma_witnesses": list(x.lemma_witnesses),
        "readings": [_reading(r, x.cls is not ReadingClass.NOT_EXTANT) for r in x.readings],
        "notes": [_note(n) for n in x.notes],
        "decision": _decision(x.decision) if x.decision is not None else None,
    }


def _decision(d: EditorDecision) -> dict[str, Any]:
    return {
        "actions": [a.value for a in d.actions],
        "resp": list(d.resp),
        "when": d.when,
        "lemma": d.lemma,
        "adopted": d.adopted,
        "siglum": d.siglum,
        "reclassified": list(d.reclassified),
        "doubtful": d.doubtful,
        "comment": d.comment,
    }


def _diagnostic(d: ApparatusDiagnostic) -> dict[str, Any]:
    return {
        "siglum": d.siglum,
        "code": d.diagnostic.code,
        "message": d.diagnostic.message,
        "severity": d.diagnostic.severity.value,
        "start": d.diagnostic.start,
        "end": d.diagnostic.end,
        "location": location_json(d.location),
    }


def _layer(result: LayerResult, changes: _ChangeTable) -> dict[str, Any]:
    counts = Counter(x.cls for x in result.loci)
    return {
        "layer": result.layer.value,
        "label": result.layer.chinese,
        "witnesses": list(result.alignment.sigla),
        "sparse": list(result.sparse),
        "extents": [_coverage(result, s) for s in result.alignment.sigla],
        "transpositions": [
            {"siglum": t.siglum, "base": [t.base_start, t.base_end], "witness": [t.wit_start, t.wit_end]}
            for t in result.alignment.transpositions
        ],
        "script_differences": result.script_differences,
        "counts": {c.value: counts[c] for c in ReadingClass if counts[c]},
        "alignment": _table(result, changes),
        "loci": [_locus(x) for x in result.loci],
        "diagnostics": [_diagnostic(d) for d in result.diagnostics],
    }
