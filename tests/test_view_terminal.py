"""Terminal conventions, as git and ripgrep keep them: the pager chosen and its settings, no pager
and whole lines when piped, no colour with NO_COLOR."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from rich.console import Console
from rich.text import Text

from collate.views import terminal
from collate.views.terminal import PIPED_WIDTH, pager_command, print_paged, spawn_pager, stdout_console


def test_the_pager_is_less_quitting_on_a_short_view_showing_colours_and_leaving_the_view() -> None:
    chosen = pager_command({"HOME": "/home/x"})
    assert chosen is not None
    command, env = chosen
    assert command == "less" and env["LESS"] == "FRX" and env["LV"] == "-c" and env["HOME"] == "/home/x"


def test_the_users_pager_and_less_settings_win_as_for_git() -> None:
    assert pager_command({"PAGER": "most"}) == ("most", {"PAGER": "most", "LESS": "FRX", "LV": "-c"})
    # COLLATE_PAGER is to collate what GIT_PAGER is to git: it wins over PAGER.
    chosen = pager_command({"PAGER": "most", "COLLATE_PAGER": "less -S", "LESS": "R"})
    assert chosen is not None and chosen[0] == "less -S" and chosen[1]["LESS"] == "R"
    # An empty setting or cat: no pager.
    for environ in ({"PAGER": ""}, {"PAGER": "cat"}, {"COLLATE_PAGER": "", "PAGER": "less"}):
        assert pager_command(environ) is None


def _paged(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, str], bytes]]:
    """Where the pager would be run: recorded, never run."""
    calls: list[tuple[str, dict[str, str], bytes]] = []
    monkeypatch.setattr(terminal, "spawn_pager", lambda command, env, data: calls.append((command, dict(env), data)))
    monkeypatch.setattr(terminal, "_found", lambda command: True)
    return calls


def test_a_terminal_pages_unless_told_not_to(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _paged(monkeypatch)
    monkeypatch.setenv("PAGER", "most")
    monkeypatch.delenv("COLLATE_PAGER", raising=False)
    monkeypatch.delenv("LESS", raising=False)
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=40)
    print_paged(console, Text("之乎者也", style="red"))
    assert [(c, e["LESS"]) for c, e, _ in calls] == [("most", "FRX")]
    assert b"\x1b[" in calls[0][2] and "之乎者也" in calls[0][2].decode() and out.getvalue() == ""
    print_paged(console, Text("之乎者也", style="red"), pager=False)  # --no-pager
    assert len(calls) == 1 and "\x1b[" in out.getvalue() and "之乎者也" in out.getvalue()


def test_a_pipe_is_never_paged(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _paged(monkeypatch)
    out = io.StringIO()
    print_paged(Console(file=out, width=40), Text("之乎者也" * 30))
    assert not calls and out.getvalue() == "之乎者也" * 30 + "\n"


def test_a_pager_that_is_not_installed_loses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLLATE_PAGER", "no-such-pager-here --flag")
    out = io.StringIO()
    print_paged(Console(file=out, force_terminal=True, width=40), Text("之乎者也"))
    assert "之乎者也" in out.getvalue()


@pytest.mark.skipif(shutil.which("sh") is None, reason="needs a POSIX shell")
def test_the_pager_gets_the_view_and_its_settings(tmp_path: Path) -> None:
    # A stand-in pager (not less): it writes what it is given, and its LESS, to a file.
    seen = tmp_path / "seen"
    command = f'printf "%s\\n" "$LESS" > "{seen}"; cat >> "{seen}"'
    spawn_pager(command, {"LESS": "FRX", "PATH": "/usr/bin:/bin"}, b"ok\n")
    assert seen.read_text() == "FRX\nok\n"


def test_no_color_means_no_escape_codes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # a terminal, as rich is told by the environment
    console = stdout_console()
    assert console.is_terminal
    with console.capture() as captured:
        console.print(Text("哨", style="bold red underline"), Text("〔DD 峭 文〕", style="dim"))
    assert captured.get() == "哨 〔DD 峭 文〕\n"
    monkeypatch.setenv("NO_COLOR", "")  # set but empty: colour, as no-color.org says
    console = stdout_console()
    with console.capture() as captured:
        console.print(Text("哨", style="bold red"))
    assert "\x1b[" in captured.get()


def test_piped_output_is_whole_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "0")  # not a terminal, whatever runs the tests
    console = stdout_console()
    assert not console.is_terminal and console.width == PIPED_WIDTH and console.color_system is None
    with console.capture() as captured:
        console.print(Text("之乎者也" * 100, style="red"))
    assert captured.get() == "之乎者也" * 100 + "\n"
