"""Bad input never gives a traceback: every command names the file (and line:col) and says what to do.

Each case goes through the command line as a user meets it. Commands are found by their
parameters, so a new command that takes a project (``--config``) or a file argument is
covered when it lands.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace

import click
import pytest
from click.testing import CliRunner, Result
from conftest import SEED_000, SEED_001

from collate.cli import main
from collate.runs.saved import load_run

# `export` takes --config only to find the output folder: it reads the saved run, not the project.
SAVED_RUN_COMMANDS = {"export"}


def _takes_file(command: click.Command) -> bool:
    return any(isinstance(p, click.Argument) and isinstance(p.type, click.Path) for p in command.params)


PROJECT_COMMANDS = sorted(
    name
    for name, command in main.commands.items()
    if any(p.name == "config" for p in command.params) and name not in SAVED_RUN_COMMANDS
)
FILE_COMMANDS = sorted(name for name, command in main.commands.items() if _takes_file(command))
# Commands that read a witness file named on the command line (not a TEI document).
WITNESS_FILE_COMMANDS = [name for name in ("inspect", "run") if name in FILE_COMMANDS]

TEXT = "投壺之禮，主人奉矢，司射奉中，使人執壺。\n"
TWO_WITNESSES = '[[witness]]\nsiglum = "A"\npath = "a.txt"\n[[witness]]\nsiglum = "B"\npath = "b.txt"\n'


class _Terminal:
    """Stands for a terminal, so `collate review` gets past its check and loads the project."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project folder holding two small witnesses, made the working directory."""
    (tmp_path / "a.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "b.txt").write_text(TEXT.replace("中", "壺"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _no_review_app(*args: object, **kwargs: object) -> None:
    raise AssertionError("the bad input was accepted: the review app would have opened")


def invoke(args: list[str], monkeypatch: pytest.MonkeyPatch | None = None) -> Result:
    """Run ``collate ARGS``; `review` sees a terminal, and never opens its app (that would wait for keys)."""
    if monkeypatch is not None and args[0] == "review":
        terminal = SimpleNamespace(stdin=_Terminal(), stdout=_Terminal(), exit=sys.exit)
        monkeypatch.setattr("collate.cli.showing.sys", terminal)
        monkeypatch.setattr("collate.review.app.run_review", _no_review_app)
    return CliRunner().invoke(main, args)


def assert_clean_failure(result: Result, *names: str, where: str | None = None) -> None:
    """Exit 1 (or click's usage exit 2), no traceback, every name in the message, ``where`` matched."""
    # A crash shows as another exception on the result: CliRunner keeps tracebacks out of the output.
    assert isinstance(result.exception, SystemExit), f"{result.exception!r}\n{result.output}"
    assert result.exit_code in (1, 2), result.output
    assert "Traceback" not in result.output
    for name in names:
        assert name in result.output, result.output
    if where is not None:
        assert re.search(where, result.output), f"{where!r} not in {result.output!r}"


def test_the_commands_are_found() -> None:
    assert {"run", "notes", "diff"} <= set(PROJECT_COMMANDS)
    assert {"inspect", "run"} <= set(FILE_COMMANDS)


# --- Witness files that cannot be read ---------------------------------------------------

BAD_FILES: dict[str, tuple[bytes | None, str]] = {
    # name: (content, None for "does not exist"; what the message says)
    "missing": (None, "no such file"),
    "empty": (b"", "empty"),
    "bom-only": (b"\xef\xbb\xbf", "BOM"),
    "binary": (bytes(range(256)) * 4, "NUL"),
    "nul": ("投壺\x00之禮\n".encode(), "NUL"),
    "undecodable": (b"abc\xff\x80\xc3(\n", "encoding could not be determined"),
}


def _bad_file(folder: Path, case: str) -> Path:
    content, _ = BAD_FILES[case]
    path = folder / f"{case}.txt"
    if content is not None:
        path.write_bytes(content)
    return path


@pytest.mark.parametrize("case", sorted(BAD_FILES))
@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_a_bad_file_argument_is_one_clean_error(folder: Path, command: str, case: str) -> None:
    path = _bad_file(folder, case)
    result = invoke([command, path.name])
    assert_clean_failure(result, path.name)
    assert result.exit_code == 1
    if command in WITNESS_FILE_COMMANDS:
        assert BAD_FILES[case][1] in result.output
        assert len(result.output.strip().splitlines()) == 1


@pytest.mark.parametrize("command", FILE_COMMANDS)
def test_a_folder_as_file_argument_is_a_usage_error(folder: Path, command: str) -> None:
    (folder / "pages").mkdir()
    assert_clean_failure(invoke([command, "pages"]), "pages")


@pytest.mark.parametrize("case", [*sorted(BAD_FILES), "folder"])
@pytest.mark.parametrize("command", PROJECT_COMMANDS)
def test_a_bad_witness_file_in_a_project_is_named(
    folder: Path, monkeypatch: pytest.MonkeyPatch, command: str, case: str
) -> None:
    if case == "folder":
        (folder / "folder.txt").mkdir()
        expected = "folder"
    else:
        _bad_file(folder, case)
        expected = BAD_FILES[case][1]
    (folder / "collate.toml").write_text(TWO_WITNESSES.replace("b.txt", f"{case}.txt"), encoding="utf-8")
    result = invoke([command, "--config", "collate.toml"], monkeypatch)
    assert_clean_failure(result, f"{case}.txt", expected)
    assert result.exit_code == 1


# --- Project files that are wrong --------------------------------------------------------

R = '[[witness]]\nsiglum = "R"\npath = "r.toml"\nlayout = "readings"\n'  # lines 7-10 after TWO_WITNESSES
PROJECTS: dict[str, tuple[str, str, str]] = {
    # name: (project file, what the message says, where: a regex on the location)
    "bad TOML": ('title = "x\n' + TWO_WITNESSES, "not valid TOML", r"collate\.toml:1:11\b"),
    "bad TOML table": (TWO_WITNESSES + "[[witness]\n", "not valid TOML", r"collate\.toml:7:\d+"),
    "missing path": (TWO_WITNESSES.replace('path = "b.txt"\n', ""), "`path` is missing", r"collate\.toml:5\b"),
    "duplicate siglum": (TWO_WITNESSES.replace('"B"', '"A"'), "duplicate siglum 'A'", r"collate\.toml:5\b"),
    "unknown layout": (TWO_WITNESSES + 'layout = "nope"\n', "unknown layout 'nope'", r"collate\.toml:7\b"),
    "non-ASCII siglum": (TWO_WITNESSES.replace('"B"', '"四庫"'), "not an ASCII identifier", r"collate\.toml:5\b"),
    "empty siglum": (TWO_WITNESSES.replace('"B"', '""'), "not an ASCII identifier", r"collate\.toml:5\b"),
    "siglum not a string": (TWO_WITNESSES.replace('"B"', "2"), "`siglum` must be a string", r"collate\.toml"),
    "base not a witness": (
        'base = "Z"\n' + TWO_WITNESSES,
        "base 'Z' is not one of the witnesses",
        r"collate\.toml:1\b",
    ),
    "base a readings file": ('base = "R"\n' + TWO_WITNESSES + R, "readings file", r"collate\.toml:1\b"),
    "layers not text": ('layers = ["jing", "markup"]\n' + TWO_WITNESSES, "`layers`", r"collate\.toml:1\b"),
    "layers a string": ('layers = "jing"\n' + TWO_WITNESSES, "`layers`", r"collate\.toml:1\b"),
    "layers empty": ("layers = []\n" + TWO_WITNESSES, "`layers` is empty", r"collate\.toml:1\b"),
    "witness layers": (TWO_WITNESSES + 'layers = ["heading"]\n', "`layers`", r"collate\.toml:7\b"),
    "artifacts a number": (TWO_WITNESSES + "artifacts = 5\n", "`artifacts`", r"collate\.toml:7\b"),
    "a table as a value": ("notes = 5\n" + TWO_WITNESSES, "`notes` must be a table", r"collate\.toml:1\b"),
    "no witnesses": ('title = "x"\n', "no witnesses", r"collate\.toml"),
    "witness not a table": ("witness = [1]\n", "witness 1 is not a table", r"collate\.toml"),
    "unknown rule": (TWO_WITNESSES + '[normalize]\nrules = ["bogus"]\n', "unknown rule 'bogus'", r"collate\.toml"),
    "unknown encoding": (TWO_WITNESSES + 'encoding = "nope"\n', "unknown encoding 'nope'", r"b\.txt"),
    "wrong encoding": (TWO_WITNESSES + 'encoding = "ascii"\n', "cannot be decoded as ascii", r"b\.txt"),
    "missing gaiji table": (
        'gaiji_table = "gaiji.txt"\n' + TWO_WITNESSES + 'layout = "mandoku"\n',
        "gaiji",
        r"gaiji\.txt",
    ),
}


@pytest.mark.parametrize("case", sorted(PROJECTS))
@pytest.mark.parametrize("command", PROJECT_COMMANDS)
def test_a_wrong_project_file_is_named_with_its_line(
    folder: Path, monkeypatch: pytest.MonkeyPatch, command: str, case: str
) -> None:
    body, message, where = PROJECTS[case]
    (folder / "collate.toml").write_text(body, encoding="utf-8")
    (folder / "r.toml").write_text(READING, encoding="utf-8")
    result = invoke([command, "--config", "collate.toml"], monkeypatch)
    assert_clean_failure(result, message, where=where)
    assert result.exit_code == 1


@pytest.mark.parametrize("command", PROJECT_COMMANDS)
def test_a_project_file_not_in_utf8_names_the_bad_byte(
    folder: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    (folder / "collate.toml").write_bytes('title = "x"\nname = "café"\n'.encode("latin-1") + TWO_WITNESSES.encode())
    result = invoke([command, "--config", "collate.toml"], monkeypatch)
    assert_clean_failure(result, "UTF-8", where=r"collate\.toml:2:12\b")


@pytest.mark.parametrize("command", PROJECT_COMMANDS)
def test_no_project_file_says_what_to_do(folder: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    result = invoke([command], monkeypatch)
    assert_clean_failure(result, "collate.toml", "no project file")


def test_diff_of_an_unknown_siglum_names_the_project(folder: Path) -> None:
    (folder / "collate.toml").write_text(TWO_WITNESSES, encoding="utf-8")
    assert_clean_failure(invoke(["diff", "ZZ"]), "'ZZ'", "collate.toml")


# --- Readings files with bad entries -----------------------------------------------------

READING = (
    '[witness]\ntitle = "大戴禮"\n\n[[reading]]\nat = "主人奉矢"\nbase = "矢"\nreading = "失"\nsource = "蕙田案"\n'
)
READINGS: dict[str, tuple[str, str, str]] = {
    # name: (readings file, what the message says, where)
    "no source": (READING.replace('source = "蕙田案"\n', ""), "lacks `source`", r"r\.toml:4:1\b"),
    "base not in at": (READING.replace('base = "矢"', 'base = "中"'), "is not inside `at`", r"r\.toml:6:1\b"),
    "reading same as base": (READING.replace('"失"', '"矢"'), "same as `base`", r"r\.toml:7:1\b"),
    "unknown key": (READING + '  colour = "red"\n', "unknown key 'colour'", r"r\.toml:9:3\b"),
    "not a string": (READING.replace('"失"', "3"), "`reading` must be a string", r"r\.toml:7:1\b"),
    "bad TOML": (READING.replace('"主人奉矢"', '"主人奉矢'), "not valid TOML", r"r\.toml:5:\d+"),
    "bad position": (READING + 'position = "below"\n', "unknown position 'below'", r"r\.toml:9:1\b"),
    "bad layer": (READING + 'layer = "markup"\n', "unknown layer 'markup'", r"r\.toml:9:1\b"),
    "second entry": (
        READING + '\n[[reading]]\nat = "司射"\nbase = ""\nreading = ""\nsource = "x"\n',
        "both empty",
        r"r\.toml:12:1\b",
    ),
    "no readings": ('[witness]\ntitle = "大戴禮"\n', "no readings", r"r\.toml:1:1\b"),
    "unknown top-level key": ("colour = 1\n" + READING, "unknown top-level key 'colour'", r"r\.toml:1:1\b"),
}


@pytest.mark.parametrize("case", sorted(READINGS))
@pytest.mark.parametrize("command", PROJECT_COMMANDS)
def test_a_bad_readings_entry_is_named_with_line_and_column(
    folder: Path, monkeypatch: pytest.MonkeyPatch, command: str, case: str
) -> None:
    body, message, where = READINGS[case]
    (folder / "r.toml").write_text(body, encoding="utf-8")
    (folder / "collate.toml").write_text(TWO_WITNESSES + R, encoding="utf-8")
    result = invoke([command, "--config", "collate.toml"], monkeypatch)
    assert_clean_failure(result, message, where=where)
    assert result.exit_code == 1


@pytest.mark.parametrize("case", sorted(READINGS))
def test_inspect_names_a_bad_readings_entry(folder: Path, case: str) -> None:
    body, message, where = READINGS[case]
    (folder / "r.toml").write_text(body, encoding="utf-8")
    assert_clean_failure(invoke(["inspect", "r.toml"]), message, where=where)


def test_a_readings_file_saved_with_crlf_is_read(folder: Path) -> None:
    (folder / "r.toml").write_bytes(READING.replace("\n", "\r\n").encode())
    (folder / "collate.toml").write_text(TWO_WITNESSES + R, encoding="utf-8")
    result = invoke(["run", "--out", "out"])
    assert result.exit_code == 0, result.output
    (witness,) = [w for w in load_run(folder / "out").read.witnesses if w.siglum == "R"]
    assert [(r.at, r.base, r.reading) for r in witness.readings] == [("主人奉矢", "矢", "失")]


def test_a_readings_file_first_on_the_command_line_is_no_base(folder: Path) -> None:
    (folder / "r.toml").write_text(READING, encoding="utf-8")
    assert_clean_failure(invoke(["run", "r.toml", "a.txt"]), "r.toml", "readings file")


# --- The last run, for export ------------------------------------------------------------


@pytest.mark.parametrize("command", sorted(SAVED_RUN_COMMANDS & set(main.commands)))
def test_no_saved_run_says_to_run_first(folder: Path, command: str) -> None:
    assert_clean_failure(invoke([command, "--out", "out"]), "out", "collate run")


@pytest.mark.parametrize("command", sorted(SAVED_RUN_COMMANDS & set(main.commands)))
def test_a_damaged_saved_run_says_to_run_again(folder: Path, command: str) -> None:
    saved = folder / "out" / ".collate" / "last-run.pickle"
    saved.parent.mkdir(parents=True)
    saved.write_bytes(b"not a pickle")
    assert_clean_failure(invoke([command, "--out", "out"]), "last-run.pickle", "collate run")


# --- Encodings and line ends that must read fine -----------------------------------------


def _excerpt(seed: Path, encoding: str, lines: int = 40) -> str:
    """The first ``lines`` lines of ``seed`` that ``encoding`` can hold."""
    kept: list[str] = []
    for line in seed.read_text(encoding="utf-8").splitlines(keepends=True):
        try:
            line.encode(encoding)
        except UnicodeEncodeError:
            continue
        kept.append(line)
        if len(kept) == lines:
            break
    return "".join(kept)


ENCODED = [
    # (seed, its layout, how it is written, the encoding collate reports)
    (SEED_000, "siku-wltk", "gb18030", "gb18030"),
    (SEED_001, "zhushu", "big5", "big5"),
    (SEED_000, "siku-wltk", "utf-16", "utf-16 (BOM)"),
    (SEED_001, "zhushu", "utf-8-sig", "utf-8 (BOM)"),
    (SEED_000, "siku-wltk", "crlf", "utf-8"),
]


@pytest.mark.parametrize(("seed", "layout", "written", "reported"), ENCODED)
def test_legacy_encodings_and_crlf_read_like_utf8(
    folder: Path, seed: Path, layout: str, written: str, reported: str
) -> None:
    text = _excerpt(seed, "big5" if written == "big5" else "utf-8")
    (folder / "utf8.txt").write_text(text, encoding="utf-8", newline="")
    data = text.replace("\n", "\r\n").encode() if written == "crlf" else text.encode(written)
    (folder / "other.txt").write_bytes(data)
    listings = []
    for name in ("utf8.txt", "other.txt"):
        result = invoke(["inspect", name])
        assert result.exit_code == 0, result.output
        assert f"layout: {layout} " in result.output
        # Past the path and the layout/encoding line; the file's name in diagnostics set aside,
        # and the markup row, which counts the line ends' characters (two in CRLF).
        rows = result.output.split("\n", 2)[2].replace(name, "FILE").splitlines()
        listings.append("\n".join(row for row in rows if " markup " not in row))
    assert f"encoding: {reported}" in result.output
    assert listings[0] == listings[1]

    result = invoke(["run", "--out", "out", "utf8.txt", "other.txt"])
    assert result.exit_code == 0, result.output
    run = load_run(folder / "out")
    assert [w.text.replace("\r\n", "\n") for w in run.read.witnesses] == [text, text]
    assert list(run.collation.loci()) == []


# --- Unbalanced brackets: reported where they are, the rest still read --------------------

UNBALANCED = [
    # (layout, file, the diagnostic's line:col, text after it that must still be read)
    ("siku-wltk", "h1\nh2\nh3\nh4\nh5\n礼记投壶投壶之礼(注投壶者\n主人奉矢\n", "6:9", "主人奉矢"),
    ("zhushu", "投壺之禮_{投壺者\n主人奉矢_{矢也}司射奉中\n", "1:5", "司射奉中"),
    ("yili-inline", "主人奉矢【案今本\n司射奉中郑注中也\n", "1:5", "司射奉中"),
    ("web-bracket", "礼记投壶投壶之礼【注投壶者\n主人奉矢【注矢也】司射奉中\n", "1:9", "司射奉中"),
    ("jishuo", "投壶之礼【投反\n主人奉矢【矢反】司射奉中\n", "1:5", "司射奉中"),
    (
        "mandoku",
        "#+TITLE: x\n<pb:KR1d0076_SBCK_012-7a>投壺之禮(投壺者¶\n主人奉矢(矢/也)司射奉中¶\n",
        "2:30",
        "司射奉中",
    ),
    ("siku-wltk", "h1\nh2\nh3\nh4\nh5\n礼记投壶投壶之礼)主人奉矢\n", "6:9", "主人奉矢"),
]


@pytest.mark.parametrize(("layout", "text", "where", "rest"), UNBALANCED)
def test_an_unbalanced_bracket_is_placed_and_the_rest_is_read(
    folder: Path, layout: str, text: str, where: str, rest: str
) -> None:
    (folder / "w.txt").write_text(text, encoding="utf-8")
    result = invoke(["inspect", "--layout", layout, "w.txt"])
    assert result.exit_code == 0, result.output
    listing, diagnostics = result.output.split("\nDiagnostics\n")
    assert re.search(rf"^w\.txt:{where}\b.*\[unbalanced\]", diagnostics, re.MULTILINE), diagnostics
    assert rest in listing


@pytest.mark.parametrize(("layout", "text"), [(layout, text) for layout, text, _, rest in UNBALANCED if "射" in rest])
def test_inspect_tokens_survives_an_unbalanced_bracket(folder: Path, layout: str, text: str) -> None:
    (folder / "w.txt").write_text(text, encoding="utf-8")
    result = invoke(["inspect", "--tokens", "--layout", layout, "w.txt"])
    assert result.exit_code == 0, result.output
    assert any(line.split("\t")[1:2] == ["射"] for line in result.output.splitlines())


# --- Names that look like terminal markup ------------------------------------------------


def test_paths_and_text_that_look_like_markup_are_printed_as_they_are(folder: Path) -> None:
    # rich reads `[...]` as markup: a file or folder so named must not crash a command or vanish.
    (folder / "a[bold].txt").write_text("投壺之禮[/]\n", encoding="utf-8")
    (folder / "b[red].txt").write_text("投壺之礼[red]\n", encoding="utf-8")
    for args in (
        ["run", "--out", "out[/x]", "a[bold].txt", "b[red].txt"],
        ["export", "--out", "out[/x]"],
        ["inspect", "b[red].txt"],
    ):
        result = invoke(args)
        assert result.exit_code == 0, f"{args}: {result.exception!r}\n{result.output}"
    assert "current out[/x]" in invoke(["export", "--out", "out[/x]"]).output
    assert "wrote out[/x]" in invoke(["export", "--out", "out[/x]", "--force"]).output
    assert "投壺之礼[red]" in invoke(["inspect", "b[red].txt"]).output
    assert_clean_failure(invoke(["inspect", "c[bold].txt"]), "c[bold].txt", "no such file")
