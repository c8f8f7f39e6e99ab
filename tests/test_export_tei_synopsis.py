"""Whose text each stretch of the lossless file is: outside an entry only what every witness has.

A viewer with a column per witness (the Versioning Machine) shows text outside an ``<app>`` in
every column; the lossless file wraps every other stretch in an entry of its witnesses. How the
Versioning Machine then lays it out is in ``test_tei_consumers``.
"""

from __future__ import annotations

from typing import Any

from builders import assert_lossless, assert_valid, collate, layered, small_tei_collation, sparse_witness, tei_of, xp
from lxml import etree

from collate.exporters.tei import witness_text_from_tei
from collate.exporters.tei.synopsis import synoptic
from collate.model import Layer

# Non-blank text that is in no entry: what a column per witness shows in every column.
SHARED_TEXT = "//tei:body//text()[normalize-space()][not(ancestor::tei:app)]"


def test_text_after_a_fragment_ends_is_the_others(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "投壶之礼主人奉矢司射奉中使人执壶")])
    zs = layered("ZS", [(Layer.JING, "投壺之禮主人")])
    collation, witnesses = collate([sk, zs], fragments=["ZS"], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (end,) = xp(tree, "//tei:witEnd[@wit='#ZS']")
    after = [t for t in xp(tree, SHARED_TEXT) if end in t.getparent().iterancestors() or _follows(t, end)]
    assert after == []
    tail = xp(tree, "//tei:app[@type='extent']/tei:lem[@wit='#SK']")
    assert "".join("".join(lem.itertext()) for lem in tail) == "奉矢司射奉中使人执壶"
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def _follows(text: Any, element: Any) -> bool:
    """Whether the text node comes after ``element`` in document order."""
    order = {e: i for i, e in enumerate(element.getroottree().iter())}
    return bool(order[text.getparent()] > order[element])


def test_with_a_sparse_witness_no_text_is_everyones(tei_schema: Any) -> None:
    """大戴禮 is extant only at its readings: nothing outside an entry can be its text."""
    collation, witnesses = small_tei_collation()
    tree = tei_of(collation, witnesses)
    assert xp(tree, SHARED_TEXT) == []
    # The base's own blocks (headings, 蕙田案) are the base's alone; the collated ones SK's and ZS's.
    assert xp(tree, "//tei:head/tei:app[@type='extent']/tei:lem[@wit='#SK']")
    assert xp(tree, "//tei:p/tei:app[@type='extent']/tei:lem[@wit='#SK']/tei:note[@type='editorial']")
    assert xp(tree, "//tei:p/tei:app[@type='extent']/tei:lem[@wit='#SK #ZS']/tei:seg[@subtype='zhu']")
    assert witness_text_from_tei(tree, "DD", Layer.JING) == ""
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_without_such_a_witness_shared_text_stays_as_it_is() -> None:
    sk = layered("SK", [(Layer.JING, "主人请宾曰顺投为入")])
    zs = layered("ZS", [(Layer.JING, "主人請賓曰順投為入")])
    dd = sparse_witness(("请宾曰", "", "奏投壶之令", "after"))
    plain = tei_of(*collate([sk, zs], layers=[Layer.JING]))
    assert "".join(t.strip() for t in xp(plain, SHARED_TEXT)) == "主人曰投入"
    assert not xp(plain, "//tei:app[@type='extent']")
    with_dd = tei_of(*collate([sk, zs], sparse=[dd], layers=[Layer.JING]))
    assert xp(with_dd, SHARED_TEXT) == []


SHORT = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><sourceDesc><listWit>
<witness xml:id="SK" ana="#jing"/><witness xml:id="ZS" ana="#jing"/><witness xml:id="ZT" ana="#jing"/>
</listWit></sourceDesc></fileDesc></teiHeader><text><body><p><seg type="jing" ana="#jing">主<app>
<lem wit="#SK #ZS">投<witEnd wit="#ZS"/>壶</lem><rdg wit="#ZT">投</rdg></app>之礼</seg></p></body></text></TEI>"""


def test_a_witness_that_stops_inside_a_lemma_does_not_have_the_rest_of_it() -> None:
    root = etree.fromstring(SHORT)
    synoptic(root)
    (lem,) = xp(root, "//tei:seg/tei:app/tei:lem[@wit='#SK #ZS']")
    (rest,) = xp(lem, "tei:app[@type='extent']/tei:lem")
    assert (lem.text, rest.get("wit"), rest.text) == ("投", "#SK", "壶")
    (after,) = xp(root, "//tei:seg/tei:app[@type='extent']/tei:lem")
    assert (after.get("wit"), after.text) == ("#SK #ZT", "之礼")
    # The seg's first character is every witness's: it stays outside any entry.
    assert xp(root, "//tei:seg")[0].text == "主"
    tree = etree.ElementTree(root)
    assert [witness_text_from_tei(tree, s, Layer.JING) for s in ("SK", "ZS", "ZT")] == [
        "主投壶之礼",
        "主投",
        "主投之礼",
    ]
    assert all(x.get("wit") for x in xp(root, "//tei:lem | //tei:rdg"))
