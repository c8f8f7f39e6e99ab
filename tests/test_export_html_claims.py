"""The notes' claims and their checks said in Chinese (collate/exporters/html/claims.py).

A claim is worded from its fields (:func:`collate.model.claim_words.chinese`, whose cases are in
tests/test_model_claim_words.py), the same on the page's checks as on the loci's notes; no
English must be left in what the page says about notes.
"""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from builders import has_class, parse, run_default_project

from collate.exporters.html import run_html
from collate.exporters.html.claims import claim_words, evidence_words
from collate.exporters.html.context import Context
from collate.model.claim_words import VERDICT_LABELS, chinese
from collate.results import ExportInput, RunResult

# English the notes stage writes that must not reach the page's words about notes.
ENGLISH = re.compile(r"\b(reads|adds|lacks|emends|superfluous|has|the|not|for|base)\b")


@pytest.fixture(scope="module")
def run() -> RunResult:
    return run_default_project()


def test_every_claim_reads_the_same_checked_and_on_its_locus(run: RunResult) -> None:
    assert run.notes is not None and run.notes.claims
    for claim in run.notes.claims:
        # A locus's note does not say through whom a claim is relayed (疏云…): its checks do.
        assert claim_words(replace(claim, via=None)) == chinese(claim.record()), claim.summary()
        assert claim_words(replace(claim, via="疏")) == f"據疏，{chinese(claim.record())}"
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
