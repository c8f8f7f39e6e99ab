"""The decisions file: round trip, any comment, appending, a malformed file, saves never half done."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from builders import CLOCK, REVIEW_BASE, REVIEW_WIT, collate_rows, lemmas, review_session
from hypothesis import given, settings
from hypothesis import strategies as st

from collate.apparatus import Collation, ReadingClass
from collate.decisions import load_decisions
from collate.decisions.file import Anchor, Decision, dumps_decisions, parse_decisions
from collate.errors import ProjectError
from collate.model import Layer
from collate.model.annotations import DecisionAction


@pytest.fixture
def collation() -> Collation:
    """SK and ZS: three places read 哨/峭 (two with the same ten characters around them), two 算/筭."""
    return collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})


def test_the_fixture_has_the_expected_loci(collation: Collation) -> None:
    assert lemmas(collation) == [
        ("哨", "峭", 8),
        ("哨", "峭", 19),
        ("哨", "峭", 32),
        ("算", "筭", 44),
        ("算", "筭", 47),
    ]


def test_decisions_file_round_trips(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "decisions.toml")
    first, second, *_ = s.loci
    s.decide(first, DecisionAction.ADOPT, reading=first.readings[0], siglum="ZS", comment='峭 "is" \\ right\nsee note')
    s.decide(second, DecisionAction.RECLASSIFY, reading=second.readings[0], cls=ReadingClass.SCRIBAL_ERROR)
    s.decide(second, DecisionAction.DOUBT, comment="存疑")
    loaded = load_decisions(tmp_path / "decisions.toml")
    assert loaded == s.decisions
    assert [d.action for d in loaded] == [DecisionAction.ADOPT, DecisionAction.RECLASSIFY, DecisionAction.DOUBT]
    assert loaded[0].comment == '峭 "is" \\ right\nsee note'
    assert loaded[0].anchor == Anchor(
        Layer.JING, "哨", ("峭",), "主人请曰某有枉矢", "壶请以乐宾主人曰枉矢", 8, "jing-00008"
    )
    assert loaded[1].cls is ReadingClass.SCRIBAL_ERROR and loaded[1].editor == "editor" and loaded[1].when == CLOCK


def test_a_decision_of_no_named_editor_is_written_without_the_key() -> None:
    anchor = Anchor(Layer.ZHU, "算", ("算",), "八", "兴", 3)
    d = Decision("abc", DecisionAction.KEEP, anchor, "", CLOCK)
    text = dumps_decisions([d])
    assert "editor" not in text.split("[decision.anchor]")[0].split("[[decision]]")[1]
    assert parse_decisions(text) == (d,)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=30))
def test_any_comment_survives_the_file(comment: str) -> None:
    anchor = Anchor(Layer.ZHU, "算", ("算",), "八", "兴", 3)
    d = Decision("abc", DecisionAction.DOUBT, anchor, "e", CLOCK, comment=comment)
    assert parse_decisions(dumps_decisions([d])) == (d,)


def test_a_new_decision_appends_and_changes_nothing_above(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    before = path.read_text(encoding="utf-8")
    s.decide(s.loci[1], DecisionAction.KEEP)
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before) and after.count("\n[[decision]]\n") == 2


def test_a_malformed_file_names_the_decision(tmp_path: Path) -> None:
    path = tmp_path / "d.toml"
    path.write_text(
        'version = 1\n\n[[decision]]\nid = "a"\naction = "burn"\n[decision.anchor]\nlayer = "jing"\noffset = 1\n',
        encoding="utf-8",
    )
    with pytest.raises(ProjectError, match="burn") as err:
        load_decisions(path)
    assert err.value.where == f"{path}:3"
    path.write_text("version = 1\n[[decision]\n", encoding="utf-8")
    with pytest.raises(ProjectError, match="not valid TOML") as err:
        load_decisions(path)
    assert err.value.where is not None and err.value.where.startswith(f"{path}:2")


WRITER = """
import sys
from pathlib import Path
from typing import Any
from collate.model import Layer
from collate.model.annotations import DecisionAction
from collate.decisions.file import Anchor, Decision, save_decisions

path = Path(sys.argv[1])
decisions = []
for k in range(100000):
    anchor = Anchor(Layer.JING, "算", ("算",), "执八" * 5, "兴请" * 5, k)
    decisions.append(Decision(f"d{k}", DecisionAction.KEEP, anchor, "e", "t", comment="筭" * 200))
    save_decisions(path, decisions[-400:])
    if k == 3:
        print("ready", flush=True)
"""


def test_killing_the_process_while_it_saves_never_leaves_half_a_file(tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    for delay in (0.05, 0.13, 0.31):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        decisions = load_decisions(path)  # parses: a complete file, old or new
        assert decisions and all(d.comment == "筭" * 200 for d in decisions)
        last = int(decisions[-1].id[1:])
        assert [d.id for d in decisions] == [f"d{k}" for k in range(max(0, last - 399), last + 1)]
