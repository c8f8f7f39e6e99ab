"""Pages a print has lost are a lacuna, never an omission: 儀禮·燕禮 in the 四部叢刊 鄭注本 (two `# page missing`)."""

from __future__ import annotations

import re

import pytest
from builders import shared_project
from lxml import etree

from collate.apparatus import ReadingClass
from collate.exporters.jiaokanji import entries
from collate.exporters.tei import NS, build_tei, tei_bytes, witness_text_from_tei
from collate.model import Layer
from collate.pipeline import collate_project
from collate.results import ExportInput, RunResult
from collate.validate import rule_problems


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    project = shared_project(
        tmp_path_factory.mktemp("yanli"),
        "ZS",
        {"ZS": ("yili-yanli-zhushu-kanripo-WYG.txt", "ZS"), "ZZ": ("yili-yanli-zhengzhu-kanripo-SBCK.txt", "鄭注本")},
    )
    return collate_project(project)


def test_the_lost_pages_are_lacunae_in_the_alignment(run: RunResult) -> None:
    jing = next(r for r in run.collation.layers if r.layer.value == "jing")
    assert len(jing.alignment.extent("ZZ").lacunae) == 2  # 006-14a and 006-47b lost


def test_no_omission_of_the_witness_falls_in_its_lacunae(run: RunResult) -> None:
    for result in run.collation.layers:
        holes = result.alignment.extent("ZZ").lacunae
        for locus in result.loci:
            reading = locus.reading_of("ZZ")
            inside = any(a <= locus.col_start and locus.col_end <= b for a, b in holes)
            if inside and reading is not None:
                assert reading.cls is ReadingClass.NOT_EXTANT, (locus.id, reading.cls)
    # The 105 characters of 經 on the lost page 006-14a were one "omission" before.
    assert not any("鄭注本無「奠觶右還」" in e for e in entries(run.collation, run.read.by_siglum()))


def test_the_jiaokanji_notes_each_lost_stretch_once_in_each_layer(run: RunResult) -> None:
    lost = [e for e in entries(run.collation, run.read.by_siglum()) if "缺頁，無" in e]
    assert len(lost) == 4  # two lost pages, each with 經 and 注
    assert any("鄭注本缺頁，無「奠觶右還」至「大夫皆坐」凡一百〇五字" in e for e in lost)
    assert all(e.startswith("頁006-") for e in lost)  # at the base's printed page and line
    assert not [e for e in entries(run.collation) if "缺頁，無" in e]  # without the witnesses, no places


def test_the_tei_opens_and_closes_each_lacuna_and_reads_back_exactly(run: RunResult) -> None:
    tree = etree.ElementTree(etree.fromstring(tei_bytes(build_tei(ExportInput.of(run)))))
    lost = tree.xpath("//tei:rdg[@wit='#ZZ'][tei:lacunaStart][tei:lacunaEnd]", namespaces=NS)
    assert lost
    assert [p.message for p in rule_problems(tree)[0]] == []
    for result in run.collation.layers:
        for siglum in result.alignment.sigla:
            expected = "".join(t.t for t in run.tokens[siglum][result.layer])
            assert witness_text_from_tei(tree, siglum, result.layer) == expected, (siglum, result.layer)


def test_a_witness_without_lost_pages_has_no_lacunae(run: RunResult) -> None:
    assert all(not r.alignment.extent("ZS").lacunae for r in run.collation.layers)


