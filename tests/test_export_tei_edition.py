"""The publication form: an entry per variant, from the same document as the lossless file.

Small collations built by hand show each rule (script and extent entries give way to the base's
text, orthographic ones by the editor's choice, a witness not extant is not cited, notes go into
the reading they judge, commentary is labelled); ``collate export --tei`` writes it beside the
lossless file. How the TEI Stylesheets print it is in ``test_tei_consumers``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import (
    XML_ID,
    assert_valid,
    collate,
    copy_default_project,
    input_for,
    layered,
    small_tei_collation,
    tei_of,
    xp,
)
from click.testing import CliRunner
from lxml import etree

from collate.apparatus import Collation
from collate.cli import main
from collate.exporters import TEI_FLAVOURS, get_exporter, tei_formats
from collate.exporters.tei import EDITION, NS, REGULARIZED, Policy, build_edition, tei_bytes
from collate.exporters.tei.edition import publication_form
from collate.model import Layer, Witness
from collate.runs.manifest import read_manifest


def edition_of(collation: Collation, witnesses: dict[str, Witness], policy: Policy = EDITION) -> Any:
    """The publication form, written and parsed again."""
    data = tei_bytes(build_edition(input_for(collation, witnesses), policy))
    return etree.ElementTree(etree.fromstring(data))


def text(element: Any) -> str:
    """An element's characters, without those of the notes in it."""
    return "".join(element.xpath(".//text()[not(ancestor::tei:note)]", namespaces=NS))


@pytest.fixture
def small() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS with a 注 variant (奉/案), a 經 omission (以), script differences; DD's 峭."""
    return small_tei_collation()


def test_an_entry_only_for_each_variant(small: tuple[Collation, dict[str, Witness]], tei_schema: Any) -> None:
    tree = edition_of(*small)
    loci = [x.id for x in small[0].loci()]
    assert sorted(a.get(XML_ID) for a in xp(tree, "//tei:app")) == sorted(f"app.{x}" for x in loci)
    assert [a.get("n") for a in xp(tree, "//tei:app")] == [str(i) for i in range(1, len(loci) + 1)]
    # ZS differs from the base by script alone elsewhere: it reads with the base, in the base's characters.
    assert xp(tree, "//tei:seg[@type='jing'][starts-with(., '投壶之礼主人奉矢')]")
    (shao,) = xp(tree, "//tei:app[tei:rdg[@wit='#DD']]")
    assert shao[0].get("wit") == "#SK #ZS"
    assert_valid(tree, tei_schema)


