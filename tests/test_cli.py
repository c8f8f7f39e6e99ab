from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner
from conftest import GAIJI, MANDOKU, REPO, need_shared

from collate.cli import main


def all_commands() -> list[str]:
    return sorted(main.commands)


@pytest.mark.parametrize("name", all_commands())
def test_every_command_has_help(name: str) -> None:
    command = main.commands[name]
    assert command.help, f"`collate {name}` has no help text"
    result = CliRunner().invoke(main, [name, "--help"])
    assert result.exit_code == 0
    assert "Usage:" in result.output
    for param in command.params:
        if isinstance(param, click.Option):
            assert param.help, f"`collate {name} {param.opts[0]}` has no help"


def test_top_level_help_lists_commands() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in all_commands():
        assert name in result.output


def test_run_on_the_default_project_prints_every_witness(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(repo)
    result = CliRunner().invoke(main, ["run", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    for siglum in ("SK", "ZS", "DD"):
        assert siglum in result.output


def test_missing_project_file_is_one_clean_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run"])
    assert result.exit_code == 1
    assert "collate.toml" in result.output
    assert "Traceback" not in result.output


def test_missing_witness_file_names_it(tmp_path: Path) -> None:
    config = tmp_path / "collate.toml"
    config.write_text('[[witness]]\nsiglum = "A"\npath = "nowhere.txt"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", "--config", str(config), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "nowhere.txt" in result.output
    assert "no such file" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("content", [b"", b"\x00\x00\x01binary"])
def test_empty_or_binary_witness_is_one_line(tmp_path: Path, content: bytes) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    result = CliRunner().invoke(main, ["inspect", str(bad)])
    assert result.exit_code == 1
    assert "bad.txt" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_run_on_files_without_a_project(tmp_path: Path) -> None:
    a = tmp_path / "a.txt"
    b = tmp_path / "b.txt"
    a.write_text("投壺之禮，主人奉矢。\n", encoding="utf-8")
    b.write_text("投壺之禮，主人奉中。\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(a), str(b), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "a" in result.output and "b" in result.output


def test_a_base_with_no_text_is_an_error(tmp_path: Path) -> None:
    blank = tmp_path / "blank.txt"
    other = tmp_path / "other.txt"
    blank.write_text("\u3000\n\n", encoding="utf-8")
    other.write_text("投壺之禮\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["run", str(blank), str(other), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert "blank.txt" in result.output and "no text" in result.output


def test_run_on_files_takes_a_gaiji_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Loose Kanripo files: ``--gaiji`` resolves their entities (若 for &KR0002;), as a project's table would."""
    dadai = need_shared(MANDOKU)
    other = REPO / "seeds" / "001_97a493e45035c1ac.txt"
    monkeypatch.chdir(tmp_path)
    for args, expected in (([], "&amp;KR0002;"), (["--gaiji", str(need_shared(GAIJI))], "賢若干")):
        result = CliRunner().invoke(main, ["run", *args, "--out", str(tmp_path / "out"), str(dadai), str(other)])
        assert result.exit_code == 0, result.output
        assert expected in (tmp_path / "out" / "collation.tei.xml").read_text(encoding="utf-8")
