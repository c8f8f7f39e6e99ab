from __future__ import annotations

from pathlib import Path

import click
import pytest
from builders import copy_default_project
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


def test_run_on_the_default_project_prints_every_witness(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A copy: the repository folder may hold the user's own decisions.toml and output/.
    monkeypatch.chdir(copy_default_project(tmp_path).parent)
    result = CliRunner().invoke(main, ["run"])
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
    # Without a table the entity is a glyph no one resolved (〓, declared with its entity).
    unresolved = '<g ref="#KR0002">\u3013</g>'
    for args, expected in (([], unresolved), (["--gaiji", str(need_shared(GAIJI))], '賢<g ref="#KR0002">若</g>干')):
        result = CliRunner().invoke(main, ["run", *args, "--out", str(tmp_path / "out"), str(dadai), str(other)])
        assert result.exit_code == 0, result.output
        assert expected in (tmp_path / "out" / "collation.tei.xml").read_text(encoding="utf-8")


def _tree(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("name", ["../../escaped", "ABSOLUTE", "", ".", "..", ".hidden", "a/b", "a\\\\b", "a\\u0000b"])
def test_a_name_that_is_no_plain_file_stem_is_refused_at_its_line(tmp_path: Path, name: str) -> None:
    """The outputs are named after `name`: one that would leave the folder, or hide the files, is refused."""
    if name == "ABSOLUTE":
        name = (tmp_path / "escaped").as_posix()
    project = tmp_path / "a" / "b"
    project.mkdir(parents=True)
    (project / "w.txt").write_text("投壺之禮\n", encoding="utf-8")
    (project / "collate.toml").write_text(
        f'title = "t"\nname = "{name}"\n[[witness]]\nsiglum = "A"\npath = "w.txt"\n', encoding="utf-8"
    )
    before = _tree(tmp_path)
    result = CliRunner().invoke(main, ["run", "--config", str(project / "collate.toml")])
    assert result.exit_code == 1, result.output
    rule = "holds a NUL character" if "u0000" in name else "(use letters, digits, CJK characters, - _ and ."
    assert "collate.toml:2: `name` " in result.output and rule in result.output, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1
    assert _tree(tmp_path) == before


@pytest.mark.parametrize(
    ("key", "value"),
    [("path", 'path = "w\\u0000.txt"'), ("gaiji_table", 'gaiji_table = "g\\U00000000.txt"')],
)
def test_a_path_holding_nul_is_refused_at_its_line(tmp_path: Path, key: str, value: str) -> None:
    (tmp_path / "w.txt").write_text("投壺之禮\n", encoding="utf-8")
    top, witness = (value, 'path = "w.txt"') if key == "gaiji_table" else ("", value)
    config = tmp_path / "collate.toml"
    config.write_text(f'title = "t"\n{top}\n[[witness]]\nsiglum = "A"\n{witness}\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["run", "--config", str(config)])
    assert result.exit_code == 1, result.output
    line = 2 if key == "gaiji_table" else 5
    assert f"collate.toml:{line}: `" in result.output and "holds a NUL character" in result.output, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "output").exists()


def test_paths_are_read_relative_to_the_project_not_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "p"
    project.mkdir()
    for name, text in (("a.txt", "投壺之禮，主人奉矢。\n"), ("b.txt", "投壺之禮，主人奉中。\n")):
        (project / name).write_text(text, encoding="utf-8")
    (project / "collate.toml").write_text(
        'name = "n"\n[[witness]]\nsiglum = "A"\npath = "a.txt"\n[[witness]]\nsiglum = "B"\npath = "b.txt"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    for command in (["run"], ["export"]):
        result = CliRunner().invoke(main, [*command, "--config", "p/collate.toml"])
        assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (project / "output").iterdir() if p.is_file())[0] == "n.html"
