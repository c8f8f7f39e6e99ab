"""A note's claim worded from its fields, in English and in Chinese (collate/model/claim_words.py).

The cases are data: a claim as a locus carries it, its English one-liner (what the JSON, the TEI
and the notes table write) and its Chinese (what the HTML edition and the review show).
"""

from __future__ import annotations

import pytest

from collate.model import Layer
from collate.model.annotations import ClaimKind, NoteClaim, Place
from collate.model.claim_words import chinese, english

READS, ADDS, LACKS = ClaimKind.READS, ClaimKind.ADDS, ClaimKind.LACKS
DD, ZS = ("DD",), ("ZS",)

CASES: list[tuple[NoteClaim, str, str]] = [
    (NoteClaim(READS, "大戴礼", DD, "哨", "峭"), "大戴礼 (DD) reads 峭 for 哨", "大戴礼（DD）作峭，底本作哨"),
    (NoteClaim(READS, "注疏本", ZS, "也", "也"), "注疏本 (ZS) reads 也 as the base", "注疏本（ZS）亦作也，同底本"),
    (NoteClaim(READS, "注疏本", ZS, "也", ""), "注疏本 (ZS) reads ∅ for 也", "注疏本（ZS）無也"),
    (NoteClaim(READS, "石經", (), "", "升"), "石經 reads 升 for ∅", "石經作升"),
    (
        NoteClaim(ADDS, "大戴礼", DD, "", "干", Place.BEFORE, "樂正"),
        "大戴礼 (DD) adds 干 before 樂正",
        "大戴礼（DD）「樂正」上多干",
    ),
    (NoteClaim(ADDS, "石經", (), "", "某某", Place.AFTER, "辭"), "石經 adds 某某 after 辭", "石經「辭」下多某某"),
    (NoteClaim(ADDS, "石經", (), "", "某某", Place.AFTER), "石經 adds 某某", "石經多某某"),  # no phrase: no place
    (
        NoteClaim(ADDS, "石經", (), "", "某某", Place.CHAPTER_END),
        "石經 adds 某某 at the end of the chapter",
        "石經篇末多某某",
    ),
    (
        NoteClaim(LACKS, "監本", (), "之", "", Place.SECTION_START),
        "監本 lacks 之 at the start of the section",
        "監本此節之首無之",
    ),
    (
        NoteClaim(ADDS, "大戴礼", DD, "", "终则复始", Place.SECTION_END),
        "大戴礼 (DD) adds 终则复始 at the end of the section",
        "大戴礼（DD）此節之末多终则复始",
    ),
    # 疏内却兼言天子: no edition named, a layer of the base.
    (NoteClaim(LACKS, "", (), "天子", "", layer=Layer.SHU), "the shu lacks 天子", "疏無天子"),
    (NoteClaim(LACKS, "", (), "天子", "", layer=Layer.COMMENTARY), "the commentary lacks 天子", "諸家說無天子"),
    (NoteClaim(ClaimKind.SUPERFLUOUS, "", (), "", "之"), "the jing: 之 is superfluous", "經之字衍"),
    (NoteClaim(ClaimKind.SUPERFLUOUS, "監本", (), "", "之"), "監本: 之 is superfluous", "監本之字衍"),
    (
        NoteClaim(ClaimKind.EMEND, "", (), "賓", "實", resp="朱子"),
        "朱子 emends 賓 to 實 in the base",
        "朱子謂底本賓當作實",
    ),
    (
        NoteClaim(ClaimKind.EMEND, "監本", ("JB",), "賓", "實", resp="朱子"),
        "朱子 emends 賓 to 實 in 監本 (JB)",
        "朱子謂監本（JB）賓當作實",
    ),
    # Words a sentence read back by pattern would split wrongly are words like any other.
    (
        NoteClaim(READS, "大戴礼", DD, "哨", "峭 for 嘯"),
        "大戴礼 (DD) reads 峭 for 嘯 for 哨",
        "大戴礼（DD）作峭 for 嘯，底本作哨",
    ),
    (NoteClaim(READS, "大戴礼", DD, "哨", "∅"), "大戴礼 (DD) reads ∅ for 哨", "大戴礼（DD）作∅，底本作哨"),
]


@pytest.mark.parametrize(("claim", "en", "zh"), CASES)
def test_a_claim_in_english_and_in_chinese(claim: NoteClaim, en: str, zh: str) -> None:
    assert english(claim) == en
    assert chinese(claim) == zh


def test_the_siglum_named_is_the_first_of_the_sigla() -> None:
    claim = NoteClaim(READS, "大戴礼", ("DD", "DDR"), "哨", "峭")
    assert claim.siglum == "DD" and NoteClaim(READS, "石經", (), "哨", "峭").siglum is None
    assert (english(claim), chinese(claim)) == ("大戴礼 (DD) reads 峭 for 哨", "大戴礼（DD）作峭，底本作哨")


def test_show_writes_the_readings_and_the_kind_is_read_from_the_fields() -> None:
    """``show`` (the review cuts a long reading short) writes the readings; whether the witness
    agrees with the base is decided on the readings themselves."""
    long = NoteClaim(READS, "大戴礼", DD, "今日泰射" * 10, "今日泰射" * 10 + "也")

    def cut(text: str) -> str:
        return text[:4] + "…"

    assert english(long, cut) == "大戴礼 (DD) reads 今日泰射… for 今日泰射…"
    assert chinese(long, cut) == "大戴礼（DD）作今日泰射…，底本作今日泰射…"
