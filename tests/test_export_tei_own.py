"""Text of a witness the collation does not carry, written as that witness's own: nothing is lost.

A small collation built by hand shows the encoding (one division per witness, one per layer,
the units as the base's blocks are written, ``@source``, the witness's pages and lines); the
default project and two projects of real files (禮記·射義 in three editions; 五禮通考 卷163
against the 注疏本) show that every layer of every witness reads back exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest
from builders import XML_ID, assert_valid, collate, layered, run_default_project, shared_project, tei_of, xp
from lxml import etree

from collate.apparatus import Collation
from collate.exporters.tei import TEI_NS, build_tei, tei_bytes, witness_text_from_tei
from collate.exporters.tei.context import Context
from collate.exporters.tei.own import uncollated_units
from collate.model import Layer, Witness
from collate.normalize import Normalizer
from collate.normalize.config import NormalizeConfig
from collate.normalize.tokenize import tokenize
from collate.pipeline import collate_project
from collate.results import ExportInput, RunResult

# Every layer a witness's text can be in (layout and web-page furniture are not text).
LAYERS = [layer for layer in Layer if layer.is_text or layer is Layer.HEADING]
# A token's characters do not depend on the rules: any normalizer tokenizes the same text.
TOKENIZER = Normalizer(NormalizeConfig(rules=("placeholder",)))


def expected_text(collation: Collation, witness: Witness, layer: Layer) -> str:
    """A witness's text of one layer, as the writer's readback tests define it, for every layer.

    Where the layer is collated for the witness: its tokens in the alignment, in its order (as
    ``test_default_project_is_lossless`` has it); elsewhere: the characters of every token of
    the layer as the witness was read.
    """
    result = collation.layer(layer)
    if result is not None and witness.siglum in result.alignment.sigla:
        j = result.alignment.sigla.index(witness.siglum)
        own = sorted((t for c in result.alignment.columns if (t := c[j]) is not None), key=lambda t: t.index)
        if own:
            return "".join(t.t for t in own)
    return "".join(t.t for t in tokenize(witness, layer, TOKENIZER))


def assert_every_layer_reads_back(tree: Any, collation: Collation, witnesses: Mapping[str, Witness]) -> int:
    """Every layer of every full witness reads back exactly; the number of layers that hold text."""
    held = 0
    for info in collation.witnesses:
        witness = witnesses[info.siglum]
        if witness.sparse:
            continue  # a readings file reports readings at places: it has no text of its own
        for layer in LAYERS:
            expected = expected_text(collation, witness, layer)
            assert witness_text_from_tei(tree, info.siglum, layer) == expected, (info.siglum, layer)
            held += bool(expected)
    return held


def own_division(tree: Any, siglum: str) -> Any:
    """The witness's own-text division."""
    (div,) = xp(tree, f"//tei:body/tei:div[@type='witness'][@corresp='#{siglum}']")
    return div


def local(element: Any) -> str:
    return str(etree.QName(element).localname)


# --- a small collation: the encoding ---------------------------------------------------------------------

SK_PARTS = [
    (Layer.HEADING, "礼记投壶"),
    (None, "\n"),
    (Layer.JING, "投壶之礼主人奉矢"),
    (None, "("),
    (Layer.ZHU, "矢所以投者也"),
    (None, ")\n"),
    (Layer.JING, "主人请曰某有枉矢哨壶"),
    (None, "\n"),
    (Layer.NOTE, "蕙田案", "attribution"),
    (Layer.NOTE, "今本大戴礼乃作峭"),
]
# The 注疏本 has what the base lacks: 釋文 (with a line break inside), a commentator, a 【案】 of
# its editors, its own heading; and punctuation, a Private Use Area glyph and a placeholder.
ZS_PARTS = [
    (Layer.HEADING, "禮記投壺第四十"),
    (None, "\n"),
    (Layer.JING, "投壺之禮主人奉矢"),
    (None, "("),
    (Layer.ZHU, "矢所以投者也"),
    (None, ")"),
    (Layer.SHIWEN, "音義", "attribution"),
    (Layer.SHIWEN, "壺，音胡。\n投，\ue000□也。"),
    (None, "\n"),
    (Layer.COMMENTARY, "方氏曰", "attribution"),
    (Layer.COMMENTARY, "矢以直為善"),
    (None, "\n"),
    (Layer.JING, "主人請曰某有枉矢哨壺"),
    (None, "\n"),
    (Layer.NOTE, "案今本作峭"),
]


@pytest.fixture
def small() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS, 經 and 注 collated; ZS's 釋文, commentary, note and heading are not."""
    return collate([layered("SK", SK_PARTS), layered("ZS", ZS_PARTS, label="注疏本")])


