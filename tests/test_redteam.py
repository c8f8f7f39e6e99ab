"""Bad inputs a red-team pass found, as a table: each case → the located error a user must get.

Every case starts from a copy of the default project, changes what the case says (a file written,
a project key set, a link made), runs one command, and expects exit 1, no traceback, the words of
the message and its place (``file:line`` or ``file:line:column``). The next pass starts from here:
a new case is a row.

What is no error but must still hold (a capped worker count, a lock waited for, a temporary file
cleaned, a file name with a newline in the outputs) is tested below the table.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from builders import copy_default_project
from click.testing import CliRunner

from collate.cli import main
from collate.decisions.ledger import Ledger
from collate.runs.manifest import MANIFEST, STATE_DIR, sha256_of

DECISION = """version = 1

[[decision]]
id = "d1"
action = "{action}"
editor = "e"
when = "2026-01-01T00:00:00+00:00"
{extra}
[decision.anchor]
layer = "jing"
offset = {offset}
lemma = "哨"
readings = ["峭"]
"""


def decision(action: str = "keep", offset: int = 24, extra: str = "") -> str:
    """A decisions file of one decision on 哨/峭 of the default project, with what a case changes."""
    return DECISION.format(action=action, offset=offset, extra=extra)


def set_review(key_value: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        with (folder / "collate.toml").open("a", encoding="utf-8") as project:
            project.write(f"\n[review]\n{key_value}\n")

    return change


def write(name: str, text: str | bytes) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")

    return change


def set_top(line: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        project = folder / "collate.toml"
        project.write_text(f"{line}\n" + project.read_text(encoding="utf-8"), encoding="utf-8")

    return change


def link(name: str, target: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        (folder / name).symlink_to(target)

    return change


def both(*changes: Callable[[Path], None]) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        for one in changes:
            one(folder)

    return change


def utf16_be_witness(folder: Path) -> None:
    (folder / "seeds" / "001_97a493e45035c1ac.txt").write_bytes("投壺之禮\n主人奉矢\n".encode("utf-16-be"))


def no_project_file(folder: Path) -> None:
    (folder / "collate.toml").unlink()


def state_folder_linked(folder: Path) -> None:
    (folder / "elsewhere").mkdir()
    (folder / "output").mkdir()
    (folder / "output" / STATE_DIR).symlink_to("../elsewhere")


def witness_path(path: str) -> Callable[[Path], None]:
    def change(folder: Path) -> None:
        project = folder / "collate.toml"
        text = project.read_text(encoding="utf-8")
        project.write_text(text.replace("seeds/001_97a493e45035c1ac.txt", path, 1), encoding="utf-8")

    return change


@dataclass(frozen=True)
class Case:
    """One bad input: what to change, the command, the words of the message, where it must point."""

    name: str
    change: Callable[[Path], None]
    command: tuple[str, ...]
    words: tuple[str, ...]
    where: str  # a regex the message's location must match
    absent: tuple[str, ...] = ()  # words the message must not hold


CASES = [
    Case(
        "decisions nested 5,000 deep, run",
        write("decisions.toml", "version = 1\nx = " + "[" * 5000 + "]" * 5000 + "\n"),
        ("run",),
        ("nested more than 64 deep",),
        r"decisions\.toml:2:\d+",
    ),
    Case(
        "decisions nested 5,000 deep, diff",
        write("decisions.toml", "version = 1\nx = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n"),
        ("diff", "--no-pager"),
        ("nested more than 64 deep",),
        r"decisions\.toml:2:\d+",
    ),
    Case(
        "[review] decisions outside the project",
        set_review('decisions = "/nonexistent-collate-dir/d.toml"'),
        ("run",),
        ("outside the project's folder", "decisions_outside = true"),
        r"collate\.toml:\d+",
    ),
    Case(
        "[review] decisions above the project",
        set_review('decisions = "../d.toml"'),
        ("review",),
        ("outside the project's folder",),
        r"collate\.toml:\d+",
    ),
    Case("[review] decisions = 1", set_review("decisions = 1"), ("run",), ("path of a file",), r"collate\.toml:\d+"),
    Case("[review] editor = 1", set_review("editor = 1"), ("run",), ("a name on one line",), r"collate\.toml:\d+"),
    Case(
        "[review] decisions_outside not a boolean",
        set_review('decisions_outside = "yes"'),
        ("run",),
        ("true or false",),
        r"collate\.toml:\d+",
    ),
    Case(
        "a gaiji table that does not exist",
        set_top('gaiji_table = "no-such-table.txt"'),
        ("run",),
        ("gaiji table", "does not exist"),
        r"collate\.toml:1\b",
    ),
    Case(
        "a decision with a negative offset",
        write("decisions.toml", decision(offset=-5)),
        ("run",),
        ("offset", "from 0"),
        r"decisions\.toml:3",
    ),
    Case(
        "a decision with a huge offset",
        write("decisions.toml", decision(offset=10**15)),
        ("run",),
        ("offset",),
        r"decisions\.toml:3",
    ),
    Case(
        "a reclassification to not_extant",
        write("decisions.toml", decision("reclassify", extra='class = "not_extant"\nnorm = "峭"')),
        ("run",),
        ("not a class an editor gives", "scribal_error"),
        r"decisions\.toml:3",
    ),
    Case(
        "a split past the end of its lemma",
        write("decisions.toml", decision("split", extra="at = 99999")),
        ("run",),
        ("does not fall between two characters", "哨"),
        r"decisions\.toml:3",
    ),
    Case(
        "a witness in UTF-16-BE without a BOM",
        utf16_be_witness,
        ("run",),
        ('encoding = "utf-16-be"',),
        r"001_97a493e45035c1ac\.txt",
        absent=("utf-16-le",),
    ),
    Case(
        "a witness that is a loop of symbolic links",
        both(link("loop.txt", "loop.txt"), witness_path("loop.txt")),
        ("run",),
        ("symbolic links",),
        r"loop\.txt",
        absent=("no such file",),
    ),
    Case(
        "a file given that is a loop of symbolic links",
        link("loop.txt", "loop.txt"),
        ("run", "seeds/000_2cc6d19ca27bf473.txt", "loop.txt"),
        ("symbolic links",),
        r"loop\.txt",
        absent=("no such file",),
    ),
    Case(
        "a witness that is a link to nothing",
        both(link("gone.txt", "nowhere.txt"), witness_path("gone.txt")),
        ("run",),
        ("symbolic link to nowhere.txt",),
        r"gone\.txt",
    ),
    Case(
        "inspect of a file that is not there, with no project",
        no_project_file,
        ("inspect", "missing.txt"),
        ("no such file",),
        r"missing\.txt",
        absent=("project file",),
    ),
    Case(
        "output/.collate is a symbolic link",
        state_folder_linked,
        ("run",),
        (".collate is a symbolic link",),
        r"output/\.collate",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_bad_input_is_a_located_error(case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    copy_default_project(tmp_path)
    case.change(tmp_path)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, list(case.command))
    assert isinstance(result.exception, SystemExit), f"{result.exception!r}\n{result.output}"
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    message = result.output
    for word in case.words:
        assert word in message, message
    for word in case.absent:
        assert word not in message, message
    assert re.search(rf"Error: [^\n]*{case.where}", message), message


# --- What must hold where there is no error ------------------------------------------------------


def test_no_folder_is_made_outside_the_project_for_its_decisions(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    copy_default_project(project)
    set_review('decisions = "../made/d.toml"\ndecisions_outside = true')(project)
    result = CliRunner().invoke(main, ["run", "-c", str(project / "collate.toml")])
    assert result.exit_code == 0, result.output
    # Allowed, as the project says so; but a review's save makes no folder for it.
    with pytest.raises(Exception, match="does not exist"):
        Ledger[str]().change(tmp_path / "made" / "d.toml", lambda text: text or "", lambda state: state)
    assert not (tmp_path / "made").exists()


def test_a_symbolic_link_for_the_state_folder_is_never_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy_default_project(tmp_path)
    target = tmp_path / "elsewhere"
    (target / "new-precious").mkdir(parents=True)
    (target / "new-precious" / "keep.txt").write_text("mine", encoding="utf-8")
    (tmp_path / "output").mkdir()
    (tmp_path / "output" / STATE_DIR).symlink_to(target)
    monkeypatch.chdir(tmp_path)
    assert CliRunner().invoke(main, ["run"]).exit_code == 1
    assert (target / "new-precious" / "keep.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(p.name for p in target.iterdir()) == ["new-precious"]


def _plant(out: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the run's JSON in ``out`` and make its manifest match it, as a folder from elsewhere may."""
    data = json.loads((out / "touhu.json").read_text(encoding="utf-8"))
    change(data)
    (out / "touhu.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    manifest = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    manifest["outputs"]["touhu.json"] = sha256_of(out / "touhu.json")
    (out / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")


GARBAGE: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (lambda d: d["layers"][0].update(loci=5), "layers[0].loci"),
    (
        lambda d: d["layers"][0].update(loci=[{"readings": [{"class": "substantive", "witnesses": [7]}]}]),
        "layers[0].loci[0].readings[0].witnesses[0]",
    ),
    (lambda d: d["layers"][0].update(layer=["jing"]), "layers[0].layer"),
    (lambda d: d.update(layers=[{"layer": "jing", "loci": [None]}]), "layers[0].loci[0]"),
    (lambda d: d.update(layers=["x"]), "layers[0]"),
    (lambda d: d.update(layers=7), "schema"),
]


def test_stats_on_a_collation_with_garbage_whose_hash_the_manifest_records(tmp_path: Path) -> None:
    copy_default_project(tmp_path)
    assert CliRunner().invoke(main, ["run", "-c", str(tmp_path / "collate.toml")]).exit_code == 0
    out = tmp_path / "output"
    original = (out / "touhu.json").read_text(encoding="utf-8")
    for change, place in GARBAGE:
        (out / "touhu.json").write_text(original, encoding="utf-8")
        _plant(out, change)
        result = CliRunner().invoke(main, ["stats", str(out)])
        assert result.exit_code == 1 and "Traceback" not in result.output, result.output
        assert place in result.output and "touhu.json" in result.output, result.output


def test_a_run_waits_for_the_output_lock_before_collating_and_says_so(tmp_path: Path) -> None:
    import fcntl

    copy_default_project(tmp_path)
    (tmp_path / "output" / STATE_DIR).mkdir(parents=True)
    with (tmp_path / "output" / STATE_DIR / "lock").open("ab") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        process = subprocess.Popen(
            [sys.executable, "-m", "collate.cli", "run"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stderr is not None
        said = process.stderr.readline()
        # Told at once, before it collates (no output written while the lock is held).
        assert "another collate is writing into" in said and "waiting" in said
        assert not (tmp_path / "output" / "touhu.json").exists()
        fcntl.flock(held.fileno(), fcntl.LOCK_UN)
    _, err = process.communicate()
    assert process.returncode == 0, err
    assert (tmp_path / "output" / "touhu.json").exists()


def test_a_killed_save_leaves_no_temporary_file_after_the_next(tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    path.write_text("version = 1\n", encoding="utf-8")
    stale = [tmp_path / f".decisions.toml.{name}.tmp" for name in ("abcd1234", "z_9y8x7w")]
    for p in stale:
        p.write_text("half a save", encoding="utf-8")
    other = tmp_path / ".other.toml.abcd1234.tmp"
    other.write_text("not ours", encoding="utf-8")
    Ledger[str]().change(path, lambda text: text or "", lambda state: state + "# saved\n")
    assert not any(p.exists() for p in stale)
    assert other.exists() and path.read_text(encoding="utf-8").endswith("# saved\n")


def test_a_newline_in_a_witness_file_name_splits_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "base.txt").write_text("天子之射也以爲諸侯之禮\n", encoding="utf-8")
    odd = "wit\nness.txt"
    (tmp_path / odd).write_text("天子之射也以爲諸侯禮樂\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["run", "base.txt", odd])
    assert result.exit_code == 0, result.output
    book = (tmp_path / "output" / "collation.jiaokanji.txt").read_text(encoding="utf-8")
    entries = [line for line in book.splitlines() if line.startswith("第")]
    assert len(entries) == 2 and all("wit\\x0aness.txt" in e for e in entries), book
    tei = (tmp_path / "output" / "collation.tei.xml").read_text(encoding="utf-8")
    assert "wit\nness" not in tei and "wit&#10;ness" not in tei


def test_a_worker_count_beyond_the_machine_is_capped_with_a_message() -> None:
    from collate.batch.run import _cluster_size

    heard: list[str] = []
    cpus = os.cpu_count() or 1
    assert _cluster_size(None, 100_000, heard.append) == cpus
    assert "[cluster] workers = 100,000" in heard[0] and f"running {cpus} workers" in heard[0]
    assert _cluster_size(100_000, None, heard.append) == cpus and heard[1].startswith("--workers")
    assert _cluster_size(1, 100_000, heard.append) == 1 and len(heard) == 2
    assert _cluster_size(None, None, heard.append) == cpus and len(heard) == 2


def test_validate_warns_of_a_dtd_and_entities_it_did_not_resolve(tmp_path: Path) -> None:
    doc = tmp_path / "d.xml"
    doc.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE TEI SYSTEM "http://example.org/tei.dtd" [\n'
        '<!ENTITY foo "bar">\n<!ENTITY ext SYSTEM "file:///etc/passwd">\n]>\n'
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>'
        "<publicationStmt><p>p</p></publicationStmt><sourceDesc><p>s</p></sourceDesc></fileDesc></teiHeader>"
        "<text><body><p>&foo;</p></body></text></TEI>\n",
        encoding="utf-8",
    )
    result = CliRunner().invoke(main, ["validate", str(doc)])
    assert "Traceback" not in result.output
    assert re.search(
        r"d\.xml:2:1: <!DOCTYPE>: the document names a DTD \(http://example\.org/tei\.dtd\)", result.output
    )
    assert "entity declarations were not resolved: foo, ext (external: file:///etc/passwd)" in result.output
    assert re.search(r"d\.xml:6: <p>: 1 entity reference\(s\) left as written, not replaced: &foo;", result.output)