def test_readings_say_how_consumers_read_them(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = edition_of(*small)
    (omission,) = xp(tree, "//tei:app[@type='omission']/tei:rdg")
    assert (omission.get("type"), omission.get("cause"), omission.get("wit")) == ("omission", "omission", "#ZS")
    assert [(w.get(XML_ID), w.get("n")) for w in xp(tree, "//tei:listWit/tei:witness")] == [
        ("SK", "四庫本"),
        ("ZS", "注疏本"),
        ("DD", "大戴禮"),
    ]
    assert all(b.get("ed") == b.get("edRef")[1:] == "SK" for b in xp(tree, "//tei:lb"))
    # The base's pages are the document's own (no @ed): a viewer pages through them.
    pages = xp(tree, "//tei:pb")
    assert pages and all(b.get("edRef") == "#SK" and b.get("ed") is None for b in pages)


def test_the_note_and_the_report_stand_in_the_reading_they_are_about(
    small: tuple[Collation, dict[str, Witness]],
) -> None:
    tree = edition_of(*small)
    (rdg,) = xp(tree, "//tei:app/tei:rdg[@wit='#DD']")
    assert text(rdg) == "峭"
    reported, note = xp(rdg, "tei:note")
    assert (reported.get("subtype"), reported.get("n")) == ("derived", "據")
    assert xp(reported, "tei:witDetail[@wit='#DD'][@type='derived']")
    assert (note.get("type"), note.get("subtype"), note.get("n"), note.get("resp"), note.text) == (
        "critical",
        "an",
        "蕙田案",
        "#QinHuitian",
        "今本大戴礼乃作峭谬甚",
    )
    # It still stands at its own place too, linked: the block points at the entry.
    (block,) = xp(tree, f"//tei:body//tei:note[@xml:id='{note.get('corresp')[1:]}']")
    assert block.get("target") == f"#{rdg.getparent().get(XML_ID)}"


def test_commentary_is_a_labelled_inline_note(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = edition_of(*small)
    (zhu,) = xp(tree, "//tei:note[@subtype='zhu']")
    assert (zhu.get("place"), zhu.get("type"), zhu.get("n"), zhu.get("target")) == (
        "inline",
        "commentary",
        "注",
        "#jing.1",
    )
    assert xp(zhu, "tei:app[tei:lem='奉'][tei:rdg='案']")
    assert not xp(tree, "//tei:seg[@type='commentary']")


def test_the_header_states_the_policy_and_names_the_lossless_file(small: tuple[Collation, dict[str, Witness]]) -> None:
    for policy, says in ((EDITION, "異體字、避諱字出校"), (REGULARIZED, "異體字不出校")):
        tree = edition_of(*small, policy)
        (p,) = xp(tree, "//tei:editorialDecl/tei:normalization/tei:p[1]")
        assert says in "".join(p.itertext())
        assert [r.get("target") for r in xp(p, "tei:ref")] == ["touhu.tei.xml"]
        assert xp(tree, "//tei:editorialDecl/tei:segmentation/tei:p/tei:ref[@target='touhu.tei.xml']")


def test_the_regularized_form_gives_the_base_s_variant_graphs_their_regular_form(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "以盛筭主人奉矢礼")])
    zs = layered("ZS", [(Layer.JING, "以盛算主人案矢禮")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    regular = edition_of(collation, witnesses, REGULARIZED)
    (choice,) = xp(regular, "//tei:choice")
    assert [(c.tag.split("}")[1], c.text) for c in choice] == [("orig", "筭"), ("reg", "算")]
    # Script is no regularization (礼 stays), and the lemma cites the base as printed.
    assert not xp(regular, "//tei:lem//tei:choice") and xp(regular, "//tei:seg[contains(., '礼')]")
    assert not xp(edition_of(collation, witnesses, EDITION), "//tei:choice")  # the other forms print as printed
    assert_valid(regular, tei_schema)


def test_orthographic_entries_only_where_the_editor_keeps_them(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "以盛算主人奉矢")])
    zs = layered("ZS", [(Layer.JING, "以盛筭主人案矢")])
    collation, witnesses = collate([sk, zs], layers=[Layer.JING])
    kept = edition_of(collation, witnesses, EDITION)
    (rdg,) = xp(kept, "//tei:app[@type='orthographic']/tei:rdg")
    assert (rdg.text, rdg.get("cause"), rdg.get("ana")) == ("筭", "variant", "#rule.variant-graph")
    regular = edition_of(collation, witnesses, REGULARIZED)
    assert [a.get("type") for a in xp(regular, "//tei:app")] == ["substantive"]
    assert xp(regular, "//tei:seg[starts-with(., '以盛算主人')]")
    for tree in (kept, regular):
        assert_valid(tree, tei_schema)


def test_a_witness_is_not_cited_where_it_is_not_extant(tei_schema: Any) -> None:
    sk = layered("SK", [(Layer.JING, "投壶之礼主人奉矢司射奉中使人执壶")])
    zs = layered("ZS", [(Layer.JING, "投壺之禮主人案")])
    collation, witnesses = collate([sk, zs], fragments=["ZS"], layers=[Layer.JING])
    lossless = tei_of(collation, witnesses)
    assert xp(lossless, "//tei:witEnd[@wit='#ZS']")
    tree = edition_of(collation, witnesses)
    assert not xp(tree, "//tei:witEnd | //tei:witStart | //tei:app[@type='extent']")
    (app,) = xp(tree, "//tei:app")
    assert (app[0].text, app[1].text) == ("奉", "案")
    assert "".join(xp(tree, "//tei:seg")[0].itertext()) == "投壶之礼主人奉案矢司射奉中使人执壶"
    assert_valid(tree, tei_schema)


