"""The project file ``collate init`` writes: every line says what it is, and it loads and runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import DADAI_READINGS, SEED_000, SEED_001, SHARED, need_shared

from collate.cli import main
from collate.files import parse_toml
from collate.init import project_text
from collate.project import Project, WitnessConfig, load_project

# A key's line: `key = value  # what it is` (a value holds no `#` of its own here).
_KEY = re.compile(r'^(?P<key>[a-z_]+) = (?P<value>"[^"#]*"|\S+)  # (?P<says>\S.*)$')


def uncommented(text: str) -> list[str]:
    """The lines of a project file that are neither blank, nor comments, nor table headers."""
    return [line for line in text.splitlines() if line.strip() and not line.startswith(("#", "[["))]


def says(text: str) -> dict[str, set[str]]:
    """What the comment beside each key says, by key; every key line has one."""
    found: dict[str, set[str]] = {}
    for line in uncommented(text):
        m = _KEY.match(line)
        assert m is not None, f"no comment on {line!r}"
        found.setdefault(m.group("key"), set()).add(m.group("says"))
    return found


def test_every_key_says_what_it_is(tmp_path: Path) -> None:
    witnesses = (
        WitnessConfig("SK", "四庫本", tmp_path / "a.txt", bibl="《禮記註疏》卷六十二", notes="底本"),
        WitnessConfig("ZS", "注疏本", tmp_path / "b.txt"),
    )
    project = Project("禮記·射義", "liji-sheyi", "SK", witnesses, tmp_path, gaiji_table=tmp_path / "t.txt")
    text = project_text(project, tmp_path)
    said = says(text)
    assert set(said) == {"title", "name", "base", "gaiji_table", "siglum", "label", "path", "bibl", "notes"}
    assert said["title"] == {"printed on every output; change freely"}
    assert said["base"] == {"the base text: any witness's siglum"}
    assert said["label"] == {"the short name printed in the apparatus"}
    assert said["name"] == {"names the output files: output/liji-sheyi.tei.xml …"}
    # The comments change no value.
    data = parse_toml(text, "collate.toml")
    keys = (data["title"], data["name"], data["base"], data["gaiji_table"])
    assert keys == ("禮記·射義", "liji-sheyi", "SK", "t.txt")
    assert [(w["siglum"], w["label"], w["path"]) for w in data["witness"]] == [
        ("SK", "四庫本", "a.txt"),
        ("ZS", "注疏本", "b.txt"),
    ]


def test_a_value_with_quotes_and_hashes_keeps_its_comment_apart(tmp_path: Path) -> None:
    witnesses = (WitnessConfig("A", 'a "#1" 本', tmp_path / "a#.txt"), WitnessConfig("B", "b", tmp_path / "b.txt"))
    text = project_text(Project('題 "#"', "x", "A", witnesses, tmp_path), tmp_path)
    data = parse_toml(text, "collate.toml")
    assert data["title"] == '題 "#"' and data["witness"][0]["label"] == 'a "#1" 本'
    assert data["witness"][0]["path"] == "a#.txt"


def test_the_file_init_writes_for_the_seeds_loads_and_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(main, ["init", str(SEED_000), str(SEED_001), str(DADAI_READINGS)])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "collate.toml").read_text(encoding="utf-8")
    assert set(says(text)) >= {"title", "name", "base", "siglum", "label", "path"}
    project = load_project(tmp_path / "collate.toml")
    assert project.title == "投壺"  # the chapter 001 and the readings name; no full text names its work
    assert [w.siglum for w in project.witnesses] == ["SK", "W001", "dadai"]
    result = runner.invoke(main, ["run"])
    assert result.exit_code == 0, result.output
    jiaokanji = (tmp_path / "output" / "collation.jiaokanji.txt").read_text(encoding="utf-8")
    assert jiaokanji.startswith("投壺　校勘記\n")


@pytest.mark.shared
def test_init_of_the_sheyi_files_says_every_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    names = ("liji-sheyi-zhushu-kanripo-WYG.txt", "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt")
    files = [str(need_shared(SHARED / "witnesses" / name)) for name in names]
    result = CliRunner().invoke(main, ["init", *files])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "collate.toml").read_text(encoding="utf-8")
    assert set(says(text)) == {"title", "name", "base", "gaiji_table", "siglum", "label", "path", "bibl"}
    project = load_project(tmp_path / "collate.toml")
    assert project.title == "禮記·射義" and project.gaiji_table is not None
