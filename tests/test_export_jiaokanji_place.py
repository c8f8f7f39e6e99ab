"""The 校勘記's 出文 can be found on the line it cites: the fewest words unique there, within the layer.

Witnesses are built as data (the first is the base) and the 校勘記 is written with the witnesses as
read, which is what tells the printed lines; ``entries(collation)`` alone (no lines known) keeps the
lemma as it is.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import NamedTuple

import pytest
from builders import collate, layered

from collate.apparatus import Collation
from collate.exporters.jiaokanji import entries
from collate.exporters.jiaokanji.passages import passage_headings
from collate.model import Layer, MarkKind, Span, Witness
from collate.model.annotations import DecisionAction, EditorDecision

J, Z = Layer.JING, Layer.ZHU
Parts = tuple[tuple[Layer | None, str], ...]


def _collated(base: Parts, witness: Parts, *, pages: bool = True) -> tuple[Collation, dict[str, Witness]]:
    """四庫本 (the base, page 1a) against 注疏本 (page 7b), 經 and 注; without pages, both plain e-texts."""
    sk = layered("SK", base, label="四庫本")
    zs = layered("ZS", witness, label="注疏本", page="7b")
    if not pages:
        # A plain e-text: no printed pages, so its file's lines are the only places.
        sk, zs = (replace(w, marks=tuple(m for m in w.marks if m.kind is not MarkKind.PAGE)) for w in (sk, zs))
    layers = sorted({layer for layer, _ in base if layer is not None}, key=list(Layer).index)
    return collate([sk, zs], layers=layers)


class Case(NamedTuple):
    """The base's parts and the witness's, and the 校勘記's lines with the lines known."""

    base: Parts
    witness: Parts
    expected: tuple[str, ...]
    pages: bool = True


