"""A readings file's entries placed in the base text, and the readings derived from them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from builders import align_rows, plain_witness, sparse_witness, summary

from collate.align.alignment import LayerAlignment
from collate.apparatus import ReadingClass, apply_sparse, build_layer
from collate.model import Layer
from collate.normalize import Normalizer
from collate.normalize.tokenize import tokenize

NORMALIZER = Normalizer()


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


def test_placing_readings_looks_up_each_phrase_instead_of_scanning_the_base(monkeypatch: pytest.MonkeyPatch) -> None:
    from scan_support import Visits, long_text

    import collate.align.alignment

    base, _ = long_text(100)
    alignment, witnesses = align_rows({"SK": base, "ZS": base})
    dd = sparse_witness(*((base[k : k + 4], base[k + 1], "峭", "") for k in range(0, len(base), 20)))
    real = collate.align.alignment.index_tokens
    built: list[Visits] = []

    def spy(columns: Any, j: int) -> Any:
        index = real(columns, j)
        built.append(Visits(index.tokens))
        return replace(index, tokens=built[-1])

    monkeypatch.setattr(collate.align.alignment, "index_tokens", spy)
    result = build_layer(alignment, {**witnesses, "DD": dd})
    assert sum(1 for x in result.loci if x.reading_of("DD") is not None) == len(dd.readings) == 30
    # One index of the base for the layer; each entry reads only the places its phrase can
    # stand (scanning the whole base per entry would read 30 × 600 tokens).
    (tokens,) = built
    assert tokens.visited <= 2 * len(base)


def test_a_phrase_in_either_script_is_found_though_simplification_merged_its_characters() -> None:
    # The readings file writes 然后 (simplified, from a simplified note); the base reads 然後: one
    # phrase for finding the place, though 後 and 后 are two keys in the apparatus.
    rows = {"ZS": "射然後可以言中", "ZT": "射然後可以言仲"}
    witnesses = {s: plain_witness(s, text) for s, text in rows.items()}
    streams = [tokenize(w, Layer.JING, NORMALIZER) for w in witnesses.values()]
    alignment = LayerAlignment(Layer.JING, tuple(rows), tuple(zip(*streams, strict=True)))
    dd = sparse_witness(("然后可以", "以", "已", ""))
    result = build_layer(alignment, {**witnesses, "DD": dd}, NORMALIZER)
    assert [(x.lemma.text, [r.sigla for r in x.readings]) for x in result.loci] == [
        ("以", [("DD",)]),
        ("中", [("ZT",)]),
    ]
    assert not result.diagnostics
