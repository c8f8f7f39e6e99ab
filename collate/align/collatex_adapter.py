"""CollateX behind one adapter: the only module that imports ``collatex``.

Callers hand over short sequences of comparison keys (one string per token, ``None`` for a
token that must match nothing) and get back columns of token positions. CollateX's own
objects never leave this module. It is imported lazily so that ``collate --help`` and
everything that does not align stay fast.

We always feed pre-tokenized witnesses (``{"t", "n", "id"}``): CollateX's tokenizer would make
phrase-sized tokens of Chinese. CollateX writes private keys (``_sigil``,
``_token_array_position``) into the token dicts it is given, so the dicts are built fresh for
every call and only our own ``id`` is read back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Column = tuple[int | None, ...]


def _witness(siglum: str, keys: Sequence[str | None]) -> dict[str, Any]:
    tokens = []
    for i, key in enumerate(keys):
        # A key that must match nothing (a placeholder glyph) gets a value no other token can
        # have: CollateX compares ``n`` only. "\x00" never occurs in a key we build.
        n = key if key is not None else f"\x00{siglum}\x00{i}"
        tokens.append({"t": n, "n": n, "id": i})
    return {"id": siglum, "tokens": tokens}


def collatex_columns(sequences: Sequence[Sequence[str | None]]) -> list[Column]:
    """Align sequences of comparison keys with CollateX; return its alignment table as columns.

    ``columns[c][w]`` is the position in ``sequences[w]`` of the token witness ``w`` has in
    column ``c``, or ``None``. Every position of every sequence appears exactly once, in order.
    CollateX runs without segmentation (one token per cell), without near matching and without
    its transposition detection; its result depends on the order of ``sequences`` (the first
    one seeds the variant graph), so callers fix that order.
    """
    if not sequences:
        return []
    if all(not keys for keys in sequences):
        return []
    from collatex import Collation, collate

    witnesses = [_witness(f"w{w}", keys) for w, keys in enumerate(sequences)]
    # An empty witness has no tokens for the suffix array to index; leave it out and give it
    # an empty cell in every column.
    present = [w for w, keys in enumerate(sequences) if keys]
    collation = Collation.create_from_dict({"witnesses": [witnesses[w] for w in present]})
    table = collate(collation, output="table", segmentation=False, near_match=False)
    rows = {row.header: row.cells for row in table.rows}
    columns: list[Column] = []
    for c in range(len(table.columns)):
        cells: list[int | None] = [None] * len(sequences)
        for w in present:
            cell = rows[f"w{w}"][c]
            if cell:
                cells[w] = int(cell[0].token_data["id"])
        columns.append(tuple(cells))
    return columns
