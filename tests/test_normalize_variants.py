"""Variant graphs (異體字): the dictionaries' print forms fold, never-fold pairs and distinct words stay apart."""

from __future__ import annotations

from collections import Counter

import pytest
from builders import key, norm

from collate.model import Change, ChangeClass
from collate.normalize.tables import VARIANTS, read_built_variants, read_cjkvi_variants, read_curated_variants
from collate.normalize.variants import COMPATIBILITY, build_classes

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
    # Found unfolded in a hand check of 燕禮 and 射義: print forms the dictionaries' tables leave ambiguous.
    ("湏", "須", "curated"),
    ("茍", "苟", "curated"),
    ("傚", "效", "curated"),
    ("𥘉", "初", "curated"),
    ("萹", "篇", "curated"),
    ("𬞞", "蔬", "curated"),
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
