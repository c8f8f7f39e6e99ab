"""The apparatus builder: loci and reading classes from hand-built alignments."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import align_rows, summary

from collate.align.alignment import Transposition
from collate.apparatus import build_layer

CASES = json.loads((Path(__file__).parent / "data" / "apparatus_cases.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_cases(case: dict[str, Any]) -> None:
    alignment, witnesses = align_rows(case["rows"], case.get("extents"))
    result = build_layer(alignment, witnesses)
    assert [summary(x) for x in result.loci] == case["loci"]
    if "script_differences" in case:
        assert result.script_differences == case["script_differences"]


@pytest.mark.parametrize("case", CASES["cases"], ids=[c["name"] for c in CASES["cases"]])
def test_every_witness_is_accounted_for_once(case: dict[str, Any]) -> None:
    alignment, witnesses = align_rows(case["rows"], case.get("extents"))
    for locus in build_layer(alignment, witnesses).loci:
        assert sorted(locus.sigla) == sorted(alignment.sigla)
        assert locus.lemma_witnesses[0] == "SK"


def test_results_do_not_depend_on_witness_order() -> None:
    rows = {"SK": "请宾射人奉之", "ZS": "请賔射人案之", "WY": "请客射人案-", "MD": "请-射人奉之"}
    alignment, witnesses = align_rows(rows)
    expected = build_layer(alignment, witnesses).loci
    others = list(rows)[1:]
    for seed in range(4):
        random.Random(seed).shuffle(others)
        shuffled, wits = align_rows({"SK": rows["SK"], **{s: rows[s] for s in others}})
        assert [summary(x) for x in build_layer(shuffled, wits).loci] == [summary(x) for x in expected]
        assert [x.id for x in build_layer(shuffled, wits).loci] == [x.id for x in expected]


def test_locus_ranges_and_ids() -> None:
    alignment, witnesses = align_rows({"SK": "比投不释-胜射人奉之", "ZS": "比投不釋筭勝射人案之"})
    added, varied = build_layer(alignment, witnesses).loci
    # The addition stands before base token 4 (胜): an empty base range there.
    assert (added.base_start, added.base_end, added.col_start, added.col_end) == (4, 4, 4, 5)
    assert (varied.base_start, varied.base_end, varied.col_start, varied.col_end) == (7, 8, 8, 9)
    assert (added.id, varied.id) == ("jing-00004", "jing-00007")


def test_ids_are_stable_when_another_locus_appears() -> None:
    before, wits = align_rows({"SK": "射人奉之者也", "ZS": "射人奉之者矣"})
    after, wits2 = align_rows({"SK": "射人奉之者也", "ZS": "射人案之者矣"})
    assert [x.id for x in build_layer(before, wits).loci] == ["jing-00005"]
    assert [x.id for x in build_layer(after, wits2).loci] == ["jing-00002", "jing-00005"]


def test_readings_carry_provenance() -> None:
    alignment, witnesses = align_rows({"SK": "主人请曰某有枉矢哨壶", "ZS": "主人請曰某有枉矢峭壺"}, lines=2)
    (locus,) = build_layer(alignment, witnesses).loci
    lemma, reading = locus.lemma, locus.readings[0].witnesses[0]
    assert (lemma.location and str(lemma.location)) == "SK.txt:2:4 (p. 1a)"
    assert reading.location is not None and (reading.location.line, reading.location.column) == (2, 4)
    assert [t.t for t in reading.tokens] == ["峭"] and reading.tokens[0].witness == "ZS"


def test_omission_is_located_where_the_text_would_be() -> None:
    alignment, witnesses = align_rows({"SK": "既脱屦升坐", "ZS": "既脫-升坐"})
    (locus,) = build_layer(alignment, witnesses).loci
    omitted = locus.readings[0].witnesses[0]
    assert omitted.text == "" and omitted.tokens == ()
    assert omitted.location is not None and omitted.location.column == 3  # just after 脫


def test_transposition() -> None:
    # ZS reads 曰请 for 请曰: the aligner puts its tokens at the base's place and reports the move.
    sk = "主人请曰某"
    alignment, witnesses = align_rows({"SK": sk, "ZS": "主人曰请某"}, transpositions=(Transposition("ZS", 2, 4, 2, 4),))
    zs_tokens = [c[1] for c in alignment.columns]
    columns = tuple((c[0], zs_tokens[i]) for i, c in zip([0, 1, 3, 2, 4], alignment.columns, strict=True))
    alignment = replace(alignment, columns=columns)
    (locus,) = build_layer(alignment, witnesses).loci
    assert locus.lemma.text == "请曰" and (locus.base_start, locus.base_end) == (2, 4)
    assert summary(locus)[1:] == ["transposition", [[["ZS"], "曰请", "transposition", None]]]


def test_coverage_names_the_first_and_last_extant_place() -> None:
    alignment, witnesses = align_rows({"SK": "主人请曰某有枉矢", "ZS": "主人請曰----"}, {"ZS": [0, 3]}, lines=2)
    result = build_layer(alignment, witnesses)
    sk, zs = result.coverage_of("SK"), result.coverage_of("ZS")
    assert sk is not None and zs is not None
    assert (str(sk.first), str(sk.last), sk.tokens) == ("SK.txt:1:1 (p. 1a)", "SK.txt:2:4 (p. 1a)", 8)
    assert (str(zs.first), str(zs.last), zs.tokens) == ("ZS.txt:1:1 (p. 1a)", "ZS.txt:2:2 (p. 1a)", 4)


def test_a_difference_in_form_beside_a_substantive_one_is_an_entry_of_its_own() -> None:
    """算 for 筭 beside 追 for 退: two entries (orthographic, substantive), not one substantive 「筭退」."""
    alignment, witnesses = align_rows({"SK": "射筭退之", "ZS": "射算追之"})
    loci = build_layer(alignment, witnesses).loci
    assert [(x.lemma.text, x.cls.value) for x in loci] == [("筭", "orthographic"), ("退", "substantive")]


def test_a_witness_agreeing_in_between_does_not_cut_another_witness_s_omission() -> None:
    """ZS omits 射筭退之; WY differs only in form, at 筭: ZS's omission stays one entry."""
    alignment, witnesses = align_rows({"SK": "君射筭退之也", "ZS": "君----也", "WY": "君射算退之也"})
    loci = build_layer(alignment, witnesses).loci
    assert [(x.lemma.text, x.col_start, x.col_end) for x in loci] == [("射筭退之", 1, 5)]


