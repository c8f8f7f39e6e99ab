"""The file helpers: atomic writes, UTF-8 text with the place of a bad byte, TOML errors with their place."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from collate.errors import LayoutError, ProjectError
from collate.files import json_text, parse_toml, read_utf8, write_atomic


def test_write_atomic_replaces_the_file_and_leaves_no_temporary_one(tmp_path: Path) -> None:
    path = tmp_path / "out" / "a.txt"
    write_atomic(path, "舊")
    write_atomic(path, "新\n")
    assert path.read_text(encoding="utf-8") == "新\n"
    assert os.listdir(path.parent) == ["a.txt"]


def test_read_utf8_drops_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_bytes(b"\xef\xbb\xbftitle = '\xe6\x8a\x95\xe5\xa3\xba'\n")
    assert read_utf8(path) == "title = '投壺'\n"


def test_read_utf8_says_where_the_first_bad_byte_is(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_bytes("a = 1\n投b".encode() + b"\xff\n")
    with pytest.raises(ProjectError) as caught:
        read_utf8(path, "a.toml", hint="save it as UTF-8")
    assert caught.value.where == "a.toml:2:3" and "0xff" in caught.value.message
    assert caught.value.hint == "save it as UTF-8"


def test_read_utf8_leaves_a_missing_file_to_the_caller(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        read_utf8(tmp_path / "none.toml")


def test_parse_toml_names_the_line_and_column(tmp_path: Path) -> None:
    with pytest.raises(LayoutError) as caught:
        parse_toml("a = 1\nb = \n", "r.toml", LayoutError)
    assert caught.value.where == "r.toml:2:5" and caught.value.message.startswith("not valid TOML")


def test_json_text_keeps_characters_as_they_are() -> None:
    assert json_text({"t": "投壺"}, indent=1) == '{\n "t": "投壺"\n}'
