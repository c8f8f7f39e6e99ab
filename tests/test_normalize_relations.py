"""Relations between two keys that stay different: one-to-many script pairs and loans (通假)."""

from __future__ import annotations

import pytest
from builders import key, norm

from collate.model import Change, ChangeClass
from collate.normalize.relations import Relations
from collate.normalize.tables import NeverFold, VariantPair


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
        # Print forms: a pair any table relates, however weakly (the dictionaries' everyday pairs,
        # the Japanese tables); a loan only the 通假 table names yields to a dictionary's variant.
        ("亨", "烹", "print-form", ChangeClass.ORTHOGRAPHIC),
        ("熟", "孰", "print-form", ChangeClass.ORTHOGRAPHIC),
        ("讓", "譲", "print-form", ChangeClass.ORTHOGRAPHIC),
        ("廷", "庭", "print-form", ChangeClass.ORTHOGRAPHIC),
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


# The Relations lookup on its own, with a toy key (traditional → simplified for a few characters)
# and toy tables: what it relates does not depend on the shipped data.
TOY_KEY = {"間": "间", "閒": "闲", "說": "说", "悅": "悦", "著": "着"}.get


def toy_relations(never: tuple[NeverFold, ...] = ()) -> Relations:
    return Relations(
        lambda c: TOY_KEY(c, c),
        script_pairs=[VariantPair("閒", "間", "Unihan kTraditionalVariant", "script-pair")],
        loans=[VariantPair("說", "悅", "漢語大字典 通假", "loan")],
        never=never,
    )


def test_a_script_pair_is_found_as_written_and_through_one_side_s_key() -> None:
    relations = toy_relations()
    found = relations.relation("閒", "間")
    assert found == Change("script", "閒", "間", ChangeClass.ORTHOGRAPHIC, "Unihan kTraditionalVariant")
    # 閒 against 间, the key of 間: a simplified witness meets the table's traditional pair.
    assert relations.relation("閒", "间") == Change("script", "閒", "间", ChangeClass.ORTHOGRAPHIC, found.source)
    assert relations.relation("間", "閒") is not None  # either order


def test_a_loan_is_found_on_both_keys() -> None:
    relations = toy_relations()
    assert relations.relation("說", "悅") == Change("loan", "說", "悅", ChangeClass.LOAN, "漢語大字典 通假")
    # Two simplified witnesses: 说/悦 are the keys of 說/悅.
    assert relations.relation("说", "悦") == Change("loan", "说", "悦", ChangeClass.LOAN, "漢語大字典 通假")
    assert relations.relation("說", "间") is None


def test_never_fold_pairs_and_equal_keys_relate_to_nothing() -> None:
    relations = toy_relations(never=(NeverFold("說", "悅", "two words"),))
    assert relations.relation("說", "悅") is None
    assert relations.relation("说", "悦") is None  # the pair's keys are kept apart too
    assert relations.relation("著", "着") is None  # one key: the changes say why, not a relation
    assert relations.relation("閒", "閒") is None
    assert relations.relation("閒間", "間") is None  # one character to one character only


@pytest.mark.parametrize(("a", "b"), [("己", "已"), ("曰", "日"), ("士", "土"), ("未", "末"), ("但", "伹")])
def test_look_alikes_relate_to_nothing_and_are_named(a: str, b: str) -> None:
    assert norm().relation(a, b) is None
    assert norm().lookalike(a, b) and norm().lookalike(b, a)


def test_a_pair_a_collator_must_see_is_no_print_form_whatever_a_table_says() -> None:
    assert norm().relation("王", "玉") is None and norm().never_folds("王", "玉")
    assert not norm().lookalike("王", "玉")  # kept apart, but no look-alikes: their cause is none


# --- what simplification merged: the script of each side decides ----------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "simplified", "rule"),
    [
        # A simplified text's 后 stands for 後 and for 后: whichever a traditional text reads.
        ("后", "後", (True, False), "script"),
        ("後", "后", (False, True), "script"),
        ("于", "於", (True, False), "script"),
        ("修", "脩", (True, False), "script"),
        # Between two traditional texts they are two characters: a dictionary may still relate them.
        ("后", "後", (False, False), "print-form"),
        ("修", "脩", (False, False), "print-form"),
        ("于", "於", (False, False), None),
        # A traditional form in a simplified text (its 於) is that character only.
        ("于", "於", (False, True), None),
        # A form only simplified texts write (发) stands for its candidates wherever it stands.
        ("发", "發", (False, False), "script"),
        ("发", "髮", (False, False), "script"),
        # Two candidates of one form are two characters in any script.
        ("發", "髮", (True, True), None),
        # One-to-many script pairs that are no merger keep their relation (閒 is 間 and 閑).
        ("閒", "間", (False, False), "script"),
    ],
)
def test_a_merged_form_relates_by_the_script_it_is_written_in(
    a: str, b: str, simplified: tuple[bool, bool], rule: str | None
) -> None:
    found = norm().relation(a, b, simplified=simplified)
    assert (found.rule if found else None) == rule


def test_a_merger_s_script_relation_says_what_the_form_stands_for() -> None:
    found = norm().relation("后", "後", simplified=(True, False))
    assert found is not None and found.cls is ChangeClass.ORTHOGRAPHIC
    assert found.source.endswith(": 后 stands for 后 後") and found.source.startswith("OpenCC ")


def test_keys_and_search_keys() -> None:
    n = norm()
    assert [n.key(c) for c in "後后於于脩修"] == list("後后於于脩修")
    # A phrase is found in either script: the search key merges what simplification merged.
    assert n.fold("然後") == n.fold("然后") == "然后"
    assert n.loosen(n.key("脩身")) == n.fold("修身") == "修身"
    assert n.merged_keys("后") == ("后", "後")
    assert n.merged_keys("礼") == ("礼",)


def test_a_rare_graph_no_table_knows_is_the_print_form_of_the_common_character_it_stands_for() -> None:
    # 祍 (衤 for 礻) and 琧 for 衽 and 聖: in neither Big5 nor GB 2312, and no table knows them.
    from collate.normalize.relations import RARE_GRAPH

    n = norm()
    for a, b in (("衽", "祍"), ("聖", "琧"), ("裕", "𥙿")):
        change = n.relation(a, b)
        assert change is not None and (change.rule, change.cls, change.source) == (
            "print-form",
            ChangeClass.ORTHOGRAPHIC,
            RARE_GRAPH,
        ), (a, b)
    # A rare graph a table knows is its character's form: 賔 is 賓, another word than 耦.
    assert n.relation("耦", "賔") is None
    # Two rare graphs, or two common characters, are two words to see.
    assert n.relation("祍", "𥙿") is None and n.relation("衽", "裕") is None
    # A look-alike the dictionaries name stays one (瓜 and 𤓰, CJKVI's non-cognates).
    assert n.relation("瓜", "𤓰") is None


def test_a_pair_is_read_as_written_and_by_its_keys_together() -> None:
    # 皐/臯: a weak pair as written; 皐/皋 (臯's key) a pair of the dictionaries' variant tables, which a
    # loan only 漢語大字典's 通假 table names (皐/皋) yields to: one character, not a loan.
    change = norm().relation("皐", "臯")
    assert change is not None and (change.rule, change.cls) == ("print-form", ChangeClass.ORTHOGRAPHIC)
    assert "漢語大字典" in (change.source or "")
