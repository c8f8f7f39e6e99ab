"""The base-token index of a layer's alignment (collate/align/alignment.py)."""

from __future__ import annotations

import pickle

import pytest
from scan_support import long_collation

import collate.align.alignment
from collate.align.alignment import LayerAlignment, index_tokens


def test_index_maps_columns_tokens_and_offsets() -> None:
    collation, _ = long_collation(3)
    alignment = collation.layers[0].alignment
    base = alignment.base
    expected = [(c, col[0]) for c, col in enumerate(alignment.columns) if col[0] is not None]
    assert list(zip(base.columns, base.tokens, strict=True)) == expected
    assert all(base.by_index[t.index] is t and alignment.columns[base.column_of[t.index]][0] is t for t in base.tokens)
    locus = next(x for x in collation.layers[0].loci if not x.lemma.text)  # text the base lacks
    assert base.within(locus.col_start, locus.col_end) == ()
    (before,) = base.before(locus.col_start)
    assert before.end <= base.after(locus.col_end)[0].start
    assert base.before(0) == () and base.after(len(alignment.columns)) == ()
    zs = alignment.index(1)
    assert "".join(t.t for t in zs.tokens) == "".join(col[1].t for col in alignment.columns if col[1] is not None)


def test_index_is_built_once_per_witness_and_not_saved(monkeypatch: pytest.MonkeyPatch) -> None:
    collation, _ = long_collation(3)
    alignment = collation.layers[0].alignment
    fresh = LayerAlignment(alignment.layer, alignment.sigla, alignment.columns)
    built: list[int] = []

    def spy(columns: object, j: int) -> object:
        built.append(j)
        return index_tokens(alignment.columns, j)

    monkeypatch.setattr(collate.align.alignment, "index_tokens", spy)
    assert fresh.base is fresh.base and fresh.index(1) is fresh.index(1)
    assert built == [0, 1]
    restored = pickle.loads(pickle.dumps(fresh))
    assert restored == fresh and restored.base.tokens == fresh.base.tokens
    assert built == [0, 1, 0]


def test_pages_the_base_has_lost_are_a_lacuna_of_the_base_not_additions() -> None:
    from collate.align.alignment import Extent, with_lacunae
    from collate.model import Layer, Token

    def tok(siglum: str, i: int, start: int) -> Token:
        return Token(siglum, Layer.JING, i, start, start + 1, "之", "之")

    # The base has tokens at offsets 0, 1 and (after a lost page, its mark at offset 5) 10, 11;
    # the witness has text in the two columns between.
    base = [tok("A", 0, 0), tok("A", 1, 1), None, None, tok("A", 2, 10), tok("A", 3, 11)]
    wit = [tok("B", k, k) for k in range(6)]
    columns = tuple(zip(base, wit, strict=True))
    alignment = LayerAlignment(Layer.JING, ("A", "B"), columns, (Extent("A", 0, 5), Extent("B", 0, 5)))
    lost = with_lacunae(alignment, {"A": [5]})
    assert lost.extent("A").lacunae == ((2, 4),)
    assert not lost.extent("A").covers(2) and lost.extent("A").covers(4)
    assert lost.extent("B").lacunae == ()
