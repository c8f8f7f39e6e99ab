"""Project files fuzzed around a valid one: a located error or a correct run, never a traceback.

Each example is the default-sized project of two small witnesses with a few keys set, added or
removed at random (the known keys, their misspellings, new ones) to values of every TOML type.
``collate run`` must then either fail with exit 1 and one message naming the project file or
the file at fault, or finish and write its outputs.
"""

from __future__ import annotations

import copy
import datetime
import re
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from collate.cli import main

TEXT = "投壺之禮，主人奉矢，司射奉中，使人執壺。\n"
VALID: dict[str, Any] = {
    "title": "投壺",
    "name": "touhu",
    "base": "A",
    "layers": ["jing", "zhu"],
    "witness": [
        {"siglum": "A", "label": "甲本", "path": "a.txt", "layout": "plain"},
        {"siglum": "B", "label": "乙本", "path": "b.txt", "artifacts": ["防"]},
    ],
    "normalize": {"rules": ["placeholder", "artifact", "taboo", "variant-graph", "script"], "semantic": False},
    "notes": {"lexicon": {"大戴礼": "B"}},
    "review": {"editor": "王"},
    "limits": {"characters": 100_000, "ratio": 20},
}
# Where a key is set: the top level, a witness, a stage's table.
PLACES = ("", "witness.0", "witness.1", "normalize", "notes", "notes.lexicon", "review", "limits")
KNOWN_KEYS = (
    *("title", "name", "base", "layers", "witness", "gaiji_table", "work"),
    *("siglum", "label", "path", "layout", "container", "encoding", "notes", "bibl", "artifacts"),
    *("rules", "semantic", "script", "taboo_eras", "variants", "never_fold", "loans", "variant_tables"),
    *("lexicon", "authors", "editor", "decisions", "characters", "ratio", "normalize", "review", "limits"),
)
MISSPELT = ("lable", "pth", "siglm", "titel", "normalise", "rule", "lexicn", "editr", "character", "layer")
# Keys whose string values name files: an error about one of them names that file.
PATH_KEYS = {"path", "gaiji_table", "variant_tables", "decisions"}

keys = st.one_of(
    st.sampled_from(KNOWN_KEYS),
    st.sampled_from(MISSPELT),
    st.text(st.sampled_from("abcxyz_-"), min_size=1, max_size=6),
)
scalars = st.one_of(
    st.text(max_size=6),
    st.sampled_from(["", "A", "B", "jing", "plain", "utf-8", "防", "防防", "a.txt", "script", "qing"]),
    st.integers(-3, 10**7),
    st.floats(allow_nan=False),
    st.booleans(),
    st.dates(min_value=datetime.date(1900, 1, 1), max_value=datetime.date(2100, 1, 1)),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(keys, inner, max_size=3)),
    max_leaves=6,
)
changes = st.lists(st.tuples(st.sampled_from(PLACES), keys, st.none() | values), min_size=1, max_size=3)


def _string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and the controls TOML forbids raw, escaped."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return "{" + ", ".join(f"{_string(k)} = {_value(v)}" for k, v in value.items()) + "}"


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def toml_text(table: Mapping[str, Any], path: tuple[str, ...] = ()) -> str:
    """``table`` as TOML: its values first, then its tables and arrays of tables under their headers."""
    lines = [f"{_string(k)} = {_value(v)}" for k, v in table.items() if not isinstance(v, dict) and not _is_tables(v)]
    for k, v in table.items():
        name = ".".join(_string(p) for p in (*path, k))
        if isinstance(v, dict):
            lines += ["", f"[{name}]", toml_text(v, (*path, k))]
        elif _is_tables(v):
            for item in v:
                lines += ["", f"[[{name}]]", toml_text(item, (*path, k))]
    return "\n".join(lines)


def _changed(changes: list[tuple[str, str, Any]]) -> dict[str, Any]:
    """The valid project with each change applied: a key set to a value, or removed (None)."""
    data = copy.deepcopy(VALID)
    for place, key, value in changes:
        table: Any = data
        for part in place.split(".") if place else ():
            # An earlier change may have made the place something else: then this change has nowhere to go.
            if isinstance(table, list) and part.isdigit() and int(part) < len(table):
                table = table[int(part)]
            elif isinstance(table, dict):
                table = table.get(part)
            else:
                table = None
        if not isinstance(table, dict):
            continue
        if value is None:
            table.pop(key, None)
        else:
            table[key] = value
    return data


def _named_files(data: Any, key: str = "") -> set[str]:
    """Every string the project gives a file-naming key, where an error about that file points."""
    if isinstance(data, dict):
        return {name for k, v in data.items() for name in _named_files(v, k)}
    if isinstance(data, list):
        return {name for v in data for name in _named_files(v, key)}
    return {data} if isinstance(data, str) and key in PATH_KEYS and data else set()


@settings(max_examples=50, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=changes)
def test_a_fuzzed_project_is_a_located_error_or_a_correct_run(changes: list[tuple[str, str, Any]]) -> None:
    data = _changed(changes)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "a.txt").write_text(TEXT, encoding="utf-8")
        (folder / "b.txt").write_text(TEXT.replace("中", "壺"), encoding="utf-8")
        config = folder / "collate.toml"
        config.write_text(toml_text(data) + "\n", encoding="utf-8")
        result = CliRunner().invoke(main, ["run", "--config", str(config), "--out", str(folder / "out")])
        shown = f"{config.read_text(encoding='utf-8')}\n---\n{result.output}"
        assert "Traceback" not in result.output, shown
        if result.exit_code == 0:
            assert result.exception is None, shown
            assert sorted(p.suffix for p in (folder / "out").glob("*.tei.xml")) == [".xml"], shown
            return
        assert isinstance(result.exception, SystemExit), f"{result.exception!r}\n{shown}"
        assert result.exit_code == 1, shown
        (first, *_) = result.output.splitlines()
        assert re.match(r"Error: \S", first), shown
        names = {"collate.toml", *_named_files(data)}
        assert any(name in first for name in names), shown
