"""The TOML position scanner: every key path of a project file is found at its line and column."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import tomlkit
from hypothesis import given
from hypothesis import strategies as st

from collate.files import parse_toml
from collate.project.positions import FileLines, KeyPath, Position, scan

PROJECT = """\
title = "投壺"   # a comment with key = "x"
layers = [
  "jing",
  "zhu",   # the commentary
]

[[witness]]
siglum = "A"
path = "a.txt"

[[ witness ]]
siglum = "B"
notes = \"\"\"
siglum = "not a key"
[not.a.table]
\"\"\"
path = 'b.txt'
artifacts = ["防", "某"]

[notes.lexicon]
"大戴礼" = "B"
'今本' = ""

[normalize]
variants = { "髙" = "高", x.y = "z" }
rules.first = "placeholder"
"""


def line(path: KeyPath, text: str = PROJECT) -> int | None:
    position = scan(text).of(path)
    return position.line if position else None


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (("title",), Position(1, 1)),
        (("layers",), Position(2, 1)),
        (("layers", 1), Position(4, 3)),
        (("witness",), Position(7, 1)),
        (("witness", 0), Position(7, 1)),
        (("witness", 0, "path"), Position(9, 1)),
        (("witness", 1), Position(11, 1)),
        (("witness", 1, "siglum"), Position(12, 1)),
        (("witness", 1, "path"), Position(17, 1)),
        (("witness", 1, "artifacts", 1), Position(18, 19)),
        (("notes",), Position(20, 1)),
        (("notes", "lexicon"), Position(20, 1)),
        (("notes", "lexicon", "大戴礼"), Position(21, 1)),
        (("notes", "lexicon", "今本"), Position(22, 1)),
        (("normalize", "variants"), Position(25, 1)),
        (("normalize", "variants", "髙"), Position(25, 14)),
        (("normalize", "variants", "x", "y"), Position(25, 27)),
        (("normalize", "rules", "first"), Position(26, 7)),
    ],
)
def test_each_key_path_is_found_at_its_line_and_column(path: KeyPath, expected: Position) -> None:
    assert scan(PROJECT).of(path) == expected


def _paths(value: Any, path: KeyPath = ()) -> Iterator[KeyPath]:
    """Every key path of a parsed TOML value."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield (*path, key)
            yield from _paths(inner, (*path, key))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield (*path, i)
            yield from _paths(inner, (*path, i))


def test_every_path_tomllib_reads_is_placed_by_the_scan() -> None:
    """The scan and tomllib agree on what the keys are: no path of the data goes without a place."""
    places = scan(PROJECT).places
    missing = [p for p in _paths(parse_toml(PROJECT, "collate.toml")) if p not in places and not isinstance(p[-1], int)]
    assert missing == []


# Keys and strings that look like TOML's syntax: quotes, dots, brackets, `=`, `#`, newlines.
_names = st.sampled_from(["a", "b-c", "x.y", "大戴礼", "a b", '"q"', "'", "[t]", "k=v", "#", ""])
_texts = st.text(st.sampled_from("ab\"'=[]{}#.\n\\ 防"), max_size=8)
_values = st.recursive(
    st.one_of(_texts, st.integers(), st.booleans()),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_names, inner, min_size=1, max_size=3)),
    max_leaves=8,
)


@given(st.dictionaries(_names, _values, max_size=4))
def test_any_document_tomlkit_writes_is_placed_key_by_key(data: dict[str, Any]) -> None:
    """Every key path of the data is placed: a key where it is written, a table at its header."""
    text = tomlkit.dumps(data)
    places = scan(text).places
    lines = text.split("\n")
    for path in _paths(parse_toml(text, "x.toml")):
        assert path in places, (path, text)
        at = lines[places[path].line - 1][places[path].column - 1 :]
        if isinstance(path[-1], str):
            assert at.startswith((tomlkit.key(path[-1]).as_string(), "[")), (path, at, text)


def test_what_is_in_a_string_or_a_comment_is_no_key() -> None:
    places = scan(PROJECT).places
    assert ("not",) not in places and ("x",) not in places
    # `siglum` inside witness B's notes is text: the key is the one on line 12.
    assert line(("witness", 1, "siglum")) == 12


def test_a_path_not_written_is_placed_at_the_table_holding_it() -> None:
    assert line(("witness", 0, "label")) == 7
    assert line(("notes", "authors")) == 20
    assert line(("witness", 5)) == 7
    assert line(("nothing",)) is None and scan("").of(("title",)) is None


def test_a_subtable_of_an_array_of_tables_is_in_its_latest_element() -> None:
    text = '[[job]]\nname = "a"\n[[job]]\nname = "b"\n[job.normalize]\nrules = []\n[[job.witness]]\nsiglum = "X"\n'
    assert line(("job", 1, "normalize", "rules"), text) == 6
    assert line(("job", 1, "witness", 0, "siglum"), text) == 8


def test_inline_arrays_of_tables_are_placed_element_by_element() -> None:
    text = 'witness = [\n  { siglum = "A", path = "a.txt" },\n  { siglum = "B", path = "b.txt" },\n]\n'
    assert scan(text).of(("witness", 1, "path")) == Position(3, 19)


def test_dotted_and_quoted_keys_are_read_as_toml_reads_them() -> None:
    text = '[ notes . "lexicon" ]\n"a\\u0041" = "B"\n"a.b" = "C"\nsite."google.com" = true\n'
    assert line(("notes", "lexicon", "aA"), text) == 2
    assert line(("notes", "lexicon", "a.b"), text) == 3
    assert line(("notes", "lexicon", "site", "google.com"), text) == 4


def test_multi_line_strings_and_crlf_keep_the_lines() -> None:
    text = 'a = \'\'\'\nb = 1\n\'\'\'\r\nc = """x""""\r\nd = [\r\n 1,\r\n 2 ]\r\n'
    assert [line((k,), text) for k in "abcd"] == [1, None, 4, 5]
    assert scan(text).of(("d", 1)) == Position(7, 2)


def test_the_scan_of_a_text_it_does_not_understand_keeps_what_it_found() -> None:
    assert line(("b",), "a = 1\n= 2\nb = 3\n") is None
    assert line(("a",), "a = 1\n= 2\n") == 1


def test_file_lines_name_the_file_and_the_line() -> None:
    lines = FileLines("collate.toml", scan(PROJECT))
    assert lines.at("witness", 1, "path") == "collate.toml:17"
    assert lines.at("nothing") == "collate.toml"
    assert FileLines("project", scan("")).at("title") == "project"
