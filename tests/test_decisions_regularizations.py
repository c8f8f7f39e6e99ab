"""Writing the regularization table and naming it in the project file: merged under a lock, what the editor
wrote kept byte for byte, a file that is not collate's refused untouched."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from collate.decisions.regularizations import change_regularizations, name_table, table_name
from collate.errors import ExportError, ProjectError
from collate.files import parse_toml
from collate.normalize.regularizations import Regularization, read_regularizations
from collate.project import project_from_mapping

ONE = Regularization("r1", "楫", "揖", ("ZS",), ("jing",), "王", "2024-05-01T10:00:00+08:00", "jing-00009")
TWO = Regularization("r2", "躲", "射", editor="李")


def test_a_new_table_says_what_it_is_and_keeps_each_rule_with_who_and_when(tmp_path: Path) -> None:
    path = tmp_path / "regularizations.toml"
    assert change_regularizations(path, put=[ONE], title="射義") == (ONE,)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Regularizations of 射義, written by `collate review` (key r).")
    assert parse_toml(text, "t")["regularization"] == [
        {
            "id": "r1",
            "variant": "楫",
            "standard": "揖",
            "witnesses": ["ZS"],
            "layers": ["jing"],
            "editor": "王",
            "when": "2024-05-01T10:00:00+08:00",
            "locus": "jing-00009",
        }
    ]
    assert read_regularizations(path) == (ONE,)


def test_a_change_keeps_the_rules_and_comments_written_by_hand(tmp_path: Path) -> None:
    path = tmp_path / "regularizations.toml"
    change_regularizations(path, put=[ONE])
    by_hand = '\n# 王: from the 校勘記 of 阮元\n[[regularization]]\nvariant = "甯"\nstandard = "寧"\n'
    path.write_text(path.read_text(encoding="utf-8") + by_hand, encoding="utf-8")
    held = change_regularizations(path, put=[TWO])
    assert [(r.variant, r.standard) for r in held] == [("楫", "揖"), ("甯", "寧"), ("躲", "射")]
    assert by_hand in path.read_text(encoding="utf-8")
    # Undone (taken out by id): the one by hand has no id and stays; so does its comment, which
    # ended the body of the rule before it.
    (kept,) = change_regularizations(path, remove={"r1", "r2"})
    text = path.read_text(encoding="utf-8")
    assert kept.variant == "甯" and 'id = "r1"' not in text and 'id = "r2"' not in text
    assert "# 王: from the 校勘記 of 阮元" in text


def test_a_file_that_is_not_a_regularization_table_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "regularizations.toml"
    decisions = 'version = 1\n\n[[decision]]\nid = "x"\naction = "keep"\n'
    path.write_text(decisions, encoding="utf-8")
    with pytest.raises(ProjectError, match="not a regularization table"):
        change_regularizations(path, put=[ONE])
    assert path.read_text(encoding="utf-8") == decisions


def test_a_failed_write_leaves_the_table_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "regularizations.toml"
    change_regularizations(path, put=[ONE])
    good = path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(ExportError, match="No space left"):
        change_regularizations(path, put=[TWO])
    monkeypatch.undo()
    assert path.read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == [".regularizations.toml.lock", "regularizations.toml"]


HEAD = '# The editor\'s project.  Comments stay.\ntitle = "射義"   # the title\n'
WITNESS = '\n[[witness]]\nsiglum = "SK"   # the base\npath = "a.txt"\n'


@pytest.mark.parametrize(
    "body",
    [
        WITNESS,
        "\n[normalize]\nsemantic = true   # 荅/答 too\n# a note at the end of the table\n" + WITNESS,
        '\n[normalize]\nvariant_tables = ["mine.tsv"]   # the editors\' list\n' + WITNESS,
        '\n[normalize.variants]\n"髙" = "高"\n' + WITNESS,
        "normalize = { semantic = true }\n" + WITNESS,
    ],
)
def test_the_table_is_named_once_and_nothing_else_of_the_project_file_changes(tmp_path: Path, body: str) -> None:
    path = tmp_path / "collate.toml"
    before = HEAD + body
    path.write_text(before, encoding="utf-8")
    assert name_table(path, "regularizations.toml")
    after = path.read_text(encoding="utf-8")
    normalize: Any = parse_toml(after, "collate.toml")["normalize"]
    assert normalize["variant_tables"][-1] == "regularizations.toml"
    # Every line the editor wrote is still there, in order, comments included (but the one the list is on).
    lines = iter(after.splitlines())
    theirs = [mine for mine in before.splitlines() if "variant_tables" not in mine and "normalize = {" not in mine]
    assert all(any(line == mine for line in lines) for mine in theirs)
    assert not name_table(path, "regularizations.toml")
    assert path.read_text(encoding="utf-8") == after


def test_the_review_writes_the_first_regularization_table_the_project_names(tmp_path: Path) -> None:
    witness = {"siglum": "SK", "path": "a.txt"}
    plain = project_from_mapping({"witness": [witness]}, root=tmp_path)
    assert table_name(plain) == "regularizations.toml"
    named = project_from_mapping(
        {"witness": [witness], "normalize": {"variant_tables": ["v.tsv", "rules/mine.toml"]}}, root=tmp_path
    )
    assert table_name(named) == "rules/mine.toml"
