"""Notes checked in their own layer and attached where they speak, on real files.

儀禮·燕禮: the 注疏本 (WYG, base ZS, with the juan's 考證), the 鄭注本 (SBCK, ZZ) and 敖繼公's
集說本 (WYG, JS: the 考證's 敖本). 五禮通考 卷163 (SK) with the 禮記注疏 射義 (ZS). Every
verdict and place below was checked by reading the files at the line given.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import shared_project

from collate.apparatus import ReadingClass
from collate.model import Layer
from collate.notes import Claim, NotesResult, Verdict
from collate.notes.attach import UNATTACHED, unattached
from collate.notes.claims import parse_note
from collate.pipeline import collate_project
from collate.results import RunResult

YANLI = {
    "ZS": ("yili-yanli-zhushu-kanripo-WYG.txt", "注疏本"),
    "ZZ": ("yili-yanli-zhengzhu-kanripo-SBCK.txt", "鄭注本"),
    "JS": ("yili-jishuo-yanli-kanripo-WYG.txt", "集說本"),
}
# 敖本 is 敖繼公《儀禮集說》; 鄭本 is 鄭玄's text, as 敖繼公 cites it.
LEXICON = {"敖本": "JS", "鄭本": "ZZ"}


def _run(root: Path, lexicon: dict[str, Any]) -> RunResult:
    project = shared_project(root, "ZS", YANLI)
    return collate_project(replace(project, sections={"notes": {"lexicon": lexicon}}))


@pytest.fixture(scope="module")
def yanli(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return _run(tmp_path_factory.mktemp("yanli"), LEXICON)


@pytest.fixture(scope="module")
def juan163(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    files = {
        "SK": ("wuli-tongkao-juan163-kanripo-master.txt", "四庫本"),
        "ZS": ("liji-sheyi-zhushu-kanripo-WYG.txt", "注疏本"),
    }
    project = shared_project(tmp_path_factory.mktemp("juan163"), "SK", files)
    return collate_project(replace(project, work="射義"))


def notes_of(run: RunResult) -> NotesResult:
    assert run.notes is not None
    return run.notes


def claim_of(result: NotesResult, note_start: str, witness: str) -> Claim:
    note = next(n for n in result.notes if n.text.startswith(note_start))
    return next(c for c in result.claims_of(note) if c.witness == witness)


# The claim grammar on the 考證's own words (folded, as a note is parsed).
GRAMMAR = [
    ("實監本譌作賓今改正", "監本", "reads", "實", "賓"),
    ("三百人監本譌作上士今考春官大師小師職文改正", "監本", "reads", "三百人", "上士"),
    ("石經及敖本俱不叠賓字", "敖本", "reads", "賓賓", "賓"),
    ("石經叠大夫二字衍", "石經", "reads", "大夫", "大夫大夫"),
    ("石經及楊本敖本就席上有升字", "敖本", "adds", "", "升"),
    ("石經及楊本敖本上文有其牲狗也四字", "敖本", "adds", "", "其牲狗也"),
    ("送監本譌作受今依石經及朱子本敖本改正", "敖本", "reads", "送", "送"),
]


@pytest.mark.parametrize(("text", "witness", "kind", "base", "reading"), GRAMMAR)
def test_the_kaozheng_grammar(text: str, witness: str, kind: str, base: str, reading: str) -> None:
    claim = next(c for c in parse_note(text) if c.witness == witness)
    assert (claim.kind.value, claim.base, claim.reading) == (kind, base, reading)


def test_a_layer_named_in_a_note_is_the_claim_layer() -> None:
    (claim,) = parse_note("此經文只舉諸侯而疏内却兼言天子盖天子本有燕射之禮")
    assert (claim.witness, claim.kind.value, claim.reading, claim.layer) == ("", "adds", "天子", Layer.SHU)


# 考證 notes on the 疏 (the heading names it: 經 words, 疏, 疏 words): placed in the base's 疏, at
# the line where those 疏 words stand, the character the note speaks of inside them.
SHU_NOTES = [
    ("小臣納卿大夫疏正常在君左右", "監本", "正", 134),
    ("若君命皆致疏按鄉飲鄉射", "監本", "鄉飲", 345),
    ("請致者疏非實也", "監本", "實", 467),
    ("疏對小師已下三百人為下工也", "監本", "三百人", 625),
    ("士不拜受爵疏今乃没賓不言賓", "監本", "沒", 849),
]


@pytest.mark.parametrize(("note", "witness", "words", "line"), SHU_NOTES)
def test_a_kaozheng_note_on_the_shu_is_placed_in_the_shu(
    yanli: RunResult, note: str, witness: str, words: str, line: int
) -> None:
    claim = claim_of(notes_of(yanli), note, witness)
    base = yanli.read.base
    assert claim.layer is Layer.SHU
    assert claim.base_start is not None and claim.base_end is not None
    assert base.text[claim.base_start : claim.base_end] == words
    assert base.locate(claim.base_start).line == line
    (check,) = notes_of(yanli).checks_of(claim)
    assert check.verdict is Verdict.NOT_CHECKABLE  # 監本 is not collated


def test_a_kaozheng_note_on_the_zhu_is_anchored_in_the_zhu(yanli: RunResult) -> None:
    result = notes_of(yanli)
    note = next(n for n in result.notes if n.text.startswith("注象觚觚有象骨飾也"))
    anchor = result.anchor_of(note)
    assert anchor is not None and anchor.layer is Layer.ZHU
    assert yanli.read.base.locate(anchor.start).line == 262


# Claims on the 經 of a collated edition: (note, witness, verdict, what it reads, file, line).
VERDICTS = [
    ("主人盥洗象觚升實之", "敖本", Verdict.CONFIRMED, "實", "yili-jishuo-yanli-kanripo-WYG.txt", 249),
    ("西階上坐奠爵拜賓賓", "敖本", Verdict.CONFIRMED, "賔", "yili-jishuo-yanli-kanripo-WYG.txt", 309),
    ("卒射人乃升大夫大夫皆就席", "敖本", Verdict.CONFIRMED, "升", "yili-jishuo-yanli-kanripo-WYG.txt", 563),
    # The note's 干 is the 于 of 大師告于樂正: an addition there, in another character.
    ("太師告樂正曰正歌備", "敖本", Verdict.PARTLY, "于", "yili-jishuo-yanli-kanripo-WYG.txt", 615),
    ("主人拜送觶", "敖本", Verdict.CONFIRMED, "送", "yili-jishuo-yanli-kanripo-WYG.txt", 692),
    ("大夫立卒爵不拜實之", "敖本", Verdict.CONFIRMED, "實", "yili-jishuo-yanli-kanripo-WYG.txt", 811),
    ("亨于門外東方", "敖本", Verdict.CONFIRMED, "其牲狗也", "yili-jishuo-yanli-kanripo-WYG.txt", 953),
    # 敖繼公's own 正誤 note: 鄭本 reads 媵觚 where he prints 騰觚.
    ("騰觚于賔", "鄭本", Verdict.CONFIRMED, "媵觚", "yili-yanli-zhengzhu-kanripo-SBCK.txt", 96),
]


@pytest.mark.parametrize(("note", "witness", "verdict", "actual", "name", "line"), VERDICTS)
def test_claims_on_the_jing_checked_by_hand(
    yanli: RunResult, note: str, witness: str, verdict: Verdict, actual: str, name: str, line: int
) -> None:
    result = notes_of(yanli)
    claim = claim_of(result, note, witness)
    assert claim.layer is Layer.JING
    (check,) = result.checks_of(claim)
    assert (check.verdict, check.actual) == (verdict, actual)
    assert check.location is not None and Path(check.location.path).name == name and check.location.line == line


def test_no_claim_is_contradicted_by_a_layer_it_does_not_speak_of(tmp_path: Path) -> None:
    """A project that took the 鄭注本 for the 監本: the 考證's claims on the 疏 are not checkable
    (it has no 疏), never contradicted by its 經; those on the 經 are checked there."""
    result = notes_of(_run(tmp_path, {**LEXICON, "監本": "ZZ"}))
    checks = [c for c in result.checks if c.witness == "ZZ" and c.claim.witness == "監本"]
    on_shu = [c for c in checks if c.claim.layer is Layer.SHU]
    assert len(on_shu) == 5 and all(c.verdict is Verdict.NOT_CHECKABLE and "has no shu" in c.evidence for c in on_shu)
    on_jing = [c for c in checks if c.claim.layer is Layer.JING]
    # ZZ reads 實 (line 85), 送 (249), 實 (279) where the 考證 says 監本 reads 賓, 受, 賓.
    assert [(c.verdict, c.actual, c.location.line if c.location else 0) for c in on_jing] == [
        (Verdict.CONTRADICTED, "實", 85),
        (Verdict.CONTRADICTED, "送", 249),
        (Verdict.CONTRADICTED, "實", 279),
    ]


def test_a_note_goes_to_the_addition_its_claim_reports(yanli: RunResult) -> None:
    loci = [x for x in yanli.collation.loci() if any(n.text.startswith("卒射人乃升大夫") for n in x.notes)]
    assert [(x.lemma.text, getattr(x.reading_of("JS"), "text", None)) for x in loci] == [("", "升")]
    (note,) = loci[0].notes
    assert [(v.siglum, v.verdict) for v in note.verdicts if v.siglum] == [("JS", Verdict.CONFIRMED)]


def test_a_note_of_another_witness_goes_where_its_own_text_stands(yanli: RunResult) -> None:
    """敖繼公's 騰觚于賔 note is placed through the 集說本's tokens, at the locus where it reads 騰."""
    (locus,) = [x for x in yanli.collation.loci() if any(n.text.startswith("騰觚于賔") for n in x.notes)]
    reading = locus.reading_of("JS")
    assert reading is not None and (locus.lemma.text, reading.text) == ("媵", "騰")
    (note,) = locus.notes
    assert note.witness == "JS"


def test_notes_with_claims_and_no_locus_are_listed(yanli: RunResult) -> None:
    gone = {n.text[:9] for n in unattached(yanli.collation, notes_of(yanli))}
    # Every collated witness reads 實 there, as the base: no locus, the note is listed.
    assert "主人盥洗象觚升實之" in gone
    listed = [d for d in yanli.collation.diagnostics if d.diagnostic.code == UNATTACHED]
    assert len(listed) == len(gone)


def test_the_huitian_note_on_the_shu_goes_to_the_shu_addition(juan163: RunResult) -> None:
    """蕙田案此經文只舉諸侯而疏内却兼言天子 (卷163 頁27a): the 注疏本's 疏 opens with 此一萹之義…
    明天子以下…, which 五禮通考 leaves out: the note is on that addition, on nothing else."""
    loci = [x for x in juan163.collation.loci() if any("疏内却兼言天子" in n.text for n in x.notes)]
    assert len(loci) == 1
    (locus,) = loci
    reading = locus.reading_of("ZS")
    assert locus.layer is Layer.SHU and reading is not None and reading.cls is ReadingClass.ADDITION
    assert reading.text.startswith("此一萹之義廣説射禮明天子以下")
    placeholders = [x for x in juan163.collation.loci() if x.cls is ReadingClass.PLACEHOLDER]
    assert placeholders and not any(x.notes for x in placeholders)


def test_the_tei_gives_each_attached_note_its_verdicts(yanli: RunResult, tei_schema: Any) -> None:
    from lxml import etree

    from collate.exporters.tei import NS, build_tei, tei_bytes
    from collate.results import ExportInput
    from collate.validate import load_schema, rule_problems, shipped_schema

    tree = etree.ElementTree(etree.fromstring(tei_bytes(build_tei(ExportInput.of(yanli)))))
    details = tree.xpath("//tei:app/tei:note[@type='editorial']/tei:witDetail[@type='verdict']", namespaces=NS)
    got = sorted((d.get("wit"), d.get("subtype")) for d in details)
    # Of the 8 verdicts on collated witnesses, those of the 5 notes that stand on a locus.
    assert got == [("#JS", "confirmed")] * 3 + [("#JS", "partly"), ("#ZZ", "confirmed")]
    (added,) = [d for d in details if "其牲狗也" in (d.text or "")]
    (rdg,) = tree.xpath(f"//tei:rdg[@xml:id='{added.get('target')[1:]}']", namespaces=NS)
    assert "".join(rdg.itertext()) == "其牲狗也" and "（頁006-53b行1）" in added.text
    assert tei_schema.validate(tree), [e.message for e in tei_schema.error_log][:3]
    assert load_schema(shipped_schema()).validate(tree)
    assert [p.message for p in rule_problems(tree)[0]] == []
