"""Inputs that used to hang, pass silently or reach the terminal raw, each through the command line.

Every bad input gives exit 1, a message naming the file (and its line or line:column where
there is one) and no traceback. Control characters in a witness, a label or a path are shown
escaped by every terminal view; bidi controls are diagnosed where they stand.
"""

from __future__ import annotations

import asyncio
import io
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console

from collate.cli import main
from collate.model.inert import inert, inert_json
from collate.pipeline import collate_project
from collate.project import load_project
from collate.review.app import ReviewApp
from collate.review.app_view import render_locus, render_status
from collate.review.session import open_review
from collate.views.diff import DiffFilter, diff_view, loci_table
from collate.views.progress import StageProgress
from collate.views.summary import summary_view
from collate.views.tokens import tokens_table
from collate.views.witness import inspect_view, witnesses_table

TEXT = "投壺之禮，主人奉矢，司射奉中，使人執壺。\n"
TWO_WITNESSES = '[[witness]]\nsiglum = "A"\npath = "a.txt"\n[[witness]]\nsiglum = "B"\npath = "b.txt"\n'

# What a hostile or damaged file may hold: an OSC that retitles the terminal, a CSI that clears it.
RETITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder holding two small witnesses, made the working directory."""
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "b.txt").write_text(TEXT.replace("中", "壺"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def no_hang() -> Iterator[None]:
    """Fail, rather than wait forever, if a command blocks on what it opens."""
    if not hasattr(signal, "SIGALRM"):
        pytest.skip("needs SIGALRM")

    def hung(signum: int, frame: object) -> None:
        raise AssertionError("the command hung")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(300)  # a hang, not a slow machine: minutes, where the command takes milliseconds
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def assert_located(result: Result, *names: str, where: str | None = None) -> None:
    """Exit 1, no traceback, every name in the message, ``where`` (a regex) matched."""
    assert isinstance(result.exception, SystemExit), f"{result.exception!r}\n{result.output}"
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    for name in names:
        assert name in result.output, result.output
    if where is not None:
        assert re.search(where, result.output), f"{where!r} not in {result.output!r}"


# --- The escaping itself -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (RETITLE + CLEAR, "\\x1b]0;pwned\\x07\\x1b[2J"),
        ("a\x7fb\x9bc", "a\\x7fb\\x9bc"),  # DEL and C1 CSI
        ("主人\u202e奉矢", "主人\\u202e奉矢"),
        ("投壺\n之禮\t", "投壺\n之禮\t"),  # the layout a display needs is kept
        ("投壺\r\n之禮\r主人", "投壺\n之禮\n主人"),  # CR is a line end, never a carriage return
        ("投壺 [bold]之禮[/]", "投壺 [bold]之禮[/]"),  # not ours to change: rich's Text never parses it
    ],
)
def test_inert_shows_control_characters_as_escapes(text: str, shown: str) -> None:
    assert inert(text) == shown


def test_inert_without_layout_escapes_tabs_and_line_ends() -> None:
    assert inert("a\tb\nc", keep="") == "a\\x09b\\x0ac"


def test_inert_json_is_the_same_json_value() -> None:
    import json

    data = {"t": "a\x9b\x7f\u202eb\x1b"}
    text = inert_json(json.dumps(data, ensure_ascii=False))
    assert json.loads(text) == data
    assert not re.search("[\x00-\x1f\x7f-\x9f\u202e]", text)


# --- Control characters from the data never reach the terminal ----------------------------


@pytest.fixture
def hostile(folder: Path) -> Path:
    """A project whose witness text and label hold terminal controls and markup."""
    (folder / "b.txt").write_text(f"投壺之禮，主人奉矢，{RETITLE}司射{CLEAR}奉壺，使人執壺。\n", encoding="utf-8")
    label = "甲本\\u001b]0;pwned\\u0007\\u001b[2J[bold]"
    (folder / "collate.toml").write_text(
        'title = "投壺\\u001b[2J"\n'
        + TWO_WITNESSES.replace('path = "a.txt"\n', f'path = "a.txt"\nlabel = "{label}"\n'),
        encoding="utf-8",
    )
    return folder


@pytest.mark.parametrize(
    "args",
    [
        ["inspect", "b.txt"],
        ["inspect", "--tokens", "b.txt"],
        ["inspect", "--json", "b.txt"],
        ["diff"],
        ["diff", "--list"],
        ["run", "--out", "out"],
        ["notes"],
    ],
)
def test_controls_in_witness_text_and_labels_are_shown_escaped(hostile: Path, args: list[str]) -> None:
    result = invoke(*args)
    assert result.exit_code == 0, f"{result.exception!r}\n{result.output}"
    assert "\x1b" not in result.output and "\x07" not in result.output
    if args == ["inspect", "b.txt"]:  # the listing shows the whole text (the tokens hold no controls)
        assert "\\x1b]0;pwned\\x07" in result.output and "\\x1b[2J" in result.output


def test_the_terminal_renderings_are_inert(hostile: Path) -> None:
    """What a terminal gets (colours, tables, the pager's text), not only the piped lines."""
    result = collate_project(load_project(hostile / "collate.toml"))
    witness = result.read.by_siglum()["B"]
    tokens = result.tokens["B"]
    view = DiffFilter()
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    for shown in (
        inspect_view(witness, color=True),
        tokens_table(witness, tokens),
        witnesses_table(result.read.witnesses, "A"),
        summary_view(result.collation),
        diff_view(result.collation, view, result.read.by_siglum()),
        loci_table(result.collation, view),
    ):
        console.print(shown)
    drawn = out.getvalue()
    assert "\x1b" not in drawn and "\x07" not in drawn
    assert "\\x1b]0;pwned\\x07" in drawn and "\\x1b[2J" in drawn


def test_the_run_summary_shows_a_label_escaped(hostile: Path) -> None:
    result = invoke("run", "--out", "out")
    assert result.exit_code == 0, result.output
    # The summary's witness column is wide enough for the whole label; markup in it is shown too.
    assert "甲本\\x1b]0;pwned\\x07\\x1b[2J[bold]" in result.output
    assert "投壺\\x1b[2J" in result.output


def test_an_error_naming_a_path_shows_its_controls_escaped(folder: Path) -> None:
    (folder / "collate.toml").write_text(TWO_WITNESSES.replace("b.txt", "no\\u001b[2Jwhere.txt"), encoding="utf-8")
    result = invoke("run", "--out", "out")
    assert_located(result, "no\\x1b[2Jwhere.txt", "no such file")
    assert "\x1b" not in result.output


def test_progress_messages_are_inert_and_never_markup() -> None:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, color_system=None)
    with StageProgress(console) as progress:
        progress(f"writing out{RETITLE}[/x].html")
    drawn = out.getvalue()
    assert "writing out\\x1b]0;pwned\\x07[/x].html" in drawn
    assert RETITLE not in drawn


