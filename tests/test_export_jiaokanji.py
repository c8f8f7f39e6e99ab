"""The 校勘記: one traditional line per substantive variant, with page/line, sigla and notes."""

from __future__ import annotations

import os
import re
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import pytest
from builders import (
    align_rows,
    collate,
    copy_default_project,
    layered,
    run_default_project,
    shared_project,
    sparse_witness,
)
from conftest import GAIJI, SEED_002, need_shared

from collate.align.alignment import Transposition
from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer
from collate.exporters import get_exporter
from collate.exporters.jiaokanji import SUBSTANTIVE, build_jiaokanji, entries
from collate.exporters.jiaokanji.words import chars, lost_pages, quote
from collate.model import Layer, Mark, MarkKind, Witness
from collate.model.annotations import AttachedNote, DecisionAction, EditorDecision
from collate.pipeline import collate_project
from collate.project import load_project, project_from_mapping
from collate.results import ExportInput


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
    zs = layered("ZS", [(Layer.JING, "主人也曰敢以請")], label="注疏本", page="7b")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    assert entries(collation) == [
        "頁1a行1　注疏本（頁7b行1）「主人」下有「也」字。",
        "頁1a行1　注疏本（頁7b行1）無「固」字。",
    ]


def test_witnesses_sharing_a_reading_and_the_layer_named() -> None:
    sk = layered("SK", [(Layer.JING, "投壶"), (None, "("), (Layer.ZHU, "既脱屦升坐主人乃请")], label="四庫本")
    zs = layered(
        "ZS", [(Layer.JING, "投壺"), (None, "_"), (Layer.ZHU, "既脫屨升堂主人乃請")], label="注疏本", page="7b"
    )
    wy = layered("WY", [(Layer.JING, "投壶"), (None, "_"), (Layer.ZHU, "既脱屦升堂主人乃请")], label="網本", page="3a")
    collation, _ = collate([sk, zs, wy])
    assert entries(collation) == ["頁1a行1　〔注〕「坐」，注疏本（頁7b行1）、網本（頁3a行1）並作「堂」。"]


def test_only_substantive_variants_are_entries() -> None:
    # 筭 (a variant graph), 元 (taboo), 賓 (script), □ (a placeholder), text past ZS's end: none is an entry.
    sk = layered("SK", [(Layer.JING, "取算而玄之宾不亵礼也主人奉矢")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "取筭而元之賓不□禮也主")], label="注疏本")
    collation, _ = collate([sk, zs], fragments=["ZS"], layers=[Layer.JING])
    classes = {r.cls for x in collation.loci() for r in x.readings}
    assert classes == {ReadingClass.ORTHOGRAPHIC, ReadingClass.PLACEHOLDER}
    assert not classes & SUBSTANTIVE
    assert entries(collation) == []


