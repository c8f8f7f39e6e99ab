"""The alignment engine: columns, extents, transpositions, order independence, determinism."""

from __future__ import annotations

import hashlib
import os
import random
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import opencc
import pytest
from builders import norm, seed_chars, text_tokens, tokens_from_string, witness_set
from hypothesis import given, settings
from hypothesis import strategies as st

from collate.align.alignment import LayerAlignment
from collate.align.engine import align_layer
from collate.align.pairwise import AlignOptions
from collate.apparatus import ReadingClass
from collate.model import Layer, Token
from collate.pipeline import collate_project
from collate.project import project_from_mapping


def rows(al: LayerAlignment) -> dict[str, list[str]]:
    """Each witness's row as text, '-' for an empty cell."""
    return {s: [cell.t if (cell := col[r]) else "-" for col in al.columns] for r, s in enumerate(al.sigla)}


def partners(al: LayerAlignment, siglum: str) -> dict[int, int | None]:
    """For each base token, the position of the witness's token in its column (or None)."""
    r = al.sigla.index(siglum)
    return {
        first.index: (cell.index if (cell := col[r]) else None) for col in al.columns if (first := col[0]) is not None
    }


def row_text(al: LayerAlignment, siglum: str) -> str:
    return "".join(rows(al)[siglum])


def check_invariants(al: LayerAlignment, streams: Mapping[str, Sequence[Token]]) -> None:
    """Every token in exactly one column, in its witness's own order, except transposed ones,
    which stand at the base's place of their passage (in their own order there); every
    witness's tokens inside its extent."""
    assert set(al.sigla) == set(streams)
    for col in al.columns:
        assert len(col) == len(al.sigla)
        assert any(cell is not None for cell in col)
    for r, s in enumerate(al.sigla):
        placed = [(c, tok) for c, col in enumerate(al.columns) if (tok := col[r]) is not None]
        assert sorted(tok.index for _, tok in placed) == list(range(len(streams[s])))
        assert all(tok.witness == s and al.extent(s).covers(c) for c, tok in placed)
        passage_of = {w: t for t in al.transpositions if t.siglum == s for w in range(t.wit_start, t.wit_end)}
        assert [tok for _, tok in placed if tok.index not in passage_of] == [
            tok for tok in streams[s] if tok.index not in passage_of
        ]
        for t in {t for t in al.transpositions if t.siglum == s}:
            cols = [(c, tok) for c, tok in placed if passage_of.get(tok.index) == t]
            assert [tok.index for _, tok in cols] == list(range(t.wit_start, t.wit_end))
            bases = [base for c, _ in cols if (base := al.columns[c][0]) is not None]
            assert bases and all(t.base_start <= tok.index < t.base_end for tok in bases)


def align(streams: Mapping[str, Sequence[Token]], base: str, **options: Any) -> LayerAlignment:
    al = align_layer(Layer.JING, streams, base, options=AlignOptions(**options))
    check_invariants(al, streams)
    return al


def test_variants_omissions_additions_in_their_columns() -> None:
    t2s = opencc.OpenCC("t2s").convert
    streams = {
        "SK": tokens_from_string("SK", "投壶之礼主人奉矢司射奉中"),
        "ZS": tokens_from_string("ZS", "投壺之禮主奉矢司射案中也", fold=t2s),
    }
    al = align(streams, "SK")
    assert al.sigla == ("SK", "ZS")
    assert row_text(al, "SK") == "投壶之礼主人奉矢司射奉中-"
    # 壺/禮 fold to the base's n: they stand in the base's columns; 人 is omitted; 案 is a
    # variant of 奉; 也 is an addition.
    assert row_text(al, "ZS") == "投壺之禮主-奉矢司射案中也"
    assert al.extent("ZS").first == 0
    assert al.extent("ZS").last == 12
    assert al.transpositions == ()


def test_fragment_is_not_extant_after_its_end() -> None:
    base = seed_chars()[:3000]
    third = base[:1000]
    streams = {"SK": tokens_from_string("SK", base), "ZS": tokens_from_string("ZS", third)}
    al = align(streams, "SK")
    ext = al.extent("ZS")
    assert (ext.first, ext.last) == (0, 999)
    assert ext.first is not None and ext.last is not None
    assert len(al.columns) == 3000
    # Inside its extent the fragment has a token in every column: no omission at all.
    assert all(al.columns[c][1] is not None for c in range(ext.first, ext.last + 1))
    assert not ext.covers(1000)


def test_witness_beginning_later_is_not_extant_before() -> None:
    base = seed_chars()[:3000]
    # Two characters of its own before the text it shares with the base.
    part = "甲乙" + base[1200:2000]
    streams = {"SK": tokens_from_string("SK", base), "X": tokens_from_string("X", part)}
    al = align(streams, "SK")
    ext = al.extent("X")
    first_shared = next(c for c, col in enumerate(al.columns) if col[0] is not None and col[0].index == 1200)
    assert ext.first is not None and first_shared - 2 <= ext.first < first_shared
    assert ext.last == next(c for c, col in enumerate(al.columns) if col[0] is not None and col[0].index == 1999)
    assert all(al.columns[c][1] is not None for c in range(first_shared, ext.last + 1))


