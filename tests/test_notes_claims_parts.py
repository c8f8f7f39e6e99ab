"""A claim clause's parts: the count a note states of its reading, the authority a lead relays."""

from __future__ import annotations

import pytest

from collate.notes.claims_parts import read_lead, read_reading
from collate.notes.records import Place


@pytest.mark.parametrize(
    ("text", "reading", "count", "back"),
    [
        ("一算字", "算", 1, None),
        ("有则经兽侯是也六字", "有则经兽侯是也", 6, None),
        ("终则复始十三字", "终则复始", 13, None),
        ("也字", "也", None, None),
        ("此一句", "", None, "sentence"),
        ("此二字", "", 2, "previous"),
        ("此十二字", "", 12, "previous"),
    ],
)
def test_a_reading_and_the_count_the_note_states(text: str, reading: str, count: int | None, back: str | None) -> None:
    got = read_reading(text, 0, len(text))
    assert got[:3] == (reading, count, back)


def test_a_count_that_is_no_numeral_is_part_of_the_reading() -> None:
    # 十十 is no numeral: the words before 字 are the reading, with no count.
    assert read_reading("有十十字", 0, 4)[:2] == ("有十十", None)


@pytest.mark.parametrize(
    ("lead", "via"),
    [
        ("哨郑注云", "郑注"),
        ("哨疏云", "疏"),
        ("哨贾疏云", "贾疏"),
        ("哨陆德明云", "陆德明"),
        ("哨王肃云", "王肃"),
        ("哨", None),
    ],
)
def test_a_lead_relays_an_authority_by_any_name_a_note_gives_it(lead: str, via: str | None) -> None:
    assert read_lead(lead) == (Place.AT, "哨", "", via)


def test_a_lead_quoting_an_authority_names_no_place() -> None:
    assert read_lead("疏云天子") == (Place.AT, "", "天子", None)
