"""Characters as TEI: what XML cannot hold, PUA glyphs, names made ``xml:id``s, the script."""

from __future__ import annotations

from typing import Any

import pytest
from builders import assert_lossless, assert_valid, collate, input_for, layered, xp
from lxml import etree

from collate.exporters.tei import TEI_NS, build_tei, tei_bytes
from collate.exporters.tei.markup import control_gap, is_pua, name_part, ncname, safe_attr, script_of, xml_char
from collate.model import Layer


def test_markup_characters_and_controls_stay_valid_xml(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "主人<曰&某]]>有\x01矢\ufffe")])
    zs = layered("ZS", [(Layer.JING, "主人<曰&某]]>右\x02矢\ufffe")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    data = tei_bytes(build_tei(input_for(collation, witnesses)))
    tree = etree.ElementTree(etree.fromstring(data))
    gaps = xp(tree, "//tei:gap[@reason='control-character']")
    assert {g.findtext(f"{{{TEI_NS}}}desc") for g in gaps} == {"U+0001", "U+0002", "U+FFFE"}
    assert b"&lt;" in data and b"&amp;" in data and b"]]>" not in data.split(b"?>", 2)[-1]
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


@pytest.mark.parametrize(
    ("char", "allowed"),
    [
        ("\t", True),
        ("\n", True),
        ("\r", True),
        ("主", True),
        ("\ufffd", True),
        ("\U0002a6a5", True),
        ("\x00", False),
        ("\x0b", False),
        ("\x1f", False),
        ("\ud800", False),
        ("\ufffe", False),
        ("\uffff", False),
    ],
)
def test_xml_char_is_what_xml_1_0_allows(char: str, allowed: bool) -> None:
    assert xml_char(char) is allowed


@pytest.mark.parametrize(
    ("char", "pua"),
    [("\ue000", True), ("\uf8ff", True), ("\U000f0000", True), ("\U0010fffd", True), ("\uf900", False), ("主", False)],
)
def test_private_use_area_code_points_are_glyphs(char: str, pua: bool) -> None:
    # U+F900 is a compatibility ideograph right after the BMP's PUA: a character, not a glyph.
    assert is_pua(char) is pua


def test_a_control_character_is_a_gap_that_names_it() -> None:
    gap = control_gap("\x01")
    assert etree.QName(gap).localname == "gap"
    assert (gap.get("reason"), gap.get("quantity"), gap.get("unit")) == ("control-character", "1", "char")
    assert gap.findtext(f"{{{TEI_NS}}}desc") == "U+0001"


def test_attribute_values_replace_what_xml_cannot_hold() -> None:
    assert safe_attr("四\x01庫\ufffe本") == "四\ufffd庫\ufffd本"
    assert safe_attr("四庫本") == "四庫本"


@pytest.mark.parametrize(("text", "name"), [("SK", "SK"), ("a.b-c_d", "a.b-c_d"), ("1st", "_1st"), ("王 一", "___")])
def test_ncname_makes_a_valid_id(text: str, name: str) -> None:
    assert ncname(text) == name
    assert etree.fromstring(f'<x xml:id="{ncname(text)}"/>') is not None


@pytest.mark.parametrize(
    ("text", "part"), [("Wang Li", "Wang_Li"), (" 王 一 ", "王_一"), ("巻3", "巻3"), ("µ", "_"), ("", "_")]
)
def test_name_part_keeps_letters_of_any_script(text: str, part: str) -> None:
    assert name_part(text) == part


def test_script_of_counts_characters_of_each_script() -> None:
    assert script_of("禮記投壺") == "Hant"
    assert script_of("礼记投壶") == "Hans"
    # Three simplified characters (礼记壶) against one traditional (禮): mostly simplified.
    assert script_of("礼记投壶之禮") == "Hans"
