"""The apparatus builder: loci and reading classes from hand-built alignments."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import align_rows, sparse_witness, t2s

from collate.alignment import Transposition
from collate.apparatus import (
    CAUSE_TABOO,
    Collation,
    Locus,
    ReadingClass,
    WitnessInfo,
    apply_sparse,
    build_layer,
    strongest,
)
from collate.model import Change, ChangeClass, Layer
from collate.notes.records import AttachedNote

CASES = json.loads((Path(__file__).parent / "data" / "apparatus_cases.json").read_text(encoding="utf-8"))


def summary(locus: Locus) -> list[Any]:
    """A locus as the cases file writes it."""
    return [
        locus.lemma.text,
        locus.cls.value,
        [[list(r.sigla), r.text, r.cls.value, r.cause] for r in locus.readings],
    ]


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


def test_orthographic_reading_names_its_rules() -> None:
    alignment, witnesses = align_rows({"SK": "郑元注宾", "ZS": "鄭玄注賔"})
    taboo, variant = build_layer(alignment, witnesses).loci
    assert (taboo.readings[0].cause, taboo.readings[0].rules) == (CAUSE_TABOO, ("taboo",))
    assert variant.readings[0].rules == ("variant-graph",)


def test_sparse_substitution_given_in_traditional_characters() -> None:
    alignment, witnesses = align_rows({"SK": "某有枉矢哨壶请以乐宾", "ZS": "某有枉矢哨壺請以樂賓"})
    dd = sparse_witness(("枉矢哨壺", "哨", "峭", ""))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    (locus,) = result.loci
    assert locus.lemma.text == "哨" and locus.lemma_witnesses == ("SK", "ZS")
    (reading,) = locus.readings
    assert (reading.sigla, reading.text, reading.cls, reading.derived, reading.source) == (
        ("DD",),
        "峭",
        ReadingClass.SUBSTANTIVE,
        True,
        "蕙田案",
    )
    assert reading.witnesses[0].location is not None and str(reading.witnesses[0].location) == "dd.toml:1:1"
    assert result.sparse == ("DD",) and result.sigla == ("SK", "ZS", "DD")


def test_sparse_addition_omission_and_silence_elsewhere() -> None:
    alignment, witnesses = align_rows({"SK": "比投不释胜一马从二马射人奉之", "ZS": "比投不釋勝一馬從二馬射人案之"})
    dd = sparse_witness(("比投不释", "", "算", "after"), ("一马从二马", "一马从二马", "", ""))
    result = apply_sparse(build_layer(alignment, witnesses), dd, witnesses)
    added, lacked, varied = result.loci
    assert (added.base_start, added.base_end, added.lemma.text) == (4, 4, "")
    assert summary(added)[1:] == ["addition", [[["DD"], "算", "addition", None]]]
    assert summary(lacked) == ["一马从二马", "omission", [[["DD"], "", "omission", None]]]
    # Elsewhere the sparse witness is silent: neither a reading nor an agreeing witness.
    assert "DD" not in varied.sigla and summary(varied)[2] == [[["ZS"], "案", "substantive", None]]


def test_sparse_reading_widens_an_overlapping_locus_and_stays_apart_from_full_texts() -> None:
    alignment, witnesses = align_rows({"SK": "司正司射庭长", "ZS": "司正司馬庭長"})
    dd = sparse_witness(("司正司射", "正司射", "正司馬", ""))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    (locus,) = result.loci
    assert locus.lemma.text == "正司射"
    zs, dd_reading = locus.readings
    # Same words as ZS, yet a derived reading is never merged with a collated full text.
    assert (zs.sigla, zs.text, zs.derived) == (("ZS",), "正司馬", False)
    assert (dd_reading.sigla, dd_reading.text, dd_reading.derived) == (("DD",), "正司馬", True)


def test_sparse_addition_joins_an_addition_at_the_same_place() -> None:
    alignment, witnesses = align_rows({"SK": "比投不释-胜", "ZS": "比投不釋筭勝"})
    dd = sparse_witness(("比投不释", "", "算", "after"))
    (locus,) = build_layer(alignment, {**witnesses, "DD": dd}).loci
    assert summary(locus) == ["", "addition", [[["ZS"], "筭", "addition", None], [["DD"], "算", "addition", None]]]


def test_sparse_addition_at_the_end_and_past_a_fragment() -> None:
    alignment, witnesses = align_rows(
        {"SK": "射人奉之右投壶", "ZS": "射人奉之---", "WY": "射人奉之右投壺"}, {"ZS": [0, 3]}
    )
    dd = sparse_witness(("投壶", "", "终则复始", "after"))
    (locus,) = build_layer(alignment, {**witnesses, "DD": dd}).loci
    assert (locus.base_start, locus.base_end, locus.col_start, locus.col_end) == (7, 7, 7, 7)
    assert locus.lemma.text == "" and locus.lemma_witnesses == ("SK", "WY")
    assert summary(locus)[2] == [[["DD"], "终则复始", "addition", None], [["ZS"], "", "not_extant", None]]


def test_unplaceable_sparse_entries_become_diagnostics() -> None:
    alignment, witnesses = align_rows({"SK": "射人奉之射人", "ZS": "射人奉之射人"})
    dd = sparse_witness(("投壶之令", "", "奏", "before"), ("射人", "人", "士", ""))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    codes = sorted((d.diagnostic.code, d.diagnostic.severity.value) for d in result.diagnostics)
    assert codes == [("sparse-ambiguous", "info"), ("sparse-unplaced", "warning")]
    assert all(d.siglum == "DD" and d.location is not None for d in result.diagnostics)
    (locus,) = result.loci  # the ambiguous one is placed at its first occurrence
    assert (locus.base_start, locus.readings[0].text) == (1, "士")


def test_applying_a_sparse_witness_twice_replaces_it() -> None:
    alignment, witnesses = align_rows({"SK": "某有枉矢哨壶", "ZS": "某有枉矢哨壺"})
    dd = sparse_witness(("哨壶", "哨", "峭", ""))
    once = build_layer(alignment, {**witnesses, "DD": dd})
    assert apply_sparse(once, dd, witnesses) == once


def test_immutable_helpers() -> None:
    alignment, witnesses = align_rows({"SK": "射人奉之", "ZS": "射人案之"})
    result = build_layer(alignment, witnesses)
    collation = Collation("投壺", "touhu", "SK", (WitnessInfo("SK", "四庫本", "SK.txt", "plain"),), (result,))
    locus = result.loci[0]
    note = AttachedNote("an-1", "QinHuitian", "蕙田案…", None, ("ZS reads 案 for 奉",))
    updated = collation.with_locus(locus.with_notes((note,)))
    assert locus.notes == () and collation.locus(locus.id) == locus
    assert (found := updated.locus(locus.id)) is not None and found.notes == (note,)
    scribal = locus.with_readings((locus.readings[0].reclassified(ReadingClass.SCRIBAL_ERROR, "haplography"),))
    assert scribal.cls is ReadingClass.SCRIBAL_ERROR and scribal.readings[0].cause == "haplography"
    assert strongest(()) is ReadingClass.NOT_EXTANT
    emptied = collation.with_layer(result.with_loci(()))
    assert emptied.layer(Layer.JING) == replace(result, loci=()) and collation.layer(Layer.JING) == result


def test_coverage_names_the_first_and_last_extant_place() -> None:
    alignment, witnesses = align_rows({"SK": "主人请曰某有枉矢", "ZS": "主人請曰----"}, {"ZS": [0, 3]}, lines=2)
    result = build_layer(alignment, witnesses)
    sk, zs = result.coverage_of("SK"), result.coverage_of("ZS")
    assert sk is not None and zs is not None
    assert (str(sk.first), str(sk.last), sk.tokens) == ("SK.txt:1:1 (p. 1a)", "SK.txt:2:4 (p. 1a)", 8)
    assert (str(zs.first), str(zs.last), zs.tokens) == ("ZS.txt:1:1 (p. 1a)", "ZS.txt:2:2 (p. 1a)", 4)


def test_the_normalizers_script_rule_counts_as_script() -> None:
    # 馀/餘: OpenCC gives 余 for 餘, so only the normalizer's curated script rule folds them.
    alignment, witnesses = align_rows({"SK": "其馀", "ZS": "其餘"})
    zs = alignment.columns[1][1]
    assert zs is not None and t2s("馀") != t2s("餘")
    script = (Change("script", "餘", "馀", ChangeClass.ORTHOGRAPHIC),)
    columns = (alignment.columns[0], (alignment.columns[1][0], replace(zs, n="馀", changes=script)))
    result = build_layer(replace(alignment, columns=columns), witnesses)
    assert result.loci == () and result.script_differences == 1


def test_summary_view_counts_loci_by_class_per_witness() -> None:
    from rich.console import Console

    from collate.views.summary import class_counts, summary_view

    alignment, witnesses = align_rows(
        {"SK": "主人请曰某有枉矢哨壶", "ZS": "主人請曰某有曲矢--", "WY": "主人请曰某有枉矢峭壶"},
        {"ZS": [0, 7]},
        lines=2,
    )
    dd = sparse_witness(("哨壶", "哨", "峭", ""), ("无此句", "", "也", "after"))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    assert class_counts(result, "SK") == {ReadingClass.SUBSTANTIVE: 2}
    assert class_counts(result, "ZS") == {ReadingClass.SUBSTANTIVE: 1, ReadingClass.NOT_EXTANT: 1}
    collation = Collation("投壺", "touhu", "SK", (WitnessInfo("SK", "四庫本", "SK.txt", "plain"),), (result,))
    console = Console(record=True, width=200, color_system=None)
    console.print(summary_view(collation))
    lines = console.export_text().splitlines()
    zs = next(line for line in lines if " ZS " in line)
    assert "p. 1a (1:1)" in zs and "p. 1a (2:4)" in zs and " 8 " in zs
    assert "SK (base)" in "".join(lines) and "四庫本" in "".join(lines)
    dd_row = next(line for line in lines if " DD " in line)
    assert "sparse" in dd_row and "1 placed" in dd_row
    assert any("1 column differs only by script" in line for line in lines)
    assert any("not found in the base text [sparse-unplaced]" in line for line in lines)


def test_overlapping_entries_of_two_sparse_witnesses_are_reported_once_each() -> None:
    alignment, witnesses = align_rows({"SK": "堂下司正司射庭长", "ZS": "堂下司正司射庭長"})
    dd = sparse_witness(("司正司射", "司射", "司馬", ""), ("司射庭长", "射庭", "射", ""))
    ee = replace(dd, siglum="EE", path="ee.toml")
    result = build_layer(alignment, {**witnesses, "DD": dd, "EE": ee})
    found = [(d.siglum, d.diagnostic.code) for d in result.diagnostics]
    assert sorted(found) == [("DD", "sparse-overlap"), ("EE", "sparse-overlap")]
    (locus,) = result.loci
    assert locus.lemma.text == "司射庭" and result.sparse == ("DD", "EE")
    assert [(r.sigla, r.text, r.derived) for r in locus.readings] == [
        (("DD",), "司馬庭", True),
        (("EE",), "司馬庭", True),
    ]


def test_the_normalizer_relates_characters_whose_keys_differ() -> None:
    # 罷/疲 is a 通假 pair (a loan, noted); 着/著 one character in two scripts (no variant);
    # 已/己 a reading a collator must see (never related).
    alignment, witnesses = align_rows({"SK": "主罷人着之已也", "ZS": "主疲人著之己也"})
    loci = build_layer(alignment, witnesses).loci
    assert [summary(x) for x in loci] == [
        ["罷", "loan", [[["ZS"], "疲", "loan", "loan"]]],
        ["已", "substantive", [[["ZS"], "己", "substantive", None]]],
    ]
    assert loci[0].readings[0].rules == ("loan",)
    assert build_layer(alignment, witnesses).script_differences == 1


def test_placing_readings_looks_up_each_phrase_instead_of_scanning_the_base(monkeypatch: pytest.MonkeyPatch) -> None:
    from scan_support import Visits, long_text

    import collate.alignment

    base, _ = long_text(100)
    alignment, witnesses = align_rows({"SK": base, "ZS": base})
    dd = sparse_witness(*((base[k : k + 4], base[k + 1], "峭", "") for k in range(0, len(base), 20)))
    real = collate.alignment.index_tokens
    built: list[Visits] = []

    def spy(columns: Any, j: int) -> Any:
        index = real(columns, j)
        built.append(Visits(index.tokens))
        return replace(index, tokens=built[-1])

    monkeypatch.setattr(collate.alignment, "index_tokens", spy)
    result = build_layer(alignment, {**witnesses, "DD": dd})
    assert sum(1 for x in result.loci if x.reading_of("DD") is not None) == len(dd.readings) == 30
    # One index of the base for the layer; each entry reads only the places its phrase can
    # stand (scanning the whole base per entry would read 30 × 600 tokens).
    (tokens,) = built
    assert tokens.visited <= 2 * len(base)