def test_each_layer_not_collated_is_a_division_of_the_witness(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    div = own_division(tree, "ZS")
    assert [d.get("type") for d in div] == ["shiwen", "commentary", "note", "heading"]
    shiwen, commentary, note, heading = div
    # Each unit is the witness's alone: in an entry whose one reading is the witness's, so that a
    # viewer with a column per witness shows it in that witness's column only.
    (unit,) = xp(shiwen, "tei:p/tei:app[@type='extent']/tei:lem[@wit='#ZS']/tei:seg")
    assert (unit.get("type"), unit.get("subtype"), unit.get("ana"), unit.get("source"), unit.get("n")) == (
        "commentary",
        "shiwen",
        "#shiwen",
        "#ZS",
        "釋文",
    )
    assert xp(commentary, "tei:p//tei:seg[@subtype='commentary'][@source='#ZS']/tei:label[.='方氏曰']")
    assert xp(note, "tei:p//tei:note[@type='editorial'][@subtype='an'][@ana='#note'][@source='#ZS'][@resp]")
    heads = xp(heading, "tei:head[@source='#ZS']")
    assert ["".join(h.itertext()) for h in heads] == ["禮記投壺第四十"]
    assert all(xp(h, "tei:app[@type='extent']/tei:lem[@wit='#ZS']") for h in heads)
    # As the base's blocks are written: the attribution a label, punctuation <pc>, the glyph a
    # <g>, the placeholder <unclear>; the witness's line break inside the unit at its place.
    assert unit.findtext(f"{{{TEI_NS}}}label") == "音義"
    assert [pc.text for pc in xp(unit, "tei:pc")] == ["，", "。", "，", "。"]
    assert xp(unit, "tei:g[@ref='#pua-E000']") and xp(tree, "//tei:charDecl/tei:glyph[@xml:id='pua-E000']")
    assert [u.text for u in xp(unit, "tei:unclear[@reason='placeholder']")] == ["□"]
    assert [(b.get("edRef"), b.get("n")) for b in xp(unit, "tei:lb")] == [("#ZS", "3")]
    # Each division opens with the page and line its first unit begins on.
    assert [(local(b), b.get("n")) for b in xp(shiwen, "tei:p/tei:pb | tei:p/tei:lb")] == [("pb", "1a"), ("lb", "2")]
    assert [b.get("n") for b in xp(commentary, "tei:p/tei:lb")] == ["4"]


def test_every_layer_of_every_witness_reads_back(small: tuple[Collation, dict[str, Witness]], tei_schema: Any) -> None:
    tree = tei_of(*small)
    assert_valid(tree, tei_schema)
    # SK: heading, 經, 注, note; ZS: the same four and 釋文, commentary.
    assert assert_every_layer_reads_back(tree, *small) == 10
    assert witness_text_from_tei(tree, "ZS", Layer.SHIWEN) == "壺音胡投\ue000□也"


def test_the_bases_text_not_collated_is_written_as_its_collated_text_is() -> None:
    sk = layered(
        "SK", [(Layer.HEADING, "禮記\u3000投壺"), (None, "\n"), (Layer.JING, "投壺之禮"), (Layer.SHU, "士則，鹿中。")]
    )
    collation, witnesses = collate([sk, layered("ZS", [(Layer.JING, "投壺之禮")])], layers=[Layer.JING])
    tree = tei_of(collation, witnesses)
    (shu,) = xp(tree, "//tei:seg[@subtype='shu']")
    assert shu.get("source") == "#SK" and [pc.text for pc in xp(shu, "tei:pc")] == ["，", "。"]
    (head,) = xp(tree, "//tei:head")
    assert (head.get(XML_ID), head.get("source"), "".join(head.itertext())) == ("heading.1", "#SK", "禮記投壺")
    assert assert_every_layer_reads_back(tree, collation, witnesses) == 4
    assert not xp(tree, "//tei:div[@type='witness']")  # ZS has nothing the collation does not carry


def test_a_passage_of_another_work_in_a_collated_layer_is_kept_as_the_witness_own() -> None:
    sk = layered("SK", [(Layer.JING, "投壺之禮主人奉矢")])
    zs = layered(
        "ZS",
        [(Layer.JING, "毋不敬"), (None, "\n"), (Layer.ZHU, "禮主於敬"), (None, "\n"), (Layer.JING, "投壺之禮主人奉矢")],
    )
    other = zs.spans[0]
    # Collated as the pipeline collates a witness: without the 經 of another work (曲禮's 毋不敬).
    collation, witnesses = collate([sk, replace(zs, spans=tuple(s for s in zs.spans if s is not other))])
    tree = tei_of(collation, {**witnesses, "ZS": zs})
    div = own_division(tree, "ZS")
    assert [(d.get("type"), "".join(d.itertext()).strip()) for d in div] == [("jing", "毋不敬"), ("zhu", "禮主於敬")]
    assert xp(div, "tei:div/tei:p//tei:seg[@type='jing'][@source='#ZS']")
    # Its 經 reads back as collated; the passage is its own text, not part of the collated 經.
    assert witness_text_from_tei(tree, "ZS", Layer.JING) == "投壺之禮主人奉矢"
    assert witness_text_from_tei(tree, "ZS", Layer.ZHU) == "禮主於敬"


# --- real projects: every layer of every witness ---------------------------------------------------------

SHEYI = {
    "ZS": ("liji-sheyi-zhushu-kanripo-WYG.txt", "注疏本"),
    "CH": ("liji-jishuo-chenhao-sheyi-kanripo-WYG.txt", "集說本"),
    "WS": ("liji-sheyi-wikisource-hangsau.txt", "維基本"),
}
WULI = {"SK": ("wuli-tongkao-juan163-kanripo-master.txt", "四庫本"), "ZS": SHEYI["ZS"]}
# What each project's TEI lacked before: (witness, layer) pairs not collated and their characters.
OWN = {
    "default": {("ZS", Layer.SHIWEN): 226, ("ZS", Layer.HEADING): 6},
    "sheyi": {
        ("CH", Layer.COMMENTARY): 2304,
        ("CH", Layer.HEADING): 12,
        ("WS", Layer.NOTE): 3,
        ("WS", Layer.HEADING): 2,
    },
    "wuli": {("ZS", Layer.SHIWEN): 627, ("ZS", Layer.NOTE): 251, ("ZS", Layer.HEADING): 44},
}


@pytest.fixture(scope="module", params=list(OWN))
def project(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, RunResult, Any]:
    """A project collated once, and its TEI as a reader of the file sees it."""
    name = request.param
    if name == "default":
        run = run_default_project()
    elif name == "sheyi":
        run = collate_project(shared_project(tmp_path_factory.mktemp(name), "ZS", SHEYI))
    else:
        run = collate_project(replace(shared_project(tmp_path_factory.mktemp(name), "SK", WULI), work="射義"))
    tree = etree.ElementTree(etree.fromstring(tei_bytes(build_tei(ExportInput.of(run)))))
    return name, run, tree


def test_every_layer_of_every_witness_of_a_project_reads_back(project: tuple[str, RunResult, Any]) -> None:
    name, run, tree = project
    witnesses = run.read.by_siglum()
    assert assert_every_layer_reads_back(tree, run.collation, witnesses) >= 10
    # What was lost before (the layers that are no other witness's and not collated) is there now.
    for (siglum, layer), count in OWN[name].items():
        assert len(witness_text_from_tei(tree, siglum, layer)) == count, (siglum, layer)


def test_a_project_with_own_texts_is_valid(project: tuple[str, RunResult, Any], tei_schema: Any) -> None:
    _, _, tree = project
    assert_valid(tree, tei_schema)


def test_each_unit_of_a_witness_can_be_cited_by_its_page_and_line(project: tuple[str, RunResult, Any]) -> None:
    """Read in its division, a unit stands after the page and line break it begins on."""
    name, run, tree = project
    ctx = Context(ExportInput.of(run))
    checked = expected = 0
    for siglum, witness in run.read.by_siglum().items():
        if siglum == run.collation.base or witness.sparse or not witness.marks:
            continue
        units = uncollated_units(ctx, witness)
        expected += len(units)
        for layer_div in own_division(tree, siglum):
            own = iter(u for u in units if u.layer.value == layer_div.get("type"))
            page: str | None = None
            line: str | None = None
            for element in layer_div.iter():
                if local(element) == "pb":
                    page, line = element.get("n"), None
                elif local(element) == "lb":
                    line = element.get("n")
                elif element.get("source") == f"#{siglum}":
                    at, number = witness.page_at(next(own).start)
                    assert (page, line) == (at, None if number is None else str(number)), (siglum, element.sourceline)
                    checked += 1
    assert checked == expected
    assert checked or name == "default"  # the default project's 注疏本 is a plain text without pages


def test_the_tei_names_the_witness_own_text_in_its_segmentation(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    (p,) = xp(tree, "//tei:editorialDecl/tei:segmentation/tei:p")
    assert 'div type="witness"' in "".join(p.itertext())
