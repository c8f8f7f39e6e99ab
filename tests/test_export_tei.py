"""The TEI writer: structure, apparatus encoding, validity, and lossless reading back.

Small collations are built by hand from layered witnesses (經 and 注 units, headings, a
蕙田案 block) aligned with difflib (builders.collate); the default project is collated once per module.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import Part, collate, layer_tokens, layered, run_default_project, sparse_witness
from conftest import SHARED, need_shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from collate.alignment import LayerAlignment, Transposition
from collate.apparatus import Collation, WitnessInfo, build_layer
from collate.errors import ExportError
from collate.exporters import ExportInput, WitnessBibl, get_exporter
from collate.exporters.tei import NS, TEI_NS, build_tei, tei_bytes, witness_text_from_tei, write_tei
from collate.model import Layer, Mark, SourceLocation, Span, Witness
from collate.notes.records import AttachedNote
from collate.pipeline import RunResult
from collate.validate import load_schema, rule_problems, shipped_schema

XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


# --- small collations: built by builders.collate, written and read back -------------------


def input_for(collation: Collation, witnesses: Mapping[str, Witness]) -> ExportInput:
    """What the TEI exporter is handed: the witnesses as read, each described as a project file does."""
    bibl = {w.siglum: WitnessBibl(f"{w.label}〈投壺〉", "A note.") for w in collation.witnesses}
    return ExportInput(collation, witnesses, bibl)


def tei_of(collation: Collation, witnesses: dict[str, Witness]) -> Any:
    """Build, serialize and parse again: tests look at what a reader of the file sees."""
    data = tei_bytes(build_tei(input_for(collation, witnesses)))
    return etree.ElementTree(etree.fromstring(data))


def xp(tree: Any, path: str) -> list[Any]:
    found: list[Any] = tree.xpath(path, namespaces=NS)
    return found


def expected(witnesses: dict[str, Witness], siglum: str, layer: Layer) -> str:
    return "".join(t.t for t in layer_tokens(witnesses[siglum], layer))


def assert_lossless(tree: Any, collation: Collation, witnesses: dict[str, Witness]) -> None:
    for result in collation.layers:
        for siglum in result.alignment.sigla:
            got = witness_text_from_tei(tree, siglum, result.layer)
            assert got == expected(witnesses, siglum, result.layer), (siglum, result.layer)


@pytest.fixture(scope="session")
def tei_schema() -> Any:
    """tei_all.rng, compiled once per test session (it takes 5–10 s)."""
    return load_schema(need_shared(SHARED / "tei" / "tei_all.rng"))


def assert_valid(tree: Any, schema: Any) -> None:
    """Valid against ``schema`` (tei_all), the TEI subset collate ships, and the apparatus rules."""
    for rng in (schema, load_schema(shipped_schema())):
        assert rng.validate(tree), [f"{e.line}: {e.message}" for e in rng.error_log][:5]
    problems, _ = rule_problems(tree)
    assert problems == []


SK_PARTS: list[Part] = [
    (Layer.HEADING, "礼记投壶"),
    (None, "\n"),
    (Layer.JING, "投壶之礼主人奉矢"),
    (None, "("),
    (Layer.ZHU, "矢所以投者也射人奉之"),
    (None, ")\n"),
    (Layer.JING, "主人请曰某有枉矢哨壶请以乐宾"),
    (None, "\n　　"),
    (Layer.NOTE, "蕙田案", "attribution"),
    (Layer.NOTE, "今本大戴礼乃作峭谬甚"),
]
ZS_PARTS: list[Part] = [
    (Layer.JING, "投壺之禮主人奉矢"),
    (None, "_{"),
    (Layer.ZHU, "矢所以投者也射人案之"),
    (None, "}"),
    (Layer.JING, "主人請曰某有枉矢哨壺請樂賓"),
]


@pytest.fixture
def small() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS with a 注 variant (奉/案), a 經 omission (以), script differences; DD's 峭."""
    sk, zs = layered("SK", SK_PARTS, label="四庫本"), layered("ZS", ZS_PARTS, label="注疏本")
    dd = sparse_witness(("某有枉矢哨壶", "哨", "峭", ""))
    collation, witnesses = collate([sk, zs], sparse=[dd])
    note_at = sk.text.index("今本")
    note = AttachedNote("SK-n1", "秦蕙田", "今本大戴礼乃作峭谬甚", sk.locate(note_at), ("DD reads 峭 for 哨",))
    jing = collation.layer(Layer.JING)
    assert jing is not None
    loci = tuple(x.with_notes((note,)) if x.lemma.text == "哨" else x for x in jing.loci)
    return collation.with_layer(jing.with_loci(loci)), witnesses


