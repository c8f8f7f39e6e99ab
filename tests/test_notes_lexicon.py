"""The claim grammar's words: the project's names and sigla for witnesses, added to the default ones."""

from __future__ import annotations

import pytest

from collate.errors import ProjectError
from collate.notes.claims import parse_note
from collate.notes.lexicon import DEFAULT_LEXICON, lexicon_from_section


def test_lexicon_maps_aliases_to_the_project_siglum() -> None:
    lexicon = lexicon_from_section({"lexicon": {"大戴禮": "DD", "毛本": ["MB", "MB2"]}})
    assert lexicon.sigla_of("今本大戴礼") == ("DD",)
    assert lexicon.sigla_of("大戴") == ("DD",)
    assert lexicon.sigla_of("毛本") == ("MB", "MB2")
    assert DEFAULT_LEXICON.sigla_of("大戴礼") == ()


def test_lexicon_adds_names() -> None:
    lexicon = lexicon_from_section({"lexicon": {"嘉靖本": "JJ"}})
    claims = parse_note("事嘉靖本讹作也", lexicon)
    assert [(c.witness, c.kind.value, c.reading) for c in claims] == [("嘉靖本", "reads", "也")]


def test_bad_lexicon_is_a_project_error() -> None:
    with pytest.raises(ProjectError, match=r"notes\.lexicon"):
        lexicon_from_section({"lexicon": {"大戴礼": 3}})