def test_the_review_draws_witness_text_and_labels_escaped(hostile: Path) -> None:
    session = open_review(collate_project(load_project(hostile / "collate.toml")), "王\x1b[2J")
    assert session.loci, "the fixture has a variant"
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    console.print(render_status(session, 0, False))
    for locus in session.loci:
        console.print(render_locus(session, locus))
    drawn = out.getvalue()
    assert "\x1b" not in drawn and "\x07" not in drawn
    assert "\\x1b]0;pwned\\x07" in drawn and "王\\x1b[2J" in drawn

    async def picker_options() -> list[str]:
        app = ReviewApp(session)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("a")
            from textual.widgets import OptionList

            options = app.screen.query_one(OptionList)
            shown = [str(options.get_option_at_index(k).prompt) for k in range(options.option_count)]
            await pilot.press("escape", "q")
        return shown

    assert all("\x1b" not in option for option in asyncio.run(picker_options()))


# --- Bidi controls are diagnosed where they stand ------------------------------------------


def test_a_bidi_override_is_diagnosed_with_its_line_and_column(folder: Path) -> None:
    (folder / "w.txt").write_text("投壺之禮\n主人\u202e奉矢\u202c司射奉中\n", encoding="utf-8")
    result = invoke("inspect", "w.txt")
    assert result.exit_code == 0, result.output
    assert re.search(r"^w\.txt:2:3: warning: \[bidi-control\] U\+202E RIGHT-TO-LEFT OVERRIDE", result.output, re.M)
    assert re.search(r"^w\.txt:2:6: warning: \[bidi-control\] U\+202C", result.output, re.M)
    assert "\u202e" not in result.output and "主人\\u202e奉矢" in result.output


def test_terminal_controls_in_a_witness_are_diagnosed(folder: Path) -> None:
    (folder / "w.txt").write_text(f"投壺之禮{CLEAR}主人奉矢\n", encoding="utf-8")
    result = invoke("inspect", "w.txt")
    assert re.search(r"^w\.txt:1:5: warning: \[control-character\] U\+001B", result.output, re.M), result.output


# --- Special files: refused before they are opened ------------------------------------------


