"""``collate inspect``: container and layout named or detected, the reading as JSON, a layout that does not fit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from conftest import GAIJI, SEED_000, SHARED, need_shared

from collate.cli import main
from collate.project import load_project
from collate.readers import read_witness

ZHENGZHU = SHARED / "witnesses" / "yili-yanli-zhengzhu-kanripo-SBCK.txt"
WLTK = SHARED / "witnesses" / "wuli-tongkao-juan163-kanripo-master.txt"


def inspect_json(*args: str) -> Any:
    result = CliRunner().invoke(main, ["inspect", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_json_reading_of_a_mandoku_file() -> None:
    data = inspect_json(str(need_shared(ZHENGZHU)), "--gaiji", str(need_shared(GAIJI)))
    assert data["container"]["name"] == "mandoku" and "<pb:" in data["container"]["reason"]
    assert data["layout"]["name"] == "zhu-bracket"
    layers = data["layers"]
    assert set(layers) >= {"jing", "zhu", "heading", "markup"}
    assert layers["jing"]["tokens"] > 2500 and layers["zhu"]["tokens"] > 4000
    assert "tokens" not in layers["markup"]
    assert data["pages"] == {"count": 42, "first": "006-1a", "last": "006-22b"}
    assert [x["extent"] for x in data["lacunae"]] == ["006-14a, 2 pages", "006-19a, 2 pages"]
    assert data["diagnostics"]["counts"]["lacuna"] == 2
    assert data["metadata"]["edition"] == "SBCK"


def test_json_reading_of_a_paged_seed() -> None:
    data = inspect_json(str(SEED_000))
    assert data["container"]["name"] == "paged" and data["layout"]["name"] == "siku-wltk"
    assert data["pages"]["first"] == "1a"


def test_container_and_layout_can_be_named() -> None:
    data = inspect_json(str(SEED_000), "--container", "plain", "--layout", "siku-wltk")
    assert data["container"] == {"name": "plain", "reason": "named"}
    assert data["pages"]["count"] == 0  # a plain file marks no pages


def test_unknown_container_is_one_clean_line() -> None:
    result = CliRunner().invoke(main, ["inspect", str(SEED_000), "--container", "zip"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "unknown container 'zip'" in result.output and "mandoku" in result.output


def test_a_layout_that_does_not_fit_is_named_with_what_would(tmp_path: Path) -> None:
    """layout = "zhushu" on a Kanripo 四庫 file: a diagnostic at a line and column, no markup read as text."""
    w = read_witness(need_shared(WLTK), layout="zhushu", gaiji_table=need_shared(GAIJI))
    (fit,) = [d for d in w.diagnostics if d.code == "layout-fit"]
    assert "'zhushu'" in fit.message and "'siku-wltk'" in fit.message
    where = w.locate(fit.start)
    assert (where.line, where.column) == (8, 1)  # the first body line, after the org header and page marker
    assert not any(
        "<pb:" in w.text[s.start : s.end] or "¶" in w.text[s.start : s.end] for s in w.spans if s.layer.is_text
    )


def test_the_project_file_names_container_and_layout(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("射者仁之道也\n", encoding="utf-8")
    (tmp_path / "collate.toml").write_text(
        '[[witness]]\nsiglum = "A"\npath = "a.txt"\ncontainer = "paged"\nlayout = "plain"\n'
        '[[witness]]\nsiglum = "B"\npath = "a.txt"\nlayout = "mandoku"\n',
        encoding="utf-8",
    )
    project = load_project(tmp_path / "collate.toml")
    assert [(w.container, w.layout) for w in project.witnesses] == [("paged", "plain"), ("auto", "mandoku")]
    (tmp_path / "collate.toml").write_text('[[witness]]\nsiglum = "A"\npath = "a.txt"\ncontainer = "zip"\n')
    result = CliRunner().invoke(main, ["run", "--config", str(tmp_path / "collate.toml")])
    # Said at the line of the key, not of the witness's siglum (line 2).
    assert result.exit_code == 1 and "collate.toml:4" in result.output and "unknown container 'zip'" in result.output
