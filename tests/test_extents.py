"""Extents on real texts: a fragmentary base, a base quoting a few articles of a chapter, a work it does not quote.

* 禮記·投壺 with the 注疏本 of seed 001 (the first part of the chapter only) as the base, and
  五禮通考 (seed 000), which has the whole chapter: what the base does not reach is not extant
  in it, never one addition of hundreds of characters.
* 五禮通考 卷163 quoting 周禮·夏官 — articles of 射人 among those of 大司馬, 服不氏, 太僕,
  司弓矢 — collated with the 射人 chapter of the 周禮注疏 (WYG): each quotation is aligned
  where it matches, the rest of the chapter is not extant in the base, and the passages the
  base quotes from other offices are not extant in the chapter.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import shared_project
from conftest import SEED_000, SEED_001
from lxml import etree

from collate.apparatus import LayerResult, ReadingClass
from collate.decisions.apply import reviewable
from collate.errors import InputError
from collate.exporters.jiaokanji import entries
from collate.exporters.tei import NS, build_tei, tei_bytes, witness_text_from_tei
from collate.model import Layer
from collate.pipeline import collate_project
from collate.project import project_from_mapping
from collate.results import ExportInput, RunResult
from collate.validate import rule_problems


def layer(run: RunResult, which: Layer) -> LayerResult:
    return next(r for r in run.collation.layers if r.layer is which)


def tei(run: RunResult) -> etree._ElementTree:
    return etree.ElementTree(etree.fromstring(tei_bytes(build_tei(ExportInput.of(run)))))


def assert_reads_back(run: RunResult, tree: etree._ElementTree) -> None:
    for result in run.collation.layers:
        for siglum in result.alignment.sigla:
            expected = "".join(t.t for t in run.tokens[siglum][result.layer])
            assert witness_text_from_tei(tree, siglum, result.layer) == expected, (siglum, result.layer)


@pytest.fixture(scope="module")
def fragment(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    root = tmp_path_factory.mktemp("fragment")
    table = {
        "base": "ZS",
        "work": "投壺",
        "witness": [
            {"siglum": "ZS", "label": "注疏本", "path": str(SEED_001), "layout": "zhushu"},
            {"siglum": "SK", "label": "四庫本", "path": str(SEED_000), "layout": "siku-wltk"},
        ],
    }
    return collate_project(project_from_mapping(table, root=root))


def test_the_text_beyond_a_fragmentary_base_is_not_extant_in_it(fragment: RunResult) -> None:
    jing = layer(fragment, Layer.JING)
    beyond = [x for x in jing.loci if x.cls is ReadingClass.NOT_EXTANT]
    assert len(beyond) == 1
    (locus,) = beyond
    text = locus.readings[0].text
    assert text.startswith("请宾曰顺投为入") and len(text) > 400  # the rest of the chapter in 五禮通考
    assert locus.col_start > 0 and locus.col_end == len(jing.alignment.columns)
    assert not jing.alignment.extent("ZS").covers(locus.col_start)
    # Nothing for an editor to decide there, and a reclassified reading does not make it a variant.
    assert not locus.variants() and not reviewable(locus)
    assert locus.with_readings(locus.readings).cls is ReadingClass.NOT_EXTANT


def test_no_layer_has_a_long_addition_of_the_witness(fragment: RunResult) -> None:
    for result in fragment.collation.layers:
        for locus in result.loci:
            if locus.cls is ReadingClass.ADDITION:
                assert max(len(r.text) for r in locus.readings) < 20, (locus.id, locus.readings[0].text)


def test_the_jiaokanji_does_not_list_what_the_base_does_not_contain(fragment: RunResult) -> None:
    listed = entries(fragment.collation, fragment.read.by_siglum())
    assert listed
    # It would begin 「请宾曰顺」至…, the base's 「筭興」 before it.
    assert not [e for e in listed if "请宾曰顺" in e or "請賓曰順" in e]


def test_the_tei_marks_the_entry_not_extant_and_reads_back_exactly(fragment: RunResult) -> None:
    tree = tei(fragment)
    apps = tree.xpath("//tei:app[@type='not-extant']", namespaces=NS)
    assert apps
    # The witness's text there is kept, with no class that would make it an addition.
    assert all(r.get("type") is None for a in apps for r in a.xpath("tei:rdg", namespaces=NS))
    assert [p.message for p in rule_problems(tree)[0]] == []
    assert_reads_back(fragment, tree)


@pytest.fixture(scope="module")
def articles(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    project = shared_project(
        tmp_path_factory.mktemp("sheren"),
        "SK",
        {
            "SK": ("wuli-tongkao-juan163-kanripo-master.txt", "四庫本"),
            "ZS": ("zhouli-zhushu-sheren-kanripo-WYG.txt", "注疏本"),
        },
        work="夏官",
    )
    return collate_project(project)


def test_the_quoted_articles_of_the_classic_agree_with_the_chapter(articles: RunResult) -> None:
    jing = layer(articles, Layer.JING)
    kinds = {x.cls for x in jing.loci}
    # Before: 8 substantive entries, the quotations set against the wrong stretch of 射人.
    assert not kinds & {ReadingClass.SUBSTANTIVE, ReadingClass.OMISSION, ReadingClass.ADDITION}
    assert ReadingClass.NOT_EXTANT in kinds  # what the base does not quote of the chapter


def test_a_passage_the_base_quotes_from_another_office_is_not_extant_in_the_chapter(articles: RunResult) -> None:
    jing = layer(articles, Layer.JING)
    base = jing.alignment.base
    # 服不氏 (射則贊張侯…) is quoted between two articles of 射人.
    k = "".join(t.t for t in base.tokens).index("服不氏射則賛張侯")
    column = base.columns[k]
    assert not jing.alignment.extent("ZS").covers(column)
    assert not [x for x in jing.loci if x.col_start <= column < x.col_end]


def test_the_zhu_of_the_quoted_articles_is_aligned_with_their_zhu(articles: RunResult) -> None:
    zhu = layer(articles, Layer.ZHU)
    # Before: 44 substantive entries, most of them 注 of other offices against 射人's.
    substantive = [x for x in zhu.loci if x.cls is ReadingClass.SUBSTANTIVE]
    assert len(substantive) <= 12, [x.lemma.text for x in substantive]
    assert all(len(x.lemma.text) <= 3 for x in substantive), [x.lemma.text for x in substantive]


def test_the_quotations_tei_is_valid_and_reads_back_exactly(articles: RunResult) -> None:
    tree = tei(articles)
    assert [p.message for p in rule_problems(tree)[0]] == []
    # A passage the chapter does not contain: it stops and resumes there, which is no omission.
    assert tree.xpath("//tei:rdg[@wit='#ZS'][tei:witEnd][tei:witStart]", namespaces=NS)
    assert_reads_back(articles, tree)


def test_a_work_the_base_does_not_quote_is_a_clear_error(tmp_path: Path) -> None:
    project = shared_project(
        tmp_path,
        "SK",
        {
            "SK": ("wuli-tongkao-juan163-kanripo-master.txt", "四庫本"),
            "ZS": ("zhouli-zhushu-sheren-kanripo-WYG.txt", "注疏本"),
        },
        work="司裘",
    )
    with pytest.raises(InputError) as caught:
        collate_project(project)
    assert "司裘" in str(caught.value)
    assert "周禮夏官" in (caught.value.hint or "")  # the works the base does quote, to choose from


def test_the_diff_shows_no_variant_where_the_base_is_not_extant_unless_asked(fragment: RunResult) -> None:
    from collate.views.diff import DiffFilter

    jing = layer(fragment, Layer.JING)
    (locus,) = [x for x in jing.loci if x.cls is ReadingClass.NOT_EXTANT]
    assert DiffFilter().readings(locus) == ()
    assert DiffFilter(classes=(ReadingClass.NOT_EXTANT,)).readings(locus)
