"""The JSON's alignment tables as CollateX's readers and CollateX users' code read them.

CollateX writes every token of its JSON output with ``t`` (the text) and ``n`` (the
normalized form it compared). Code written against that output reads ``token["n"]`` of every
token, and CollateX's JSON input takes the same token objects back. These tests read the file
the exporter writes for the default project both ways, and check what they find against the
run's own tokens, not against the file.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import collatex
import pytest
from builders import run_default_project

from collate.exporters import get_exporter
from collate.results import ExportInput, RunResult

# CollateX's Python aligner grows with the product of the witnesses' lengths (the default
# project's 疏 takes it over twenty seconds): it aligns a window of each layer's columns.
WINDOW = 300

TokenPair = tuple[str, str]


@pytest.fixture(scope="module")
def run() -> RunResult:
    return run_default_project()


@pytest.fixture(scope="module")
def doc(run: RunResult, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The JSON file as ``collate run`` writes it, read back from disk."""
    path = tmp_path_factory.mktemp("json") / "touhu.json"
    get_exporter("json").write(ExportInput(run.collation, run.read.by_siglum()), path)
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def expected_rows(run: RunResult, layer: str, columns: int | None = None) -> dict[str, list[TokenPair]]:
    """Each aligned witness's (t, n) in the layer's column order, from the run's tokens themselves."""
    (result,) = [r for r in run.collation.layers if r.layer.value == layer]
    shown = result.alignment.columns[:columns]
    return {
        siglum: [(tok.t, tok.n) for col in shown if (tok := col[j]) is not None]
        for j, siglum in enumerate(result.alignment.sigla)
    }


def collatex_user_rows(table: dict[str, Any]) -> dict[str, list[TokenPair]]:
    """What code written for CollateX's JSON output does: every token of every cell, its ``t`` and ``n``.

    Written the way CollateX users write it, with plain indexing: a token without ``n`` is a KeyError.
    """
    rows: dict[str, list[TokenPair]] = {}
    for siglum, row in zip(table["witnesses"], table["table"], strict=True):
        rows[siglum] = []
        for cell in row:
            if cell is None:
                continue
            for token in cell:
                rows[siglum].append((token["t"], token["n"]))
    return rows


def collatex_input(table: dict[str, Any], columns: int | None = None) -> dict[str, Any]:
    """CollateX's JSON input made from an alignment table: each witness with its tokens, as the cells hold them."""
    return {
        "witnesses": [
            {"id": siglum, "tokens": [dict(tok) for cell in row[:columns] for tok in cell or []]}
            for siglum, row in zip(table["witnesses"], table["table"], strict=True)
        ]
    }


def test_collatex_writes_t_and_n_for_every_token() -> None:
    """The reference: CollateX's own tokens carry both, ``n`` even where it equals ``t``."""
    out = json.loads(collatex.collate({"witnesses": [{"id": "A", "content": "主 人"}]}, output="json"))
    tokens = [tok for row in out["table"] for cell in row for tok in cell or []]
    assert tokens and all(isinstance(tok["t"], str) and isinstance(tok["n"], str) for tok in tokens)
    assert any(tok["n"] == tok["t"] for tok in tokens)


def test_code_written_for_collatex_output_reads_every_token(run: RunResult, doc: dict[str, Any]) -> None:
    tokens = 0
    for layer in doc["layers"]:
        rows = collatex_user_rows(layer["alignment"])
        assert rows == expected_rows(run, layer["layer"])
        # CollateX-Java's JSON reader takes a token only if ``t`` is text and ``n`` text that is not empty.
        assert all(isinstance(t, str) and isinstance(n, str) and n for row in rows.values() for t, n in row)
        tokens += sum(map(len, rows.values()))
    # Most tokens have n == t: the ones that would lack it if the writer left it out.
    same = sum(t == n for layer in doc["layers"] for row in collatex_user_rows(layer["alignment"]).values()
               for t, n in row)  # fmt: skip
    assert tokens > 1000 and same > tokens // 2


def test_collatex_reads_the_tables_as_its_json_input(run: RunResult, doc: dict[str, Any], tmp_path: Path) -> None:
    """CollateX's file reader takes the tokens as they are, and compares each by our ``n``."""
    for layer in doc["layers"]:
        path = tmp_path / f"{layer['layer']}.json"
        path.write_text(json.dumps(collatex_input(layer["alignment"]), ensure_ascii=False), encoding="utf-8")
        with path.open(encoding="utf-8") as file:
            collation = collatex.Collation.create_from_json(file)
        tokens = {w.sigil: w.tokens() for w in collation.witnesses}
        read = {siglum: [(tok.token_data["t"], tok.token_data["n"]) for tok in row] for siglum, row in tokens.items()}
        assert read == expected_rows(run, layer["layer"])
        # What CollateX compares is the token's n as the file gives it.
        assert all(tok.token_string == tok.token_data["n"] for row in tokens.values() for tok in row)


def test_collatex_collates_the_tables_and_writes_them_complete(run: RunResult, doc: dict[str, Any]) -> None:
    """Collated again by CollateX, our tokens come out of its JSON output with ``t`` and ``n``, in each row's order."""
    for layer in doc["layers"]:
        data = collatex_input(layer["alignment"], WINDOW)
        collation = collatex.Collation.create_from_json(io.StringIO(json.dumps(data, ensure_ascii=False)))
        out = json.loads(collatex.collate(collation, output="json", segmentation=False))
        assert out["witnesses"] == layer["alignment"]["witnesses"]
        assert collatex_user_rows(out) == expected_rows(run, layer["layer"], WINDOW)