def test_an_omission_beside_a_different_character_stays_one_entry() -> None:
    """「射人」 read 「案」: one substitution of two characters by one, not a substitution and an omission."""
    alignment, witnesses = align_rows({"SK": "奉射人之", "ZS": "奉案-之"})
    loci = build_layer(alignment, witnesses).loci
    assert [x.lemma.text for x in loci] == ["射人"]


@pytest.mark.parametrize(
    "rows",
    [
        {"SK": "射人奉之", "ZS": "射奉人之"},  # aligned as two substitutions
        {"SK": "射人-奉之", "ZS": "射-奉人之"},  # aligned as an omission, then an addition
        {"SK": "射-奉人之", "ZS": "射人奉-之"},  # an addition, then an omission
        {"SK": "射-賓人之", "ZS": "射人賔-之"},  # with another form between (鄉射 read 射郷)
    ],
)
def test_two_characters_in_the_other_order_are_one_transposition(rows: dict[str, str]) -> None:
    """熊虎 for 虎熊 (周禮·射人, 注): one 倒文 entry with the witness's order, never an addition and an omission."""
    alignment, witnesses = align_rows(rows)
    loci = build_layer(alignment, witnesses).loci
    assert len(loci) == 1
    (reading,) = loci[0].readings
    assert reading.cls.value == "transposition"
    assert reading.witnesses[0].text == rows["ZS"].replace("-", "")[1:3]


def test_the_same_characters_lacking_and_added_far_apart_are_not_a_transposition() -> None:
    """人 lacking here and added six agreeing characters later is two entries (a formula repeats)."""
    alignment, witnesses = align_rows({"SK": "射人奉之者也大夫-士", "ZS": "射-奉之者也大夫人士"})
    loci = build_layer(alignment, witnesses).loci
    assert [x.cls.value for x in loci] == ["omission", "addition"]


def _in_units(rows: dict[str, str], units: str) -> tuple[Any, Any]:
    """``align_rows`` with each column's tokens in the base unit ``units[i]`` (a digit)."""
    alignment, witnesses = align_rows(rows)
    columns = tuple(
        tuple(None if t is None else replace(t, unit=int(units[i])) for t in col)
        for i, col in enumerate(alignment.columns)
    )
    return replace(alignment, columns=columns), witnesses


def test_an_entry_never_runs_from_one_unit_of_the_base_into_the_next() -> None:
    """今文錫為緆 | 筵席也 (two 注 of 燕禮): a difference at the end of one and the start of the next are two."""
    alignment, witnesses = _in_units({"SK": "射人奉之", "ZS": "射入捧之"}, "0011")
    loci = build_layer(alignment, witnesses).loci
    assert [x.lemma.text for x in loci] == ["人", "奉"]


def test_a_lack_across_units_stays_one_entry() -> None:
    """「A」至「B」 lacking over two units is one omission."""
    alignment, witnesses = _in_units({"SK": "射人奉之也", "ZS": "射--之也"}, "00111")
    loci = build_layer(alignment, witnesses).loci
    assert [(x.lemma.text, x.cls.value) for x in loci] == [("人奉", "omission")]


def test_an_entry_never_runs_from_one_unit_of_a_witness_into_the_next() -> None:
    """A 集說 quoting two notes of 鄭注 apart: a difference at the end of one and the start of the next are two."""
    alignment, witnesses = align_rows({"SK": "射人奉之", "JS": "射入持之"})
    units = "0011"  # the witness's units; the base's all 0
    columns = tuple(
        (col[0], None if col[1] is None else replace(col[1], unit=int(units[i])))
        for i, col in enumerate(alignment.columns)
    )
    loci = build_layer(replace(alignment, columns=columns), witnesses).loci
    assert [x.lemma.text for x in loci] == ["人", "奉"]
    # In one unit of each, the two differences are one entry.
    assert [x.lemma.text for x in build_layer(alignment, witnesses).loci] == ["人奉"]
