"""The 校勘記: one traditional line per substantive variant, with page/line, sigla and notes."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from builders import collate, layered, run_default_project, sparse_witness

from collate.apparatus import Collation, ReadingClass
from collate.exporters import ExportInput, get_exporter
from collate.exporters.jiaokanji import SUBSTANTIVE, _count, build_jiaokanji, entries
from collate.model import Layer, Witness
from collate.notes.records import AttachedNote
from collate.review.records import DecisionAction, EditorDecision


def with_note(collation: Collation, base: Witness, lemma: str, note: AttachedNote) -> Collation:
    jing = collation.layer(Layer.JING)
    assert jing is not None
    return collation.with_layer(
        jing.with_loci(tuple(x.with_notes((note,)) if x.lemma.text == lemma else x for x in jing.loci))
    )


def test_substitution_with_page_line_sigla_and_note() -> None:
    sk = layered("SK", [(Layer.JING, "主人请曰"), (None, "\n"), (Layer.JING, "某有枉矢哨壶")], label="四庫本")
    dd = sparse_witness(("某有枉矢哨壶", "哨", "峭", ""))
    collation, _ = collate([sk], sparse=[dd], layers=[Layer.JING])
    note = AttachedNote("n1", "秦蕙田", "王肃云枉不直哨不正与郑小异今本大戴礼乃作峭谬甚", sk.locate(0))
    collation = with_note(collation, sk, "哨", note)
    assert entries(collation) == [
        "頁1a行2　「哨」，大戴禮作「峭」。蕙田案：王肃云枉不直哨不正与郑小异今本大戴礼乃作峭谬甚。"
    ]


def test_omission_and_addition() -> None:
    sk = layered("SK", [(Layer.JING, "主人曰敢固以请")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人也曰敢以請")], label="注疏本")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    assert entries(collation) == ["頁1a行1　注疏本「主人」下有「也」字。", "頁1a行1　注疏本無「固」字。"]


def test_witnesses_sharing_a_reading_and_the_layer_named() -> None:
    sk = layered("SK", [(Layer.JING, "投壶"), (None, "("), (Layer.ZHU, "既脱屦升坐主人乃请")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "投壺"), (None, "_"), (Layer.ZHU, "既脫屨升堂主人乃請")], label="注疏本")
    wy = layered("WY", [(Layer.JING, "投壶"), (None, "_"), (Layer.ZHU, "既脱屦升堂主人乃请")], label="網本")
    collation, _ = collate([sk, zs, wy])
    assert entries(collation) == ["頁1a行1　〔注〕「坐」，注疏本、網本並作「堂」。"]


def test_only_substantive_variants_are_entries() -> None:
    # 筭 (a variant graph), 元 (taboo), 賓 (script), □ (a placeholder), text past ZS's end: none is an entry.
    sk = layered("SK", [(Layer.JING, "取算而玄之宾不亵礼也主人奉矢")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "取筭而元之賓不□禮也主")], label="注疏本")
    collation, _ = collate([sk, zs], fragments=["ZS"], layers=[Layer.JING])
    classes = {r.cls for x in collation.loci() for r in x.readings}
    assert classes == {ReadingClass.ORTHOGRAPHIC, ReadingClass.PLACEHOLDER}
    assert not classes & SUBSTANTIVE
    assert entries(collation) == []


def test_lemma_in_the_base_own_characters_and_header() -> None:
    # A simplified base is printed as it is: converting it would print characters it lacks.
    sk = layered("SK", [(Layer.JING, "请以乐宾")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "請以樂客")], label="注疏本")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    text = build_jiaokanji(collation)
    header, body = text.split("\n\n")
    assert "照錄底本原字" in header and "OpenCC" not in header and "凡1條" in header
    assert "校本：注疏本（ZS）" in header
    assert body == "頁1a行1　「宾」，注疏本作「客」。\n"


def test_a_loan_is_an_entry_marked_as_such() -> None:
    sk = layered("SK", [(Layer.JING, "主人罢矣")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人疲矣")], label="注疏本")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    assert [r.cls for x in collation.loci() for r in x.readings] == [ReadingClass.LOAN]
    assert entries(collation) == ["頁1a行1　「罢」，注疏本作「疲」（通假）。"]


def test_long_passages_are_cited_by_their_ends() -> None:
    sk = layered("SK", [(Layer.JING, "司射庭长")], label="四庫本")
    dd = sparse_witness(("司射庭长", "", "降揖其阼階及樂事皆與射同節", "after"))
    collation, _ = collate([sk], sparse=[dd], layers=[Layer.JING])
    assert entries(collation) == ["頁1a行1　大戴禮「庭长」下有「降揖其阼」至「與射同節」凡十三字（據蕙田案）。"]


@pytest.mark.parametrize(
    ("n", "numeral"),
    [
        (2, "二"),
        (10, "十"),
        (13, "十三"),
        (20, "二十"),
        (105, "一百〇五"),
        (113, "一百一十三"),
        (312, "三百一十二"),
        # A whole book's addition or lacuna: counted in 萬.
        (10_000, "一萬"),
        (10_010, "一萬〇一十"),
        (12_345, "一萬二千三百四十五"),
        (110_000, "十一萬"),
        (1_234_567, "一百二十三萬四千五百六十七"),
    ],
)
def test_counts_in_chinese_numerals(n: int, numeral: str) -> None:
    assert _count(n) == numeral


def test_registry_writes_atomically(tmp_path: Path) -> None:
    sk = layered("SK", [(Layer.JING, "主人曰敢固以请")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人曰敢以請")], label="注疏本")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    exporter = get_exporter("jiaokanji")
    path = tmp_path / f"{collation.name}{exporter.suffix}"
    exporter.write(ExportInput(collation, {}), path)
    assert os.listdir(tmp_path) == ["touhu.jiaokanji.txt"]
    assert path.read_text(encoding="utf-8").endswith("頁1a行1　注疏本無「固」字。\n")


@pytest.fixture(scope="module")
def default_collation() -> Collation:
    return run_default_project().collation


def test_default_project(default_collation: Collation) -> None:
    lines = entries(default_collation)
    substantive = [x for x in default_collation.loci() if any(r.cls in SUBSTANTIVE for r in x.readings)]
    assert len(lines) == len(substantive) > 20
    assert all(re.match(r"頁\d+[ab]行\d+　", line) for line in lines)
    assert "「哨」，大戴禮作「峭」。蕙田案：王肃云枉不直哨不正与郑小异今本大戴礼乃作峭谬甚。" in "\n".join(lines)
    assert any(line.endswith("注疏本無「固」字。") for line in lines)
    assert any("〔注〕「奉」，注疏本作「案」。" in line for line in lines)


def test_default_project_prints_no_character_the_base_lacks(default_collation: Collation) -> None:
    """The lemma, and every base word an entry quotes, is the base's own text (SK is simplified)."""
    quoted = re.compile(r"「([^「」]*)」")
    checked = 0
    for result in default_collation.layers:
        stream = "".join(col[0].t for col in result.alignment.columns if col[0] is not None)
        for locus in result.loci:
            if not any(r.cls in SUBSTANTIVE for r in locus.readings):
                continue
            lemma = locus.lemma.text
            assert lemma == stream[locus.base_start : locus.base_end]
            alone = replace(default_collation, layers=(result.with_loci((locus.with_notes(()),)),))
            (line,) = entries(alone)
            words = line.split("　", 1)[1]
            readings = [w.text for r in locus.readings for w in r.witnesses]
            for q in quoted.findall(words):
                assert q in stream or any(q in text for text in readings), (line, q)
            head = re.match(r"(?:〔.〕)?「([^「」]*)」(?:至「([^「」]*)」)?，", words)
            if head is not None:
                assert lemma.startswith(head.group(1)) and lemma.endswith(head.group(2) or head.group(1)), line
                checked += 1
    assert checked > 20


