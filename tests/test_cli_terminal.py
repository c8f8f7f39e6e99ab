"""The commands at a terminal and in a pipe, as git and ripgrep behave: whole lines and no colour or
progress when piped; on a terminal, progress on stderr, the pager (``less -FRX``) unless
``--no-pager``, and no colour with ``NO_COLOR``.

A terminal is simulated with ``TTY_COMPATIBLE=1``, which rich reads as a terminal's promise; the
pager is recorded, never run.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from builders import copy_default_project, input_for, small_tei_collation
from click.testing import CliRunner, Result
from rich.cells import cell_len

from collate.cli import main
from collate.exporters.tei import build_tei, tei_bytes
from collate.views import terminal

# rich is told it writes to a terminal, one wide enough that no line of the view is wrapped.
TERMINAL = {"TTY_COMPATIBLE": "1", "COLUMNS": "400", "NO_COLOR": None}
PIPE = {"TTY_COMPATIBLE": None, "FORCE_COLOR": None, "NO_COLOR": None}
LONG_LABEL = "欽定四庫全書文淵閣本五禮通考卷一百六十五嘉禮三十八射禮所引禮記投壺篇"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return copy_default_project(tmp_path)


def invoke(*args: str, env: Mapping[str, str | None] = PIPE) -> Result:
    result = CliRunner().invoke(main, list(args), env=env)
    assert result.exit_code in (0, 1), result.output
    return result


@pytest.fixture
def pager(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, str], str]]:
    """The pager's runs, recorded: command, environment, the view it was given."""
    calls: list[tuple[str, dict[str, str], str]] = []

    def spawn(command: str, env: Mapping[str, str], data: bytes) -> None:
        calls.append((command, dict(env), data.decode()))

    monkeypatch.setattr(terminal, "spawn_pager", spawn)
    monkeypatch.setattr(terminal, "_found", lambda command: True)  # were less missing, it would print
    return calls


def test_run_piped_prints_its_tables_whole_not_cut_at_80_columns(project: Path, tmp_path: Path) -> None:
    text = project.read_text(encoding="utf-8")
    project.write_text(text.replace('label = "四庫本"', f'label = "{LONG_LABEL}"'), encoding="utf-8")
    result = invoke("run", "--config", str(project), "--out", str(tmp_path / "out"))
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout
    # The label whole on one line of the table's row, the table wider than 80 columns.
    assert any(LONG_LABEL in line and line.startswith("│") and cell_len(line) > 80 for line in lines)
    assert any("集說 commentary" in line for line in lines) and any("diagnostics" in line for line in lines)
    assert result.stderr == ""  # no progress in a pipe


def test_run_on_a_terminal_shows_its_stages_on_stderr_only(project: Path, tmp_path: Path) -> None:
    result = invoke("run", "--config", str(project), "--out", str(tmp_path / "out"), env=TERMINAL)
    assert result.exit_code == 0
    assert "aligning" in result.stderr and "writing" in result.stderr
    assert "aligning" not in result.stdout and "variant loci by class" in result.stdout


def test_diff_on_a_terminal_goes_through_less_FRX_and_not_with_no_pager(
    project: Path, pager: list[tuple[str, dict[str, str], str]]
) -> None:
    env = {**TERMINAL, "PAGER": None, "COLLATE_PAGER": None, "LESS": None}
    paged = invoke("diff", "--config", str(project), "--class", "orthographic", env=env)
    assert [(command, e["LESS"]) for command, e, _ in pager] == [("less", "FRX")]
    assert "\x1b[" in pager[0][2] and "筭" in pager[0][2] and "筭" not in paged.stdout
    direct = invoke("diff", "--config", str(project), "--class", "orthographic", "--no-pager", env=env)
    assert len(pager) == 1 and "筭" in direct.stdout and "\x1b[" in direct.stdout
    # The list too; the user's LESS is left as it is.
    invoke("diff", "--config", str(project), "--list", env={**env, "LESS": "R"})
    assert len(pager) == 2 and pager[1][1]["LESS"] == "R" and "jing-00121" in pager[1][2]


def test_diff_piped_is_never_paged_nor_coloured(project: Path, pager: list[tuple[str, dict[str, str], str]]) -> None:
    out = invoke("diff", "--config", str(project), "--class", "all").stdout
    assert not pager and "\x1b" not in out and "〔ZS 筭 異〕" in out


def test_no_color_gives_no_escape_codes_on_a_terminal(project: Path) -> None:
    env = {**TERMINAL, "NO_COLOR": "1"}
    shown = invoke("diff", "--config", str(project), "--class", "all", "--no-pager", env=env).stdout
    assert "\x1b" not in shown and "算〔ZS 筭 異〕" in shown  # the class still in the text
    listed = invoke("diff", "--config", str(project), "--list", "--no-pager", env=env).stdout
    assert "\x1b" not in listed and "jing-00121" in listed and "┃" in listed  # a table: a terminal


def _tei(tmp_path: Path) -> Path:
    path = tmp_path / "small.tei.xml"
    path.write_bytes(tei_bytes(build_tei(input_for(*small_tei_collation()))))
    return path


def test_validate_shows_its_steps_on_a_terminals_stderr(tmp_path: Path) -> None:
    result = invoke("validate", str(_tei(tmp_path)), env=TERMINAL)
    assert result.exit_code == 0, result.output
    for step in ("reading", "compiling the schema tei-apparatus.rng", "checking against the schema", "apparatus rules"):
        assert step in result.stderr
    assert "valid against" in result.stdout and "compiling" not in result.stdout


def test_validate_piped_prints_no_progress(tmp_path: Path) -> None:
    result = invoke("validate", str(_tei(tmp_path)))
    assert result.exit_code == 0 and result.stderr == "" and "valid against" in result.stdout
