"""The default project's JSON: proportional to its input, and every token traceable from the file alone."""

from __future__ import annotations

import json
from typing import Any

import pytest
from builders import decoded_tokens, run_default_project

from collate.exporters.json import dumps
from collate.results import RunResult

# collate/1 wrote 32 times the witnesses' size here (66 times on 禮記·射義); collate/2 writes about 12
# (about 10 before every token had CollateX's n).
MAX_RATIO = 30


@pytest.fixture(scope="module")
def run() -> RunResult:
    return run_default_project()


@pytest.fixture(scope="module")
def text(run: RunResult) -> str:
    return dumps(run.collation, run.read.by_siglum())


def test_json_stays_under_thirty_times_the_input(run: RunResult, text: str) -> None:
    project = run.read.project
    size = sum(project.resolve(w.path).stat().st_size for w in project.witnesses)
    assert len(text.encode("utf-8")) <= MAX_RATIO * size


def test_json_is_byte_identical_across_runs(run: RunResult, text: str) -> None:
    again = run_default_project()
    assert dumps(again.collation, again.read.by_siglum()) == text


def test_every_token_traces_to_witness_layer_and_line_column(run: RunResult, text: str) -> None:
    doc: dict[str, Any] = json.loads(text)
    witnesses = run.read.by_siglum()
    paths = {w["siglum"]: w["path"] for w in doc["witnesses"]}
    decoded = decoded_tokens(doc)
    expected = {
        (tok.witness, tok.layer.value, tok.index): tok
        for result in run.collation.layers
        for col in result.alignment.columns
        for tok in col
        if tok is not None
    }
    assert len(decoded) == len(expected) > 1000
    for siglum, layer, index, start, end, t, n, line, column in decoded:
        tok = expected[(siglum, layer, index)]
        assert (start, end, t, n) == (tok.start, tok.end, tok.t, tok.n)
        loc = witnesses[siglum].locate(start)
        assert (paths[siglum], line, column) == (loc.path, loc.line, loc.column)
