"""The project file's tables, typed by msgspec: a value that does not fit is refused at its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from collate.errors import ProjectError
from collate.normalize.config import _KEYS as NORMALIZE_KEYS
from collate.project import SECTION_KEYS, SETTINGS, WITNESS_KEYS, load_project
from collate.project.tables import NormalizeTable

# Witness B's table begins on line 4: a key added after it is on line 7.
TWO = '[[witness]]\nsiglum = "A"\npath = "a.txt"\n[[witness]]\nsiglum = "B"\npath = "b.txt"\n'


def refusal(tmp_path: Path, body: str) -> ProjectError:
    path = tmp_path / "collate.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ProjectError) as caught:
        load_project(path)
    return caught.value


def at(tmp_path: Path, line: int) -> str:
    return f"{tmp_path / 'collate.toml'}:{line}"


def test_a_label_of_the_wrong_type_is_named_at_its_line(tmp_path: Path) -> None:
    error = refusal(tmp_path, TWO + "label = 3\n")
    assert error.where == at(tmp_path, 7)
    assert error.message == "`label` must be a string, not int (witness 2)"


def test_inline_witnesses_are_named_at_their_lines_too(tmp_path: Path) -> None:
    body = 'witness = [\n  { siglum = "A", path = "a.txt" },\n  { siglum = "B", path = "b.txt", label = 3 },\n]\n'
    assert refusal(tmp_path, body).where == at(tmp_path, 3)


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        (
            '[notes.lexicon]\n"今本" = ""\n"大戴礼" = 3\n',
            9,
            "[notes.lexicon] '大戴礼' must be a siglum or a list of sigla, not int",
        ),
        ('layers = [\n  "jing",\n  5,\n]\n', 3, "`layers` must be a list of text layers: item 2 is int"),
        ("[limits]\nratio = 5\ncharacters = 0\n", 9, "[limits] characters must be a positive whole number, not 0"),
        ("[review]\n\neditor = 1\n", 9, "[review] editor must be a name on one line, not int"),
        ("[normalize]\nvariants = []\n", 8, "[normalize] variants must be a table of variant = standard, not list"),
        ("title = 1979-05-27\n", 1, "`title` must be a string, not date"),
    ],
)
def test_a_value_msgspec_refuses_is_said_at_its_line(tmp_path: Path, body: str, line: int, message: str) -> None:
    # A top-level key is written before the first table; the others after the witnesses.
    text = body + TWO if body.startswith(("layers", "title")) else TWO + body
    error = refusal(tmp_path, text)
    assert (error.where, error.message) == (at(tmp_path, line), message)
    assert error.hint and error.hint.startswith("e.g. ")


def test_an_unknown_key_is_said_with_the_key_it_misspells(tmp_path: Path) -> None:
    error = refusal(tmp_path, TWO + "[review]\n\neditr = 1\n")
    assert (error.where, error.message) == (at(tmp_path, 9), "unknown key `editr` in [review]")
    assert error.hint is not None and error.hint.startswith("did you mean `editor`?")


def test_a_missing_key_is_said_at_its_witness(tmp_path: Path) -> None:
    error = refusal(tmp_path, TWO.replace('path = "b.txt"\n', 'label = "乙"\n'))
    assert (error.where, error.message) == (at(tmp_path, 5), "`path` is missing (witness 2)")


def test_the_keys_are_the_records_fields() -> None:
    assert SETTINGS == ("title", "name", "base", "witness", "gaiji_table", "layers", "work", "shelf")
    assert WITNESS_KEYS[:3] == ("siglum", "label", "path") and "quotes" in WITNESS_KEYS
    assert list(SECTION_KEYS) == ["normalize", "notes", "notes.lexicon", "notes.authors", "review", "limits"]


def test_the_normalize_table_has_the_normalizers_keys() -> None:
    """The record of [normalize] and the normalizer read the same keys: one added to one is added to both."""
    assert set(NormalizeTable.__struct_fields__) == set(NORMALIZE_KEYS)