def test_text_beyond_a_fragmentary_base_is_no_entry() -> None:
    """The base ends at 主人曰: what the 注疏本 has after it is not extant in the base, never an addition."""
    sk = layered("SK", [(Layer.JING, "主人曰")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人曰敢固以請")], label="注疏本", page="7b")
    collation, _ = collate([sk, zs], fragments=["SK"], layers=[Layer.JING])
    assert [x.cls for x in collation.loci()] == [ReadingClass.NOT_EXTANT]
    assert entries(collation) == []


def test_lemma_in_the_base_own_characters_and_header() -> None:
    # A simplified base is printed as it is: converting it would print characters it lacks.
    sk = layered("SK", [(Layer.JING, "请以乐宾")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "請以樂客")], label="注疏本", page="7b")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    text = build_jiaokanji(collation)
    header, body = text.split("\n\n")
    assert "照錄底本原字" in header and "OpenCC" not in header and "凡1條" in header
    assert "校本：注疏本（ZS）" in header
    # What it leaves out is said, and where to find it: the TEI and the web page both list it.
    assert "異體字、避諱字、數字化占位符見 TEI 本及網頁本。" in header
    assert body == "頁1a行1　「宾」，注疏本（頁7b行1）作「客」。\n"


def test_a_loan_is_an_entry_marked_as_such() -> None:
    sk = layered("SK", [(Layer.JING, "主人罢矣")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人疲矣")], label="注疏本", page="7b")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    assert [r.cls for x in collation.loci() for r in x.readings] == [ReadingClass.LOAN]
    assert entries(collation) == ["頁1a行1　「罢」，注疏本（頁7b行1）作「疲」（通假）。"]


def test_long_passages_are_cited_by_their_ends() -> None:
    sk = layered("SK", [(Layer.JING, "司射庭长")], label="四庫本")
    dd = sparse_witness(("司射庭长", "", "降揖其阼階及樂事皆與射同節", "after"))
    collation, _ = collate([sk], sparse=[dd], layers=[Layer.JING])
    assert entries(collation) == ["頁1a行1　大戴禮「庭长」下有「降揖其阼」至「與射同節」凡十三字（據蕙田案）。"]


def test_registry_writes_atomically(tmp_path: Path) -> None:
    sk = layered("SK", [(Layer.JING, "主人曰敢固以请")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人曰敢以請")], label="注疏本", page="7b")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    exporter = get_exporter("jiaokanji")
    path = tmp_path / f"{collation.name}{exporter.suffix}"
    exporter.write(ExportInput(collation, {}), path)
    assert os.listdir(tmp_path) == ["touhu.jiaokanji.txt"]
    assert path.read_text(encoding="utf-8").endswith("頁1a行1　注疏本（頁7b行1）無「固」字。\n")


@pytest.fixture(scope="module")
def default_collation() -> Collation:
    return run_default_project().collation


def test_default_project(default_collation: Collation) -> None:
    lines = entries(default_collation)
    substantive = [x for x in default_collation.loci() if any(r.cls in SUBSTANTIVE for r in x.variants())]
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
            if not any(r.cls in SUBSTANTIVE for r in locus.variants()):
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


WHEN = "2026-01-01T00:00:00+00:00"


@pytest.mark.parametrize(
    ("lemma", "decision", "expected"),
    [
        (
            "固",
            EditorDecision((DecisionAction.ADOPT,), ("王",), WHEN, "", adopted="", siglum="ZS", comment="從注疏"),
            "頁1a行1　注疏本（頁7b行1）無「固」字。今從注疏本刪「固」字。（王：從注疏）",
        ),
        (
            "哨",
            EditorDecision((DecisionAction.DOUBT,), ("王",), WHEN, "哨", doubtful=True),
            "頁1a行1　「哨」，注疏本（頁7b行1）作「峭」。存疑。",
        ),
        (
            "哨",
            EditorDecision((DecisionAction.KEEP,), ("王", "李"), WHEN, "哨", comment="鄭本作哨"),
            "頁1a行1　「哨」，注疏本（頁7b行1）作「峭」。今仍底本。（王、李：鄭本作哨）",
        ),
        # A decision the file records with no name: the reasons alone, never an empty name.
        (
            "哨",
            EditorDecision((DecisionAction.KEEP,), (), WHEN, "哨", comment="鄭本作哨"),
            "頁1a行1　「哨」，注疏本（頁7b行1）作「峭」。今仍底本。（鄭本作哨）",
        ),
    ],
)
def test_the_editors_decisions_are_stated(lemma: str, decision: EditorDecision, expected: str) -> None:
    sk = layered("SK", [(Layer.JING, "主人曰敢固以请某有枉矢哨壶")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "主人曰敢以請某有枉矢峭壺")], label="注疏本", page="7b")
    collation, _ = collate([sk, zs], layers=[Layer.JING])
    lines = entries(decided(collation, lemma, decision))
    assert expected in lines


def test_an_adopted_reading_is_the_chosen_witness_own_glyphs() -> None:
    """賔對 and 賓對 are one reading: adopting 網本's prints 網本's characters."""
    sk = layered("SK", [(Layer.JING, "主人曰")], label="四庫本")
    zs = layered("ZS", [(Layer.JING, "賔對曰")], label="注疏本", page="7b")
    wy = layered("WY", [(Layer.JING, "賓對曰")], label="網本", page="3a")
    collation, _ = collate([sk, zs, wy], layers=[Layer.JING])
    (locus,) = collation.loci()
    norm = locus.readings[0].norm
    adopt = EditorDecision((DecisionAction.ADOPT,), ("王",), WHEN, norm, adopted=norm, siglum="WY")
    (line,) = entries(decided(collation, "主人", adopt))
    assert line.endswith("今從網本改作「賓對」。")


def test_the_editor_is_the_name_the_project_declares_never_the_login(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """[review] editor → the review records it → `collate run` prints it, whoever is logged in."""
    from click.testing import CliRunner

    from collate.cli import main
    from collate.review.session import default_editor, open_review

    monkeypatch.setenv("USER", "wang7")
    config = copy_default_project(tmp_path)
    config.write_text(config.read_text(encoding="utf-8") + '\n[review]\neditor = "王"\n', encoding="utf-8")
    project = load_project(config)
    session = open_review(collate_project(project), default_editor(project))
    gu = next(x for x in session.loci if x.lemma.text == "固")
    session.decide(gu, DecisionAction.ADOPT, reading=gu.readings[0], siglum="ZS", comment="從注疏")
    result = CliRunner().invoke(main, ["run", "--config", str(config)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "output" / "touhu.jiaokanji.txt").read_text(encoding="utf-8")
    assert "頁3a行5　注疏本無「固」字。今從注疏本刪「固」字。（王：從注疏）" in text.splitlines()
    assert "wang7" not in text


def test_entries_read_each_layer_a_few_times_not_once_per_addition() -> None:
    from scan_support import counted, long_collation

    collation, _ = long_collation()
    collation, (columns,) = counted(collation)
    text = build_jiaokanji(collation)
    assert text.count("下有") == 40
    # The anchor of an addition (「…」下有) comes from the base index, not a pass over the layer.
    assert columns.visited <= 3 * len(columns)


def test_a_moved_passage_says_where_each_witness_has_it() -> None:
    """乙丙 stands after 己 in 注疏本 and 網本: one clause for both, each at its own page."""
    rows = {"SK": "甲乙丙丁戊己", "ZS": "甲丁戊己乙丙", "WY": "甲丁戊己乙丙"}
    moves = tuple(Transposition(s, 1, 3, 4, 6) for s in ("ZS", "WY"))
    alignment, witnesses = align_rows(rows, transpositions=moves)
    # The aligner puts the moved tokens at the base's place (their columns), as it reports the move.
    order = (0, 4, 5, 1, 2, 3)
    columns = tuple((col[0], *alignment.columns[order[i]][1:]) for i, col in enumerate(alignment.columns))
    pages = {"ZS": "9b", "WY": "3a"}
    for s, page in pages.items():
        witnesses[s] = replace(witnesses[s], marks=(Mark(0, MarkKind.PAGE, page),))
    result = build_layer(replace(alignment, columns=columns), witnesses)
    labels = {"SK": "四庫本", "ZS": "注疏本", "WY": "網本"}
    infos = tuple(WitnessInfo(s, labels[s], f"{s}.txt", "plain") for s in rows)
    collation = Collation("投壺", "touhu", "SK", infos, (result,))
    assert entries(collation) == ["頁1a　注疏本、網本並有此「乙丙」，注疏本在其頁9b、網本在其頁3a（次第不同）。"]


def test_a_passage_a_witness_has_elsewhere_says_where_never_reads_as_the_lemma(tmp_path: Path) -> None:
    """五禮通考 卷163 against 禮記注疏: the 射義 passages the 注疏本 has in another order say where it has them."""
    project = shared_project(
        tmp_path,
        "SK",
        {
            "SK": ("wuli-tongkao-juan163-kanripo-master.txt", "SK"),
            "ZS": ("liji-sheyi-zhushu-kanripo-WYG.txt", "注疏本"),
        },
    )
    collation = collate_project(project).collation
    lines = entries(collation)
    moved = [line for line in lines if "次第不同" in line]
    # The JSON says the same of the witness's reading there.
    from collate.exporters.json import to_json

    inner = [
        d
        for layer in to_json(collation)["layers"]
        for locus in layer["loci"]
        for r in locus["readings"]
        for w in r["witnesses"]
        for d in w.get("inner", [])
    ]
    assert {"base": "從", "reading": "後"} in [{k: d[k] for k in ("base", "reading")} for d in inner]
    placed = r"注疏本有此「.+」，注疏本在其頁\d{3}-\d+[ab]行\d+(，文有異同(：[^（]+)?)?（次第不同）"
    assert moved and all(re.search(placed, line) for line in moved)
    # What differs inside a moved passage is said, each difference of substance as an entry words it.
    assert any("文有異同：「從」作「後」（次第不同）" in line for line in moved)
    for line in lines:
        found = re.search(r"　(?:〔.〕)?「(.+?)」，注疏本作「(.+?)」（倒文）", line)
        assert found is None or found.group(1) != found.group(2), line


# --- cases as data: witnesses in, 校勘記 lines out -------------------------------------------------------


class Case(NamedTuple):
    """Witnesses (the first is the base) as (siglum, label, parts, page or None) and the lines expected."""

    witnesses: tuple[tuple[str, str, tuple[tuple[Layer | None, str], ...], str | None], ...]
    expected: tuple[str, ...]


def _witness(siglum: str, label: str, parts: tuple[tuple[Layer | None, str], ...], page: str | None) -> Witness:
    w = layered(siglum, parts, label=label, page=page or "1a")
    # A print without pages (seed 001, a plain e-text): its lines are the file's only places.
    return w if page else replace(w, marks=tuple(m for m in w.marks if m.kind is not MarkKind.PAGE))


J = Layer.JING
CASES = {
    # Keys make 賔對 and 賓對 one reading; the 校勘記 prints each witness's own glyphs.
    "a reading compared equal keeps each witness's glyphs": Case(
        (
            ("SK", "四庫本", ((J, "主人曰"),), "1a"),
            ("ZS", "注疏本", ((J, "賔對曰"),), "7b"),
            ("WY", "網本", ((J, "賓對曰"),), "3a"),
        ),
        ("頁1a行1　「主人」，注疏本（頁7b行1）作「賔對」，網本（頁3a行1）作「賓對」。",),
    ),
    "the same glyphs share one clause": Case(
        (
            ("SK", "四庫本", ((J, "主人曰"),), "1a"),
            ("ZS", "注疏本", ((J, "賓對曰"),), "7b"),
            ("WY", "網本", ((J, "賓對曰"),), "3a"),
        ),
        ("頁1a行1　「主人」，注疏本（頁7b行1）、網本（頁3a行1）並作「賓對」。",),
    ),
    "an addition in each witness's glyphs": Case(
        (
            ("SK", "四庫本", ((J, "主人曰"),), "1a"),
            ("ZS", "注疏本", ((J, "主人賔曰"),), "7b"),
            ("WY", "網本", ((J, "主人賓曰"),), "3a"),
        ),
        ("頁1a行1　注疏本（頁7b行1）「主人」下有「賔」字，網本（頁3a行1）「主人」下有「賓」字。",),
    ),
    # Seed 001 as the base: no pages of its own, so the entry opens with its file line; the
    # 四庫本 has pages, and says where.
    "a base without pages, a witness with them": Case(
        (
            ("ZS", "注疏本", ((J, "主人案矢"),), None),
            ("SK", "四庫本", ((J, "主人"), (None, "\n"), (J, "奉矢")), "2a"),
        ),
        ("第1行　「案」，四庫本（頁2a行2）作「奉」。",),
    ),
    "a witness without pages is named alone": Case(
        (
            ("SK", "四庫本", ((J, "主人奉矢"),), "2a"),
            ("ZS", "注疏本", ((J, "主人案矢"),), None),
        ),
        ("頁2a行1　「奉」，注疏本作「案」。",),
    ),
    # Book-size differences: counted in 萬 (an IndexError once stopped the export at 11,000).
    "eleven thousand characters added": Case(
        (
            ("SK", "四庫本", ((J, "甲乙"),), "1a"),
            ("ZS", "注疏本", ((J, "甲" + "丙" * 11_000 + "乙"),), "7b"),
        ),
        ("頁1a行1　注疏本（頁7b行1）「甲」下有「丙丙丙丙」至「丙丙丙丙」凡一萬一千字。",),
    ),
    "twelve thousand characters lacking": Case(
        (
            ("SK", "四庫本", ((J, "甲" + "丁" * 12_000 + "乙"),), "1a"),
            ("ZS", "注疏本", ((J, "甲乙"),), "7b"),
        ),
        ("頁1a行1　注疏本（頁7b行1）無「丁丁丁丁」至「丁丁丁丁」凡一萬二千字。",),
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_cases(case: Case) -> None:
    witnesses = [_witness(*w) for w in case.witnesses]
    collation, _ = collate(witnesses, layers=[Layer.JING])
    assert tuple(entries(collation)) == case.expected


@pytest.mark.parametrize(
    ("label", "words"),
    [
        ("006-14a, 2 pages", "自其頁006-14a起缺二頁"),
        ("006-14a, 1 page", "自其頁006-14a起缺一頁"),
        ("3a", "自其頁3a起缺"),
        ("?", ""),
    ],
)
def test_the_pages_a_lacuna_mark_names(label: str, words: str) -> None:
    assert lost_pages(label) == words


def test_a_note_is_quoted_in_its_own_characters() -> None:
    """今注疏本 stays 今注疏本: a conversion for display would print 今註疏本, which the note does not have."""
    yl = layered("YL", [(Layer.ZHU, "郑注着竝行事古文曰")], label="四庫本")
    zs = layered("ZS", [(Layer.ZHU, "鄭注著竝行也古文曰")], label="注疏本", page="7b")
    collation, _ = collate([yl, zs], layers=[Layer.ZHU])
    note = AttachedNote("n1", "四库馆臣", "事今注疏本讹作也据宋本改正疏内举注文亦作事", yl.locate(0))
    zhu = collation.layer(Layer.ZHU)
    assert zhu is not None
    collation = collation.with_layer(zhu.with_loci(tuple(x.with_notes((note,)) for x in zhu.loci)))
    assert entries(collation) == [
        "頁1a行1　〔注〕「事」，注疏本（頁7b行1）作「也」。案：事今注疏本讹作也据宋本改正疏内举注文亦作事。"
    ]


# --- real projects ---------------------------------------------------------------------------------------


def test_seed_002_quotes_the_editors_notes_as_they_are_written(tmp_path: Path) -> None:
    """儀禮·鄉射禮 (seed 002) against a 注疏本 made of it with the readings its 【案】 notes report."""
    text = SEED_002.read_text(encoding="utf-8")
    (tmp_path / "yl.txt").write_text(text, encoding="utf-8")
    zs = text.replace("着竝行事【", "着竝行也【").replace("其时众寡从宾【", "其时众宾从宾【")
    # The 注疏本's own text has no notes of the Siku editors.
    (tmp_path / "zs.txt").write_text(re.sub(r"【案[^】]*】", "", zs), encoding="utf-8")
    witnesses = [
        {"siglum": "YL", "label": "四庫本", "path": "yl.txt", "layout": "yili-inline"},
        {"siglum": "ZS", "label": "注疏本", "path": "zs.txt", "layout": "yili-inline"},
    ]
    mapping = {"title": "儀禮·鄉射禮", "base": "YL", "witness": witnesses, "notes": {"lexicon": {"今注疏本": "ZS"}}}
    lines = entries(collate_project(project_from_mapping(mapping, root=tmp_path)).collation)
    assert lines == [
        "第195行　〔注〕「事」，注疏本作「也」。案：事今注疏本讹作也据宋本改正疏内举注文亦作事。",
        "第359行　〔注〕「寡」，注疏本作「宾」。案：寡今注疏本讹作宾据宋本改正。",
    ]


def test_seed_001_as_the_base_cites_the_siku_pages(tmp_path: Path) -> None:
    """The default project with the 注疏本 (seed 001, no pages) as base: each 四庫本 reading says its page."""
    config = copy_default_project(tmp_path)
    config.write_text(config.read_text(encoding="utf-8").replace('base = "SK"', 'base = "ZS"'), encoding="utf-8")
    lines = entries(collate_project(load_project(config)).collation)
    assert "第7行　〔注〕「案」，四庫本（頁2a行2）作「奉」。" in lines
    assert "第7行　四庫本（頁3a行5）「也敢」下有「固」字。" in lines
    assert all(re.search(r"四庫本（頁\d+[ab]行\d+）", line) for line in lines if "四庫本" in line)


@pytest.fixture(scope="module")
def sheyi(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """禮記·射義: 注疏本 (base), 纂圖互註本, 單疏本, each print with its own pages."""
    project = shared_project(
        tmp_path_factory.mktemp("sheyi"),
        "ZS",
        {
            "ZS": ("liji-sheyi-zhushu-kanripo-WYG.txt", "注疏本"),
            "ZT": ("liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt", "纂圖本"),
            "DS": ("liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt", "單疏本"),
        },
    )
    run = collate_project(project)
    return list(entries(run.collation, run.read.by_siglum()))


@pytest.mark.parametrize(
    "line",
    [
        "頁062-2b行1　「蘩」，纂圖本（頁020-8b行3）作「繁」。",
        "頁062-1b行3　〔疏〕單疏本（頁007-1a行15）此行短二格，行末闕「時天」二字。",
        # 流俗失俗也處猶留也八十九十曰旄百年曰期頤稱: each 曰 is quoted with the character after it.
        "頁062-8a行8　〔注〕「曰旄」，纂圖本（頁020-10a行6）「曰」作「日」（形近）。",
        "頁062-8a行8　〔注〕「曰期」，纂圖本（頁020-10a行6）「曰」作「日」（形近）。",
    ],
)
def test_sheyi_cites_each_print_where_it_reads(sheyi: list[str], line: str) -> None:
    assert line in sheyi


def _placed_by(line: str) -> tuple[str, str]:
    """An entry's citation and the base words that place it: its 出文, else the words its first clause quotes."""
    where, words = line.split("　", 1)
    found = re.match(r"(?:〔.+?〕)?「[^」]*」(?:至「[^」]*」)?，", words) or re.search(
        r"「[^」]*」[下上]有|無「[^」]*」|闕「[^」]*」|有此「[^」]*」", words
    )
    layer = re.match(r"〔.+?〕", words)
    return where, (layer.group(0) if layer else "") + (found.group(0) if found else words)


def test_sheyi_entries_can_each_be_found_on_their_line(sheyi: list[str]) -> None:
    """No two entries cite one line with the same 出文 (as 「曰」 twice on 頁062-8a行8 once did)."""
    places = [_placed_by(line) for line in sheyi if re.match(r"頁|第", line)]
    assert len(places) > 100
    assert [p for p in places if places.count(p) > 1] == []


def test_default_project_entries_and_headings_are_each_found_once() -> None:
    """The 投壺 the base quotes twice (主人曰枉矢哨壶不…) is headed by each passage's ends."""
    run = run_default_project()
    lines = entries(run.collation, run.read.by_siglum())
    places = [_placed_by(line) for line in lines if re.match(r"頁|第", line)]
    headings = [line for line in lines if line.startswith("《")]
    assert [p for p in places if places.count(p) > 1] == []
    assert len(headings) > 10 and len(set(headings)) == len(headings)
    assert "《礼记·投壶》「主人曰枉矢哨壶不」至「乐敢固辞」" in headings


@pytest.fixture(scope="module")
def yanli(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """儀禮·燕禮: 注疏本 (base) and the 鄭注本, which has lost two pages (two `# page missing`)."""
    project = shared_project(
        tmp_path_factory.mktemp("yanli"),
        "ZS",
        {
            "ZS": ("yili-yanli-zhushu-kanripo-WYG.txt", "注疏本"),
            "ZZ": ("yili-yanli-zhengzhu-kanripo-SBCK.txt", "鄭注本"),
        },
    )
    run = collate_project(project)
    return list(entries(run.collation, run.read.by_siglum()))


@pytest.mark.parametrize(
    "line",
    [
        "頁006-1a行5　〔注〕鄭注本（頁006-1a行3）無「戒」字。",
        "頁006-37a行6　鄭注本缺頁，無「奠觶右還」至「大夫皆坐」凡一百〇五字（自其頁006-14a起缺二頁）。",
        "頁006-49b行2　鄭注本缺頁，無「曰寡君有」至「辭不得命」凡八十九字（自其頁006-19a起缺二頁）。",
    ],
)
def test_yanli_cites_the_zhengzhu_pages_and_the_pages_it_lost(yanli: list[str], line: str) -> None:
    assert line in yanli


def test_yanli_witnesses_printing_the_same_glyphs_share_one_clause(tmp_path: Path) -> None:
    """鄭注本 as base: where 注疏本 and 集說本 both print 于 (or 已) they share 並, each with its own page."""
    project = shared_project(
        tmp_path,
        "ZZ",
        {
            "ZZ": ("yili-yanli-zhengzhu-kanripo-SBCK.txt", "鄭注本"),
            "ZS": ("yili-yanli-zhushu-kanripo-WYG.txt", "注疏本"),
            "JS": ("yili-jishuo-yanli-kanripo-WYG.txt", "集說本"),
        },
    )
    lines = entries(collate_project(project).collation)
    assert "頁006-15b行4　〔注〕「巳」，注疏本（頁006-40b行2）、集說本（頁006-40a行1）並作「已」（形近）。" in lines
    assert "頁006-5b行6　「干」，注疏本（頁006-16a行3）、集說本（頁006-16a行7）並作「于」。" in lines


def test_one_print_transcribed_twice_is_cited_in_each_transcription_s_glyphs(tmp_path: Path) -> None:
    """儀禮·燕禮: the 鄭注本 and a copy of its file writing 賓 for 賔 share every reading, each in its own glyphs.

    Where the 鄭注本 (here with 賔許 added to its 經 after 公揖卿大夫) has 賔許 that the 注疏本
    lacks, the copy has 賓許: one reading by their keys, two clauses in the 校勘記, never 並有「賔許」.
    """
    from conftest import SHARED

    folder = SHARED / "witnesses"
    zhengzhu = need_shared(folder / "yili-yanli-zhengzhu-kanripo-SBCK.txt").read_text(encoding="utf-8")
    added = zhengzhu.replace("公揖卿大夫乃升就席", "公揖卿大夫賔許乃升就席", 1)
    assert added != zhengzhu
    (tmp_path / "zz.txt").write_text(added, encoding="utf-8")
    (tmp_path / "copy.txt").write_text(added.replace("賔", "賓"), encoding="utf-8")
    witnesses = [
        {"siglum": "ZS", "label": "注疏本", "path": str(need_shared(folder / "yili-yanli-zhushu-kanripo-WYG.txt"))},
        {"siglum": "ZZ", "label": "鄭注本", "path": "zz.txt"},
        {"siglum": "ZX", "label": "新寫本", "path": "copy.txt"},
    ]
    mapping = {"base": "ZS", "gaiji_table": str(need_shared(GAIJI)), "witness": witnesses}
    collation = collate_project(project_from_mapping(mapping, root=tmp_path)).collation
    lines = entries(collation)
    apart = re.compile(r"鄭注本（頁[^）]+）「([^」]+)」下有「賔許」二字，新寫本（頁[^）]+）「\1」下有「賓許」二字")
    assert any(apart.search(line) for line in lines), [line for line in lines if "許" in line]
    # Every other reading the two share is written alike, and shares its clause.
    shared = [r for x in collation.loci() for r in x.variants() if r.cls in SUBSTANTIVE and len(r.sigla) > 1]
    assert len(shared) > 10
    together = [line for line in lines if re.search(r"鄭注本(（[^）]*）)?、新寫本", line)]
    assert len(together) == len([r for r in shared if len({w.text for w in r.witnesses}) == 1])


def test_words_of_another_passage_of_the_witness_are_no_reading_here(tmp_path: Path) -> None:
    """五禮通考 卷163 quotes 射人 in its own order: a fragment of its 注 is never paired with words the
    周禮注疏 has two pages earlier, at the article's opening (令卒 read as 受而, 數 as 之)."""
    project = shared_project(
        tmp_path,
        "SK",
        {
            "SK": ("wuli-tongkao-juan163-kanripo-WYG.txt", "四庫本"),
            "ZS": ("zhouli-zhushu-sheren-kanripo-WYG.txt", "注疏本"),
        },
    )
    lines = entries(collate_project(project).collation)
    assert any("次第不同" in line for line in lines)  # the passages it has elsewhere are still said
    assert not [line for line in lines if "「令卒」" in line or "「數射中」" in line]
    # Nor a few words of the 疏's opening paired by chance with a fragment 五禮通考 quotes much later.
    assert not [line for line in lines if "有治於王王" in line or "「人服不氏」" in line]


def test_what_differs_inside_a_moved_passage_is_each_difference_with_its_place() -> None:
    from builders import norm

    from collate.apparatus.build import _inner
    from collate.apparatus.columns import LayerColumns

    # Inside the passage: 乙 read 戊 (a difference of substance), 己 added after 乙丙, 讓 written 譲
    # (a difference of form: none).
    alignment, witnesses = align_rows({"SK": "甲乙丙-丁讓", "ZS": "甲戊丙己丁譲"})
    cols = LayerColumns(alignment, witnesses, norm())
    assert _inner(cols, 1, range(6)) == (("乙", "戊", "甲"), ("", "己", "乙丙"))
    assert _inner(cols, 1, range(3, 6)) == (("", "己", "乙丙"),)  # the place from before the passage


BASE_28 = "甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉戌亥天地玄黃宇宙"


def _stray_at(rows: dict[str, str], column: int) -> bool:
    from builders import norm

    from collate.apparatus.build import _stray
    from collate.apparatus.columns import LayerColumns
    from collate.apparatus.intervals import Interval

    alignment, witnesses = align_rows(rows)
    cols = LayerColumns(alignment, witnesses, norm())
    token = alignment.columns[column][1]
    assert token is not None
    return _stray(cols, 1, Interval(column, column + 1, []), (token,))


def test_a_word_an_abridging_quoter_keeps_between_long_omissions_is_its_reading() -> None:
    # 甲 … 人 … 宙: the witness's text runs on (its tokens one after another), far only in the columns.
    row = "甲" + "-" * 12 + "人" + "-" * 13 + "宙"
    assert not _stray_at({"SK": BASE_28, "ZS": row}, 13)


def test_words_far_in_the_witness_s_own_order_from_both_sides_are_stray() -> None:
    # The witness reads 人口 at 卯辰, but its 人口 come after 宙 in its own order: paired by chance.
    alignment_row = "甲乙丙丁戊己庚辛壬癸子丑寅人口巳午未申酉戌亥天地玄黃宇宙"
    assert not _stray_at({"SK": BASE_28, "ZS": alignment_row}, 13)  # in its order: its reading
    from builders import norm, plain_witness, tokens_of

    from collate.align.alignment import LayerAlignment
    from collate.apparatus.build import _stray
    from collate.apparatus.columns import LayerColumns
    from collate.apparatus.intervals import Interval

    base = plain_witness("SK", BASE_28)
    other = plain_witness("ZS", BASE_28[:13] + BASE_28[15:] + "人口")
    sk, zs = tokens_of(base), tokens_of(other)
    # 人口 (the witness's last two tokens) placed against 卯辰, the rest in order.
    cells = [*zs[:13], zs[-2], zs[-1], *zs[13:-2]]
    columns = tuple((sk[i], cells[i]) for i in range(len(sk)))
    alignment = LayerAlignment(Layer.JING, ("SK", "ZS"), columns, (), ())
    cols = LayerColumns(alignment, {"SK": base, "ZS": other}, norm())
    assert _stray(cols, 1, Interval(13, 15, []), (zs[-2], zs[-1]))


def test_an_unresolved_entity_is_one_character_counted_and_never_cut() -> None:
    """纂圖互註's &KR0227; (the gaiji table doubts it): one character, as the print has it."""
    text = "&KR0227;音古乱反" + "冠者成人之義" * 3
    assert chars(text) == "「&KR0227;音古乱」至「成人之義」凡二十三字"
    assert quote("&KR0227;音古") == "「&KR0227;音古」"
    assert chars("&KR0227;") == "「&KR0227;」字"
