"""Undo and redo of a review's changes: through the decisions file, never over another writer's decisions."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, review_session

from collate.apparatus import Collation
from collate.decisions import load_decisions
from collate.decisions.history import Change
from collate.errors import ExportError
from collate.model.annotations import DecisionAction


@pytest.fixture
def collation() -> Collation:
    """SK and ZS: three places read 哨/峭, two 算/筭."""
    return collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})


def test_undo_takes_a_decision_out_of_the_file_and_redo_puts_it_back(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    made = s.decide(s.loci[0], DecisionAction.ADOPT, reading=s.loci[0].readings[0], siglum="ZS", comment="大戴同")
    assert [d.id for d in load_decisions(path)] == [made[0].id]
    undone = s.undo()
    assert undone is not None and undone.locus == s.loci[0].id and undone.what == "adopt"
    assert load_decisions(path) == () and s.loci[0].decision is None
    assert s.undo() is None  # nothing more to undo
    redone = s.redo()
    assert redone is not None and load_decisions(path) == made
    assert s.loci[0].decision is not None and s.loci[0].decision.lemma == "峭"
    assert s.redo() is None


def test_a_batch_is_undone_at_once(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    s.decide(s.loci[0], DecisionAction.KEEP)
    s.decide(s.loci[3], DecisionAction.KEEP, batch=True)
    assert list(s.report.decided) == [s.loci[k].id for k in (0, 3, 4)]
    s.undo()
    assert list(s.report.decided) == [s.loci[0].id]


def test_a_new_change_forgets_what_was_undone(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    s.decide(s.loci[0], DecisionAction.KEEP)
    s.undo()
    s.decide(s.loci[1], DecisionAction.KEEP)
    assert s.redo() is None and s.report.decided == (s.loci[1].id,)


def test_undo_leaves_another_reviews_decisions_alone(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    mine, theirs = review_session(collation, path, editor="王"), review_session(collation, path, editor="李")
    mine.decide(mine.loci[0], DecisionAction.KEEP)
    theirs.decide(theirs.loci[1], DecisionAction.DOUBT, comment="待考")
    mine.undo()
    assert [(d.editor, d.action) for d in load_decisions(path)] == [("李", DecisionAction.DOUBT)]
    assert mine.report.decided == (mine.loci[1].id,)  # the session has the file as it is


def test_undoing_a_drop_puts_the_decision_back(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    made = s.decide(s.loci[2], DecisionAction.DOUBT, comment="待考")
    s.drop(made[0].id)
    assert load_decisions(path) == ()
    s.undo()
    assert load_decisions(path) == made


def test_an_undo_that_cannot_be_saved_changes_nothing(
    collation: Collation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    good = path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(ExportError):
        s.undo()
    monkeypatch.undo()
    assert path.read_bytes() == good and s.loci[0].decision is not None
    assert s.undo() is not None and load_decisions(path) == ()  # still there to undo


def test_the_inverse_of_a_change_puts_back_what_it_replaced(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    old = s.decide(s.loci[0], DecisionAction.DOUBT, comment="one")[0]
    new = Change.of(s.decisions, [replace(old, comment="two")], (), "here", "doubt")
    back = new.inverse()
    assert back.put == (old,) and back.remove == frozenset()
    added = Change.of((), [old], (), "here", "doubt").inverse()
    assert added.put == () and added.remove == {old.id}
