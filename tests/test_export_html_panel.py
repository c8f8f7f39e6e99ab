"""The panel of each locus (witnesses, alignment window, notes, verdicts, decisions) and the coverage strips."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

import pytest
from builders import DD_SHAO, has_class, html_collation, locus_by_lemma, page_of, parse

from collate.apparatus import Collation
from collate.exporters.html import build_html
from collate.model import SourceLocation, Witness
from collate.model.annotations import ClaimKind, DecisionAction, EditorDecision, NoteClaim


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


def test_panel_lists_every_witness_reading(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    doc = page_of(built)
    locus = locus_by_lemma(collation, "旨")
    section = doc.get_element_by_id(f"d-{locus.id}")
    rows = section.xpath(f".//table[{has_class('wits')}]/tr")
    cells = [[c.text_content().strip() for c in row.xpath("./th | ./td")] for row in rows]
    assert cells[0][:3] == ["四庫本SK", "旨", "底本"]
    assert cells[0][3] == "頁1b 行1"
    assert cells[1][:3] == ["注疏本ZS", "美", "異文"]
    assert cells[1][3] == "行1 列23"  # ZS has no printed pages: its line and column
    assert cells[2][0] == "大戴禮DD" and "無記載" in cells[2][1]
    # The alignment around the locus, ZS's own characters, the variant cell marked.
    window = section.xpath(f".//table[{has_class('align')}]")[0]
    zs_row = window.xpath("./tr")[1]
    assert "".join(td.text or "" for td in zs_row.xpath("./td")) == "樂賓賓曰子有美酒執筭"
    assert zs_row.xpath(f"./td[{has_class('d')}]")[0].text == "美"


def test_panel_of_an_orthographic_variant_and_an_omission(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    doc = page_of(built)
    ortho = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '算').id}")
    row = ortho.xpath(f".//tr[{has_class('c-orthographic')}]")[0]
    assert (
        row.xpath("./td")[0].text == "筭" and "異體字" in row.text_content() and "variant-graph" in row.text_content()
    )
    omission = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '某').id}")
    row = omission.xpath(f".//tr[{has_class('c-omission')}]")[0]
    assert row.xpath("./td")[0].text_content() == "〔無〕"


def test_sparse_reading_and_attached_note(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    doc = page_of(built)
    locus = locus_by_lemma(collation, "哨")
    section = doc.get_element_by_id(f"d-{locus.id}")
    dd = section.xpath(f".//table[{has_class('wits')}]/tr")[2]
    assert dd.xpath("./td")[0].text == "峭" and "據 蕙田案" in dd.text_content()
    box = section.xpath(f".//div[{has_class('notebox')}]")[0]
    # The locus carries the claim as its fields: the page words them in Chinese.
    assert "今本大戴礼乃作峭谬甚" in box.text_content()
    assert box.xpath(".//li")[0].text == "今本大戴礼（DD）作峭，底本作哨"
    # The note at its own place links to the locus it judges.
    (note,) = doc.get_element_by_id("view-text").xpath(f".//aside[{has_class('note')}]")
    assert note.xpath(".//a/@data-locus") == [locus.id]


def test_a_note_is_worded_from_its_claims_fields(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    """Readings that would break a sentence read back by pattern (a space, `` for ``, a literal ∅)
    are words like any other: the panel says what the fields say."""
    collation, sk, witnesses = built
    locus = locus_by_lemma(collation, "哨")
    (note,) = locus.notes
    claims = (replace(DD_SHAO, reading="峭 for 嘯"), replace(DD_SHAO, witness="石經", sigla=(), reading="∅"))
    noted = collation.with_locus(locus.with_notes((replace(note, claims=claims),)))
    section = page_of((noted, sk, witnesses)).get_element_by_id(f"d-{locus.id}")
    items = section.xpath(f".//div[{has_class('notebox')}]//li")
    assert [li.text for li in items] == ["今本大戴礼（DD）作峭 for 嘯，底本作哨", "石經作∅，底本作哨"]


@dataclass(frozen=True)
class FakeNote:
    start: int


class FakeVerdict(str, Enum):
    CONTRADICTED = "contradicted"
    NOT_CHECKABLE = "not checkable"


@dataclass(frozen=True)
class FakeClaim:
    """What the page reads of a claim (``collate.notes.Claim`` has more)."""

    note: FakeNote
    base_start: int | None
    base_end: int | None
    witness: str = "今本大戴礼"
    siglum: str | None = "DD"
    kind: ClaimKind = ClaimKind.READS
    via: str | None = None

    def record(self) -> NoteClaim:
        return DD_SHAO


@dataclass(frozen=True)
class FakeCheck:
    claim: FakeClaim
    verdict: FakeVerdict
    witness: str | None = "ZS"
    actual: str = "哨"
    location: SourceLocation | None = None


def test_claim_verdicts_shown_in_chinese(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, sk, _ = built
    at = sk.text.index("哨")
    check = FakeCheck(FakeClaim(FakeNote(sk.text.index("今本")), at, at + 1), FakeVerdict.CONTRADICTED)
    doc = page_of(built, checks=[check])
    section = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '哨').id}")
    (item,) = section.xpath(f".//ul[{has_class('checks')}]/li")
    assert item.xpath("./span")[0].text == "相反"
    assert item.text_content() == "相反 今本大戴礼（DD）作峭，底本作哨注疏本（ZS）實作哨"
    (note,) = doc.get_element_by_id("view-text").xpath(f".//aside[{has_class('note')}]")
    assert note.xpath(f".//span[{has_class('verdict')}]")[0].text == "相反"
    assert "今本大戴礼（DD）作峭，底本作哨" in note.xpath(f".//p[{has_class('judges')}]")[0].text_content()
    other = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '旨').id}")
    assert not other.xpath(f".//ul[{has_class('checks')}]")


def test_a_claim_not_checkable_says_why_in_chinese(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, sk, _ = built
    at = sk.text.index("哨")
    claim = FakeClaim(FakeNote(sk.text.index("今本")), at, at + 1)
    check = FakeCheck(claim, FakeVerdict.NOT_CHECKABLE, witness=None, actual="")
    section = page_of(built, checks=[check]).get_element_by_id(f"d-{locus_by_lemma(collation, '哨').id}")
    (item,) = section.xpath(f".//ul[{has_class('checks')}]/li")
    assert item.xpath("./span")[0].text == "無從核對"
    assert item.xpath(f"./span[{has_class('src')}]")[0].text == "大戴禮（DD）只收案語所引異文，無全文可核"


def test_rows_name_their_witness(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    """Every row of a witness (readings, alignment, coverage) says whose it is: it can be switched off."""
    collation, _, _ = built
    doc = page_of(built)
    section = doc.get_element_by_id(f"d-{locus_by_lemma(collation, '哨').id}")
    assert section.xpath(f".//table[{has_class('wits')}]/tr/@data-w") == ["SK", "ZS", "DD"]
    assert section.xpath(f".//table[{has_class('align')}]/tr/@data-w") == ["SK", "ZS", "DD"]
    coverage = doc.xpath("//section[@aria-label='存佚']")[0]
    assert coverage.xpath(f".//div[{has_class('cov-row')}]/@data-w") == ["SK", "ZS", "DD", "SK", "ZS"]


def test_decisions_shown(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    locus = locus_by_lemma(collation, "旨")
    doubt = locus_by_lemma(collation, "某")
    decisions = {
        locus.id: EditorDecision(
            (DecisionAction.ADOPT,), ("ed",), "2026-01-02", "美", adopted="美", siglum="ZS", comment="從注疏本"
        ),
        doubt.id: EditorDecision((DecisionAction.DOUBT,), ("ed",), "2026-01-02", "某", doubtful=True),
    }
    doc = page_of(built, decisions=decisions)
    box = doc.get_element_by_id(f"d-{locus.id}").xpath(f".//div[{has_class('decision')}]")[0]
    assert "改從" in box.text_content() and "美（從注疏本）" in box.text_content() and "從注疏本" in box.text_content()
    view = doc.get_element_by_id("view-text")
    assert "decided" in view.xpath(".//*[@data-locus=$id]", id=locus.id)[0].get("class").split()
    assert {"decided", "doubt"} <= set(view.xpath(".//*[@data-locus=$id]", id=doubt.id)[0].get("class").split())
    undecided = locus_by_lemma(collation, "算")
    assert "decided" not in view.xpath(".//*[@data-locus=$id]", id=undecided.id)[0].get("class").split()
    # A decision the locus carries is shown without being passed in.
    carried = collation.with_locus(locus.with_decision(decisions[locus.id]))
    doc = parse(build_html(carried, built[1], witnesses=built[2]))
    assert doc.get_element_by_id(f"d-{locus.id}").xpath(f".//div[{has_class('decision')}]")


def test_coverage_strips(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    doc = page_of(built)
    coverage = doc.xpath("//section[@aria-label='存佚']")[0]
    widths = [e.get("style") for e in coverage.xpath(f".//div[{has_class('ext')}]")]
    # 經: SK over all 24 columns, ZS over 0..21; 注: both over everything.
    assert widths == ["left:0.00%;width:100.00%", "left:0.00%;width:91.67%"] + ["left:0.00%;width:100.00%"] * 2
    ticks = coverage.xpath(f".//button[{has_class('tick')}]/@data-locus")
    assert len(ticks) == 5 + 1  # every shown locus, and DD's one place again on its own strip
    assert "頁1a 行1 – 頁1b 行1 · 24 字" in coverage.text_content()
