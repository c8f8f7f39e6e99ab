"""The dictionary tables (CJKVI), the never-fold list, loans and one-to-many script pairs."""

from __future__ import annotations

from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from conftest import SHARED, need_shared

from collate.errors import ProjectError
from collate.model import Change, ChangeClass
from collate.normalize import Normalizer, build_normalizer
from collate.normalize.build_cjkvi import build as build_cjkvi
from collate.normalize.build_variants import build as build_variants
from collate.normalize.tables import (
    CJKVI_LOANS,
    CJKVI_VARIANTS,
    SCRIPT_PAIRS,
    VARIANTS,
    data_path,
    read_built_variants,
    read_cjkvi_variants,
    read_curated_variants,
    read_never_fold,
)
from collate.normalize.variants import COMPATIBILITY, build_classes


@cache
def norm(semantic: bool = False) -> Normalizer:
    return build_normalizer({"semantic": semantic}, {})


def key(char: str, semantic: bool = False) -> str:
    return norm(semantic).normalize(char)[0]


# Print forms of the 四庫 and 四部叢刊 prints: variant, standard, the dictionary that says so.
GRAPHIC = [
    ("偝", "背", "漢語大字典"),
    ("畨", "番", "漢語大字典; 教育部異體字字典"),
    ("䙝", "褻", "教育部異體字字典"),
    ("竒", "奇", "漢語大字典; 教育部異體字字典"),
    ("彛", "彝", "教育部異體字字典"),
    ("舎", "舍", "教育部異體字字典; UCS 原規格分離"),
    ("逹", "達", "curated"),
    ("叚", "假", "漢語大字典; 教育部異體字字典; 第一批異體字整理表"),
    ("靣", "面", "漢語大字典; 教育部異體字字典"),
    ("夲", "本", "漢語大字典; 教育部異體字字典; UCS 原規格分離"),
    ("虵", "蛇", "漢語大字典; 教育部異體字字典; 第一批異體字整理表"),
    ("𥸅", "籩", "教育部異體字字典"),
    ("㓜", "幼", "漢語大字典; 教育部異體字字典"),
    ("㑹", "會", "漢語大字典; 教育部異體字字典"),
    ("曽", "曾", "UCS 原規格分離"),
    ("喩", "喻", "教育部異體字字典; UCS 原規格分離"),
    ("濵", "濱", "漢語大字典; 教育部異體字字典"),
    ("𬒳", "被", "curated"),
    ("辝", "辭", "漢語大字典; 教育部異體字字典"),
    ("歳", "歲", "教育部異體字字典; UCS 原規格分離"),
    ("諌", "諫", "教育部異體字字典; UCS 原規格分離"),
    ("囯", "國", "漢語大字典; 教育部異體字字典"),
    ("斈", "學", "漢語大字典; 教育部異體字字典"),
    ("𥙊", "祭", "教育部異體字字典"),
    ("眀", "明", "漢語大字典; 教育部異體字字典"),
    ("荅", "答", "教育部異體字字典"),
]

NEVER = [
    "己已",
    "己巳",
    "已巳",
    "已以",
    "大太",
    "太泰",
    "禮豊",
    "士土",
    "土社",
    "曰日",
    "未末",
    "戊戌",
    "戌戍",
    "戊戍",
    "人入",
    "囗國",
]


@pytest.mark.parametrize(("variant", "standard", "source"), GRAPHIC)
def test_print_forms_fold_with_their_source(variant: str, standard: str, source: str) -> None:
    n, changes = norm().normalize(variant)
    assert n == key(standard)
    assert changes[0] == Change("variant-graph", variant, standard, ChangeClass.ORTHOGRAPHIC, source)


@pytest.mark.parametrize("pair", NEVER)
@pytest.mark.parametrize("semantic", [False, True])
def test_never_fold_pairs_stay_apart(pair: str, semantic: bool) -> None:
    a, b = pair[0], pair[1]
    assert key(a, semantic) != key(b, semantic)
    assert norm(semantic).relation(a, b) is None


@pytest.mark.parametrize(("a", "b"), [("叚", "段"), ("喩", "諭"), ("主", "炷"), ("王", "玉"), ("景", "影")])
def test_dictionaries_never_chain_distinct_words(a: str, b: str) -> None:
    assert key(a) != key(b)


def test_class_sizes_stay_small() -> None:
    """Dictionary pairs attach leaves: no class of the Unihan/curated tables merges or moves.

    Only a character's compatibility ideographs follow it where a dictionary attaches it (莭).
    """
    graphic = [*read_curated_variants(), *read_built_variants(VARIANTS)]
    graphic = [p for p in graphic if p.rule == "variant-graph"]
    before = build_classes(graphic)
    after = build_classes(graphic, attached=read_cjkvi_variants())
    moved = [m for m in before if after[m] != before[m]]
    assert all(before[m][1] == COMPATIBILITY and after[m][1].startswith(COMPATIBILITY) for m in moved)
    assert 0 < len(moved) < 200
    sizes_before = Counter(c for c, _ in before.values())
    sizes_after = Counter(c for c, _ in after.values())
    assert max(sizes_before.values()) <= 10 and max(sizes_after.values()) <= 30, sizes_after.most_common(3)
    assert len(after) - len(before) > 20_000


