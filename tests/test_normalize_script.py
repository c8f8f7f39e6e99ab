"""Script folding (OpenCC): character by character, a curated supplement first, the source recorded."""

from __future__ import annotations

import pytest

from collate.errors import ProjectError
from collate.normalize import script
from collate.normalize.script import ScriptRule, convert, convert_all, is_simplified_form


def test_many_characters_at_once_convert_as_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenCC reads 乾隆 as a phrase and keeps its 乾, though 乾 alone is 干: a phrase-based
    # conversion would make a token's key depend on its neighbour.
    monkeypatch.setattr(script, "_converted", {})
    convert_all("tw2s", "乾隆禮記投壺")
    assert script._converted[("tw2s", "乾")] == "干"
    assert [convert("tw2s", c) for c in "乾隆禮記投壺"] == list("干隆礼记投壶")


@pytest.mark.parametrize(("char", "simplified"), [("并", True), ("户", True), ("並", False), ("人", False)])
def test_a_simplified_form_is_one_opencc_would_turn_back(char: str, simplified: bool) -> None:
    assert is_simplified_form(char) is simplified


def test_the_rule_folds_to_simplified_and_says_with_what() -> None:
    rule = ScriptRule()
    folded = rule.apply("禮")
    assert folded is not None and folded[0] == "礼"
    assert folded[1].startswith("OpenCC ") and folded[1].endswith(" t2s")
    assert rule.apply("礼") is None and rule.image("礼") == "礼"


def test_the_supplement_sends_a_form_opencc_does_not_make_to_its_traditional_first() -> None:
    # OpenCC simplifies 餘 to 余, never to 馀: without the supplement 馀 and 餘 stay apart.
    assert ScriptRule().image("馀") != ScriptRule().image("餘")
    rule = ScriptRule(supplement={"馀": "餘"})
    assert rule.image("馀") == rule.image("餘") == convert("t2s", "餘")
    folded = rule.apply("馀")
    assert folded is not None and folded[1].startswith("curated 馀→餘; OpenCC ")


def test_only_conversions_to_simplified_are_rules() -> None:
    with pytest.raises(ProjectError, match="unknown script conversion 's2t'"):
        ScriptRule("s2t")
