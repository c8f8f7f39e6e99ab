"""Orphaned decisions: why each no longer fits, and re-attaching or dropping one."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, review_session

from collate.apparatus import Collation
from collate.decisions import load_decisions
from collate.decisions.orphans import Why
from collate.model.annotations import DecisionAction
from collate.review.session import Refused, ReviewSession


@pytest.fixture
def collation() -> Collation:
    """SK and ZS: three places read 哨/峭 (two with the same ten characters around them), two 算/筭."""
    return collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})


def reopened(path: Path, base: str = REVIEW_BASE, wit: str = REVIEW_WIT) -> ReviewSession:
    """The review opened again on witnesses as they are after an edit."""
    return review_session(collate_rows({"SK": base, "ZS": wit}), path)


def test_each_orphan_says_why_it_no_longer_fits(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    first, *_, fourth, _ = s.loci
    s.decide(first, DecisionAction.ADOPT, reading=first.readings[0], siglum="ZS")
    s.decide(fourth, DecisionAction.RECLASSIFY, reading=fourth.readings[0], cls=fourth.readings[0].cls)
    # ZS now reads 梢 at every 哨 (no 峭 left), and 笇 at the first 算 (the second still reads 筭).
    later = reopened(path, wit=REVIEW_WIT.replace("峭", "梢").replace("执八筭", "执八笇"))
    adopt, cls = later.orphans()
    assert (adopt.why, adopt.candidates) == (Why.READING_GONE, 3)  # three loci read 哨, none 峭
    assert (cls.why, cls.candidates) == (Why.CONTEXT, 1)  # the other 算/筭 has too little context in common
    assert cls.best < cls.wanted == 14


def test_a_variant_gone_and_a_base_changed_are_told_apart(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.decide(s.loci[3], DecisionAction.KEEP)
    s.decide(s.loci[4], DecisionAction.DOUBT, comment="待考")
    gone = reopened(path, wit=REVIEW_WIT.replace("筭", "算"))  # the base still reads 算: no witness differs
    assert [o.why for o in gone.orphans()] == [Why.VARIANT_GONE] * 2
    changed = reopened(path, base=REVIEW_BASE.replace("算", "筹"), wit=REVIEW_WIT.replace("筭", "筹"))
    assert [o.why for o in changed.orphans()] == [Why.BASE_CHANGED] * 2


def test_an_orphan_is_re_attached_to_the_locus_on_screen_or_dropped(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    made = s.decide(s.loci[0], DecisionAction.ADOPT, reading=s.loci[0].readings[0], siglum="ZS", comment="大戴同")
    s.decide(s.loci[3], DecisionAction.KEEP)
    moved = reopened(path, wit=REVIEW_WIT.replace("主人请曰某有枉矢峭", "主人请曰某有枉矢哨"))
    (orphan,) = moved.orphans()
    assert orphan.decision.id == made[0].id
    # The editor re-attaches it to another 哨/峭: the same reading is there.
    target = moved.loci[1]
    attached = moved.reattach(made[0].id, target)
    assert attached.id == made[0].id and attached.comment == "大戴同" and attached.anchor.locus == target.id
    assert not moved.report.orphans and target.id in moved.report.decided
    assert [d.id for d in load_decisions(path)].count(made[0].id) == 1  # replaced in place, not added
    moved.undo()
    assert len(moved.report.orphans) == 1
    # Where the reading it names is not, it cannot go; dropped, it leaves the file.
    with pytest.raises(Refused) as refused:
        moved.reattach(made[0].id, moved.loci[-1])
    assert refused.value.key == "cannot_reattach" and refused.value.names == {"reading": "峭"}
    moved.drop(made[0].id)
    assert made[0].id not in {d.id for d in load_decisions(path)} and not moved.report.orphans
