"""The collation as JSON: schema ``collate/1`` (documented in ``docs/json-schema.md``).

Each layer carries a CollateX-compatible alignment table (rows are witnesses, each cell a
list of tokens or null) beside the loci with their classes and provenance, so a reader
of the file can both re-render the alignment and cite every reading as ``path:line:col``.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from collate.apparatus import (
    ApparatusDiagnostic,
    AttachedNote,
    Collation,
    Coverage,
    EditorDecision,
    LayerResult,
    Locus,
    Reading,
    ReadingClass,
    WitnessReading,
)
from collate.exporters import write_atomic
from collate.model import Change, SourceLocation, Token

if TYPE_CHECKING:
    from collate.pipeline import RunResult

SCHEMA = "collate/1"


def to_json(collation: Collation) -> dict[str, Any]:
    """The collation as a JSON-ready dict (plain str/int/bool/None, lists and dicts)."""
    return {
        "schema": SCHEMA,
        "title": collation.title,
        "name": collation.name,
        "base": collation.base,
        "witnesses": [
            {"siglum": w.siglum, "label": w.label, "path": w.path, "layout": w.layout, "sparse": w.sparse}
            for w in collation.witnesses
        ],
        "rules": [{"name": r.name, "description": r.description, "enabled": r.enabled} for r in collation.rules],
        "layers": [_layer(r) for r in collation.layers],
        "diagnostics": [_diagnostic(d) for d in collation.diagnostics],
    }


def dumps(collation: Collation) -> str:
    """The collation as JSON text: UTF-8 characters as they are, one key a line."""
    return json.dumps(to_json(collation), ensure_ascii=False, indent=1) + "\n"


def write_json(collation: Collation, path: Path) -> None:
    """Write the collation's JSON to ``path`` atomically (temporary file, then rename)."""
    write_atomic(path, dumps(collation))


class JsonExporter:
    """The registry's handle on this format."""

    name = "json"
    suffix = ".json"
    description = "the collation as JSON (schema collate/1): alignment tables and classified loci"

    def write(self, run: RunResult, path: Path) -> None:
        """Write the run's collation to ``path``."""
        write_json(run.collation, path)


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


def _change(c: Change) -> dict[str, Any]:
    return {"rule": c.rule, "before": c.before, "after": c.after, "class": c.cls.value, "source": c.source}


def _token(tok: Token) -> dict[str, Any]:
    out: dict[str, Any] = {
        "t": tok.t,
        "n": tok.n,
        "id": f"{tok.witness}-{tok.layer.value}-{tok.index}",
        "index": tok.index,
        "start": tok.start,
        "end": tok.end,
    }
    # Optional keys keep the table small: most tokens have no changes and no punctuation.
    if tok.changes:
        out["changes"] = [_change(c) for c in tok.changes]
    if tok.before:
        out["before"] = tok.before
    if tok.after:
        out["after"] = tok.after
    return out


def _table(result: LayerResult) -> dict[str, Any]:
    """CollateX's JSON output shape: one row a witness, one cell a column (tokens or null)."""
    sigla = result.alignment.sigla
    rows = [
        [None if (tok := col[j]) is None else [_token(tok)] for col in result.alignment.columns]
        for j in range(len(sigla))
    ]
    # CollateX's optional "status": is the column part of a variant locus?
    varied = [False] * len(result.alignment.columns)
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
        "first": location_json(cov.first),
        "last": location_json(cov.last),
        "tokens": cov.tokens,
    }


def _witness_reading(w: WitnessReading) -> dict[str, Any]:
    return {
        "siglum": w.siglum,
        "text": w.text,
        "tokens": [t.index for t in w.tokens],
        "location": location_json(w.location),
    }


def _reading(r: Reading) -> dict[str, Any]:
    return {
        "norm": r.norm,
        "class": r.cls.value,
        "cause": r.cause,
        "rules": list(r.rules),
        "source": r.source,
        "derived": r.derived,
        "witnesses": [_witness_reading(w) for w in r.witnesses],
    }


def _note(n: AttachedNote) -> dict[str, Any]:
    return {"id": n.id, "resp": n.resp, "text": n.text, "location": location_json(n.location), "claims": list(n.claims)}


def _locus(x: Locus) -> dict[str, Any]:
    return {
        "id": x.id,
        "layer": x.layer.value,
        "class": x.cls.value,
        "base": [x.base_start, x.base_end],
        "columns": [x.col_start, x.col_end],
        "lemma": _witness_reading(x.lemma),
        "lemma_witnesses": list(x.lemma_witnesses),
        "readings": [_reading(r) for r in x.readings],
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


def _layer(result: LayerResult) -> dict[str, Any]:
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
        "alignment": _table(result),
        "loci": [_locus(x) for x in result.loci],
        "diagnostics": [_diagnostic(d) for d in result.diagnostics],
    }
