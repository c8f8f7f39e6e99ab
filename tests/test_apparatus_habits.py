"""A print's habits found in the collation (collate.apparatus.habits): 某本凡「讓」皆作「譲」，下不出校."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import copy_default_project, plain_witness, rows_collation
from click.testing import CliRunner

from collate.align.alignment import LayerAlignment
from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer
from collate.apparatus.habits import Habit, HabitVerdict, apply_habits, find_habits
from collate.cli import main
from collate.decisions.file import load_habit_verdicts
from collate.exporters.jiaokanji import build_jiaokanji
from collate.model import Cause, Layer
from collate.normalize import Normalizer
from collate.normalize.tokenize import tokenize

NORMALIZER = Normalizer()


def collation(rows: dict[str, str]) -> Collation:
    return rows_collation(rows, NORMALIZER)


def readings_of(c: Collation, siglum: str) -> list[tuple[str, ReadingClass, str | None]]:
    return [(r.witnesses[0].text, r.cls, r.cause) for x in c.loci() for r in x.readings if siglum in r.sigla]


def test_a_print_that_always_writes_a_related_form_has_the_habit() -> None:
    # 郤 for 卻 wherever the base has 卻, and no other witness writes it: a habit of ZT's.
    c = collation({"ZS": "卻行而拜卻坐而飲", "ZT": "郤行而拜郤坐而飲", "CH": "卻行而拜卻坐而飮"})
    habits = find_habits(c, NORMALIZER)
    assert [(h.siglum, h.base, h.written, h.places, h.agrees) for h in habits] == [("ZT", "卻", "郤", 2, 0)]
    applied = apply_habits(c, habits)
    assert readings_of(applied, "ZT") == [("郤", ReadingClass.ORTHOGRAPHIC, Cause.HABIT)] * 2
    assert applied.habits == habits
    book = build_jiaokanji(applied)
    assert "通例：ZT本凡「卻」皆作「郤」（二見），下不出校。" in book


def test_a_rare_graph_two_prints_write_for_the_base_character_is_a_habit_of_each() -> None:
    # 禮記·儒行: the 纂圖互註 and the 單疏本 both write 𥙿 (衤 for 礻, in neither Big5 nor GB 2312)
    # for 裕, and no dictionary relates the two: a print's cut form, no other recension's word.
    c = collation(
        {"ZS": "寛裕以容寛裕而敬", "ZT": "寛𥙿以容寛𥙿而敬", "DS": "寛𥙿以容寛𥙿而敬", "CH": "寛裕以容寛裕而敬"}
    )
    habits = find_habits(c, NORMALIZER)
    assert [(h.siglum, h.base, h.written, h.places) for h in habits] == [("DS", "裕", "𥙿", 2), ("ZT", "裕", "𥙿", 2)]
    assert readings_of(apply_habits(c, habits), "ZT") == [("𥙿", ReadingClass.ORTHOGRAPHIC, Cause.HABIT)] * 2
    # An everyday character two prints share stays a reading of the tradition (采繁 below).
    assert find_habits(collation({"ZS": "寛裕寛裕", "ZT": "寛容寛容", "DS": "寛容寛容"}), NORMALIZER) == ()


@pytest.mark.parametrize(
    ("rows", "why"),
    [
        ({"ZS": "卻行而拜卻坐", "ZT": "郤行而拜郤坐", "CH": "郤行而拜卻坐"}, "another print writes it too"),
        ({"ZS": "卻行郤坐卻飲", "ZT": "郤行卻坐郤飲"}, "the other way too: confusion"),
        ({"ZS": "卻行卻坐卻飲卻拜", "ZT": "郤行卻坐卻飲卻拜"}, "once in four: no habit"),
        ({"ZS": "己身己心己意", "ZT": "已身已心已意"}, "a look-alike a collator must see"),
        ({"ZS": "罷民罷兵罷士", "ZT": "疲民疲兵疲士"}, "a loan is a reading at every place"),
        ({"ZS": "采蘩采蘩采蘩", "ZT": "采繁采繁采繁"}, "no dictionary relates them: perhaps another recension"),
    ],
)
def test_no_habit_where_the_evidence_says_otherwise(rows: dict[str, str], why: str) -> None:
    assert find_habits(collation(rows), NORMALIZER) == (), why


def test_a_rejected_habit_is_not_applied_and_a_confirmed_one_is_however_few_its_places() -> None:
    c = collation({"ZS": "卻行而拜卻坐而飲", "ZT": "郤行而拜郤坐而飲", "CH": "卻行而拜卻坐而飲"})
    rejected = find_habits(c, NORMALIZER, [HabitVerdict("ZT", "卻", "郤", "reject")])
    assert [h.verdict for h in rejected] == ["reject"] and not rejected[0].applied
    assert all(cause != Cause.HABIT for _, _, cause in readings_of(apply_habits(c, rejected), "ZT"))
    once = collation({"ZS": "卻行而拜", "ZT": "郤行而拜"})
    assert find_habits(once, NORMALIZER) == ()
    confirmed = find_habits(once, NORMALIZER, [HabitVerdict("ZT", "卻", "郤", "confirm")])
    assert confirmed == (Habit("ZT", "卻", "郤", 1, 0, confirmed[0].relation, "confirm"),)


def test_a_verdict_is_kept_in_the_decisions_file_and_applied_by_the_next_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy_default_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["habits", "--reject", "ZS", "讓", "譲", "--comment", "a reading here"])
    assert result.exit_code == 0, result.output
    assert load_habit_verdicts(tmp_path / "decisions.toml") == (
        HabitVerdict(
            "ZS",
            "讓",
            "譲",
            "reject",
            load_habit_verdicts(tmp_path / "decisions.toml")[0].editor,
            load_habit_verdicts(tmp_path / "decisions.toml")[0].when,
            "a reading here",
        ),
    )
    again = runner.invoke(main, ["habits", "--confirm", "ZS", "讓", "譲"])
    assert again.exit_code == 0 and [v.verdict for v in load_habit_verdicts(tmp_path / "decisions.toml")] == ["confirm"]
    assert runner.invoke(main, ["run"]).exit_code == 0
    bad = runner.invoke(main, ["habits", "--reject", "XX", "讓", "譲"])
    assert bad.exit_code == 1 and "no witness 'XX'" in bad.output


def test_a_difference_of_script_between_base_and_witness_is_no_habit() -> None:
    # A simplified base writes 后 wherever a traditional print has 後: its script, not the print's habit.
    rows = {"SK": "然后射然后饮而后乐", "ZS": "然後射然後飲而後樂"}
    witnesses = {s: plain_witness(s, text) for s, text in rows.items()}
    streams = [tokenize(w, Layer.JING, NORMALIZER) for w in witnesses.values()]
    alignment = LayerAlignment(Layer.JING, tuple(rows), tuple(zip(*streams, strict=True)))
    result = build_layer(alignment, witnesses, NORMALIZER)
    assert result.loci == ()
    infos = tuple(WitnessInfo(s, f"{s}本", f"{s}.txt", "plain") for s in rows)
    assert find_habits(Collation("射義", "sheyi", "SK", infos, (result,)), NORMALIZER) == ()
