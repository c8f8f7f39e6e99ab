"""The variant classes kept on disk: the same rules as built, and a bad file is rebuilt."""

from __future__ import annotations

from pathlib import Path

import pytest

from collate.normalize import NormalizeConfig, Normalizer
from collate.normalize import cache as classes_cache
from collate.normalize.config import parse_section
from collate.normalize.rules import fold_rules
from collate.normalize.variants import VariantRule

SAMPLE = "筭算閒间偝背荅答澔浩峭哨賓宾爲為蘩繁裏里"


def _keys(normalizer: Normalizer) -> list[str]:
    return [normalizer.fold(c) for c in SAMPLE]


def _fresh(monkeypatch: pytest.MonkeyPatch, folder: Path | str) -> Normalizer:
    monkeypatch.setenv("COLLATE_CACHE", str(folder))
    fold_rules.cache_clear()
    return Normalizer(NormalizeConfig())


def test_classes_read_back_from_the_cache_fold_as_the_built_ones(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    built = _fresh(monkeypatch, tmp_path)
    stored = list(tmp_path.glob("classes-*.json"))
    assert len(stored) == 1
    again = _fresh(monkeypatch, tmp_path)
    assert _keys(again) == _keys(built)
    assert again.describe() == built.describe()
    graph, original = again._rules["variant-graph"], built._rules["variant-graph"]
    assert isinstance(graph, VariantRule) and isinstance(original, VariantRule)
    assert graph.table == original.table


def test_a_damaged_cache_file_is_rebuilt(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    built = _fresh(monkeypatch, tmp_path)
    (stored,) = tmp_path.glob("classes-*.json")
    stored.write_text('{"rules": {"variant-graph": {"source": 1, "table": [', encoding="utf-8")
    again = _fresh(monkeypatch, tmp_path)
    assert _keys(again) == _keys(built)
    assert classes_cache.load(stored.stem.removeprefix("classes-")) is not None  # written anew


def test_other_settings_are_other_classes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    default = _fresh(monkeypatch, tmp_path)
    kept_apart = Normalizer(parse_section({"never_fold": ["筭算"]}, None, "test"))
    assert len(list(tmp_path.glob("classes-*.json"))) == 2
    assert default.fold("筭") == default.fold("算") and kept_apart.fold("筭") != kept_apart.fold("算")


def test_an_unwritable_or_disabled_cache_is_not_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert _keys(_fresh(monkeypatch, blocked / "sub")) == _keys(_fresh(monkeypatch, "off"))
    assert not (blocked / "sub").exists()
