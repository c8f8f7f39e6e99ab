"""What the parts of the page share: which loci and readings are shown, and text kept text."""

from __future__ import annotations

from dataclasses import replace

import pytest
from builders import align_rows, has_class, html_collation, locus_by_lemma, page_of, parse

from collate.apparatus import Collation, Reading, ReadingClass, WitnessInfo, build_layer
from collate.exporters.html import build_html, display_class, is_script_only, shown_loci, shown_readings
from collate.exporters.html.common import CLASS_LABELS, class_label
from collate.model import Witness


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


def test_fixture_loci(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    summary = [(x.layer.value, x.lemma.text, display_class(x).value) for x in collation.loci() if shown_readings(x)]
    assert summary == [
        ("jing", "某", "omission"),
        ("jing", "哨", "substantive"),
        ("jing", "旨", "substantive"),
        ("jing", "算", "orthographic"),
        ("zhu", "貌", "substantive"),
    ]


def test_script_differences_are_not_variants(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    view = page_of(built).get_element_by_id("view-text")
    marked = "".join(m.text for m in view.xpath(f".//*[@data-locus and {has_class('v')}]"))
    assert not set(marked) & set("请壶宾乐")
    # A reading the builder classed orthographic by the script rule alone is not shown either.
    locus = locus_by_lemma(collation, "算")
    (reading,) = locus.readings
    script = replace(reading, rules=("script",), cause=None)
    assert is_script_only(script) and not is_script_only(reading)
    assert shown_readings(locus.with_readings((script,))) == ()
    only_script = collation.with_locus(locus.with_readings((script,)))
    doc = parse(build_html(only_script, built[1], witnesses=built[2]))
    assert not doc.xpath("//*[@data-locus=$id]", id=locus.id)


def test_witness_text_stays_text() -> None:
    """A hand-made witness whose characters look like markup: escaped, never markup."""
    evil = "主人<script>window.pwned=1</script>&amp;"
    alignment, witnesses = align_rows({"SK": "主人請曰" + "-" * (len(evil) - 4), "ZS": evil})
    result = build_layer(alignment, witnesses)
    base = replace(witnesses["SK"], label="<b>四庫</b>&")
    collation = Collation(
        "<i>題</i>",
        "x",
        "SK",
        (WitnessInfo("SK", "<b>四庫</b>&", "SK.txt", "plain"), WitnessInfo("ZS", "Z&S", "ZS.txt", "plain")),
        (result,),
    )
    html = build_html(collation, base, witnesses=witnesses)
    doc = parse(html)
    assert len(doc.xpath("//script")) == 1 and "pwned" not in doc.xpath("//script")[0].text
    assert not doc.xpath("//b[ancestor::main] | //i[ancestor::header]")
    assert doc.xpath("//title")[0].text == "<i>題</i> 校勘記"
    (row,) = doc.xpath(f"//tr[{has_class('c-substantive')}]")
    assert row.xpath("./td")[0].text == "<script>window.pwned=1</script>&amp;"
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;&amp;amp;" in html


def test_characters_xml_cannot_hold_do_not_break_the_page() -> None:
    alignment, witnesses = align_rows({"SK": "主人\x0c请", "ZS": "主人\x00請"})
    result = build_layer(alignment, witnesses)
    collation = Collation("t", "x", "SK", (WitnessInfo("SK", "SK", "SK.txt", "plain"),), (result,))
    doc = parse(build_html(collation, witnesses["SK"], witnesses=witnesses))
    assert "主人\ufffd请" in doc.get_element_by_id("view-text").text_content()


def test_reading_class_not_extant_alone_is_not_a_variant() -> None:
    alignment, witnesses = align_rows({"SK": "主人请曰", "ZS": "主人--"}, {"ZS": [0, 1]})
    result = build_layer(alignment, witnesses)
    assert all(r.cls is ReadingClass.NOT_EXTANT for x in result.loci for r in x.readings)
    assert shown_loci(result) == ()
    fake = Reading("x", ReadingClass.NOT_EXTANT, ())
    assert not is_script_only(fake)


def test_a_class_is_labelled_with_its_chinese_name_and_its_english_gloss() -> None:
    assert CLASS_LABELS == {c: (c.chinese, c.gloss) for c in ReadingClass}
    assert class_label(ReadingClass.LOAN) == "通假 loan character"
