"""The variant and script-pair tables rebuilt from Unihan (``python -m collate.normalize.build_variants``)."""

from __future__ import annotations

from pathlib import Path

from conftest import SHARED, need_shared

from collate.normalize.build_variants import build
from collate.normalize.build_variants import build as build_variants
from collate.normalize.tables import SCRIPT_PAIRS, SEMANTIC_VARIANTS, VARIANTS, data_path


def test_shipped_tables_rebuild_identically(tmp_path: Path) -> None:
    unihan = need_shared(SHARED / "data" / "Unihan_Variants.txt")
    graphic, semantic = build(unihan, tmp_path)
    for name in (VARIANTS, SEMANTIC_VARIANTS):
        assert (tmp_path / name).read_text(encoding="utf-8") == data_path(name).read_text(encoding="utf-8")
    assert graphic > 1000 and semantic > 1000


def test_shipped_script_pairs_rebuild_identically(tmp_path: Path) -> None:
    unihan = need_shared(SHARED / "data" / "Unihan_Variants.txt")
    build_variants(unihan, tmp_path)
    assert (tmp_path / SCRIPT_PAIRS).read_bytes() == data_path(SCRIPT_PAIRS).read_bytes()
