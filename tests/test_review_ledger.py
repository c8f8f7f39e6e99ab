"""Saving decisions never loses one: concurrent reviews, hand edits, foreign and newer files, titles."""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from builders import CLOCK, REVIEW_BASE, REVIEW_WIT, collate_rows, review_session
from conftest import DADAI_READINGS

from collate.apparatus import Collation
from collate.decisions import ledger
from collate.decisions.file import (
    Anchor,
    Decision,
    change_decisions,
    decisions_path,
    dumps_decisions,
    load_decisions,
)
from collate.errors import ExportError, ProjectError
from collate.files import parse_toml
from collate.model import Layer
from collate.model.annotations import DecisionAction
from collate.project import project_from_mapping

TESTS = Path(__file__).parent


@pytest.fixture
def collation() -> Collation:
    """SK and ZS: five loci (three 哨/峭, two 算/筭)."""
    return collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})


def decision(key: str, offset: int = 3, comment: str = "") -> Decision:
    """A doubt at a 算 of the base, made at :data:`CLOCK`."""
    anchor = Anchor(Layer.JING, "算", ("算",), "八", "兴", offset)
    return Decision(key, DecisionAction.DOUBT, anchor, "e", CLOCK, comment)


# A review in a process of its own: it opens the file it is sent, says so, waits for "go",
# decides its loci one by one (each a save) and says "done". Both processes have opened the
# file before either decides, as two editors' reviews open on one project.
WORKER = """
import sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, review_session
from collate.model.annotations import DecisionAction

collation = collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})
mine = [int(k) for k in sys.argv[2].split(",")]
print("up", flush=True)
while line := sys.stdin.readline().strip():
    session = review_session(collation, Path(line), editor=sys.argv[2])
    print("open", flush=True)
    assert sys.stdin.readline().strip() == "go"
    for k in mine:
        session.decide(session.loci[k], DecisionAction.KEEP)
    print("done", flush=True)
"""


@pytest.mark.slow
def test_two_review_processes_deciding_at_once_keep_every_decision(collation: Collation, tmp_path: Path) -> None:
    trials, loci = 10, ("0,2,4", "1,3")
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(TESTS), mine], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        for mine in loci
    ]
    kept = []
    try:
        for w in workers:
            assert w.stdout is not None and w.stdout.readline().strip() == "up"

        def tell(line: str, reply: str) -> None:
            for w in workers:
                assert w.stdin is not None
                w.stdin.write(line + "\n")
                w.stdin.flush()
            for w in workers:
                assert w.stdout is not None and w.stdout.readline().strip() == reply

        for trial in range(trials):
            path = tmp_path / f"decisions-{trial}.toml"
            tell(str(path), "open")
            tell("go", "done")
            kept.append(sorted(d.anchor.locus for d in load_decisions(path)))
    finally:
        for w in workers:
            assert w.stdin is not None
            w.stdin.close()
            w.wait()
    every = sorted(x.id for x in collation.loci())
    assert [len(k) for k in kept] == [len(every)] * trials  # all 5 of each trial: 50 of 50
    assert all(k == every for k in kept)


