"""What every part of the document shares: the witnesses' page and line breaks, glyphs."""

from __future__ import annotations

from typing import Any

from builders import XML_ID, assert_lossless, assert_valid, collate, layered, tei_of, xp

from collate.model import Layer


def test_placeholders_and_private_use_glyphs(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "不□礼也\ue123矢")])
    zs = layered("ZS", [(Layer.JING, "不褻禮也\ue123矢")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (app,) = xp(tree, "//tei:app[tei:lem/tei:unclear]")
    assert app.get("type") == "placeholder"
    assert app[0][0].get("reason") == "placeholder" and app[0][0].text == "□"
    assert app[1].text == "褻" and app[1].get("type") == "placeholder"
    (glyph,) = xp(tree, "//tei:charDecl/tei:glyph")
    assert glyph.get(XML_ID) == "pua-E123"
    assert {g.get("ref") for g in xp(tree, "//tei:body//tei:g")} == {"#pua-E123"}
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_witness_pages_are_kept_with_edref(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "投壶之礼"), (None, "\n"), (Layer.JING, "主人奉矢")])
    zs = layered("ZS", [(Layer.JING, "投壺之禮主"), (None, "\n"), (Layer.JING, "人案矢")], page="7b")
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    assert [(p.get("edRef"), p.get("n")) for p in xp(tree, "//tei:pb")] == [("#SK", "1a"), ("#ZS", "7b")]
    (zs_line,) = xp(tree, "//tei:lb[@edRef='#ZS'][@n='2']")
    # ZS's second line starts at its 人, which it shares with the base: the break sits before 人.
    assert zs_line.tail.startswith("人")
    assert_valid(tree, tei_schema)
