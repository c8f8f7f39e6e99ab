"""The dictionary tables rebuilt from CJKVI (``python -m collate.normalize.build_cjkvi``): as shipped."""

from __future__ import annotations

from pathlib import Path

from conftest import SHARED, need_shared

from collate.normalize.build_cjkvi import build as build_cjkvi
from collate.normalize.tables import CJKVI_LOANS, CJKVI_VARIANTS, data_path


def test_shipped_cjkvi_tables_rebuild_identically(tmp_path: Path) -> None:
    root = need_shared(SHARED / "data" / "cjkvi-variants")
    graphic, loans, dropped = build_cjkvi(root, tmp_path)
    for name in (CJKVI_VARIANTS, CJKVI_LOANS):
        assert (tmp_path / name).read_bytes() == data_path(name).read_bytes()
    assert graphic > 20_000 and loans > 3_000 and dropped["everyday"] > 1_000
