"""From normalization changes to apparatus classes: a class and cause, why two tokens are the same."""

from __future__ import annotations

import pytest
from builders import normalizer, text_tokens

from collate.apparatus import ReadingClass
from collate.model import Change, ChangeClass
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