@pytest.fixture
def fifo(folder: Path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no named pipes here")
    path = folder / "pipe.txt"
    os.mkfifo(path)
    return path


@pytest.mark.usefixtures("no_hang")
@pytest.mark.parametrize(
    "args",
    [["inspect", "pipe.txt"], ["run", "--out", "out", "a.txt", "pipe.txt"], ["diff", "--config", "collate.toml"]],
)
def test_a_fifo_as_a_witness_is_refused(fifo: Path, args: list[str]) -> None:
    (fifo.parent / "collate.toml").write_text(TWO_WITNESSES.replace("b.txt", "pipe.txt"), encoding="utf-8")
    assert_located(invoke(*args), "pipe.txt", "named pipe (FIFO)")


@pytest.mark.usefixtures("no_hang")
def test_a_fifo_as_the_project_file_is_refused(fifo: Path) -> None:
    assert_located(invoke("diff", "--config", "pipe.txt"), "pipe.txt", "named pipe (FIFO)")


@pytest.mark.usefixtures("no_hang")
@pytest.mark.parametrize(
    "setting",
    [
        'gaiji_table = "pipe.txt"\n',
        '[review]\ndecisions = "pipe.txt"\n',
        '[normalize]\nvariant_tables = ["pipe.txt"]\n',
    ],
)
def test_a_fifo_named_as_a_table_or_the_decisions_file_is_refused(fifo: Path, setting: str) -> None:
    # Settings before the witness tables, tables after them (TOML's rule).
    top, _, table = setting.partition("[")
    project = top + TWO_WITNESSES + ("[" + table if table else "")
    (fifo.parent / "collate.toml").write_text(project, encoding="utf-8")
    assert_located(invoke("run", "--config", "collate.toml"), "pipe.txt", "named pipe (FIFO)")


@pytest.mark.usefixtures("no_hang")
def test_a_device_as_a_witness_is_refused(folder: Path) -> None:
    if os.name != "posix":
        pytest.skip("needs a character device")
    assert_located(invoke("inspect", os.devnull), os.devnull, "character device")


# --- Witnesses with no text -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (" \n\u3000\n\t\n", "holds only whitespace"),
        ("。，；\n", "no text in any layer"),
        ("#+TITLE: x\n<pb:KR1d0076_SBCK_012-7a>\n", "no text in any layer"),
    ],
)
def test_a_witness_with_no_text_is_an_error_naming_it(folder: Path, content: str, message: str) -> None:
    (folder / "b.txt").write_text(content, encoding="utf-8")
    (folder / "collate.toml").write_text(TWO_WITNESSES, encoding="utf-8")
    for args in (["run", "--out", "out"], ["run", "--out", "out", "a.txt", "b.txt"], ["diff"]):
        assert_located(invoke(*args), "b.txt", message)


def test_inspect_shows_a_file_with_no_text_with_an_error_diagnostic(folder: Path) -> None:
    (folder / "m.txt").write_text("#+TITLE: x\n<pb:KR1d0076_SBCK_012-7a>\n", encoding="utf-8")
    result = invoke("inspect", "m.txt")
    assert result.exit_code == 0, result.output
    assert re.search(r"^m\.txt:1:1: error: \[no-text\]", result.output, re.M), result.output


# --- Decoding errors: line, column and byte ------------------------------------------------------


def test_invalid_utf8_mid_file_gives_line_column_and_byte(folder: Path) -> None:
    data = "投壺之禮主人奉矢司射奉中\n主人".encode() + b"\xff" + "請曰\n".encode()
    (folder / "bad.txt").write_bytes(data)
    assert_located(
        invoke("inspect", "bad.txt"), "not valid UTF-8", f"byte {data.index(0xFF)} (0xff)", where=r"bad\.txt:2:3:"
    )
    (folder / "collate.toml").write_text(TWO_WITNESSES.replace("b.txt", "bad.txt"), encoding="utf-8")
    assert_located(invoke("run", "--out", "out"), "not valid UTF-8", where=r"bad\.txt:2:3:")


def test_an_undetermined_encoding_still_says_where_utf8_fails(folder: Path) -> None:
    (folder / "bad.txt").write_bytes("投壺\n之禮".encode() + b"\xff\n")
    assert_located(invoke("inspect", "bad.txt"), "could not be determined", "byte 13 (0xff)", where=r"bad\.txt:2:3:")


def test_a_named_encoding_that_fails_gives_line_and_column(folder: Path) -> None:
    (folder / "w.txt").write_text("abc\nde投壺\n", encoding="utf-8")
    assert_located(invoke("inspect", "--encoding", "ascii", "w.txt"), "ascii", "byte 6", where=r"w\.txt:2:3:")


