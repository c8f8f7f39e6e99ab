"""Decisions applied to a collation: each finds its locus again after edits, or is an orphan."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import CLOCK, REVIEW_BASE, REVIEW_WIT, collate_rows, review_session

from collate.apparatus import Collation, ReadingClass
from collate.decisions import apply_decisions, decision_counts, load_decisions
from collate.decisions.file import Decision
from collate.model.annotations import DecisionAction


@pytest.fixture
def collation() -> Collation:
    """SK and ZS: three places read 哨/峭 (two with the same ten characters around them), two 算/筭."""
    return collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})


def test_adopt_puts_the_editors_lemma_on_the_locus(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml", editor="王")
    s.decide(s.loci[0], DecisionAction.ADOPT, reading=s.loci[0].readings[0], siglum="ZS", comment="大戴同")
    applied, report = apply_decisions(collation, s.decisions)
    locus = next(applied.loci())
    assert locus.decision is not None
    assert (locus.decision.lemma, locus.decision.siglum, locus.decision.resp) == ("峭", "ZS", ("王",))
    assert locus.decision.comment == "大戴同"
    adopted = locus.editor_lemma()
    assert adopted is not None and adopted.sigla == ("ZS",)
    assert locus.lemma.text == "哨"  # the base's reading stays the lemma of record
    assert report.decided == ("jing-00008",) and len(report.undecided) == 4
    assert next(collation.loci()).decision is None  # the input is not changed


def test_reclassify_changes_the_class_and_the_locus_class(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    target = s.loci[3]
    assert target.cls is ReadingClass.ORTHOGRAPHIC
    s.decide(target, DecisionAction.RECLASSIFY, reading=target.readings[0], cls=ReadingClass.SUBSTANTIVE)
    locus = s.collation.locus(target.id)
    assert locus is not None and locus.cls is ReadingClass.SUBSTANTIVE
    assert locus.readings[0].cls is ReadingClass.SUBSTANTIVE
    assert locus.decision is not None and locus.decision.reclassified == ("算",)


def test_a_later_lemma_resolves_doubt_but_doubt_after_a_lemma_stands(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    one, two = s.loci[0], s.loci[1]
    s.decide(one, DecisionAction.DOUBT, comment="unsure")
    s.decide(one, DecisionAction.KEEP)
    s.decide(two, DecisionAction.ADOPT, reading=two.readings[0], siglum="ZS")
    s.decide(two, DecisionAction.DOUBT, comment="tentative")
    first, second = s.collation.locus(one.id), s.collation.locus(two.id)
    assert first is not None and first.decision is not None and not first.decision.doubtful
    assert second is not None and second.decision is not None and second.decision.doubtful
    assert second.decision.lemma == "峭" and second.decision.comment == "tentative"


def test_decisions_follow_the_text_when_the_base_moves(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    # The second and third 枉矢哨壶 share their ten characters of context: only position tells them apart.
    s.decide(s.loci[1], DecisionAction.KEEP)
    s.decide(s.loci[2], DecisionAction.ADOPT, reading=s.loci[2].readings[0], siglum="ZS")
    s.decide(s.loci[4], DecisionAction.DOUBT, comment="执筭")
    # Twelve characters inserted at the start of both texts: every offset moves.
    moved = collate_rows(
        {"SK": "投壶之礼主人奉矢司射奉中" + REVIEW_BASE, "ZS": "投壶之礼主人奉矢司射奉中" + REVIEW_WIT}
    )
    applied, report = apply_decisions(moved, s.decisions)
    assert not report.orphans
    assert [(p.locus, p.moved) for p in report.placed] == [
        ("jing-00031", True),
        ("jing-00044", True),
        ("jing-00059", True),
    ]
    third = applied.locus("jing-00044")
    assert third is not None and third.decision is not None and third.decision.siglum == "ZS"


def test_a_decision_that_no_longer_fits_is_an_orphan_and_stays_in_the_file(
    collation: Collation, tmp_path: Path
) -> None:
    path = tmp_path / "d.toml"
    s = review_session(collation, path)
    s.decide(s.loci[0], DecisionAction.ADOPT, reading=s.loci[0].readings[0], siglum="ZS")
    s.decide(s.loci[3], DecisionAction.KEEP)
    # The witness is corrected at the first place: 哨 there, so that locus is gone.
    corrected = collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT.replace("峭", "哨", 1)})
    later = review_session(corrected, path)
    assert [d.action for d in later.report.orphans] == [DecisionAction.ADOPT]
    assert decision_counts(later.report).orphaned == 1
    later.decide(later.loci[0], DecisionAction.KEEP)
    kept = load_decisions(path)
    assert {d.id for d in s.decisions} <= {d.id for d in kept} and len(kept) == 3


def test_adopting_needs_the_reading_still_there(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    s.decide(s.loci[3], DecisionAction.ADOPT, reading=s.loci[3].readings[0], siglum="ZS")
    # The witness now reads 算 like the base at the first 算 and 筭 only at the second: the
    # adoption must not jump to the other place that still has 筭.
    other = collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT.replace("八筭", "八算")})
    _, report = apply_decisions(other, s.decisions)
    assert len(report.orphans) == 1 and not report.placed


def test_counts(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    s.decide(s.loci[0], DecisionAction.KEEP)
    s.decide(s.loci[3], DecisionAction.KEEP, batch=True)
    counts = decision_counts(s.report)
    assert (counts.decided, counts.undecided, counts.orphaned, counts.moved) == (3, 2, 0, 0)


def test_a_decision_whose_place_is_gone_does_not_move_to_a_place_that_reads_alike(
    collation: Collation, tmp_path: Path
) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    s.decide(s.loci[1], DecisionAction.KEEP)  # the second 哨壶不足辞也敢; the third reads alike around it
    corrected = collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT.replace("峭壶不足辞也敢辞", "哨壶不足辞也敢辞")})
    assert [x.lemma.text for x in corrected.loci()].count("哨") == 2
    _, report = apply_decisions(corrected, s.decisions)
    assert len(report.orphans) == 1 and not report.placed


def test_placing_decisions_looks_only_at_loci_of_the_same_lemma(monkeypatch: pytest.MonkeyPatch) -> None:
    from scan_support import long_collation

    import collate.decisions.apply
    from collate.decisions.file import anchor_of, base_tokens

    collation, _ = long_collation()
    layer = collation.layers[0]
    words = [x for x in layer.loci if x.lemma.text]  # the substitutions: a lemma each
    tokens = base_tokens(layer)
    decisions = [Decision(f"d{k}", DecisionAction.DOUBT, anchor_of(x, tokens), "e", CLOCK) for k, x in enumerate(words)]
    real = collate.decisions.apply._context
    calls: list[object] = []

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(collate.decisions.apply, "_context", spy)
    _, report = apply_decisions(collation, decisions)
    assert len(report.placed) == len(words) == 40 and not report.orphans
    # Each decision is compared with the one locus of its lemma, not with all 80.
    assert len(calls) == len(words)
