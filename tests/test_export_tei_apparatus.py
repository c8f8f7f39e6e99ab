"""Apparatus entries: ``<app>`` with its lemma, readings, groups, sources, notes and milestones."""

from __future__ import annotations

from typing import Any

import pytest
from builders import (
    XML_ID,
    assert_lossless,
    assert_valid,
    collate,
    layer_tokens,
    layered,
    small_tei_collation,
    tei_of,
    xp,
)
from lxml import etree

from collate.align.alignment import LayerAlignment, Transposition
from collate.apparatus import Collation, WitnessInfo, build_layer
from collate.exporters.tei import TEI_NS, witness_text_from_tei
from collate.model import Layer, SourceLocation, Witness
from collate.model.annotations import AttachedNote, ClaimKind, NoteClaim, NoteVerdict, Place, Verdict


@pytest.fixture
def small() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS with a 注 variant (奉/案), a 經 omission (以), script differences; DD's 峭."""
    return small_tei_collation()


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
    lem, rdg, note = app
    assert (lem.get("wit"), lem.text) == ("#SK #ZS", "哨")
    assert (rdg.text, rdg.get("type")) == ("峭", "substantive")
    (bibl,) = xp(tree, f"//tei:standOff//tei:bibl[@xml:id='{rdg.get('source')[1:]}']")
    assert bibl.text == "蕙田案"
    # Where it is reported stands inside the reading, in a note: viewers show a reading's content
    # with that reading only (not in every witness's column), and a note as a note.
    (reported,) = rdg
    (detail,) = reported
    assert (reported.get("type"), reported.get("subtype"), reported.get("n")) == ("critical", "derived", "據")
    assert (detail.get("wit"), detail.get("target"), detail.get("type")) == ("#DD", f"#{rdg.get(XML_ID)}", "derived")
    assert (note.get("type"), note.get("subtype"), note.get("resp"), note.get("n"), note.text) == (
        "editorial",
        "an",
        "#QinHuitian",
        "蕙田案",
        "今本大戴礼乃作峭谬甚",
    )
    assert note.get("target") == f"#{rdg.get(XML_ID)}"
    # Linked to the note at its own place, not copied there.
    (block,) = xp(tree, f"//tei:body//tei:note[@xml:id='{note.get('corresp')[1:]}']")
    assert block.get("target") == f"#{app.get(XML_ID)}"


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
    assert (n.get("resp"), n.get("corresp"), n.get("n")) == ("#SikuEditors", None, "案")
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


def test_a_note_carries_the_verdict_of_each_claim_on_a_witness(tei_schema: Any) -> None:
    """Each claim on a witness of the document is a ``<witDetail>`` in the note: the verdict in
    ``@subtype``, the witness's reading in ``@target`` (the entry where it reads with the lemma),
    the evidence (what it reads, at which page) as text; a name of no witness is not one."""
    sk = layered("SK", [(Layer.JING, "卒射人乃升大夫大夫皆就席")])
    js = layered("JS", [(Layer.JING, "卒射人乃升大夫大夫皆升就席")])
    zz = layered("ZZ", [(Layer.JING, "卒射人乃升大夫大夫皆升就席")])
    collation, witnesses = collate([sk, js, zz], layers=[Layer.JING])
    where = SourceLocation("yili-jishuo-yanli-kanripo-WYG.txt", 563, 11, page="006-31b")
    stone = NoteClaim(ClaimKind.ADDS, "石經", (), "", "升", Place.BEFORE, "就席")
    ao = NoteClaim(ClaimKind.ADDS, "敖本", ("JS",), "", "升", Place.BEFORE, "就席")
    jian = NoteClaim(ClaimKind.LACKS, "監本", ("ZZ",), "升", "")
    verdicts = (
        NoteVerdict(stone, None, Verdict.NOT_CHECKABLE, "石經 is not a witness of the project"),
        NoteVerdict(ao, "JS", Verdict.CONFIRMED, "JS reads 升", "升", where),
        NoteVerdict(jian, "ZZ", Verdict.NOT_CHECKABLE, "ZZ has no shu, the layer the claim concerns"),
    )
    note = AttachedNote("SK-n1", "四庫館臣", "石經及楊本敖本就席上有升字", None, (), verdicts, "SK")
    jing = collation.layer(Layer.JING)
    assert jing is not None
    collation = collation.with_layer(jing.with_loci(tuple(x.with_notes((note,)) for x in jing.loci)))
    tree = tei_of(collation, witnesses)
    (n,) = xp(tree, "//tei:app/tei:note")
    assert n.text == "石經及楊本敖本就席上有升字"
    confirmed, unchecked = n.findall(f"{{{TEI_NS}}}witDetail")
    (rdg,) = xp(tree, "//tei:app/tei:rdg[@wit='#JS #ZZ']")
    assert (confirmed.get("wit"), confirmed.get("target"), confirmed.get("type"), confirmed.get("subtype")) == (
        "#JS",
        f"#{rdg.get(XML_ID)}",
        "verdict",
        "confirmed",
    )
    # Said as a 校勘記 says it: the claim, the verdict, what the witness has and where (no file).
    assert confirmed.text == "敖本（JS）「就席」上多升。證實：JS實作升（頁006-31b）。"
    assert (unchecked.get("wit"), unchecked.get("subtype")) == ("#ZZ", "not-checkable")
    # A full text that could not check the claim: the place was not found there.
    assert unchecked.text == "監本（ZZ）無升。無從核對：ZZ中未得其處，或無此層。"
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)