def test_inspect_reads_with_a_named_encoding(folder: Path) -> None:
    (folder / "w.txt").write_bytes(TEXT.encode("big5"))
    result = invoke("inspect", "--encoding", "big5", "w.txt")
    assert result.exit_code == 0, result.output
    assert "encoding: big5" in result.output and "投壺之禮" in result.output


def test_inspect_names_an_unknown_encoding(folder: Path) -> None:
    assert_located(invoke("inspect", "--encoding", "nope", "a.txt"), "a.txt", "unknown encoding 'nope'")


# --- Project keys: every key is one a stage reads ---------------------------------------------------

W = TWO_WITNESSES  # witness 2 (B) begins on line 4; a key added after it is on line 7
PROJECTS: dict[str, tuple[str, str, str]] = {
    # name: (project file, what the message says, where: a regex on the location)
    "misspelled witness key": (W + 'lable = "乙本"\n', "unknown key `lable` in witness 2", r"collate\.toml:7:"),
    "misspelled path": (W.replace('path = "b.txt"', 'pth = "b.txt"'), "did you mean `path`", r"collate\.toml:6:"),
    "misspelled setting": ('titel = "x"\n' + W, "did you mean `title`", r"collate\.toml:1:"),
    "misspelled table": (W + "[normalise]\nsemantic = true\n", "unknown table [normalise]", r"collate\.toml:7:"),
    "misspelled [normalize] key": (W + '[normalize]\nrule = ["script"]\n', "did you mean `rules`", r"collate\.toml:8:"),
    "misspelled [notes] table": (W + '[notes.lexicn]\n"大戴礼" = "B"\n', "did you mean `lexicon`", r"collate\.toml:7:"),
    "misspelled [review] key": (W + '[review]\neditr = "王"\n', "did you mean `editor`", r"collate\.toml:8:"),
    "misspelled [limits] key": (W + "[limits]\ncharacter = 5\n", "did you mean `characters`", r"collate\.toml:8:"),
    "a table as an array": (W + "[[limits]]\nratio = 5\n", "`limits` must be a table", r"collate\.toml:7:"),
    "lexicon names no witness": (
        W + '[notes.lexicon]\n"大戴礼" = "DD"\n',
        "names the siglum 'DD', which is no witness",
        r"collate\.toml:8:",
    ),
    "lexicon list names no witness": (
        W + '[notes.lexicon]\n"大戴礼" = ["A", "BB"]\n',
        "did you mean 'B'",
        r"collate\.toml:8:",
    ),
    "artifact of two characters": (W + 'artifacts = ["防防"]\n', "'防防' is not one character", r"collate\.toml:7:"),
    "empty artifact": (W + 'artifacts = [""]\n', "'' is not one character", r"collate\.toml:7:"),
    "layers empty": ("layers = []\n" + W, "`layers` is empty", r"collate\.toml:1:"),
    "witness layers empty": (W + "layers = []\n", "`layers` of witness B is empty", r"collate\.toml:7:"),
    "witness layers not collated": (
        'layers = ["jing"]\n' + W + 'layers = ["zhu"]\n',
        "names none of the layers the project collates",
        r"collate\.toml:8:",
    ),
    "encoding not a string": (W + "encoding = 5\n", "`encoding` must be the name of an encoding", r"collate\.toml:7:"),
    "title not a string": ("title = 5\n" + W, "`title` must be a string, not int", r"collate\.toml:1:"),
    "label not a string": (W + "label = []\n", "`label` must be a string", r"collate\.toml:7:"),
    "lexicon value not a siglum": (W + '[notes.lexicon]\n"大戴礼" = 3\n', "must be a siglum", r"collate\.toml:8:"),
    "encoding unknown": (W + 'encoding = "utf-9"\n', "unknown encoding 'utf-9' for witness B", r"collate\.toml:7:"),
}


@pytest.mark.parametrize("case", sorted(PROJECTS))
@pytest.mark.parametrize("command", ["run", "diff"])
def test_a_wrong_project_key_is_named_with_its_line(folder: Path, command: str, case: str) -> None:
    body, message, where = PROJECTS[case]
    (folder / "collate.toml").write_text(body, encoding="utf-8")
    args = ["run", "--out", "out"] if command == "run" else ["diff"]
    assert_located(invoke(*args), message, where=where)


def test_a_valid_lexicon_and_artifacts_are_accepted(folder: Path) -> None:
    body = W + 'artifacts = ["防", "某"]\n[notes.lexicon]\n"大戴礼" = "B"\n"今本" = ""\n'
    (folder / "collate.toml").write_text(body, encoding="utf-8")
    result = invoke("run", "--out", "out")
    assert result.exit_code == 0, result.output