LOSSLESS = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>
<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit><witness xml:id="SK" n="四庫本"/>
<witness xml:id="ZS" n="注疏本"/><witness xml:id="ZT" n="纂圖本"/>
<witness xml:id="ZZ" n="鄭注本"/></listWit></sourceDesc>
</fileDesc><encodingDesc><editorialDecl><normalization><p>old</p></normalization></editorialDecl>
<variantEncoding method="parallel-segmentation" location="internal"/></encodingDesc></teiHeader>
<text><body><p><seg type="jing" ana="#jing">主人<app xml:id="app.a" type="substantive"><lem wit="#SK">坐</lem>
<rdgGrp type="substantive"><rdg wit="#ZS" xml:id="rdg.a.1">堂</rdg><rdg wit="#ZT" xml:id="rdg.a.2">堂</rdg></rdgGrp>
<rdg wit="#ZZ"><lacunaStart wit="#ZZ"/><lacunaEnd wit="#ZZ"/></rdg>
<note type="editorial" subtype="decision" target="#rdg.a.2">從注疏本</note></app>乃</seg></p></body></text></TEI>"""


def test_groups_are_taken_apart_and_lost_pages_not_cited() -> None:
    root = etree.fromstring(LOSSLESS)
    publication_form(root, "SK", EDITION, "x.tei.xml")
    (app,) = xp(root, "//tei:app")
    lem, rdg = app
    # One reading in two spellings is one rdg, pointed at instead of the one taken out; ZZ has lost
    # these pages, so it is not cited (an empty reading would print as an omission).
    assert (lem.get("wit"), rdg.get("wit"), rdg.get(XML_ID), text(rdg), rdg.get("type")) == (
        "#SK",
        "#ZS #ZT",
        "rdg.a.1",
        "堂",
        "substantive",
    )
    (note,) = xp(rdg, "tei:note")
    assert (note.get("type"), note.get("target"), note.text) == ("critical", "#rdg.a.1", "從注疏本")
    assert app.get("n") == "1" and "".join(text(xp(root, "//tei:seg")[0]).split()) == "主人坐堂乃"


# --- the registry and the command line --------------------------------------------------------------------


def test_the_flavours_are_written_only_when_asked_for() -> None:
    assert tei_formats((), ()) == ()
    assert tei_formats(("tei", "json"), ("edition",)) == ("json", "tei-edition")
    assert tei_formats(("json",), ("lossless", "edition-regularized")) == ("json", "tei", "tei-edition-regularized")
    assert "tei-edition" in tei_formats((), ("edition",)) and "html" in tei_formats((), ("edition",))
    for flavour, name in TEI_FLAVOURS.items():
        exporter = get_exporter(name)
        assert exporter.name == name and exporter.suffix.endswith(".tei.xml"), flavour
    assert len({get_exporter(n).suffix for n in TEI_FLAVOURS.values()}) == len(TEI_FLAVOURS)


def test_export_writes_the_publication_form_beside_the_lossless_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(copy_default_project(tmp_path).parent)
    runner = CliRunner()
    assert runner.invoke(main, ["run"]).exit_code == 0
    out = tmp_path / "output"
    lossless = (out / "touhu.tei.xml").read_bytes()
    assert not (out / "touhu.edition.tei.xml").exists()  # a run writes the lossless file only
    result = runner.invoke(main, ["export", "-f", "tei", "--tei", "edition", "--tei", "edition-regularized"])
    assert result.exit_code == 0, result.output
    assert "touhu.edition.tei.xml" in result.output and "touhu.regularized.tei.xml" in result.output
    assert (out / "touhu.tei.xml").read_bytes() == lossless
    edition = etree.parse(str(out / "touhu.edition.tei.xml"))
    assert xp(edition, "//tei:normalization/tei:p/tei:ref[@target='touhu.tei.xml']")
    assert len(xp(edition, "//tei:app")) < len(xp(etree.parse(str(out / "touhu.tei.xml")), "//tei:app"))
    assert {"touhu.edition.tei.xml", "touhu.regularized.tei.xml"} <= set(read_manifest(out).outputs)
    assert "--tei" in runner.invoke(main, ["export", "--help"]).output