def decided(collation: Collation, lemma: str, decision: EditorDecision) -> Collation:
    """The collation with ``decision`` on the 經 locus whose lemma is ``lemma``."""
    jing = collation.layer(Layer.JING)
    assert jing is not None
    return collation.with_layer(
        jing.with_loci(tuple(x.with_decision(decision) if x.lemma.text == lemma else x for x in jing.loci))
    )


def test_the_editors_decisions_are_stated() -> None:
    sk = layered("SK", [(Layer.JING, "主人曰敢固以请某有枉矢哨壶")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人曰敢以請某有枉矢峭壺")], label="注疏本")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    when = "2026-01-01T00:00:00+00:00"
    gu = collation.locus(next(x.id for x in collation.loci() if x.lemma.text == "固"))
    assert gu is not None
    dropped = gu.readings[0].norm
    collation = decided(
        collation,
        "固",
        EditorDecision(
            (DecisionAction.ADOPT,), ("editor",), when, dropped, adopted=dropped, siglum="ZS", comment="從注疏"
        ),
    )
    doubt = EditorDecision((DecisionAction.DOUBT,), ("editor",), when, "哨", doubtful=True)
    collation = decided(collation, "哨", doubt)
    lines = entries(collation)
    assert lines[0].endswith("注疏本無「固」字。今從注疏本刪「固」字。（editor：從注疏）")
    assert lines[1].endswith("「哨」，注疏本作「峭」。存疑。")


def test_entries_read_each_layer_a_few_times_not_once_per_addition() -> None:
    from scan_support import counted, long_collation

    collation, _ = long_collation()
    collation, (columns,) = counted(collation)
    text = build_jiaokanji(collation)
    assert text.count("下有") == 40
    # The anchor of an addition (「…」下有) comes from the base index, not a pass over the layer.
    assert columns.visited <= 3 * len(columns)


def test_a_passage_a_witness_has_elsewhere_says_where_never_reads_as_the_lemma(tmp_path: Path) -> None:
    """五禮通考 卷163 against 禮記注疏: the 射義 passages the 注疏本 has in another order say where it has them."""
    from builders import shared_project

    from collate.pipeline import collate_project

    project = shared_project(
        tmp_path,
        "SK",
        {
            "SK": ("wuli-tongkao-juan163-kanripo-master.txt", "SK"),
            "ZS": ("liji-sheyi-zhushu-kanripo-WYG.txt", "注疏本"),
        },
    )
    lines = entries(collate_project(project).collation)
    moved = [line for line in lines if "次第不同" in line]
    placed = r"注疏本有此「.+」，注疏本在其頁\d{3}-\d+[ab]行\d+(，文有異同)?（次第不同）"
    assert moved and all(re.search(placed, line) for line in moved)
    for line in lines:
        found = re.search(r"　(?:〔.〕)?「(.+?)」，注疏本作「(.+?)」（倒文）", line)
        assert found is None or found.group(1) != found.group(2), line
