"""The ``<body>``: the base's blocks in file order, divisions, text of the base only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from builders import XML_ID, assert_lossless, assert_valid, collate, layered, small_tei_collation, tei_of, xp
from lxml import etree

from collate.apparatus import Collation
from collate.exporters.tei import TEI_NS, witness_text_from_tei
from collate.model import Layer, Mark, Span, Witness


@pytest.fixture
def small() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS with a 注 variant (奉/案), a 經 omission (以), script differences; DD's 峭."""
    return small_tei_collation()


def test_body_follows_the_base_units(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    blocks = xp(tree, "//tei:body//*[@ana and (self::tei:seg or self::tei:note or self::tei:head)] | //tei:head")
    kinds = [(etree.QName(b).localname, b.get("type"), b.get("subtype")) for b in blocks]
    assert kinds == [
        ("head", None, None),
        ("seg", "jing", None),
        ("seg", "commentary", "zhu"),
        ("seg", "jing", None),
        ("note", "editorial", "an"),
    ]
    # Commentary is running text of its layer, labelled as editors name it, after the 經 it glosses.
    zhu = blocks[2]
    assert (zhu.get("n"), zhu.get("corresp")) == ("注", "#jing.1")
    note = blocks[4]
    assert (note.get("resp"), note.get("n")) == ("#QinHuitian", "案")
    assert note.findtext(f"{{{TEI_NS}}}label") == "蕙田案"
    # The base's line marks stay where they are, pointing at the base.
    assert [lb.get("n") for lb in xp(tree, "//tei:body//tei:lb[@edRef='#SK']")] == ["1", "2", "3", "4"]
    (person,) = xp(tree, "//tei:standOff//tei:person")
    assert person.get(XML_ID) == "QinHuitian"


def blocks_witness(siglum: str, blocks: Sequence[tuple[Layer, str]]) -> Witness:
    """A witness of one line a block, each block its own unit (so headings stay apart)."""
    text, spans = "", []
    for unit, (layer, chunk) in enumerate(blocks, 1):
        spans.append(Span(len(text), len(text) + len(chunk), layer, unit, "text"))
        text += chunk + "\n"
    return Witness(siglum, siglum, f"{siglum}.txt", text, "plain", spans=tuple(spans), marks=(Mark(0, "page", "1a"),))


@pytest.mark.parametrize(
    ("blocks", "divisions"),
    [
        (
            [(Layer.HEADING, "礼记投壶"), (Layer.JING, "投壶之礼"), (Layer.HEADING, "右投壶")],
            [["pb", "head", "p", "trailer"]],
        ),
        (
            [(Layer.HEADING, "礼记投壶"), (Layer.HEADING, "右投壶"), (Layer.JING, "投壶之礼")],
            [["pb", "head", "p", "trailer"], ["p"]],
        ),
        ([(Layer.HEADING, "右投壶"), (Layer.JING, "投壶之礼")], [["pb", "p", "trailer"], ["p"]]),
        (
            [(Layer.JING, "投壶之礼"), (Layer.HEADING, "右投壶"), (Layer.HEADING, "右射礼")],
            [["pb", "p", "trailer", "trailer"]],
        ),
    ],
    ids=["after text", "right after its heading", "first in the file", "two in a row"],
)
def test_closing_lines_end_a_division_with_content(
    blocks: list[tuple[Layer, str]], divisions: list[list[str]], tei_schema: Any
) -> None:
    sk, zs = blocks_witness("SK", blocks), blocks_witness("ZS", [(Layer.JING, "投壺之禮")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    assert [[etree.QName(c).localname for c in div] for div in xp(tree, "//tei:body/tei:div")] == divisions
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_base_text_not_collated_is_marked_as_the_bases() -> None:
    sk = layered("SK", [(Layer.JING, "投壶之礼"), (None, "("), (Layer.SHU, "士则鹿中"), (None, ")")])
    zs = layered("ZS", [(Layer.JING, "投壺之禮")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (shu,) = xp(tree, "//tei:seg[@subtype='shu']")
    assert (shu.get("source"), shu.text) == ("#SK", "士则鹿中")
    # Not collated, but the base's own text: it reads back, and is no part of the collated 經.
    assert witness_text_from_tei(tree, "SK", Layer.SHU) == "士则鹿中"
    assert witness_text_from_tei(tree, "SK", Layer.JING) == "投壶之礼"
