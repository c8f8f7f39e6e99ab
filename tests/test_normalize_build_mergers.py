"""The table of simplification's mergers rebuilt from OpenCC (``python -m collate.normalize.build_mergers``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from collate.normalize.build_mergers import build, installed_dictionary, main, mergers
from collate.normalize.script import opencc_version
from collate.normalize.tables import SCRIPT_MERGERS, data_path, read_script_mergers


def test_entries_with_several_candidates_are_kept_in_opencc_s_order() -> None:
    text = "后\t後 后\n个\t個\n发\t發 髮 發\n礼\t禮\n"
    assert mergers(text) == [("发", ("發", "髮")), ("后", ("後", "后"))]


def test_the_shipped_table_rebuilds_identically_from_the_installed_opencc(tmp_path: Path) -> None:
    if not all(p.is_file() for p in installed_dictionary()):
        pytest.skip("the installed OpenCC ships no STCharacters.ocd2 and opencc_dict")
    shipped = data_path(SCRIPT_MERGERS).read_text(encoding="utf-8")
    if f"from OpenCC {opencc_version()}\n" not in shipped:
        pytest.skip(f"the table was derived from another OpenCC than the installed {opencc_version()}")
    count = build(tmp_path)
    assert (tmp_path / SCRIPT_MERGERS).read_bytes() == data_path(SCRIPT_MERGERS).read_bytes()
    assert count > 200


def test_a_dictionary_given_as_text_is_read(tmp_path: Path) -> None:
    source = tmp_path / "STCharacters.txt"
    source.write_text("修\t修 脩\n", encoding="utf-8")
    assert main([str(source), "--out", str(tmp_path)]) == 0
    assert (tmp_path / SCRIPT_MERGERS).read_text(encoding="utf-8").splitlines()[-1] == "修\t修 脩"


def test_the_table_holds_the_pairs_the_normalization_docs_name() -> None:
    table = read_script_mergers()
    for form, pair in (
        ("后", "後后"),
        ("修", "修脩"),
        ("余", "餘余"),
        ("发", "發髮"),
        ("干", "幹乾干"),
        ("谷", "谷穀"),
    ):
        assert set(pair) <= set(table[form])
