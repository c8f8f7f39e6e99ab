"""The token table of ``collate inspect --tokens``: each token's character, key, rules and place."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Console
from rich.table import Table
from rich.text import Text

from collate.model import Layer, Token, Witness
from collate.model.inert import inert
from collate.normalize.placeholder import KEY_MARK
from collate.views.witness import LAYER_STYLE

COLUMNS = ("#", "t", "n", "rules", "layer", "line:col")


def token_row(token: Token, witness: Witness) -> tuple[str, ...]:
    """One token as display strings, in the order of :data:`COLUMNS` (control characters escaped)."""
    raw = witness.text[token.start : token.end]
    shown = token.t if raw == token.t else f"{token.t} {raw}"
    key = "(placeholder)" if token.n.startswith(KEY_MARK) else token.n
    rules = ",".join(dict.fromkeys(c.rule for c in token.changes))
    line, col = witness.line_col(token.start)
    # Tab-separated when piped: no tab or line end of the data may stand in a cell.
    return str(token.index), inert(shown, keep=""), inert(key, keep=""), rules, token.layer.value, f"{line}:{col}"


def tokens_plain(witness: Witness, tokens: Mapping[Layer, tuple[Token, ...]]) -> str:
    """The table as tab-separated lines with a header, for pipes and tests."""
    lines = ["\t".join(COLUMNS)]
    for layer_tokens in tokens.values():
        lines.extend("\t".join(token_row(t, witness)) for t in layer_tokens)
    return "\n".join(lines) + "\n"


def tokens_table(witness: Witness, tokens: Mapping[Layer, tuple[Token, ...]]) -> Table:
    """The table for a terminal: changed tokens stand out."""
    table = Table(title=Text(f"Tokens of {inert(witness.path, keep='')}"))
    for col in COLUMNS:
        table.add_column(col, justify="right" if col == "#" else "left")
    for layer, layer_tokens in tokens.items():
        for token in layer_tokens:
            cells = token_row(token, witness)
            style = "yellow" if token.changes else ""
            table.add_row(
                *(Text(c, style=style) for c in cells[:4]),
                Text(cells[4], style=LAYER_STYLE[layer]),
                Text(cells[5]),
            )
    return table


def print_tokens(console: Console, witness: Witness, tokens: Mapping[Layer, tuple[Token, ...]]) -> None:
    """A rich table in a terminal; tab-separated lines when piped (rich would expand the tabs)."""
    if console.is_terminal:
        console.print(tokens_table(witness, tokens))
    else:
        console.file.write(tokens_plain(witness, tokens))
