"""The tree stays a pipeline: the stages' import order holds, and no module or function outgrows a reading.

The order is import-linter's layers contract (``[tool.importlinter]`` in pyproject.toml), checked
here as CI checks it, so that the README's test command holds it too. A module over 400 lines or a
function over 60 is a sign that it holds two things: split it by meaning.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "collate"
# The package and the benchmarks (scripts, read here as text, never imported by the tests).
SOURCES = (PACKAGE, ROOT / "bench")
MODULE_LINES = 400
FUNCTION_LINES = 60


def test_the_stages_import_only_what_lies_below_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlinter.cli import lint_imports

    monkeypatch.chdir(ROOT)
    # The graph is built afresh: a cache left by another tree would answer for it.
    assert lint_imports(config_filename=os.fspath(ROOT / "pyproject.toml"), no_cache=True, no_logo=True) == 0


def test_no_module_is_too_long_to_read() -> None:
    long = {
        str(path.relative_to(ROOT)): n
        for folder in SOURCES
        for path in folder.rglob("*.py")
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MODULE_LINES
    }
    assert long == {}


def test_no_function_is_too_long_to_read() -> None:
    long = [
        f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({size} lines)"
        for folder in SOURCES
        for path in folder.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and (size := (node.end_lineno or node.lineno) - node.lineno + 1) > FUNCTION_LINES
    ]
    assert long == []
