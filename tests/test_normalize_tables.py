"""The normalization tables: shipped ones carry their sources and licences, project ones name a bad line."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import normalizer

from collate.errors import ProjectError
from collate.normalize import build_normalizer
from collate.normalize.tables import (
    CJKVI_LOANS,
    CJKVI_VARIANTS,
    CURATED_VARIANTS,
    SEMANTIC_VARIANTS,
    VARIANTS,
    data_path,
    read_never_fold,
    read_rows,
)


def test_project_variant_table(tmp_path: Path) -> None:
    (tmp_path / "mine.tsv").write_text("# mine\n灋\t法\tvariant-graph\tnote\n", encoding="utf-8")
    norm = build_normalizer({"variant_tables": ["mine.tsv"]}, {}, root=tmp_path)
    n, changes = norm.normalize("灋")
    assert n == "法"
    assert changes[0].source == "project table mine.tsv"


def test_bad_project_table_names_the_line(tmp_path: Path) -> None:
    (tmp_path / "bad.tsv").write_text("灋\t法\n灋 法\n", encoding="utf-8")
    with pytest.raises(ProjectError) as error:
        build_normalizer({"variant_tables": ["bad.tsv"]}, {}, root=tmp_path)
    assert "bad.tsv:2" in str(error.value)


def test_shipped_tables_carry_their_source_and_licence() -> None:
    for name in (VARIANTS, SEMANTIC_VARIANTS):
        head = data_path(name).read_text(encoding="utf-8")[:2000]
        assert "Unihan" in head and "Unicode License" in head and "terms_of_use" in head
    assert "curated" in data_path(CURATED_VARIANTS).read_text(encoding="utf-8")[:500].lower()


def test_semantic_only_pairs_are_not_in_the_default_rule() -> None:
    graphic = {f[0] for _, f in read_rows(data_path(VARIANTS), 3)}
    assert "荅" not in graphic
    assert "荅" in {f[0] for _, f in read_rows(data_path(SEMANTIC_VARIANTS), 3)}
    # 荅 now folds by default, but as a graphic variant of the dictionaries (教育部異體字字典),
    # not through Unihan's semantic pairs; 它/他 (two everyday words) stays apart.
    assert [c.source for c in normalizer().normalize("荅")[1]] == ["教育部異體字字典"]
    assert normalizer().normalize("它")[0] == "它"


def test_never_fold_table_has_a_reason_per_pair() -> None:
    pairs = read_never_fold()
    assert len(pairs) >= 15 and all(p.reason for p in pairs)
    assert len({p.key for p in pairs}) == len(pairs)


def test_cjkvi_tables_carry_attribution_and_relation() -> None:
    for name in (CJKVI_VARIANTS, CJKVI_LOANS):
        text = data_path(name).read_text(encoding="utf-8")
        assert "MIT" in text[:3000] and "漢字データベース" in text[:3000] and "sha256" in text[:3000]
    rows = [line.split("\t") for line in data_path(CJKVI_VARIANTS).read_text(encoding="utf-8").splitlines()]
    relations = {r for row in rows if not row[0].startswith("#") and len(row) == 3 for r in row[2].split(",")}
    assert relations == {"hydzd/variant", "twedu/variant", "dypytz/variant", "ucs-scs/variant"}