# --- structure ---------------------------------------------------------------------------------


def test_header_lists_witnesses_rules_and_the_method(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    witnesses = xp(tree, "//tei:sourceDesc/tei:listWit/tei:witness")
    assert [w.get(XML_ID) for w in witnesses] == ["SK", "ZS", "DD"]
    assert [w.findtext(f"{{{TEI_NS}}}abbr") for w in witnesses] == ["四庫本", "注疏本", "大戴禮"]
    assert witnesses[0].findtext(f"{{{TEI_NS}}}bibl") == "四庫本〈投壺〉"
    # @ana: the layers each witness carries; the sparse witness carries none.
    assert [w.get("ana") for w in witnesses] == ["#jing #zhu", "#jing #zhu", None]
    (encoding,) = xp(tree, "//tei:encodingDesc/tei:variantEncoding")
    assert (encoding.get("method"), encoding.get("location")) == ("parallel-segmentation", "internal")
    rules = xp(tree, "//tei:editorialDecl/tei:normalization/tei:p[@xml:id]")
    assert [r.get(XML_ID) for r in rules] == ["rule.script", "rule.variant-graph"]
    assert tree.getroot().get("{http://www.w3.org/XML/1998/namespace}lang") == "lzh-Hans"


def test_body_follows_the_base_units(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    blocks = xp(tree, "//tei:body//*[@ana and (self::tei:seg or self::tei:note or self::tei:head)] | //tei:head")
    kinds = [(etree.QName(b).localname, b.get("type"), b.get("subtype")) for b in blocks]
    assert kinds == [
        ("head", None, None),
        ("seg", "jing", None),
        ("note", "commentary", "zhu"),
        ("seg", "jing", None),
        ("note", "editorial", "an"),
    ]
    zhu = blocks[2]
    assert (zhu.get("place"), zhu.get("target")) == ("inline", "#jing.1")
    note = blocks[4]
    assert note.get("resp") == "#QinHuitian"
    assert note.findtext(f"{{{TEI_NS}}}label") == "蕙田案"
    # The base's line marks stay where they are, pointing at the base.
    assert [lb.get("n") for lb in xp(tree, "//tei:body//tei:lb[@edRef='#SK']")] == ["1", "2", "3", "4"]
    (person,) = xp(tree, "//tei:standOff//tei:person")
    assert person.get(XML_ID) == "QinHuitian"


def test_variants_are_apps_with_original_characters(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    (zhu,) = xp(tree, "//tei:app[@type='substantive'][tei:lem='奉']")
    (rdg,) = zhu.findall(f"{{{TEI_NS}}}rdg")
    assert (zhu[0].get("wit"), rdg.get("wit"), rdg.text, rdg.get("type")) == ("#SK", "#ZS", "案", "substantive")
    (omission,) = xp(tree, "//tei:app[@type='omission']")
    assert omission[0].text == "以"
    assert omission[1].get("wit") == "#ZS" and len(omission[1]) == 0 and not omission[1].text
    # Script only is no variant, but ZS's own characters are kept (壺, not 壶).
    scripts = xp(tree, "//tei:app[@type='script']")
    assert any(a[0].text == "壶" and a[1].text == "壺" and a[1].get("wit") == "#ZS" for a in scripts)
    assert not xp(tree, "//tei:app[@type='script']/tei:lem[contains(@wit, '#ZS')]")


def test_sparse_reading_note_and_source(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    (app,) = xp(tree, "//tei:app[tei:rdg[@wit='#DD']]")
    lem, rdg, detail, note = app
    assert (lem.get("wit"), lem.text) == ("#SK #ZS", "哨")
    assert (rdg.text, rdg.get("type")) == ("峭", "substantive")
    (bibl,) = xp(tree, f"//tei:standOff//tei:bibl[@xml:id='{rdg.get('source')[1:]}']")
    assert bibl.text == "蕙田案"
    assert (detail.get("wit"), detail.get("target")) == ("#DD", f"#{rdg.get(XML_ID)}")
    assert (note.get("type"), note.get("resp"), note.text) == ("editorial", "#QinHuitian", "今本大戴礼乃作峭谬甚")
    assert note.get("target") == f"#{rdg.get(XML_ID)}"
    # Linked to the note at its own place, not copied there.
    (block,) = xp(tree, f"//tei:body//tei:note[@xml:id='{note.get('corresp')[1:]}']")
    assert block.get("target") == f"#{app.get(XML_ID)}"


def test_reported_additions_stand_where_they_are_reported() -> None:
    sk = layered("SK", [(Layer.JING, "主人请宾曰顺投为入比投不释胜饮不胜者")])
    zs = layered("ZS", [(Layer.JING, "主人請賓曰順投為入比投不釋勝飲不勝者")])
    dd = sparse_witness(("请宾曰", "", "奏投壶之令", "after"), ("比投不释", "", "算", "after"))
    collation, witnesses = collate([sk, zs], sparse=[dd], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (seg,) = xp(tree, "//tei:seg")
    text = (seg.text or "") + "".join(
        (f"[{a.findtext(f'{{{TEI_NS}}}rdg')}]" if a.get("type") == "addition" else a.findtext(f"{{{TEI_NS}}}lem") or "")
        + (a.tail or "")
        for a in seg
    )
    assert text == "主人请宾曰[奏投壶之令]顺投为入比投不释[算]胜饮不胜者"


def test_small_collation_is_valid_and_lossless(small: tuple[Collation, dict[str, Witness]], tei_schema: Any) -> None:
    tree = tei_of(*small)
    assert_valid(tree, tei_schema)
    assert_lossless(tree, *small)
    assert witness_text_from_tei(tree, "DD", Layer.JING) == ""


def test_fragment_ends_with_witend_never_an_omission(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "投壶之礼主人奉矢司射奉中使人执壶")])
    zs = layered("ZS", [(Layer.JING, "投壺之禮主人")])
    collation, witnesses = collate([sk, zs], fragments=["ZS"], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (end,) = xp(tree, "//tei:witEnd")
    assert end.get("wit") == "#ZS"
    assert etree.QName(end.getparent()).localname in ("lem", "rdg")
    assert not xp(tree, "//tei:rdg[@wit='#ZS'][not(node())]")
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_fragment_starting_late_gets_witstart(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "投壶之礼主人奉矢司射奉中")])
    zs = layered("ZS", [(Layer.JING, "奉矢司射奉中")])
    collation, witnesses = collate([sk, zs], fragments=["ZS"], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (start,) = xp(tree, "//tei:witStart")
    assert start.get("wit") == "#ZS"
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_orthographic_cluster_in_one_rdggrp(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "取算宾也")])
    zs = layered("ZS", [(Layer.JING, "取筭賔也")])
    wy = layered("WY", [(Layer.JING, "取筭宾也")])
    collation, witnesses = collate([sk, zs, wy], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (app,) = xp(tree, "//tei:app[@type='orthographic']")
    lem, group = app
    assert (lem.get("wit"), lem.text) == ("#SK", "算宾")
    assert group.get("type") == "orthographic"
    readings = sorted((r.get("wit"), r.text, r.get("cause"), r.get("ana")) for r in group)
    assert readings == [
        ("#WY", "筭宾", "variant", "#rule.variant-graph"),
        ("#ZS", "筭賔", "variant", "#rule.variant-graph"),
    ]
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_taboo_form_is_orthographic_with_its_cause() -> None:
    sk = layered("SK", [(Layer.JING, "天地玄黄")])
    zs = layered("ZS", [(Layer.JING, "天地元黄")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (rdg,) = xp(tree, "//tei:app/tei:rdg")
    assert (rdg.text, rdg.get("type"), rdg.get("cause")) == ("元", "orthographic", "taboo")


def test_rdggrp_for_one_reading_in_two_scripts(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "有枉矢哨壶")])
    zs = layered("ZS", [(Layer.JING, "有枉矢峭壺")])
    wy = layered("WY", [(Layer.JING, "有枉矢峭壶")])
    xy = layered("XY", [(Layer.JING, "有枉矢哨杯")])
    collation, witnesses = collate([sk, zs, wy, xy], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (group,) = xp(tree, "//tei:rdgGrp")
    assert group.get("type") == "substantive"
    assert sorted((r.get("wit"), r.text) for r in group) == [("#WY", "峭壶"), ("#ZS", "峭壺")]
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


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


def test_transposed_passage_is_read_at_the_witness_own_place(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "投壶之礼主人奉矢")])
    wy = layered("WY", [(Layer.JING, "投壺之禮奉矢主人")])
    base, own = layer_tokens(sk, Layer.JING), layer_tokens(wy, Layer.JING)
    # The aligner puts WY's 主人 (its tokens 6, 7) at the base's place of 主人 (columns 4, 5).
    order = [0, 1, 2, 3, 6, 7, 4, 5]
    columns = tuple((b, own[k]) for b, k in zip(base, order, strict=True))
    alignment = LayerAlignment(Layer.JING, ("SK", "WY"), columns, (), (Transposition("WY", 4, 6, 6, 8),))
    result = build_layer(alignment, {"SK": sk, "WY": wy})
    info = (WitnessInfo("SK", "SK", "SK.txt", "plain"), WitnessInfo("WY", "WY", "WY.txt", "plain"))
    collation = Collation("t", "touhu", "SK", info, (result,))
    tree = tei_of(collation, {"SK": sk, "WY": wy})
    there, here = xp(tree, "//tei:app[@type='transposition']")
    assert (there[0].text, there[1].get("wit"), len(there[1]), there[1].text) == ("主人", "#WY", 0, None)
    assert (here[0].get("wit"), here[1].get("wit"), here[1].text) == ("#SK", "#WY", "主人")
    assert there.get("exclude") == f"#{here.get(XML_ID)}" and here.get("exclude") == f"#{there.get(XML_ID)}"
    assert witness_text_from_tei(tree, "WY", Layer.JING) == "投壺之禮奉矢主人"
    assert witness_text_from_tei(tree, "SK", Layer.JING) == "投壶之礼主人奉矢"
    assert_valid(tree, tei_schema)


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
    (shu,) = xp(tree, "//tei:note[@subtype='shu']")
    assert (shu.get("source"), shu.text) == ("#SK", "士则鹿中")
    assert witness_text_from_tei(tree, "SK", Layer.SHU) == ""


def test_write_tei_is_atomic_and_named_after_the_project(
    small: tuple[Collation, dict[str, Witness]], tmp_path: Path
) -> None:
    collation, witnesses = small
    path = write_tei(input_for(collation, witnesses), tmp_path / "out")
    assert path == tmp_path / "out" / "touhu.tei.xml"
    assert os.listdir(tmp_path / "out") == ["touhu.tei.xml"]
    assert etree.parse(str(path)).getroot().tag == f"{{{TEI_NS}}}TEI"


def test_registry_handle_writes_its_input(small: tuple[Collation, dict[str, Witness]], tmp_path: Path) -> None:
    collation, witnesses = small
    exporter = get_exporter("tei")
    assert exporter.suffix == ".tei.xml"
    exporter.write(input_for(collation, witnesses), tmp_path / "x.tei.xml")
    assert etree.parse(str(tmp_path / "x.tei.xml")).getroot().tag == f"{{{TEI_NS}}}TEI"


def test_base_missing_from_the_witnesses_is_an_export_error(small: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = small
    with pytest.raises(ExportError, match="base witness SK"):
        build_tei(input_for(collation, {k: v for k, v in witnesses.items() if k != "SK"}))


# --- losslessness on random witnesses --------------------------------------------------------------

ALPHABET = "主人请曰某有枉矢哨壶以乐宾算玄士则鹿中"
SCRIPT = {"请": "請", "壶": "壺", "乐": "樂", "宾": "賓", "则": "則"}
VARIANT = {"算": "筭", "宾": "賔", "玄": "元"}


@st.composite
def edited(draw: Any, base: str, *, may_end_early: bool) -> str:
    """A witness of ``base``: characters kept, in the other script, a variant, replaced, dropped, added."""
    out = []
    for ch in base:
        op = draw(st.sampled_from(["keep", "keep", "keep", "script", "variant", "replace", "drop", "add", "hole"]))
        if op == "script":
            out.append(SCRIPT.get(ch, ch))
        elif op == "variant":
            out.append(VARIANT.get(ch, ch))
        elif op == "replace":
            out.append(draw(st.sampled_from(ALPHABET)))
        elif op == "add":
            out.append(ch + draw(st.sampled_from(ALPHABET)))
        elif op == "hole":
            out.append("□")
        elif op == "keep":
            out.append(ch)
    text = "".join(out)
    if may_end_early and text and draw(st.booleans()):
        cut = draw(st.integers(1, len(text)))
        text = text[:cut] if draw(st.booleans()) else text[cut - 1 :]
    return text


@st.composite
def collations(draw: Any) -> tuple[Collation, dict[str, Witness]]:
    units = draw(st.lists(st.text(ALPHABET, min_size=1, max_size=7), min_size=2, max_size=5))
    base_parts: list[Part] = [(Layer.HEADING, "礼记投壶"), (None, "\n")]
    layers = [Layer.JING if i % 2 == 0 else Layer.ZHU for i in range(len(units))]
    for layer, text in zip(layers, units, strict=True):
        base_parts += [(layer, text), (None, "\n")]
    base = layered("SK", base_parts)
    others = []
    fragments = []
    for siglum in ("ZS", "WY")[: draw(st.integers(1, 2))]:
        parts: list[Part] = []
        fragment = draw(st.booleans())
        for layer in (Layer.JING, Layer.ZHU):
            own = "".join(u for u, x in zip(units, layers, strict=True) if x is layer)
            text = draw(edited(own, may_end_early=fragment))
            if text:
                parts += [(layer, text), (None, "\n")]
        if fragment:
            fragments.append(siglum)
        others.append(layered(siglum, parts or [(None, "\n")]))
    return collate([base, *others], fragments=fragments)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collations())
def test_every_witness_reads_back_from_the_tei(case: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = case
    tree = tei_of(collation, witnesses)
    assert_lossless(tree, collation, witnesses)
    problems, _ = rule_problems(tree)
    assert problems == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collations())
def test_random_collations_are_schema_valid(tei_schema: Any, case: tuple[Collation, dict[str, Witness]]) -> None:
    # Valid against the shipped subset, hence (as it is a subset) against tei_all too.
    tree = tei_of(*case)
    subset = load_schema(shipped_schema())
    assert subset.validate(tree), [e.message for e in subset.error_log][:3]
    assert tei_schema.validate(tree), [e.message for e in tei_schema.error_log][:3]


@st.composite
def transposed(draw: Any) -> tuple[Collation, dict[str, Witness]]:
    """The base, and a witness with two neighbouring passages swapped, as the aligner reports it."""
    text = draw(st.text(ALPHABET, min_size=3, max_size=16))
    i = draw(st.integers(0, len(text) - 2))
    j = draw(st.integers(i + 1, len(text) - 1))
    k = draw(st.integers(j + 1, len(text)))
    head = draw(st.sampled_from([Layer.JING, Layer.ZHU]))
    sk = layered(
        "SK", [(head, text[:j]), (None, "("), (Layer.NOTE, "案", "attribution"), (None, ")"), (head, text[j:])]
    )
    wy = layered("WY", [(Layer.JING, text[:i] + text[j:k] + text[i:j] + text[k:])])
    base, own = layer_tokens(sk, head), layer_tokens(wy, Layer.JING)
    own = [replace(t, layer=head) for t in own]
    # Base tokens i..j-1 are read by WY's moved tokens, j..k-1 by the ones that came forward.
    order = [*range(i), *range(i + k - j, k), *range(i, i + k - j), *range(k, len(text))]
    columns = tuple((b, own[m]) for b, m in zip(base, order, strict=True))
    moved = Transposition("WY", i, j, i + k - j, k)
    alignment = LayerAlignment(head, ("SK", "WY"), columns, (), (moved,))
    witnesses = {"SK": sk, "WY": wy}
    info = (WitnessInfo("SK", "SK", "SK.txt", "plain"), WitnessInfo("WY", "WY", "WY.txt", "plain"))
    return Collation("t", "touhu", "SK", info, (build_layer(alignment, witnesses),)), witnesses


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transposed())
def test_transpositions_read_back_in_the_witness_order(case: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = case
    tree = tei_of(collation, witnesses)
    (result,) = collation.layers
    assert witness_text_from_tei(tree, "SK", result.layer) == "".join(
        t.t for t in layer_tokens(witnesses["SK"], result.layer)
    )
    assert witness_text_from_tei(tree, "WY", result.layer) == "".join(
        t.t for t in layer_tokens(witnesses["WY"], Layer.JING)
    )
    assert rule_problems(tree)[0] == []


# --- the default project ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def default_run() -> RunResult:
    return run_default_project()


@pytest.fixture(scope="module")
def default_tei(default_run: RunResult) -> Any:
    data = tei_bytes(build_tei(ExportInput.of(default_run)))
    return etree.ElementTree(etree.fromstring(data))


def test_default_project_is_valid(default_tei: Any, tei_schema: Any) -> None:
    assert_valid(default_tei, tei_schema)


def test_default_project_is_lossless(default_tei: Any, default_run: RunResult) -> None:
    checked = 0
    for result in default_run.collation.layers:
        for j, siglum in enumerate(result.alignment.sigla):
            own = sorted((t for c in result.alignment.columns if (t := c[j]) is not None), key=lambda t: t.index)
            assert witness_text_from_tei(default_tei, siglum, result.layer) == "".join(t.t for t in own)
            checked += len(own)
    assert checked > 5000


def test_default_project_apparatus(default_tei: Any, default_run: RunResult) -> None:
    collation = default_run.collation
    ids = {f"app.{x.id}" for x in collation.loci()}
    written = {a.get(XML_ID) for a in xp(default_tei, "//tei:app[@xml:id]")}
    assert ids <= {w.split(".p")[0] for w in written} | written
    # 哨 (SK, ZS) against 峭 reported for 大戴禮, with where the report comes from.
    shao = [a for a in xp(default_tei, "//tei:app[tei:rdg[@wit='#DD']]") if a[0].text == "哨"]
    assert shao and all(a[0].get("wit") == "#SK #ZS" and a[1].text == "峭" and a[1].get("source") for a in shao)
    # ZS is fragmentary: it ends once per layer, and no reading is given for it afterwards.
    ends = xp(default_tei, "//tei:witEnd[@wit='#ZS']")
    assert len(ends) == len(collation.layers)
    # 注 variant 奉/案, as in the sample apparatus.
    assert xp(default_tei, "//tei:note[@subtype='zhu']//tei:app[tei:lem='奉'][tei:rdg='案']")


def test_outputs_write_the_tei_from_a_run(default_run: RunResult, tmp_path: Path) -> None:
    from collate.outputs import write_outputs

    (path,) = write_outputs(default_run, tmp_path, ["tei"])
    assert path.name == "touhu.tei.xml"
    assert etree.parse(str(path)).getroot().get("{http://www.w3.org/XML/1998/namespace}lang") == "lzh-Hans"
    # A run survives pickling (collate export reads it back) and gives the same document.
    again = pickle.loads(pickle.dumps(default_run))
    assert tei_bytes(build_tei(ExportInput.of(again))) == path.read_bytes()


def test_note_without_a_place_is_written_unlinked() -> None:
    # A note whose place is unknown is still written inside its entry, just not linked.
    sk = layered("SK", [(Layer.JING, "某有枉矢哨壶")])
    zs = layered("ZS", [(Layer.JING, "某有枉矢峭壺")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    jing = collation.layer(Layer.JING)
    assert jing is not None
    note = AttachedNote("n", "四庫館臣", "案", SourceLocation("nowhere", 99, 1))
    collation = collation.with_layer(jing.with_loci(tuple(x.with_notes((note,)) for x in jing.loci)))
    tree = tei_of(collation, witnesses)
    (n,) = xp(tree, "//tei:app/tei:note")
    assert (n.get("resp"), n.get("corresp")) == ("#SikuEditors", None)
    (org,) = xp(tree, "//tei:standOff//tei:org")
    assert org.get(XML_ID) == "SikuEditors"


def test_a_loan_reading_is_typed_loan_and_valid(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "主人罢矣")])
    zs = layered("ZS", [(Layer.JING, "主人疲矣")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (app,) = xp(tree, "//tei:app[tei:rdg]")
    (rdg,) = xp(app, "tei:rdg")
    assert (app.get("type"), rdg.get("type"), rdg.get("cause"), rdg.text) == ("loan", "loan", "loan", "疲")
    assert_valid(tree, tei_schema)


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
