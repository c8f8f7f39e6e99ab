"""The notes' claims and their checks said in Chinese (collate/exporters/html/claims.py).

The cases are data: a claim's English one-liner as the notes stage writes it, and the words
the page shows. Every claim of the default project must come out the same from its fields
and from its one-liner, and no English must be left in what the page says about notes.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from builders import has_class, parse, run_default_project

from collate.exporters.html import run_html
from collate.exporters.html.claims import VERDICT_LABELS, claim_words, evidence_words, summary_words
from collate.exporters.html.context import Context
from collate.results import ExportInput, RunResult

SUMMARIES = [
    ("今本大戴礼 (DD) reads 峭 for 哨", "今本大戴礼（DD）作峭，底本作哨"),
    ("注疏本 (ZS) reads 也 as the base", "注疏本（ZS）亦作也，同底本"),
    ("注疏本 (ZS) reads ∅ for 也", "注疏本（ZS）無也"),
    ("大戴礼 (DD) adds 干 before 樂正", "大戴礼（DD）「樂正」上多干"),
    ("石經 adds 某某 after 辭", "石經「辭」下多某某"),
    ("石經 adds 某某 at the end of the chapter", "石經篇末多某某"),
    ("監本 lacks 之 at the start of the section", "監本此節之首無之"),
    ("the shu lacks 天子", "疏無天子"),
    ("the base: 之 is superfluous", "底本之字衍"),
    ("朱子 emends 賓 to 實 in the base", "朱子謂底本賓當作實"),
    ("朱子 emends 賓 to 實 in 監本 (JB)", "朱子謂監本（JB）賓當作實"),
    ("a line no grammar knows", "a line no grammar knows"),
]
# English the notes stage writes that must not reach the page's words about notes.
ENGLISH = re.compile(r"\b(reads|adds|lacks|emends|superfluous|has|the|not|for|base)\b")


@pytest.fixture(scope="module")
def run() -> RunResult:
    return run_default_project()


@pytest.mark.parametrize(("summary", "words"), SUMMARIES)
def test_summary_in_chinese(summary: str, words: str) -> None:
    assert summary_words(summary) == words


def test_every_claim_reads_the_same_from_its_fields_and_its_summary(run: RunResult) -> None:
    assert run.notes is not None and run.notes.claims
    for claim in run.notes.claims:
        # The one-liner does not say through whom a claim is relayed (疏云…): its fields do.
        assert summary_words(claim.summary()) == claim_words(replace(claim, via=None)), claim.summary()
        assert not ENGLISH.search(claim_words(claim)), claim.summary()


def test_evidence_in_chinese(run: RunResult) -> None:
    assert run.notes is not None
    data = ExportInput.of(run)
    ctx = Context.of(run.collation, data.base, data.witnesses, {}, run.notes.checks)
    for check in run.notes.checks:
        words = evidence_words(ctx, check)
        assert words and not ENGLISH.search(words), (check.evidence, words)


def test_the_page_says_nothing_of_notes_in_english(run: RunResult) -> None:
    doc = parse(run_html(ExportInput.of(run)))
    said = doc.xpath(
        f"//ul[{has_class('checks')}] | //div[{has_class('notebox')}]//li | //p[{has_class('judges')}]"
        f" | //span[{has_class('verdict')}]"
    )
    assert said
    for element in said:
        assert not ENGLISH.search(element.text_content()), element.text_content()
    verdicts = {e.text for e in doc.xpath(f"//span[{has_class('verdict')}]")}
    assert verdicts <= set(VERDICT_LABELS.values())
