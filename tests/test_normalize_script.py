"""Script folding (OpenCC): character by character, a curated supplement first, the source recorded."""

from __future__ import annotations

import pytest

from collate.errors import ProjectError
from collate.normalize import script
from collate.normalize.script import (
    ScriptRule,
    convert,
    convert_all,
    is_simplified_form,
    is_simplified_text,
    merged_forms,
)


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


# --- what simplification merged ---------------------------------------------------------------------------


def test_the_merged_forms_are_opencc_s_own_candidates_that_it_folds_together() -> None:
    merged = merged_forms("t2s", {"后": ("後", "后"), "发": ("發", "髮"), "个": ("個",), "为": ("爲", "為")})
    assert merged == {"后": frozenset("後后"), "发": frozenset("發髮"), "为": frozenset("爲為")}
    # Candidates are counted where the conversion folds them into the form; one alone merges nothing.
    assert merged_forms("t2s", {"后": ("後", "禮")}) == {}


def test_distinct_characters_simplification_merged_keep_their_own_keys() -> None:
    rule = ScriptRule(mergers={"后": frozenset("後后"), "修": frozenset("脩修"), "发": frozenset("發髮")})
    assert rule.apply("後") is None and rule.image("後") == "後"
    assert rule.apply("脩") is None and rule.apply("髮") is None and rule.apply("發") is None
    # The forms themselves, and everything simplification did not merge, fold as before.
    assert rule.image("后") == "后" and rule.image("禮") == "礼"
    assert rule.declined("後") == "后" and rule.declined("發") == "发"
    assert rule.declined("禮") is None and rule.declined("后") is None


def test_a_character_no_class_ties_to_a_candidate_folds_into_the_form() -> None:
    # OpenCC folds 録 into 录 too, though its table lists only 錄 and 彔: none of them, it is the form's.
    rule = ScriptRule(mergers={"录": frozenset("錄彔")}, apart={"录": frozenset("錄彔")})
    assert rule.image("録") == "录" and rule.image("錄") == "錄"
    # The form's own class: another writing of 里 (its compatibility ideograph) is 里, not 裏.
    rule = ScriptRule(mergers={"里": frozenset("里裏")}, apart={"里": frozenset({"裡"})})
    assert rule.image("\uf9e9") == "里" and rule.image("裡") == "裡"


def test_the_supplement_still_sends_its_form_to_its_traditional_character() -> None:
    # 馀 is the 四庫本 e-text's simplified 餘 alone: it goes to 餘, which stays apart from 余.
    rule = ScriptRule(supplement={"馀": "餘"}, mergers={"余": frozenset("餘余")})
    folded = rule.apply("馀")
    assert folded is not None and folded[0] == "餘" and folded[1] == "curated 馀→餘"
    assert rule.image("餘") == "餘" != rule.image("余")


@pytest.mark.parametrize(
    ("text", "simplified"),
    [
        ("礼记投壶主人奉矢司射奉中使人执壶", True),
        ("禮記投壺主人奉矢司射奉中使人執壺", False),
        # A traditional print writes 于 and 后 too: they count as simplified forms, but are few.
        ("射至于司馬，然后可以言中，禮樂之道", False),
        ("", False),
    ],
)
def test_a_text_s_script_is_told_by_the_forms_it_writes(text: str, simplified: bool) -> None:
    assert is_simplified_text(text) is simplified


def test_the_seeds_scripts() -> None:
    from conftest import SEED_000, SEED_001, SEED_002

    assert is_simplified_text(SEED_000.read_text(encoding="utf-8"))
    assert is_simplified_text(SEED_002.read_text(encoding="utf-8"))
    assert not is_simplified_text(SEED_001.read_text(encoding="utf-8"))
