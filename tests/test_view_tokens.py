"""The token table of ``collate inspect --tokens``: each token's character, key, rules and place."""

from __future__ import annotations

from collate.model import Change, ChangeClass, Layer, Span, Substitution, Token, Witness
from collate.normalize.placeholder import KEY_MARK
from collate.views.tokens import COLUMNS, token_row, tokens_plain

# 賔, a line end, the entity &KR0002; (read 若) and a placeholder.
TEXT = "賔\n&KR0002;□"


def witness() -> Witness:
    spans = (Span(0, 1, Layer.JING), Span(1, 2, Layer.MARKUP, 0, "layout"), Span(2, 11, Layer.JING))
    return Witness(
        "SK", "SK", "sk.txt", TEXT, "plain", spans=spans, substitutions=(Substitution(2, 10, "若", "gaiji"),)
    )


def token(index: int, start: int, end: int, t: str, n: str, *changes: tuple[str, ChangeClass]) -> Token:
    return Token("SK", Layer.JING, index, start, end, t, n, changes=tuple(Change(r, t, n, c) for r, c in changes))


ORTHOGRAPHIC, PLACEHOLDER = ChangeClass.ORTHOGRAPHIC, ChangeClass.PLACEHOLDER
TOKENS = (
    token(0, 0, 1, "賔", "宾", ("variant-graph", ORTHOGRAPHIC), ("script", ORTHOGRAPHIC), ("script", ORTHOGRAPHIC)),
    token(1, 2, 10, "若", "若"),
    token(2, 10, 11, "□", KEY_MARK + "SK10", ("placeholder", PLACEHOLDER)),
)


def test_a_row_shows_the_character_its_key_its_rules_once_and_its_place() -> None:
    w = witness()
    assert token_row(TOKENS[0], w) == ("0", "賔", "宾", "variant-graph,script", "jing", "1:1")
    # A resolved entity shows its character and what the file has.
    assert token_row(TOKENS[1], w) == ("1", "若 &KR0002;", "若", "", "jing", "2:1")
    # A placeholder's key is unique and unreadable: the table says what it is.
    assert token_row(TOKENS[2], w)[2:4] == ("(placeholder)", "placeholder")


def test_the_plain_table_is_a_header_and_a_line_a_token() -> None:
    lines = tokens_plain(witness(), {Layer.JING: TOKENS}).splitlines()
    assert lines[0].split("\t") == list(COLUMNS)
    assert [line.split("\t")[:3] for line in lines[1:]] == [
        ["0", "賔", "宾"],
        ["1", "若 &KR0002;", "若"],
        ["2", "□", "(placeholder)"],
    ]
