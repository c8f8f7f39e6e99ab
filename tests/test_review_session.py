"""A review without a screen: batch decisions, saves that fail, the witnesses' context at a locus."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, review_session

from collate.apparatus import Collation
from collate.errors import ExportError
from collate.model import Witness
from collate.model.annotations import DecisionAction
from collate.review.context import Shown, witness_context
from collate.review.session import pair_of


@pytest.fixture
def collation() -> Collation:
    """SK and ZS: three places read 哨/峭 (two with the same ten characters around them), two 算/筭."""
    return collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})


def test_batch_decides_every_locus_with_the_same_pair(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    made = s.decide(s.loci[3], DecisionAction.KEEP, batch=True)
    assert len(made) == 2 and made[0].batch is not None and made[0].batch == made[1].batch
    assert [x.decision is not None for x in s.loci] == [False, False, False, True, True]


def test_a_failed_save_leaves_the_file_and_the_session_as_they_were(
    collation: Collation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    good = path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(ExportError, match="No space left"):
        s.decide(s.loci[1], DecisionAction.KEEP)
    assert path.read_bytes() == good
    # No temporary file left behind; the lock file every save takes stays.
    assert sorted(p.name for p in tmp_path.iterdir()) == [".decisions.toml.lock", "decisions.toml"]
    assert len(s.decisions) == 1 and s.loci[1].decision is None


def test_the_review_reads_each_layer_in_linear_time_not_once_per_locus() -> None:
    from scan_support import growth

    def contexts(collation: Collation, witnesses: dict[str, Witness]) -> object:
        layer = collation.layers[0]
        return [witness_context(layer, x, s, 12, witnesses) for x in layer.loci for s in ("SK", "ZS")]

    # Each witness's tokens are indexed once per layer, not read again around every locus.
    assert growth(contexts) < 2.5


def test_a_witness_context_is_its_own_text_around_the_locus(collation: Collation) -> None:
    layer = collation.layers[0]
    first = layer.loci[0]
    assert pair_of(first) == ("哨", ("峭",))
    zs = witness_context(layer, first, "ZS", 4)
    assert (zs.before, zs.text, zs.after) == ("某有枉矢", "峭", "壶请以乐")
    assert zs.location is not None and (zs.location.line, zs.location.column) == (1, 9)
    sk = witness_context(layer, first, "SK", 4)
    assert (sk.before, sk.text, sk.after) == ("某有枉矢", "哨", "壶请以乐")
    # Near the start there is less before it; a witness that is not collated here reads as the base.
    assert witness_context(layer, first, "ZS", 20).before == REVIEW_WIT[:8]
    silent = witness_context(layer, first, "DD", 4)
    assert (silent.text, silent.shown) == ("哨", Shown.SILENT)


def test_the_editor_is_the_name_the_project_declares(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """[review] editor names who decides; where the project names no one, no one (never the login name)."""
    from collate.errors import ProjectError
    from collate.project import project_from_mapping
    from collate.review.session import default_editor

    monkeypatch.setenv("USER", "wang7")
    witness = {"siglum": "SK", "path": "a.txt"}
    declared = project_from_mapping({"witness": [witness], "review": {"editor": " 王 "}}, root=tmp_path)
    silent = project_from_mapping({"witness": [witness]}, root=tmp_path)
    assert default_editor(declared) == "王"
    assert default_editor(silent) == default_editor() == ""
    for bad in ("", "王\n李", 3):
        with pytest.raises(ProjectError, match=r"\[review\] editor"):
            default_editor(project_from_mapping({"witness": [witness], "review": {"editor": bad}}, root=tmp_path))
