"""The claim grammar, case by case (tests/data/claims.toml)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from collate.notes.claims import parse_note

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