CASES = {
    # 九十曰旄百年曰期: 「曰」 would fit both; each entry quotes its next character too.
    "one character twice on a line, a variant at both": Case(
        ((J, "九十曰旄百年曰期"),),
        ((J, "九十日旄百年日期"),),
        (
            "頁1a行1　「曰旄」，注疏本（頁7b行1）「曰」作「日」（形近）。",
            "頁1a行1　「曰期」，注疏本（頁7b行1）「曰」作「日」（形近）。",
        ),
    ),
    "a lemma unique on its line is quoted alone": Case(
        ((J, "请以乐宾"),),
        ((J, "請以樂客"),),
        ("頁1a行1　「宾」，注疏本（頁7b行1）作「客」。",),
    ),
    "the same character on two lines is unique on each": Case(
        ((J, "九十曰旄"), (None, "\n"), (J, "百年曰期")),
        ((J, "九十日旄"), (None, "\n"), (J, "百年日期")),
        (
            "頁1a行1　「曰」，注疏本（頁7b行1）作「日」（形近）。",
            "頁1a行2　「曰」，注疏本（頁7b行2）作「日」（形近）。",
        ),
    ),
    "a plain e-text's line is its file's line": Case(
        ((J, "九十曰旄百年曰期"),),
        ((J, "九十日旄百年曰期"),),
        ("第1行　「曰旄」，注疏本「曰」作「日」（形近）。",),
        pages=False,
    ),
    # The neighbour on the right (曰旄) would fit: the left is taken only where the right does not.
    "neighbours on the left where those on the right recur": Case(
        ((J, "甲曰乙丙曰乙"),),
        ((J, "甲曰乙丙日乙"),),
        ("頁1a行1　「丙曰」，注疏本（頁7b行1）「曰」作「日」（形近）。",),
    ),
    # 無「曰」字 shows no lemma: where 曰 recurs, the entry is headed by the words that place it.
    "an omission of a character that recurs": Case(
        ((J, "九十曰旄百年曰期"),),
        ((J, "九十旄百年曰期"),),
        ("頁1a行1　「曰旄」，注疏本（頁7b行1）無「曰」字。",),
    ),
    "an omission of a character that does not recur": Case(
        ((J, "主人曰敢固以请"),),
        ((J, "主人曰敢以請"),),
        ("頁1a行1　注疏本（頁7b行1）無「固」字。",),
    ),
    # 「甲乙」 stands twice: the anchor grows to the left, as 「X」下 must end where the addition is.
    "an addition's anchor grows to the left": Case(
        ((J, "丙甲乙丁甲乙戊"),),
        ((J, "丙甲乙丁甲乙己戊"),),
        ("頁1a行1　注疏本（頁7b行1）「丁甲乙」下有「己」字。",),
    ),
    "an addition at the line's start is placed by the words after it": Case(
        ((J, "甲乙丙甲乙丁"),),
        ((J, "甲乙戊丙甲乙丁"),),
        ("頁1a行1　注疏本（頁7b行1）「丙甲」上有「戊」字。",),
    ),
    "an addition whose anchor is unique keeps its two characters": Case(
        ((J, "主人曰敢固以请"),),
        ((J, "主人也曰敢固以請"),),
        ("頁1a行1　注疏本（頁7b行1）「主人」下有「也」字。",),
    ),
    # The 注 after 九曰 is not the 經's: 「曰乙」 (its 經 before and after the 注) is no phrase of the print.
    "never across another layer": Case(
        ((J, "九曰"), (Z, "注曰文"), (J, "乙曰丙")),
        ((J, "九日"), (Z, "注曰文"), (J, "乙曰丙")),
        ("頁1a行1　「九曰」，注疏本（頁7b行1）「曰」作「日」（形近）。",),
    ),
    # A marker word (疏) parts the words around it; a sign of the layout (the column's /) does not.
    "a marker word parts a phrase": Case(
        ((J, "甲曰"), (None, "疏"), (J, "乙曰甲")),
        ((J, "甲日"), (None, "疏"), (J, "乙曰甲")),
        ("頁1a行1　「甲曰」，注疏本（頁7b行1）「曰」作「日」（形近）。",),
    ),
    "a column break does not": Case(
        ((J, "甲曰"), (None, "/"), (J, "乙曰甲")),
        ((J, "甲日"), (None, "/"), (J, "乙曰甲")),
        ("頁1a行1　「曰乙」，注疏本（頁7b行1）「曰」作「日」（形近）。",),
    ),
    # 「裘裘」 would not say which 裘 its 「裘」作 means.
    "a phrase holds the lemma once": Case(
        ((J, "之裘裘名也裘"),),
        ((J, "之䘮裘名也裘"),),
        ("頁1a行1　「之裘」，注疏本（頁7b行1）「裘」作「䘮」。",),
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_cases(case: Case) -> None:
    collation, witnesses = _collated(case.base, case.witness, pages=case.pages)
    assert tuple(entries(collation, witnesses)) == case.expected


def _line(case: Case) -> str:
    """The base's 經 on the case's one line."""
    return "".join(text for layer, text in case.base if layer is J)


@pytest.mark.parametrize(
    "name",
    ["one character twice on a line, a variant at both", "neighbours on the left where those on the right recur"],
)
def test_each_quotation_is_the_shortest_unique_one(name: str) -> None:
    """No shorter stretch around the lemma occurs once on the line; the quoted one does, and the entries differ."""
    case = CASES[name]
    collation, witnesses = _collated(case.base, case.witness)
    lines = entries(collation, witnesses)
    assert len(set(lines)) == len(lines)
    text = _line(case)
    for line, locus in zip(lines, collation.loci(), strict=True):
        found = re.search(r"　「([^」]+)」，", line)
        assert found is not None, line
        quoted, lemma = found.group(1), (locus.base_start, locus.base_end)
        assert text.count(quoted) == 1
        start = text.index(quoted)
        assert start <= lemma[0] and lemma[1] <= start + len(quoted)
        shorter = [
            text[i:j]
            for i in range(lemma[0] + 1)
            for j in range(lemma[1], len(text) + 1)
            if j - i < len(quoted) and text.count(text[i:j]) == 1
        ]
        assert shorter == []


def test_without_the_lines_the_lemma_is_quoted_alone() -> None:
    """A collation alone says no printed line: its 校勘記 reads as it always has."""
    collation, _ = _collated(((J, "九十曰旄百年曰期"),), ((J, "九十日旄百年日期"),))
    assert entries(collation) == ["頁1a行1　「曰」，注疏本（頁7b行1）作「日」（形近）。"] * 2


def test_a_decision_names_what_it_replaces_within_the_quotation() -> None:
    collation, witnesses = _collated(((J, "九十曰旄百年曰期"),), ((J, "九十日旄百年曰期"),))
    (layer,) = collation.layers
    (locus,) = layer.loci
    adopt = EditorDecision(
        (DecisionAction.ADOPT,), ("王",), "2026-01-01T00:00:00+00:00", "日", adopted="日", siglum="ZS"
    )
    decided = collation.with_layer(layer.with_loci((locus.with_decision(adopt),)))
    (line,) = entries(decided, witnesses)
    assert line.endswith("「曰旄」，注疏本（頁7b行1）「曰」作「日」（形近）。今從注疏本改「曰」作「日」。")


# --- passage headings ------------------------------------------------------------------------------------

TITLE = "礼记投壶"


def _compilation(*passages: str) -> Witness:
    """A compilation quoting 《礼记·投壶》: a run-in title, then each passage's 經 followed by a 注."""
    text, spans = TITLE, [Span(0, len(TITLE), Layer.HEADING, work=TITLE)]
    for k, words in enumerate(passages):
        for layer, chunk in ((J, words), (Z, "注文")):
            spans.append(Span(len(text), len(text) + len(chunk), layer, 2 * k + 1, work=TITLE))
            text += chunk
    return Witness("SK", "四庫本", "SK.txt", text, "plain", spans=tuple(spans))


def test_passages_opening_alike_are_headed_by_both_ends() -> None:
    """五禮通考 quotes 主人曰枉矢哨壺不足辭也… twice: each heading ends where its passage does."""
    base = _compilation(
        "主人曰枉矢哨壶不足辞也敢固以请宾曰某既赐矣又重以乐敢固辞",
        "主人曰枉矢哨壶不足辞也敢固以请宾曰某固辞不得命敢不敬从",
        "宾再拜受主人般还曰辟",
    )
    assert [h.text for h in passage_headings(base)] == [
        "《礼记·投壶》「主人曰枉矢哨壶不」至「乐敢固辞」",
        "《礼记·投壶》「主人曰枉矢哨壶不」至「敢不敬从」",
        "《礼记·投壶》「宾再拜受主人般还」",
    ]


def test_passage_ends_grow_until_they_differ() -> None:
    """Passages ending alike in their last four characters are told apart by more; a short one is quoted whole."""
    base = _compilation("主人曰枉矢哨壶不足甲乙丙丁戊", "主人曰枉矢哨壶不足己乙丙丁戊", "主人曰枉矢哨壶不足")
    assert [h.text for h in passage_headings(base)] == [
        "《礼记·投壶》「主人曰枉矢哨壶不」至「甲乙丙丁戊」",
        "《礼记·投壶》「主人曰枉矢哨壶不」至「己乙丙丁戊」",
        "《礼记·投壶》「主人曰枉矢哨壶不足」",
    ]
