"""The TEI apparatus shows the editor's decisions: adopted lemmas, @resp, reclassified types, doubt.

Small collations are built with the TEI helpers of builders and decided by hand
(:meth:`Locus.with_decision`); the last test decides on a copy of the default project through
its ``decisions.toml`` and ``collate_project``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import (
    XML_ID,
    assert_lossless,
    assert_valid,
    collate,
    copy_default_project,
    layered,
    sparse_witness,
    tei_of,
    xp,
)
from lxml import etree

from collate.apparatus import Collation, Locus, ReadingClass
from collate.decisions.file import (
    Decision,
    anchor_of,
    base_tokens,
    decisions_path,
    load_decisions,
    reading_key,
    save_decisions,
)
from collate.exporters.tei import EXPORTER, NS, witness_text_from_tei
from collate.model import Layer, Witness
from collate.model.annotations import DecisionAction, EditorDecision
from collate.project import load_project
from collate.results import ExportInput

CLOCK = "2024-05-01T10:00:00+08:00"
KEEP, ADOPT, RECLASSIFY, DOUBT = (
    DecisionAction.KEEP,
    DecisionAction.ADOPT,
    DecisionAction.RECLASSIFY,
    DecisionAction.DOUBT,
)

# 哨 (SK, ZS) against 峭 reported for DD; 般/盤, 坐/堂 and an omitted 固 in ZS.
SK_TEXT = "某有枉矢哨壶请以乐宾主人般还曰辟既脱屦升坐敢固辞"
ZS_TEXT = "某有枉矢哨壺請以樂賓主人盤還曰辟既脫屨升堂敢辭"


@pytest.fixture
def four() -> tuple[Collation, dict[str, Witness]]:
    """SK (base), ZS and the sparse DD: four loci, one of each decision kind to come."""
    sk = layered("SK", [(Layer.JING, SK_TEXT)], label="四庫本")
    zs = layered("ZS", [(Layer.JING, ZS_TEXT)], label="注疏本")
    dd = sparse_witness(("某有枉矢哨壶", "哨", "峭", ""))
    collation, witnesses = collate([sk, zs], sparse=[dd], layers=[Layer.JING])
    assert [x.lemma.text for x in collation.loci()] == ["哨", "般", "坐", "固"]
    return collation, witnesses


def locus_at(collation: Collation, lemma: str) -> Locus:
    found = [x for x in collation.loci() if x.lemma.text == lemma]
    assert len(found) == 1, lemma
    return found[0]


def decided(
    collation: Collation,
    lemma: str,
    *actions: DecisionAction,
    resp: tuple[str, ...] = ("王",),
    adopt: str | None = None,
    reclassify: ReadingClass | None = None,
    comment: str = "",
) -> Collation:
    """The collation with a decision at the locus whose base reading is ``lemma``.

    ``adopt`` names the witness whose reading becomes the lemma; ``reclassify`` gives every
    reading of the locus the editor's class, as applying the decisions file does.
    """
    locus = locus_at(collation, lemma)
    reclassified: tuple[str, ...] = ()
    if reclassify is not None:
        locus = locus.with_readings(tuple(r.reclassified(reclassify) for r in locus.readings))
        reclassified = tuple(r.norm for r in locus.readings)
    adopted = locus.reading_of(adopt) if adopt else None
    decision = EditorDecision(
        actions=actions,
        resp=resp,
        when=CLOCK,
        lemma=adopted.text if adopted else locus.lemma.text,
        adopted=adopted.norm if adopted else None,
        siglum=adopt,
        reclassified=reclassified,
        doubtful=DOUBT in actions,
        comment=comment,
    )
    return collation.with_locus(locus.with_decision(decision))


def entry(tree: Any, lemma_text: str) -> Any:
    """The ``<app>`` whose base reading (in its lem or a rdg listing #SK) is ``lemma_text``."""
    found = [
        a
        for a in xp(tree, "//tei:app[@xml:id]")
        for r in a
        if etree.QName(r).localname in ("lem", "rdg")
        and "#SK" in (r.get("wit") or "").split()
        and reading_text(r) == lemma_text
    ]
    assert len(found) == 1, lemma_text
    return found[0]


def reading_text(reading: Any) -> str:
    """A reading's characters: its notes (where it is reported, what 蕙田案 says of it) are none of them."""
    return "".join(reading.xpath(".//text()[not(ancestor::tei:note)]", namespaces=NS))


def readings(app: Any) -> list[tuple[str, str | None, str]]:
    """The app's readings in order: (element, @wit, text)."""
    return [
        (etree.QName(r).localname, r.get("wit"), reading_text(r))
        for r in app
        if etree.QName(r).localname in ("lem", "rdg")
    ]


# --- each kind of decision ------------------------------------------------------------------


def test_an_adopted_reading_is_the_lemma_and_the_base_reading_a_rdg(
    four: tuple[Collation, dict[str, Witness]], tei_schema: Any
) -> None:
    collation, witnesses = four
    collation = decided(collation, "哨", ADOPT, adopt="DD", comment="王肅本亦作峭")
    tree = tei_of(collation, witnesses)
    app = entry(tree, "哨")
    assert readings(app) == [("lem", "#DD", "峭"), ("rdg", "#SK #ZS", "哨")]
    lem, base = app[0], app[1]
    assert lem.get("resp") == "#ed-王" and lem.get("type") == "substantive" and lem.get("source")
    assert base.get("resp") is None and base.get(XML_ID) and base.get(XML_ID) != lem.get(XML_ID)
    # Where the reported reading comes from still describes it, now that it is the lemma.
    (detail,) = xp(app, ".//tei:witDetail[@type='derived']")
    assert detail.get("target") == f"#{lem.get(XML_ID)}"
    (note,) = xp(app, "tei:note")
    assert (note.get("type"), note.get("subtype"), note.get("resp"), note.text) == (
        "editorial",
        "decision",
        "#ed-王",
        "王肅本亦作峭",
    )
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_keeping_the_base_puts_resp_on_its_lemma(four: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = four
    tree = tei_of(decided(collation, "般", KEEP, resp=("李",)), witnesses)
    app = entry(tree, "般")
    assert readings(app) == [("lem", "#SK", "般"), ("rdg", "#ZS", "盤")]
    assert (app[0].get("resp"), app[0].get("cert"), app[1].get("resp")) == ("#ed-李", None, None)
    assert not xp(app, "tei:note")
    # Undecided places say nothing of editors.
    assert [a.get(XML_ID) for a in xp(tree, "//tei:app[.//@resp]")] == [app.get(XML_ID)]


def test_a_reclassified_reading_carries_the_editors_class_and_resp(
    four: tuple[Collation, dict[str, Witness]], tei_schema: Any
) -> None:
    collation, witnesses = four
    tree = tei_of(decided(collation, "坐", RECLASSIFY, reclassify=ReadingClass.SCRIBAL_ERROR), witnesses)
    app = entry(tree, "坐")
    assert app.get("type") == "scribal-error"
    lem, rdg = app[0], app[1]
    assert (rdg.get("type"), rdg.get("resp"), rdg.text) == ("scribal-error", "#ed-王", "堂")
    assert lem.get("resp") is None  # the lemma was not decided
    assert_valid(tree, tei_schema)


def test_a_doubtful_place_has_low_certainty_and_the_comment(four: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = four
    tree = tei_of(decided(collation, "固", DOUBT, comment="石經有固字，待考"), witnesses)
    app = entry(tree, "固")
    assert readings(app) == [("lem", "#SK", "固"), ("rdg", "#ZS", "")]
    assert (app[0].get("cert"), app[0].get("resp")) == ("low", "#ed-王")
    (note,) = xp(app, "tei:note")
    assert (note.get("subtype"), note.get("resp"), note.text) == ("doubt", "#ed-王", "石經有固字，待考")


def test_an_adopted_omission_is_an_empty_lemma(four: tuple[Collation, dict[str, Witness]], tei_schema: Any) -> None:
    collation, witnesses = four
    collation = decided(collation, "固", ADOPT, DOUBT, adopt="ZS")
    tree = tei_of(collation, witnesses)
    app = entry(tree, "固")
    assert readings(app) == [("lem", "#ZS", ""), ("rdg", "#SK", "固")]
    assert (app[0].get("resp"), app[0].get("cert"), app[0].get("type")) == ("#ed-王", "low", "omission")
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_editors_are_declared_with_ids_made_from_their_names(
    four: tuple[Collation, dict[str, Witness]], tei_schema: Any
) -> None:
    collation, witnesses = four
    collation = decided(collation, "哨", KEEP, resp=("Wang Li", "王 一"))
    collation = decided(collation, "般", KEEP, resp=("王_一",))
    collation = decided(collation, "坐", KEEP, resp=("1st editor",))
    tree = tei_of(collation, witnesses)
    people = xp(tree, "//tei:teiHeader/tei:fileDesc/tei:titleStmt/tei:respStmt/tei:persName")
    assert [(p.text, p.get(XML_ID)) for p in people] == [
        ("Wang Li", "ed-Wang_Li"),
        ("王 一", "ed-王_一"),
        ("王_一", "ed-王_一-2"),  # a different name whose id would clash
        ("1st editor", "ed-1st_editor"),
    ]
    assert entry(tree, "哨")[0].get("resp") == "#ed-Wang_Li #ed-王_一"
    assert entry(tree, "般")[0].get("resp") == "#ed-王_一-2"
    assert xp(tree, "//tei:editorialDecl/tei:interpretation/tei:p[contains(., 'Editorial decisions')]")
    assert_valid(tree, tei_schema)  # the ids are NCNames, and every @resp resolves


def test_a_decision_without_an_editor_names_nobody(four: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = four
    tree = tei_of(decided(collation, "固", DOUBT, resp=()), witnesses)
    app = entry(tree, "固")
    assert (app[0].get("cert"), app[0].get("resp")) == ("low", None)
    assert not xp(tree, "//tei:respStmt")


def test_without_decisions_the_header_declares_no_editors(four: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = four
    tree = tei_of(collation, witnesses)
    assert not xp(tree, "//tei:respStmt") and not xp(tree, "//@resp[starts-with(., '#ed-')]")
    assert not xp(tree, "//tei:interpretation/tei:p[contains(., 'Editorial decisions')]")


# --- where the readings are grouped or split ----------------------------------------------


def test_adopting_one_spelling_of_a_reading_takes_it_out_of_its_group(tei_schema: Any) -> None:
    # ZS and WY share the reading 盤/盘 (one normalized form) in different characters: one rdgGrp.
    sk = layered("SK", [(Layer.JING, "主人般还曰辟")])
    zs = layered("ZS", [(Layer.JING, "主人盤還曰辟")])
    wy = layered("WY", [(Layer.JING, "主人盘还曰辟")])
    collation, witnesses = collate([sk, zs, wy], layers=[Layer.JING])
    before = tei_of(collation, witnesses)
    assert xp(before, "//tei:app[tei:lem='般']/tei:rdgGrp[@type='substantive']/tei:rdg")
    collation = decided(collation, "般", ADOPT, adopt="WY")
    tree = tei_of(collation, witnesses)
    app = entry(tree, "般")
    assert readings(app) == [("lem", "#WY", "盘"), ("rdg", "#SK", "般"), ("rdg", "#ZS", "盤")]
    # The group's class stays with both readings once the group is gone.
    assert [r.get("type") for r in app] == ["substantive", None, "substantive"]
    assert not xp(app, "tei:rdgGrp")
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_a_locus_split_at_a_unit_edge_is_decided_in_each_part(tei_schema: Any) -> None:
    sk = layered(
        "SK", [(Layer.JING, "主人奉矢"), (None, "("), (Layer.ZHU, "矢所以投"), (None, ")"), (Layer.JING, "司射奉中")]
    )
    zs = layered("ZS", [(Layer.JING, "主人奉射奉中"), (None, "_"), (Layer.ZHU, "矢所以投")])
    collation, witnesses = collate([sk, zs])
    collation = decided(collation, "矢司", ADOPT, adopt="ZS", comment="從注疏本")
    tree = tei_of(collation, witnesses)
    parts = xp(tree, "//tei:app[starts-with(@xml:id, 'app.jing-00003')]")
    assert [readings(a) for a in parts] == [
        [("lem", "#ZS", ""), ("rdg", "#SK", "矢")],
        [("lem", "#ZS", ""), ("rdg", "#SK", "司")],
    ]
    assert [a[0].get("resp") for a in parts] == ["#ed-王", "#ed-王"]
    # The comment is written once, with the first part.
    assert [len(xp(a, "tei:note")) for a in parts] == [1, 0]
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


def test_every_kind_together_is_valid_and_lossless(four: tuple[Collation, dict[str, Witness]], tei_schema: Any) -> None:
    collation, witnesses = four
    collation = decided(collation, "哨", ADOPT, DOUBT, adopt="DD", comment="tentative")
    collation = decided(collation, "般", KEEP, resp=("李", "王"))
    collation = decided(collation, "坐", RECLASSIFY, reclassify=ReadingClass.SCRIBAL_ERROR, comment="形近而訛")
    collation = decided(collation, "固", ADOPT, adopt="ZS")
    tree = tei_of(collation, witnesses)
    assert [p.get(XML_ID) for p in xp(tree, "//tei:respStmt/tei:persName")] == ["ed-王", "ed-李"]
    note = xp(entry(tree, "哨"), "tei:note[@subtype='doubt']")
    assert note and note[0].get("{http://www.w3.org/XML/1998/namespace}lang") == "en"
    assert_valid(tree, tei_schema)
    assert_lossless(tree, collation, witnesses)


# --- end to end: a project with a decisions file ----------------------------------------------


def decision(
    collation: Collation, action: DecisionAction, layer: Layer, lemma: str, reading: str, **kw: Any
) -> Decision:
    """A decision as ``collate review`` saves it, at the locus of ``layer`` reading ``lemma``/``reading``."""
    result = collation.layer(layer)
    assert result is not None
    # The first such place (the first 哨 of three).
    locus = next(x for x in result.loci if x.lemma.text == lemma and any(r.text == reading for r in x.readings))
    chosen = next(r for r in locus.readings if r.text == reading)
    return Decision(
        id=f"{layer.value}-{action.value}",
        action=action,
        anchor=anchor_of(locus, base_tokens(result)),
        editor="王",
        when=CLOCK,
        siglum=chosen.sigla[0],
        reading=chosen.text,
        norm=reading_key(chosen),
        **kw,
    )


def test_a_projects_decisions_reach_its_tei(tmp_path: Path, tei_schema: Any) -> None:
    from collate.pipeline import collate_project

    project = load_project(copy_default_project(tmp_path))
    undecided = collate_project(project).collation
    decisions = [
        # The first 哨, where 蕙田案 reports 峭 for 大戴禮.
        decision(undecided, ADOPT, Layer.JING, "哨", "峭", comment="從大戴禮"),
        decision(undecided, KEEP, Layer.JING, "般", "盤"),
        decision(undecided, RECLASSIFY, Layer.ZHU, "坐", "堂", cls=ReadingClass.SCRIBAL_ERROR),
        decision(undecided, DOUBT, Layer.ZHU, "奉", "案", comment="存疑"),
    ]
    save_decisions(decisions_path(project), decisions)
    assert load_decisions(decisions_path(project)) == tuple(decisions)
    run = collate_project(project, decisions=load_decisions(decisions_path(project)))
    assert run.decisions is not None and not run.decisions.orphans and len(run.decisions.placed) == 4
    path = tmp_path / "touhu.tei.xml"
    EXPORTER.write(ExportInput.of(run), path)
    tree = etree.parse(str(path))
    (shao,) = xp(tree, "//tei:app[tei:lem[@resp][text()='峭']]")
    assert readings(shao) == [("lem", "#DD", "峭"), ("rdg", "#SK #ZS", "哨")]
    assert xp(shao, "tei:note[@type='editorial'][@resp='#ed-王']") == xp(shao, "tei:note[.='從大戴禮']")
    # The other two 哨 were not decided: their base reading stays the lemma.
    assert len(xp(tree, "//tei:app[tei:lem[not(@resp)]='哨'][tei:rdg[text()='峭']]")) == 2
    assert xp(tree, "//tei:app[tei:lem[@resp='#ed-王']='般'][tei:rdg='盤']")
    assert xp(tree, "//tei:app[@type='scribal-error']/tei:rdg[@type='scribal-error'][@resp='#ed-王'][.='堂']")
    assert xp(tree, "//tei:app[tei:lem[@cert='low'][@resp='#ed-王']='奉'][tei:note[@subtype='doubt']='存疑']")
    (editor,) = xp(tree, "//tei:titleStmt/tei:respStmt/tei:persName")
    assert (editor.text, editor.get(XML_ID)) == ("王", "ed-王")
    assert_valid(tree, tei_schema)
    for result in run.collation.layers:
        for j, siglum in enumerate(result.alignment.sigla):
            own = sorted((t for c in result.alignment.columns if (t := c[j]) is not None), key=lambda t: t.index)
            assert witness_text_from_tei(tree, siglum, result.layer) == "".join(t.t for t in own)
