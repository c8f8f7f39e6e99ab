"""The claim grammar, case by case (tests/data/claims.toml)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from collate.errors import ProjectError
from collate.notes.claims import parse_note
from collate.notes.lexicon import DEFAULT_LEXICON, lexicon_from_section

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CASES: list[dict[str, Any]] = tomllib.loads((Path(__file__).parent / "data" / "claims.toml").read_text("utf-8"))["case"]


def test_there_are_enough_cases() -> None:
    assert len(CASES) >= 20


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_claim_grammar(case: dict[str, Any]) -> None:
    claims = parse_note(case["note"])
    if case.get("expect") == "none":
        assert claims == ()
        return
    expected = case["claims"]
    assert len(claims) == len(expected), [(c.witness, c.kind.value, c.reading) for c in claims]
    for claim, want in zip(claims, expected, strict=True):
        got = {
            "witness": claim.witness,
            "kind": claim.kind.value,
            "place": claim.place.value,
            "phrase": claim.phrase,
            "base": claim.base,
            "reading": claim.reading,
            "count": claim.count,
            "via": claim.via,
            "resp": claim.resp,
            "gloss": claim.gloss,
        }
        for key, value in want.items():
            if key == "phrase":
                # The grammar may keep words before the phrase; the base lookup takes the suffix found.
                assert claim.phrase.endswith(value), (key, claim.phrase)
            else:
                assert got[key] == value, (key, got[key])


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
