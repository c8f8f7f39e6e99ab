"""A witness's own report of another text's reading (采蘩一作「繁」): a claim, tied to the entry at its place.

The notes stage reads the note as one claim (another text reads 繁 for the 蘩 the note follows);
attaching it to the apparatus checks it on the alignment: the witnesses that read 繁 there confirm it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GAIJI, SHARED, need_shared

from collate.model import Layer
from collate.model.annotations import Verdict
from collate.notes import ClaimKind, notes_for_witnesses
from collate.notes.collect import notes_of
from collate.notes.resolve import ANOTHER_TEXT
from collate.pipeline import collate_project
from collate.project import load_project
from collate.readers import read_witness

WITNESSES = {
    # The base, a print: 采蘩, 脩身.
    "ZW": "其節士以采蘩為節采蘩者樂不失職也不從流俗脩身以俟死\n",
    # Another print: 采繁, 脩身.
    "ZT": "其節士以采繁為節采繁者樂不失職也不從流俗脩身以俟死\n",
    # A web edition with its own variant notes: 采蘩一作「繁」, 修一作「脩」.
    "WS": "其節：士以《采蘩一作「繁」》為節。《采蘩》者，樂不失職也。不從流俗，修一作「脩」身以俟死。\n",
}


def project(folder: Path, witnesses: dict[str, str] = WITNESSES) -> Path:
    lines = ['title = "射義"', 'name = "sheyi"', 'base = "ZW"']
    for siglum, text in witnesses.items():
        (folder / f"{siglum}.txt").write_text(text, encoding="utf-8")
        lines += ["", "[[witness]]", f'siglum = "{siglum}"', f'label = "{siglum}本"', f'path = "{siglum}.txt"']
        lines.append('layout = "plain"')
    (folder / "collate.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder / "collate.toml"


def test_a_variant_note_is_the_witness_s_own_and_says_it() -> None:
    path = Path("WS.txt")
    path.write_text(WITNESSES["WS"], encoding="utf-8")
    ws = read_witness(path, siglum="WS", label="維基本")
    notes = notes_of(ws)
    assert [(n.label, n.text, n.variant, n.resp) for n in notes] == [
        ("一作", "繁", True, "維基本"),
        ("一作", "脩", True, "維基本"),
    ]


def test_the_claim_is_that_another_text_reads_the_note_for_as_many_characters_before_it() -> None:
    path = Path("WS.txt")
    path.write_text(WITNESSES["WS"], encoding="utf-8")
    ws = read_witness(path, siglum="WS")
    result = notes_for_witnesses([ws])
    claims = [result.claims_of(n)[0] for n in result.notes]
    assert [(c.witness, c.kind, c.base, c.reading, c.layer) for c in claims] == [
        (ANOTHER_TEXT, ClaimKind.READS, "蘩", "繁", Layer.JING),
        (ANOTHER_TEXT, ClaimKind.READS, "修", "脩", Layer.JING),
    ]
    assert [ws.text[c.base_start : c.base_end] for c in claims if c.base_start is not None and c.base_end] == [
        "蘩",
        "修",
    ]
    assert all(a.text == c.base for a, c in zip(result.anchors, claims, strict=True))
    # No edition is named: the notes stage, which has no alignment, leaves it to the entry.
    assert [k.verdict for c in claims for k in result.checks_of(c)] == [Verdict.NOT_CHECKABLE] * 2


def test_the_entry_at_the_place_carries_the_note_and_the_witnesses_reading_so_confirm_it(tmp_path: Path) -> None:
    run = collate_project(load_project(project(tmp_path)))
    noted = [(x.lemma.text, x.cls.value, n) for x in run.collation.loci() for n in x.notes]
    assert [(lemma, cls, n.text, n.resp, n.witness) for lemma, cls, n in noted] == [
        ("蘩", "substantive", "一作「繁」", "WS本", "WS"),
        ("脩", "orthographic", "一作「脩」", "WS本", "WS"),
    ]
    fan, xiu = (n for _, _, n in noted)
    assert [(v.siglum, v.verdict, v.actual) for v in fan.verdicts] == [("ZT", Verdict.CONFIRMED, "繁")]
    # The base reads 脩 too: the claim's base is the base's characters there, not the note's witness's 修.
    assert [(v.siglum, v.verdict) for v in xiu.verdicts] == [("ZW", Verdict.CONFIRMED), ("ZT", Verdict.CONFIRMED)]
    assert (xiu.claims[0].base, xiu.claims[0].reading) == ("脩", "脩")
    # The 校勘記 quotes the note after the entry, a sentence of its own: a quoted word is no end of one.
    from collate.exporters.jiaokanji import build_jiaokanji

    lines = [x for x in build_jiaokanji(run.collation, run.read.by_siglum()).splitlines() if "「蘩」作" in x]
    assert [x.endswith("WS本曰：一作「繁」。") for x in lines] == [True, False]  # the note stands at its place
    # The run's summary counts them as the entries checked them, not as the notes stage could not.
    from collate.views.run import notes_line

    assert notes_line(run).plain.endswith("2 claims; their checks against the witnesses: 3 confirmed")
    # The TEI labels it as the witness's word, not an 案 of the edition.
    from collate.exporters.tei import build_tei
    from collate.results import ExportInput

    tree = build_tei(ExportInput.of(run))
    ns = {"tei": "http://www.tei-c.org/ns/1.0"}
    assert {n.get("n") for n in tree.xpath("//tei:app/tei:note[@type='editorial']", namespaces=ns)} == {"WS本曰"}
    assert fan.verdicts[0].location is not None and fan.verdicts[0].location.line == 1
    # The second 采蘩 has no note: its entry has none.
    assert sum(1 for x in run.collation.loci() if x.lemma.text == "蘩") == 2


def test_where_no_witness_reads_so_the_claim_stays_not_checkable(tmp_path: Path) -> None:
    witnesses = {**WITNESSES, "ZT": WITNESSES["ZT"].replace("采繁者", "采蘋者").replace("采繁為", "采蘋為")}
    run = collate_project(load_project(project(tmp_path, witnesses)))
    (fan,) = [n for x in run.collation.loci() for n in x.notes if n.text == "一作「繁」"]
    assert [(v.siglum, v.verdict) for v in fan.verdicts] == [(None, Verdict.NOT_CHECKABLE)]
    assert "no witness of the project reads 繁" in fan.verdicts[0].evidence


WIKISOURCE = SHARED / "witnesses" / "liji-sheyi-wikisource-hangsau.txt"


@pytest.mark.shared
def test_the_sheyi_collation_ties_wikisource_s_notes_to_their_entries(tmp_path: Path) -> None:
    files = [
        "liji-sheyi-zhushu-kanripo-WYG.txt",
        "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt",
        "liji-jishuo-chenhao-sheyi-kanripo-WYG.txt",
        "liji-sheyi-kanripo-TLS.txt",
        "liji-sheyi-wikisource-hangsau.txt",
    ]
    for name in files:
        need_shared(SHARED / "witnesses" / name)
    sigla = ["ZW", "ZT", "CH", "TLS", "WS"]
    lines = ['title = "射義"', 'name = "sheyi"', 'base = "ZW"', f'gaiji_table = "{need_shared(GAIJI)}"']
    for siglum, name in zip(sigla, files, strict=True):
        lines += ["", "[[witness]]", f'siglum = "{siglum}"', f'path = "{SHARED / "witnesses" / name}"']
    (tmp_path / "collate.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = collate_project(load_project(tmp_path / "collate.toml"))
    found = {
        (x.lemma.text, n.text): sorted(v.siglum or "" for v in n.verdicts if v.verdict is Verdict.CONFIRMED)
        for x in run.collation.loci()
        for n in x.notes
        if n.witness == "WS"
    }
    assert found == {("蘩", "一作「繁」"): ["TLS", "ZT"], ("脩", "一作「脩」"): ["CH", "TLS", "ZT", "ZW"]}
