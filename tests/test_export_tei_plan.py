"""Where the columns are written: entries at a point, loci cut at a unit's edge, moved passages."""

from __future__ import annotations

from typing import Any

import pytest
from builders import XML_ID, assert_lossless, assert_valid, collate, layer_tokens, layered, sparse_witness, tei_of, xp

from collate.align.alignment import LayerAlignment, Transposition
from collate.apparatus import Collation, WitnessInfo, build_layer
from collate.exporters.tei import TEI_NS, witness_text_from_tei
from collate.model import Layer
from collate.validate import rule_problems


def test_reported_additions_stand_where_they_are_reported() -> None:
    sk = layered("SK", [(Layer.JING, "主人请宾曰顺投为入比投不释胜饮不胜者")])
    zs = layered("ZS", [(Layer.JING, "主人請賓曰順投為入比投不釋勝飲不勝者")])
    dd = sparse_witness(("请宾曰", "", "奏投壶之令", "after"), ("比投不释", "", "算", "after"))
    collation, witnesses = collate([sk, zs], sparse=[dd], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (seg,) = xp(tree, "//tei:seg")
    text = (seg.text or "") + "".join(
        (f"[{a.findtext(f'{{{TEI_NS}}}rdg')}]" if a.get("type") == "addition" else "".join(a[0].itertext()))
        + (a.tail or "")
        for a in seg
    )
    assert text == "主人请宾曰[奏投壶之令]顺投为入比投不释[算]胜饮不胜者"


def test_a_locus_across_two_units_is_split_at_the_unit_edge(tei_schema: Any) -> None:
    sk = layered(
        "SK", [(Layer.JING, "主人奉矢"), (None, "("), (Layer.ZHU, "矢所以投"), (None, ")"), (Layer.JING, "司射奉中")]
    )
    zs = layered("ZS", [(Layer.JING, "主人奉射奉中"), (None, "_"), (Layer.ZHU, "矢所以投")])
    collation, witnesses = collate([sk, zs])
    jing = collation.layer(Layer.JING)
    assert jing is not None and [x.lemma.text for x in jing.loci] == ["矢司"]
    tree = tei_of(collation, witnesses)
    apps = xp(tree, "//tei:seg//tei:app[@type='omission']")
    assert [(a.get(XML_ID), a[0].text) for a in apps] == [("app.jing-00003", "矢"), ("app.jing-00003.p2", "司")]
    assert [a[1].get("wit") for a in apps] == ["#ZS", "#ZS"]
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_moved_passages_read_the_layer_once_not_once_per_move() -> None:
    from scan_support import Visits, long_text

    from collate.apparatus import LayerResult
    from collate.exporters.tei.plan import CollatedLayer

    base, _ = long_text(50)
    sk, wy = layered("SK", [(Layer.JING, base)]), layered("WY", [(Layer.JING, base)])
    columns = Visits(zip(layer_tokens(sk, Layer.JING), layer_tokens(wy, Layer.JING), strict=True))
    moved = tuple(Transposition("WY", k, k + 2, k, k + 2) for k in range(0, len(base), 6))
    alignment = LayerAlignment(Layer.JING, ("SK", "WY"), columns, (), moved)
    lay = CollatedLayer(LayerResult(Layer.JING, alignment, (), ()))
    assert len(lay.moves) == len(moved) == 50
    assert columns.visited <= 3 * len(columns)


@pytest.mark.parametrize(
    ("witness", "moved"),
    [
        # 丙丁 and 戊己 read after 庚辛, one after the other.
        ("甲乙庚辛丙丁戊己", [(2, 4, 4, 6), (4, 6, 6, 8)]),
        # 丙丁 and 戊己 read first, one after the other: nothing of the witness stands before them.
        ("丙丁戊己甲乙庚辛", [(2, 4, 0, 2), (4, 6, 2, 4)]),
    ],
    ids=["after the text", "at the start"],
)
def test_moved_passages_next_to_each_other_read_back_in_the_witness_order(
    witness: str, moved: list[tuple[int, int, int, int]]
) -> None:
    """A passage that follows another moved passage stands beside it, not where that one was aligned."""
    base = "甲乙丙丁戊己庚辛"
    sk, wy = layered("SK", [(Layer.JING, base)]), layered("WY", [(Layer.JING, witness)])
    own = layer_tokens(wy, Layer.JING)
    # Each base character with the witness's token of the same character (all distinct).
    columns = tuple((b, next(t for t in own if t.t == b.t)) for b in layer_tokens(sk, Layer.JING))
    passages = tuple(Transposition("WY", *m) for m in moved)
    alignment = LayerAlignment(Layer.JING, ("SK", "WY"), columns, (), passages)
    witnesses = {"SK": sk, "WY": wy}
    info = (WitnessInfo("SK", "SK", "SK.txt", "plain"), WitnessInfo("WY", "WY", "WY.txt", "plain"))
    collation = Collation("t", "touhu", "SK", info, (build_layer(alignment, witnesses),))
    tree = tei_of(collation, witnesses)
    assert witness_text_from_tei(tree, "WY", Layer.JING) == witness
    assert witness_text_from_tei(tree, "SK", Layer.JING) == base
    assert rule_problems(tree)[0] == []
