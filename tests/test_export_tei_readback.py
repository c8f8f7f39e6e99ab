"""Reading one witness's text back out of a TEI document, on documents written by hand.

The writer's tests read its documents back to show they are lossless; these show the reader
on its own, so that a mistake shared by the writer and the reader cannot hide there.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from collate.exporters.tei import witness_text_from_tei
from collate.model import Layer

WITNESSES = (
    '<witness xml:id="SK" ana="#jing #zhu"/><witness xml:id="ZS" ana="#jing #zhu"/>'
    '<witness xml:id="WY" ana="#jing"/><witness xml:id="DD"/>'
)


def document(body: str) -> Any:
    """A document with SK, ZS (經 and 注), WY (經 only) and DD (no layer), and ``body`` as its body."""
    return etree.ElementTree(
        etree.fromstring(
            '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><sourceDesc>'
            f"<listWit>{WITNESSES}</listWit></sourceDesc></fileDesc></teiHeader>"
            f"<text><body>{body}</body></text></TEI>"
        )
    )


def tei(body: str) -> Any:
    """:func:`document` with ``body`` as one paragraph."""
    return document(f"<p>{body}</p>")


def test_shared_text_and_each_witness_own_reading() -> None:
    tree = tei(
        '<seg type="jing" ana="#jing">主人<app><lem wit="#SK">請</lem><rdg wit="#ZS">请</rdg>'
        '<rdgGrp type="orthographic"><rdg wit="#WY">請</rdg></rdgGrp></app>曰<pc>，</pc>某'
        '<lb edRef="#SK" n="2"/>有<app><lem wit="#SK #WY">枉</lem><rdg wit="#ZS"/></app>矢</seg>'
    )
    assert witness_text_from_tei(tree, "SK", Layer.JING) == "主人請曰某有枉矢"
    assert witness_text_from_tei(tree, "ZS", Layer.JING) == "主人请曰某有矢"  # its empty reading: an omission
    assert witness_text_from_tei(tree, "WY", Layer.JING) == "主人請曰某有枉矢"  # its reading inside a group


def test_nothing_is_read_outside_the_witness_extent() -> None:
    tree = tei(
        '<seg type="jing" ana="#jing"><app><lem wit="#SK #ZS">投壺</lem><rdg wit="#WY"><witStart wit="#WY"/></rdg>'
        '</app>之禮<app><lem wit="#SK #WY">主人</lem><rdg wit="#ZS"><lacunaStart wit="#ZS"/></rdg></app>奉矢'
        '<app><lem wit="#SK #WY">司射</lem><rdg wit="#ZS"><lacunaEnd wit="#ZS"/></rdg></app>奉中'
        '<app><lem wit="#SK #WY">使人</lem><rdg wit="#ZS">使人<witEnd wit="#ZS"/></rdg></app>執壺</seg>'
    )
    assert witness_text_from_tei(tree, "SK", Layer.JING) == "投壺之禮主人奉矢司射奉中使人執壺"
    # WY starts late: nothing of it before its witStart, though the text there is shared.
    assert witness_text_from_tei(tree, "WY", Layer.JING) == "之禮主人奉矢司射奉中使人執壺"
    # ZS's lacuna runs from 主人 to 司射, and ZS ends after 使人.
    assert witness_text_from_tei(tree, "ZS", Layer.JING) == "投壺之禮奉中使人"


def test_only_the_layer_asked_for_and_only_witnesses_that_carry_it() -> None:
    tree = tei(
        '<seg type="jing" ana="#jing">投壺</seg>'
        '<note place="inline" type="commentary" subtype="zhu" ana="#zhu">矢所以投者也</note>'
    )
    assert witness_text_from_tei(tree, "SK", Layer.ZHU) == "矢所以投者也"
    assert witness_text_from_tei(tree, "WY", Layer.JING) == "投壺"
    assert witness_text_from_tei(tree, "WY", Layer.ZHU) == ""  # WY's @ana has no #zhu
    assert witness_text_from_tei(tree, "DD", Layer.JING) == ""  # a sparse witness carries no layer
    assert witness_text_from_tei(tree, "XX", Layer.JING) == ""  # not a listed witness


def test_entry_notes_labels_breaks_and_base_only_blocks_are_not_text_but_a_control_gap_is() -> None:
    tree = tei(
        '<seg type="jing" ana="#jing"><pb edRef="#SK" n="1a"/>主人<app><lem wit="#SK #ZS">某</lem>'
        '<note type="editorial">案</note></app><gap reason="control-character"><desc>U+0001</desc></gap>有</seg>'
        '<note type="editorial" ana="#jing"><label>蕙田案</label>今本</note>'
        '<note place="inline" type="commentary" subtype="shu" ana="#jing" source="#SK">士則鹿中</note>'
    )
    assert witness_text_from_tei(tree, "ZS", Layer.JING) == "主人某\x01有今本"


# --- text not collated: the base's own blocks, and each other witness's own division ----------------------

OWN = (
    '<div type="section"><head xml:id="heading.1" source="#SK">禮記投壺</head><p>'
    '<seg type="jing" ana="#jing">投壺</seg>'
    '<note place="inline" type="commentary" subtype="shu" ana="#shu" source="#SK">士則<pc>，</pc>鹿中</note>'
    '<seg type="jing" ana="#jing" source="#SK">少儀</seg></p>'
    '<trailer source="#SK">右投壺</trailer></div>'
    '<div type="witness" corresp="#WY"><div type="zhu">'
    '<p><pb edRef="#WY" n="3a"/><lb edRef="#WY" n="2"/>'
    '<note place="inline" type="commentary" subtype="zhu" ana="#zhu" source="#WY">'
    '<label type="attribution">注</label>矢<pc>．</pc>所以<lb edRef="#WY" n="3"/>投<g ref="#pua-E000">\ue000</g>者'
    '<unclear reason="placeholder">□</unclear></note></p></div>'
    '<div type="jing"><p><seg type="jing" ana="#jing" source="#WY">曲禮</seg></p></div>'
    '<div type="note"><p><note type="editorial" subtype="an" ana="#note" source="#WY">'
    "案<pc>：</pc>今本</note></p></div>"
    '<div type="heading"><head source="#WY">投壺第四十</head></div></div>'
)


def test_a_layer_not_collated_for_a_witness_is_read_from_its_own_text() -> None:
    tree = document(OWN)
    # WY's 注 is not collated (its @ana has only #jing): its own division gives it, breaks and
    # punctuation and the attribution left out, the glyph and the placeholder kept.
    assert witness_text_from_tei(tree, "WY", Layer.ZHU) == "矢所以投\ue000者□"
    assert witness_text_from_tei(tree, "WY", Layer.NOTE) == "案今本"
    assert witness_text_from_tei(tree, "WY", Layer.HEADING) == "投壺第四十"
    # Its 經 is collated: the collated text only, not its own passage of another work.
    assert witness_text_from_tei(tree, "WY", Layer.JING) == "投壺"
    assert witness_text_from_tei(tree, "WY", Layer.SHU) == ""  # WY has no 疏 at all


def test_the_bases_own_blocks_give_its_layers_not_collated() -> None:
    tree = document(OWN)
    assert witness_text_from_tei(tree, "SK", Layer.SHU) == "士則鹿中"
    assert witness_text_from_tei(tree, "SK", Layer.HEADING) == "禮記投壺右投壺"  # headings and closing lines
    assert witness_text_from_tei(tree, "SK", Layer.JING) == "投壺"  # 少儀 is the base's, not collated
    # Nobody else's: another witness's blocks of a layer, or a sparse witness.
    assert witness_text_from_tei(tree, "ZS", Layer.SHU) == ""
    assert witness_text_from_tei(tree, "ZS", Layer.HEADING) == ""
    assert witness_text_from_tei(tree, "DD", Layer.NOTE) == ""