@pytest.mark.parametrize(
    ("a", "b", "rule", "cls"),
    [
        ("着", "著", "script", ChangeClass.ORTHOGRAPHIC),
        ("閒", "間", "script", ChangeClass.ORTHOGRAPHIC),
        ("閒", "间", "script", ChangeClass.ORTHOGRAPHIC),
        ("罷", "疲", "loan", ChangeClass.LOAN),
        ("說", "悅", "loan", ChangeClass.LOAN),
        ("说", "悦", "loan", ChangeClass.LOAN),
        ("仍", "乃", "loan", ChangeClass.LOAN),
    ],
)
def test_relation(a: str, b: str, rule: str, cls: ChangeClass) -> None:
    assert key(a) != key(b)
    change = norm().relation(a, b)
    assert change is not None and (change.rule, change.before, change.after, change.cls) == (rule, a, b, cls)
    assert norm().relation(b, a) is not None


def test_relation_sources_and_nothing_else() -> None:
    assert norm().relation("仍", "乃") == Change("loan", "仍", "乃", ChangeClass.LOAN, "漢語大字典 通假")
    assert norm().relation("着", "著") == Change(
        "script", "着", "著", ChangeClass.ORTHOGRAPHIC, "Unihan kTraditionalVariant"
    )
    assert norm().relation("奉", "案") is None
    assert norm().relation("于", "於") is None  # one key already
    assert norm().relation("篇", "萹") is None  # no source says 萹 is 篇


def test_loans_are_not_folded() -> None:
    assert key("罷") != key("疲")
    assert key("說") != key("悅")


def test_project_adds_never_fold_and_loans() -> None:
    mine = build_normalizer({"never_fold": ["竒奇"], "loans": {"奉": "捧"}}, {})
    assert mine.normalize("竒")[0] != mine.normalize("奇")[0]
    assert mine.relation("竒", "奇") is None
    change = mine.relation("奉", "捧")
    assert change is not None and change.cls is ChangeClass.LOAN and change.source == "project file"
    # A project's own variant wins over the shipped never-fold list.
    folded = build_normalizer({"variants": {"巳": "已"}}, {})
    assert folded.normalize("巳")[0] == folded.normalize("已")[0]


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"never_fold": "己已"}, "must be a list"),
        ({"never_fold": ["己"]}, "two or more different characters"),
        ({"never_fold": ["己己"]}, "two or more different characters"),
        ({"loans": ["罷"]}, "table of loan = original"),
        ({"loans": {"罷": "疲疲"}}, "one character to another"),
        ({"never_fold": ["巳已"], "variants": {"巳": "已"}}, "both a variant"),
    ],
)
def test_bad_lists_are_project_errors(section: dict[str, Any], message: str) -> None:
    with pytest.raises(ProjectError, match=message) as error:
        build_normalizer(section, {}, where="collate.toml")
    assert "collate.toml [normalize]" in str(error.value)


def test_never_fold_table_has_a_reason_per_pair() -> None:
    pairs = read_never_fold()
    assert len(pairs) >= 15 and all(p.reason for p in pairs)
    assert len({p.key for p in pairs}) == len(pairs)


def test_shipped_cjkvi_tables_rebuild_identically(tmp_path: Path) -> None:
    root = need_shared(SHARED / "data" / "cjkvi-variants")
    graphic, loans, dropped = build_cjkvi(root, tmp_path)
    for name in (CJKVI_VARIANTS, CJKVI_LOANS):
        assert (tmp_path / name).read_bytes() == data_path(name).read_bytes()
    assert graphic > 20_000 and loans > 3_000 and dropped["everyday"] > 1_000


def test_shipped_script_pairs_rebuild_identically(tmp_path: Path) -> None:
    unihan = need_shared(SHARED / "data" / "Unihan_Variants.txt")
    build_variants(unihan, tmp_path)
    assert (tmp_path / SCRIPT_PAIRS).read_bytes() == data_path(SCRIPT_PAIRS).read_bytes()


def test_cjkvi_tables_carry_attribution_and_relation() -> None:
    for name in (CJKVI_VARIANTS, CJKVI_LOANS):
        text = data_path(name).read_text(encoding="utf-8")
        assert "MIT" in text[:3000] and "漢字データベース" in text[:3000] and "sha256" in text[:3000]
    rows = [line.split("\t") for line in data_path(CJKVI_VARIANTS).read_text(encoding="utf-8").splitlines()]
    relations = {r for row in rows if not row[0].startswith("#") and len(row) == 3 for r in row[2].split(",")}
    assert relations == {"hydzd/variant", "twedu/variant", "dypytz/variant", "ucs-scs/variant"}