def test_sessions_of_one_process_deciding_at_once_keep_every_decision(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    sessions = [review_session(collation, path, editor=f"e{k}") for k in range(10)]
    start = threading.Barrier(len(sessions))

    def decide(k: int) -> None:
        start.wait()
        s = sessions[k]
        s.decide(s.loci[k % len(s.loci)], DecisionAction.KEEP)

    threads = [threading.Thread(target=decide, args=(k,)) for k in range(len(sessions))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(d.editor for d in load_decisions(path)) == sorted(f"e{k}" for k in range(10))


HAND = """
# 阮元校勘記 agrees: see 卷三.
[[decision]]
id = "byhand0001"
action = "doubt"
comment = "written by hand"
editor = "李"
when = "2024-05-02T09:00:00+08:00"
checked = true  # a key collate does not know

[decision.anchor]
layer = "jing"
offset = 44
lemma = "算"
readings = ["算"]
before = "不足辞也敢固设中执八"
after = "兴执算而立"
"""


def test_a_hand_edit_made_while_a_review_is_open_survives_its_next_save(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    text = path.read_text(encoding="utf-8")
    # The editor adds a comment, a key of their own in collate's decision, and a decision.
    text = text.replace('action = "keep"\n', 'action = "keep"\nreviewed_by = "张"  # second reader\n')
    path.write_text("# Checked against the 四部叢刊 print.\n" + text + HAND, encoding="utf-8")
    s.decide(s.loci[1], DecisionAction.KEEP)
    after = path.read_text(encoding="utf-8")
    assert after.startswith("# Checked against the 四部叢刊 print.\n")
    assert 'reviewed_by = "张"  # second reader\n' in after and "# 阮元校勘記 agrees: see 卷三.\n" in after
    assert "checked = true  # a key collate does not know\n" in after
    assert [d.id for d in load_decisions(path)][1] == "byhand0001" and len(load_decisions(path)) == 3
    # The review now has the hand-written decision too, and applies it.
    assert [d.id for d in s.decisions] == [d.id for d in load_decisions(path)]
    assert s.loci[3].decision is not None and s.loci[3].decision.resp == ("李",)


def test_a_hand_save_between_the_read_and_the_write_is_merged(
    collation: Collation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    read = ledger.read_text
    calls = []

    def racing(p: Path, hint: str | None = None) -> str | None:
        text = read(p, hint)
        calls.append(p)
        if len(calls) == 1:  # an editor saves by hand just after the review read the file
            p.write_text((text or "") + HAND, encoding="utf-8")
        return text

    monkeypatch.setattr(ledger, "read_text", racing)
    s.decide(s.loci[1], DecisionAction.KEEP)
    assert len(calls) == 4  # read, changed: read again and write
    assert [d.editor for d in load_decisions(path)] == ["editor", "李", "editor"]


def test_a_decision_is_replaced_in_place_and_removed_by_its_id(tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    change_decisions(path, put=[decision("a"), decision("b"), decision("c")])
    path.write_text(path.read_text(encoding="utf-8").replace('id = "b"\n', 'id = "b"\nmine = 1\n'), encoding="utf-8")
    kept = change_decisions(path, put=[decision("b", comment="新")], remove={"a"})
    assert (
        [(d.id, d.comment) for d in kept]
        == [("b", "新"), ("c", "")]
        == [(d.id, d.comment) for d in load_decisions(path)]
    )
    assert "mine = 1\n" in path.read_text(encoding="utf-8")
    assert change_decisions(path, remove={"b", "c"}) == () == load_decisions(path)
    assert parse_toml(path.read_text(encoding="utf-8"), "d") == {"version": 1}
    assert [d.id for d in change_decisions(path, put=[decision("d")])] == ["d"]


def test_a_title_with_control_characters_gives_valid_toml(collation: Collation, tmp_path: Path) -> None:
    title = '投壺\n[witness]\ntitle = "x"\x1b[31m\u2028version = 9\r'
    path = tmp_path / "decisions.toml"
    s = review_session(dataclasses.replace(collation, title=title), path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    text = path.read_text(encoding="utf-8")
    data = parse_toml(text, "d")
    assert set(data) == {"version", "decision"} and data["version"] == 1
    first = text.splitlines()[0]
    assert first.startswith("# Editorial decisions for 投壺 [witness] title = ") and "\x1b" not in text
    assert len(load_decisions(path)) == 1
    assert parse_toml(dumps_decisions([decision("a")], "\x00\x7f\u202e\n"), "d")["version"] == 1


def test_decisions_pointed_at_a_readings_file_are_refused_and_it_is_untouched(
    collation: Collation, tmp_path: Path
) -> None:
    readings = tmp_path / "readings.toml"
    shutil.copy(DADAI_READINGS, readings)
    before = readings.read_bytes()
    witness = {"siglum": "SK", "path": "a.txt"}
    project = project_from_mapping({"witness": [witness], "review": {"decisions": "readings.toml"}}, root=tmp_path)
    path = decisions_path(project)
    assert path == readings
    with pytest.raises(ProjectError, match=r"not a decisions file.*\[witness\], \[reading\]") as err:
        load_decisions(path)  # never "0 decisions"
    assert err.value.where == str(readings) and "[review] decisions" in str(err.value)
    with pytest.raises(ProjectError, match="not a decisions file"):
        review_session(collation, path)
    # A review opened before the readings file was put there refuses to save into it.
    s = review_session(collation, tmp_path / "later.toml")
    s.path = path
    with pytest.raises(ProjectError, match="not a decisions file"):
        s.decide(s.loci[0], DecisionAction.KEEP)
    assert readings.read_bytes() == before and s.decisions == ()


def test_a_file_without_a_version_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    body = dumps_decisions([decision("a")]).replace("version = 1\n", "")
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ProjectError, match="no `version` key"):
        change_decisions(path, put=[decision("b")])
    assert path.read_text(encoding="utf-8") == body
    # Empty, or comments only: a decisions file to be.
    path.write_text("# decisions of the 投壺 review\n", encoding="utf-8")
    assert [d.id for d in change_decisions(path, put=[decision("b")])] == ["b"]
    assert path.read_text(encoding="utf-8").startswith("# decisions of the 投壺 review\nversion = 1\n")


def test_a_newer_version_is_refused_and_never_rewritten(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    newer = path.read_text(encoding="utf-8").replace("version = 1\n", "version = 2\n")
    path.write_text(newer, encoding="utf-8")
    with pytest.raises(ProjectError, match="version 2 is newer than this collate knows") as err:
        load_decisions(path)
    assert err.value.where == str(path) and err.value.hint is not None and "upgrade" in err.value.hint
    with pytest.raises(ProjectError, match="newer"):
        s.decide(s.loci[1], DecisionAction.KEEP)
    assert path.read_text(encoding="utf-8") == newer and len(s.decisions) == 1


def test_a_lock_held_too_long_is_reported_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from filelock import FileLock

    path = tmp_path / "decisions.toml"
    change_decisions(path, put=[decision("a")])
    before = path.read_bytes()
    monkeypatch.setattr(ledger, "LOCK_TIMEOUT", 0.1)
    with FileLock(ledger.lock_path(path)), pytest.raises(ExportError, match="another process"):
        change_decisions(path, put=[decision("b")])
    assert path.read_bytes() == before