@pytest.fixture(scope="module")
def danshu(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    project = shared_project(
        tmp_path_factory.mktemp("sheyi-shu"),
        "ZS",
        {
            "ZS": ("liji-sheyi-zhushu-kanripo-WYG.txt", "注疏本"),
            "DS": ("liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt", "單疏本"),
        },
    )
    return collate_project(project)


def test_a_blank_in_a_line_of_the_danshu_is_a_lost_glyph_not_an_omission(danshu: RunResult) -> None:
    # 爲射不　而受爵: the 單疏本 shows a glyph its print lost as a blank, where the 注疏本 reads 中.
    lines = entries(danshu.collation, danshu.read.by_siglum())
    assert any(re.search(r"單疏本（頁[^）]+）此處空一格，闕「中」字", e) for e in lines)
    shu = danshu.collation.layer(Layer.SHU)
    assert shu is not None
    omitted = [r for x in shu.loci for r in x.variants() if r.cls is ReadingClass.OMISSION and "DS" in r.sigla]
    assert all(x.lemma.text != "中" for x in shu.loci if any(r in omitted for r in x.readings))
    # Every blank or short line of the 單疏本 that became a lacuna stands where the 注疏本 reads a
    # few characters (as many as the cells lost, or one more), never a phrase.
    lacunae = shu.alignment.extent("DS").lacunae
    assert lacunae
    for a, b in lacunae:
        assert 1 <= len(shu.alignment.base.within(a, b)) <= 6


def test_a_line_of_the_danshu_that_stops_short_lost_its_last_glyphs(danshu: RunResult) -> None:
    # 此經明將射之¶<pb>子諸侯: the last line of a leaf two cells short, where the 注疏本 reads 時天.
    lines = entries(danshu.collation, danshu.read.by_siglum())
    assert any("單疏本（頁007-1a行15）此行短二格，行末闕「時天」二字" in e for e in lines)
    assert not any("無「時天」" in e for e in lines)


def test_a_blank_where_the_others_read_a_phrase_sets_it_off_and_stays_an_omission() -> None:
    from builders import align_rows

    from collate.align.alignment import with_lacunae

    alignment, _ = align_rows({"A": "天子之射也以爲諸侯", "B": "天子之射---諸侯"})
    b = alignment.sigla.index("B")
    start = alignment.index(b).tokens[3].end  # the blank after 射
    assert with_lacunae(alignment, {"B": [(start, 1)]}).extent("B").lacunae == ()
    assert with_lacunae(alignment, {"B": [(start, None)]}).extent("B").lacunae == ((4, 7),)
    # As wide as the blank (or one more): the print lost as many glyphs.
    one, _ = align_rows({"A": "天子之射也諸侯", "B": "天子之射-諸侯"})
    assert with_lacunae(one, {"B": [(one.index(1).tokens[3].end, 1)]}).extent("B").lacunae == ((4, 5),)


def test_pages_lost_before_the_witness_first_word_in_a_layer_are_a_lacuna_where_its_text_goes_on_before_them() -> None:
    """冠義, 單疏本: the leaf lost after the title 疏 took the 疏's first words; with the witness's text
    beginning before the lost leaf, the base's words before its first are lost, not outside it."""
    from builders import align_rows

    from collate.align.alignment import with_lacunae

    alignment, _ = align_rows({"A": "此一節明冠禮若朝服則", "B": "------若朝服則"})
    b = alignment.sigla.index("B")
    first = alignment.index(b).tokens[0].start
    outside = with_lacunae(alignment, {"B": [(first, None)]})
    assert outside is alignment  # no text of the witness before the mark: it begins there
    lost = with_lacunae(alignment, {"B": [(first, None)]}, {"B": (first - 1, first + 4)})
    assert lost.extent("B").lacunae == ((0, 6),) and lost.extent("B").first == 0
    assert not lost.extent("B").covers(0)


def test_words_of_a_block_the_witness_closed_before_its_lost_pages_are_an_omission_not_lost() -> None:
    """燕禮, 鄭注本: the 注 …不主意於賓也 ends before the surviving 經 司正降…, and the leaf after is
    lost; the 也 the 注 lacks stood on the page that survives."""
    from dataclasses import replace

    from builders import align_rows

    from collate.align.alignment import LayerAlignment, with_lacunae

    raw, _ = align_rows({"A": "於賓也右還將適乃", "B": "於賓-----乃"})
    # The base's 注 block ends at 也; 右還將適乃 is the next 注 block. The witness's 乃 stands after
    # its lost leaf, at raw offset 40; the mark at 30.
    units = [0, 0, 0, 1, 1, 1, 1, 1]
    bases = [col[0] for col in raw.columns if col[0] is not None]
    own = [col[1] if col[1] is None or col[1].t != "乃" else replace(col[1], start=40, end=41) for col in raw.columns]
    columns = tuple((replace(t, unit=u), w) for t, u, w in zip(bases, units, own, strict=True))
    alignment: LayerAlignment = replace(raw, columns=columns)
    cut = with_lacunae(alignment, {"B": [(30, None)]}, None, {"B": [0, 10, 35]})
    # A block of the witness's words begins (at 10) between its 賓 and the mark: 也 is an omission.
    assert cut.extent("B").lacunae == ((3, 7),)
    # Without another block before the mark, all of it was lost with the leaf; a block that
    # begins right after the lost leaf (at 35, the 乃's own) tells nothing either.
    lost = with_lacunae(alignment, {"B": [(30, None)]}, None, {"B": [0, 35]})
    assert lost.extent("B").lacunae == ((2, 7),)
    # After the leaf, another block's words (at 32) before the 乃's block (at 38): the head of that
    # block stood on the page that survives, and only 也 was lost.
    head = with_lacunae(alignment, {"B": [(30, None)]}, None, {"B": [0, 32, 38]})
    assert head.extent("B").lacunae == ((2, 3),)


def test_the_lost_leaf_of_the_zhengzhu_leaves_the_omission_on_the_page_before_it(run: RunResult) -> None:
    lines = entries(run.collation, run.read.by_siglum())
    assert any("〔注〕鄭注本（頁006-13b行7）無「也」字" in e for e in lines)
    assert any("鄭注本缺頁，無「右還將適」至「待賓反也」凡六十一字" in e for e in lines)
