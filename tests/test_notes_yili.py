"""The Siku editors' 【案…】 notes of seed 002 read as claims about 今注疏本, 宋本, 唐石经."""

from __future__ import annotations

import pytest
from conftest import SEED_002

from collate.notes import ClaimKind, NotesResult, Verdict, notes_for_witnesses
from collate.readers import read_witness


@pytest.fixture(scope="module")
def result() -> NotesResult:
    return notes_for_witnesses([read_witness(SEED_002, siglum="YL", layout="yili-inline")])


def summaries(result: NotesResult, name: str) -> list[str]:
    return [c.summary() for c in result.claims if c.witness == name]


def test_zhushu_claims(result: NotesResult) -> None:
    got = summaries(result, "今注疏本")
    assert got == [
        "今注疏本 reads 于 for ?",
        "今注疏本 reads 也 for 事",
        "今注疏本 adds 则经兽侯是也 after 张此侯",
        "今注疏本 lacks 也",
        "今注疏本 reads 右物 for 物右",
        "今注疏本 reads 防 for 薰",
        "今注疏本 lacks 也",
        "今注疏本 reads 从 for 后",
        "今注疏本 reads 拜送之 for 送拜之",
        "今注疏本 reads 用 for 于",
        "今注疏本: 者 is superfluous after 正二寸",
        "今注疏本 reads 宾 for 寡",
        "今注疏本 lacks 南",
    ]


def test_song_edition_reads_as_the_base_where_the_editors_corrected(result: NotesResult) -> None:
    song = [c for c in result.claims if c.witness == "宋本"]
    assert len(song) == 12
    agree = [c for c in song if c.kind is ClaimKind.READS]
    assert all(c.reading == c.base and c.base for c in agree)
    lacks = sorted(c.base for c in song if c.kind is ClaimKind.LACKS)
    assert lacks == ["则经兽侯是也", "者"]


def test_tang_stone_classics(result: NotesResult) -> None:
    assert summaries(result, "唐石经") == ["唐石经 reads 拳 as the base", "唐石经 reads 薰 as the base"]


def test_every_claim_has_its_place_and_none_is_checkable_without_full_texts(result: NotesResult) -> None:
    assert not result.unplaced
    assert {c.verdict for c in result.checks} == {Verdict.NOT_CHECKABLE}
    emend = next(c for c in result.claims if c.kind is ClaimKind.EMEND)
    assert (emend.base, emend.reading, emend.resp) == ("拳", "奉", "朱子仪礼经传通解本")
