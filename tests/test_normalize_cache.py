"""What the normalizer keeps on disk (the variant classes, the related pairs, the simplified forms):
the same as built, read or asked, a bad file rebuilt, a changed table or OpenCC never served stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from collate.normalize import NormalizeConfig, Normalizer, script, tables
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


def _related(monkeypatch: pytest.MonkeyPatch, folder: Path | str, table: Path | None = None) -> dict[str, str]:
    """The related pairs as a new process reads them: the cache in ``folder``, the table ``table`` if given."""
    monkeypatch.setenv("COLLATE_CACHE", str(folder))
    if table is not None:
        shipped = tables.data_path
        monkeypatch.setattr(tables, "data_path", lambda name: table if name == tables.CJKVI_RELATED else shipped(name))
    tables.read_related.cache_clear()
    try:
        return tables.read_related()
    finally:
        tables.read_related.cache_clear()


def test_the_related_pairs_read_back_from_the_cache_are_the_table_s(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    parsed = _related(monkeypatch, "off")
    assert parsed[tables.pair_key("絜", "潔")] == parsed[tables.pair_key("潔", "絜")]
    assert _related(monkeypatch, tmp_path) == parsed  # read as text, and kept
    assert len(list(tmp_path.glob("related-*.json"))) == 1
    assert _related(monkeypatch, tmp_path) == parsed  # read from the cache


def test_a_changed_related_table_is_never_served_stale(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    table = tmp_path / "cjkvi_related.tsv"
    table.write_text("# a table of two pairs\n亨\t烹\thydzd/variant\n日\t曰\tcjkvi/non-cognate\n", encoding="utf-8")
    cache = tmp_path / "cache"
    assert _related(monkeypatch, cache, table)[tables.pair_key("烹", "亨")] == "hydzd/variant"
    table.write_text("亨\t烹\ttwedu/variant\n", encoding="utf-8")
    changed = _related(monkeypatch, cache, table)
    assert changed == {tables.pair_key("亨", "烹"): "twedu/variant"}


def test_a_damaged_related_cache_is_read_as_text_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    parsed = _related(monkeypatch, tmp_path)
    (stored,) = tmp_path.glob("related-*.json")
    stored.write_text('{"related": {"hydzd/variant": "not a list"}}', encoding="utf-8")
    assert _related(monkeypatch, tmp_path) == parsed
    assert classes_cache.load_related(stored.stem.removeprefix("related-")) == parsed  # written anew


def _forms(monkeypatch: pytest.MonkeyPatch, folder: Path | str) -> frozenset[str]:
    """The simplified forms a text's script is judged by, as a new process finds them (the cache in ``folder``)."""
    monkeypatch.setenv("COLLATE_CACHE", str(folder))
    script.sampled_simplified_forms.cache_clear()
    try:
        return script.sampled_simplified_forms()
    finally:
        script.sampled_simplified_forms.cache_clear()


def test_the_simplified_forms_kept_are_those_opencc_turns_back(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    asked = _forms(monkeypatch, "off")
    assert asked == {c for c in script._SAMPLED if script.convert("s2t", c) != c}
    assert "并" in asked and "並" not in asked
    assert _forms(monkeypatch, tmp_path) == asked  # asked of OpenCC, and kept
    assert len(list(tmp_path.glob("forms-*.json"))) == 1
    assert _forms(monkeypatch, tmp_path) == asked  # read from the cache


def test_another_opencc_is_asked_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import opencc

    _forms(monkeypatch, tmp_path)
    monkeypatch.setattr(opencc, "__version__", "0.0.0", raising=False)
    _forms(monkeypatch, tmp_path)
    assert len(list(tmp_path.glob("forms-*.json"))) == 2


def test_other_code_never_reads_what_this_code_stored(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The same tables and settings, built by code that differs in any byte: another name.
    for package in ("normalize", "model"):
        (tmp_path / package).mkdir()
        (tmp_path / package / "rules.py").write_text("RULES = 1\n", encoding="utf-8")
    before = classes_cache.code_digest(tmp_path)
    assert classes_cache.code_digest.__wrapped__(tmp_path) == before  # the same code, the same name
    (tmp_path / "model" / "rules.py").write_text("RULES = 2\n", encoding="utf-8")
    assert classes_cache.code_digest.__wrapped__(tmp_path) != before
    same = classes_cache.digest((), "settings")
    monkeypatch.setattr(classes_cache, "code_digest", lambda root=None: "another build")
    assert classes_cache.digest((), "settings") != same  # and a name is made with it