def test_transposed_passage_stands_at_the_base_place() -> None:
    base = seed_chars()[:400]
    passage = base[100:112]
    wit = base[:100] + base[112:250] + passage + base[250:]
    streams = {"SK": tokens_from_string("SK", base), "X": tokens_from_string("X", wit)}
    al = align(streams, "SK")
    assert [(t.siglum, t.base_start, t.base_end, t.wit_start, t.wit_end) for t in al.transpositions] == [
        ("X", 100, 112, 238, 250)
    ]
    # No omission at the base's place, no addition at the witness's place: the rows agree.
    assert row_text(al, "X") == row_text(al, "SK") == base
    col = next(c for c, col in enumerate(al.columns) if col[0] is not None and col[0].index == 100)
    assert (cell := al.columns[col][1]) is not None and cell.index == 238


def test_no_transpositions_when_asked() -> None:
    base = seed_chars()[:400]
    wit = base[:100] + base[112:250] + base[100:112] + base[250:]
    streams = {"SK": tokens_from_string("SK", base), "X": tokens_from_string("X", wit)}
    al = align(streams, "SK", min_transposition=None)
    assert al.transpositions == ()
    assert row_text(al, "X").count("-") == 12


def test_placeholders_match_nothing() -> None:
    base = seed_chars()[:300]
    streams = {
        "SK": tokens_from_string("SK", base[:150] + "□" + base[150:]),
        "X": tokens_from_string("X", base[:150] + base[150:] + "□"),
    }
    al = align(streams, "SK")
    base_box = next(c for c, col in enumerate(al.columns) if col[0] is not None and col[0].t == "□")
    assert al.columns[base_box][1] is None
    assert al.columns[-1][0] is None and al.columns[-1][1] is not None and al.columns[-1][1].t == "□"


# 投壺's 疏 in the simplified 四庫本 and in the traditional 注疏本, which lacks 注亦实八算于中横委其馀于中西
# (it reads 亦實八筭 once, and 於中 where the 四庫本 has 于中). 于 and 於 are two comparison keys
# (simplification merged them) but one search key.
SIMPLIFIED_SHU = "兴起其中里亦实八算注亦实八算于中横委其馀于中西此约乡射文实八算于中"
TRADITIONAL_SHU = "興起其中裏亦實八筭此約鄉射文實八筭於中"
OMITTED = "注亦实八算于中横委其馀于中西"


def test_a_merged_form_matches_the_characters_it_stands_for() -> None:
    n = norm()
    assert n.key("於") != n.key("于") and n.loosen(n.key("於")) == n.loosen(n.key("于"))
    streams = {"SK": text_tokens(SIMPLIFIED_SHU, n, "SK"), "ZS": text_tokens(TRADITIONAL_SHU, n, "ZS")}
    al = align_layer(Layer.JING, streams, "SK", loosen=n.loosen)
    check_invariants(al, streams)
    # The print's 亦實八筭 is the first of the two: what it lacks is one run, not two around a 於
    # the aligner could not place.
    assert row_text(al, "ZS") == "興起其中裏亦實八筭" + "-" * len(OMITTED) + "此約鄉射文實八筭於中"
    assert (al.columns[-2][0], al.columns[-2][1]) == (streams["SK"][-2], streams["ZS"][-2])  # 于 and 於


def test_a_run_of_the_pipeline_aligns_on_search_keys(tmp_path: Path) -> None:
    # The apparatus still compares comparison keys: 于 for 於 of a simplified base is script, not listed.
    (tmp_path / "sk.txt").write_text(SIMPLIFIED_SHU + "\n", encoding="utf-8")
    (tmp_path / "zs.txt").write_text(TRADITIONAL_SHU + "\n", encoding="utf-8")
    table = {
        "base": "SK",
        "witness": [
            {"siglum": "SK", "path": "sk.txt", "layout": "plain"},
            {"siglum": "ZS", "path": "zs.txt", "layout": "plain"},
        ],
    }
    run = collate_project(project_from_mapping(table, root=tmp_path))
    loci = run.collation.loci()
    assert [x.lemma.text for x in loci if x.cls is ReadingClass.OMISSION] == [OMITTED]
    assert all(x.cls is ReadingClass.ORTHOGRAPHIC for x in loci if x.cls is not ReadingClass.OMISSION)


