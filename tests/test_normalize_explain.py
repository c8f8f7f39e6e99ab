"""From normalization changes to apparatus classes: a class and cause, why two tokens are the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import normalizer, text_tokens

from collate.apparatus import ReadingClass
from collate.model import Change, ChangeClass, Layer, Token
from collate.normalize import compare, explain, reading_class, rule_counts


def change(rule: str, cls: ChangeClass = ChangeClass.ORTHOGRAPHIC) -> Change:
    return Change(rule, "a", "b", cls)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ([], (ReadingClass.SUBSTANTIVE, None)),
        ([change("script")], (ReadingClass.ORTHOGRAPHIC, "script")),
        ([change("variant-graph"), change("script")], (ReadingClass.ORTHOGRAPHIC, "variant")),
        ([change("semantic-variant"), change("variant-graph")], (ReadingClass.ORTHOGRAPHIC, "semantic")),
        ([change("taboo", ChangeClass.TABOO), change("script")], (ReadingClass.ORTHOGRAPHIC, "taboo")),
        (
            [change("artifact", ChangeClass.UNCERTAIN), change("taboo", ChangeClass.TABOO)],
            (ReadingClass.PLACEHOLDER, "artifact"),
        ),
        (
            [change("placeholder", ChangeClass.PLACEHOLDER), change("artifact", ChangeClass.UNCERTAIN)],
            (ReadingClass.PLACEHOLDER, None),
        ),
    ],
)
def test_reading_class(changes: list[Change], expected: tuple[ReadingClass, str | None]) -> None:
    assert reading_class(changes) == expected


def test_explain_tokens_refuses_different_keys() -> None:
    a, b = text_tokens("奉", normalizer())[0], text_tokens("案", normalizer())[0]
    with pytest.raises(ValueError):
        explain(a, b)
    assert compare(a, a) is None


def test_rule_counts() -> None:
    tokens = text_tokens("賔再拜受筭□", normalizer())
    assert rule_counts(tokens) == {"placeholder": 1, "script": 1, "variant-graph": 2}


def test_the_same_unresolved_entity_in_two_witnesses_is_one_glyph(tmp_path: Path) -> None:
    """&KR9999999; in both is one glyph (Kanripo's code names it); another code, or a lost □, is unknown."""
    from collate.normalize import Normalizer
    from collate.normalize.tokenize import tokenize
    from collate.readers import read_witness

    rules = Normalizer()

    def tokens(siglum: str, line: str) -> list[Token]:
        path = tmp_path / f"{siglum}.txt"
        path.write_text("#+TITLE: 大戴禮記\n#+PROPERTY: JUAN 12\n<pb:KR1d0076_SBCK_012-7a>\n" + line + "\n", "utf-8")
        witness = read_witness(path, siglum=siglum, layout="zhu-bracket")
        return list(tokenize(witness, Layer.JING, rules))

    lines = (("A", "賢&KR9999999;干"), ("B", "賢&KR9999999;干"), ("C", "賢&KR9999998;干"), ("D", "賢□干"))
    a, b, c, d = (tokens(siglum, line) for siglum, line in lines)
    assert [t.is_placeholder for t in a] == [False, True, False]
    assert all(compare(x, y) is None for x, y in zip(a, b, strict=True))
    assert compare(a[1], c[1]) == (ReadingClass.PLACEHOLDER, None)
    assert compare(a[1], d[1]) == (ReadingClass.PLACEHOLDER, None)