def test_additions_at_one_place_are_aligned_with_each_other() -> None:
    streams = {
        "SK": tokens_from_string("SK", "主人奉矢司射奉中"),
        "A": tokens_from_string("A", "主人奉矢也者司射奉中"),
        "B": tokens_from_string("B", "主人奉矢者司射奉中"),
    }
    al = align(streams, "SK")
    assert row_text(al, "SK") == "主人奉矢--司射奉中"
    assert row_text(al, "A") == "主人奉矢也者司射奉中"
    assert row_text(al, "B") == "主人奉矢-者司射奉中"


def test_empty_streams() -> None:
    streams = {"SK": tokens_from_string("SK", "投壶之礼"), "X": []}
    al = align(streams, "SK")
    assert row_text(al, "X") == "----"
    assert (al.extent("X").first, al.extent("X").last) == (None, None)
    al = align({"SK": [], "X": tokens_from_string("X", "投壶")}, "SK")
    assert row_text(al, "SK") == "--"
    assert align({"SK": []}, "SK").columns == ()


def test_unknown_base_is_refused() -> None:
    with pytest.raises(ValueError, match="ZZ"):
        align_layer(Layer.JING, {"SK": tokens_from_string("SK", "投壶")}, "ZZ")


def test_progress_names_each_witness() -> None:
    said: list[str] = []
    streams = {s: tokens_from_string(s, "投壶之礼") for s in ("SK", "B", "A")}
    align_layer(Layer.ZHU, streams, "SK", progress=said.append)
    assert said == ["zhu: aligning A with SK", "zhu: aligning B with SK"]


def test_independent_of_the_order_of_witnesses() -> None:
    streams = witness_set(5)
    first = align(streams, "SK")
    assert first.transpositions
    rng = random.Random(9)
    for _ in range(3):
        order = ["A", "B", "C", "D"]
        rng.shuffle(order)
        other = align({s: streams[s] for s in [*order[:2], "SK", *order[2:]]}, "SK")
        assert other.sigla == ("SK", *order)
        assert rows(other) == rows(first)
        assert {e.siglum: e for e in other.extents} == {e.siglum: e for e in first.extents}
        assert sorted(other.transpositions, key=repr) == sorted(first.transpositions, key=repr)


def test_large_gaps_fall_back_and_keep_the_invariants() -> None:
    streams = witness_set(6)
    # No anchors inside stretches and a tiny CollateX limit: stretches go to the LCS fallback,
    # some cut into pieces.
    al = align(streams, "SK", chunk=8, direct=8, gap_ks=(), fallback_cells=400)
    default = align(streams, "SK")
    ours, usual = partners(al, "A"), partners(default, "A")
    assert sum(ours[b] == usual[b] for b in usual) / len(usual) > 0.9


DIGEST = """
import hashlib, sys
sys.path.insert(0, sys.argv[1])
from builders import witness_set
from collate.align.engine import align_layer
from collate.model import Layer
al = align_layer(Layer.JING, witness_set(5), "SK")
print(hashlib.sha256(repr(al).encode()).hexdigest())
"""


def test_deterministic_across_processes() -> None:
    here = os.path.dirname(__file__)
    digests = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", DIGEST, here], capture_output=True, text=True, check=True, env=env)
        digests.add(done.stdout.strip())
    digests.add(hashlib.sha256(repr(align_layer(Layer.JING, witness_set(5), "SK")).encode()).hexdigest())
    assert len(digests) == 1


texts = st.text(alphabet="甲乙丙丁戊己庚辛壬癸□", max_size=60)


@settings(max_examples=150, deadline=None)
@given(base=texts, others=st.lists(texts, min_size=1, max_size=3), small=st.booleans())
def test_invariants_hold_for_any_input(base: str, others: list[str], small: bool) -> None:
    # A ten-character alphabet repeats k-grams everywhere; small limits send even short texts
    # through anchors, transpositions and the fallback.
    options = {"chunk": 6, "direct": 3, "k": 3, "gap_ks": (3, 2), "min_transposition": 3} if small else {}
    streams = {"SK": tokens_from_string("SK", base)}
    streams |= {f"W{n}": tokens_from_string(f"W{n}", text) for n, text in enumerate(others)}
    al = align(streams, "SK", **options)
    assert [col[0] for col in al.columns if col[0] is not None] == streams["SK"]


def test_progress_says_when_the_fallback_aligned_a_stretch() -> None:
    base = seed_chars()[:600]
    # In the middle 300 characters of the witness every other one is a character the base
    # never has: no k-gram anchors them, though half of them still agree in order.
    middle = "".join(c if i % 2 == 0 else "〇" for i, c in enumerate(base[150:450]))
    wit = base[:150] + middle + base[450:]
    said: list[str] = []
    streams = {"SK": tokens_from_string("SK", base), "X": tokens_from_string("X", wit)}
    options = AlignOptions(gap_ks=(), min_transposition=None)
    al = align_layer(Layer.JING, streams, "SK", progress=said.append, options=options)
    check_invariants(al, streams)
    assert said[0] == "jing: aligning X with SK"
    assert said[1].startswith("jing: X: 1 stretch(es) with little in common")
