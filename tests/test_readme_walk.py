"""The README's walk through 禮記·射義, run as it is written: every command in it works.

The commands are read from the README's own text (its ``sh`` block under "A walk through"), run
from a folder laid out as the README assumes (this repository's root with the shared material
beside it), each as a user runs it: ``collate`` in a process of its own. ``collate review`` needs
a terminal: it is driven with the keys the README says to press, through the review's own app.
"""

from __future__ import annotations

import asyncio
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, SHARED, need_shared

from collate.project import load_project
from collate.review.app import ReviewApp
from collate.review.session import default_editor, open_review
from collate.runs.saved import last_run

pytestmark = pytest.mark.shared

WALK = "## A walk through"


def walk(readme: str) -> tuple[list[list[str]], str]:
    """The commands of the README's walk through (each a list of words), and the walk's prose."""
    start = readme.index(WALK)
    section = readme[start : readme.index("\n## ", start + 1)]
    (block,) = re.findall(r"```sh\n(.*?)```", section, re.S)
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        for command in line.split("&&"):
            if command.strip():
                commands.append(shlex.split(command))
    return commands, section


def collate(folder: Path, *args: str) -> str:
    """``collate ARGS`` in ``folder``, as a user runs it; what it printed."""
    done = subprocess.run([sys.executable, "-m", "collate.cli", *args], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, f"collate {' '.join(args)}: {done.stderr}"
    return done.stdout


def review_by_keys(folder: Path, keys: list[str]) -> None:
    """``collate review`` in ``folder``, the ``keys`` pressed: the app the command runs, on the run it loads."""
    project = load_project(folder / "collate.toml")
    session = open_review(last_run(folder / "output", project), default_editor(project), project=project)
    app = ReviewApp(session)

    async def press() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*keys)

    asyncio.run(press())


def test_the_walk_through_works_as_written(tmp_path: Path) -> None:
    need_shared(SHARED / "witnesses")
    commands, prose = walk((REPO / "README.md").read_text(encoding="utf-8"))
    # The repository's root, with the shared material beside it.
    root = tmp_path / "repository"
    root.mkdir()
    (tmp_path / "shared").symlink_to(SHARED.resolve(), target_is_directory=True)
    here = root
    printed: dict[str, str] = {}
    for words in commands:
        match words:
            case ["mkdir", name]:
                (here / name).mkdir()
            case ["cd", name]:
                here = here / name
            case ["collate", "review"]:
                # The keys the walk names: k keeps the base's reading at the first locus, q quits.
                assert "`k`" in prose and "`q`" in prose
                review_by_keys(here, ["k", "q"])
            case ["collate", *args]:
                printed[args[0]] = collate(here, *args)
            case _:
                pytest.fail(f"the walk has a command this test does not know: {words}")
    assert [w[:2] for w in commands if w[0] == "collate"] == [
        ["collate", "init"],
        ["collate", "run"],
        ["collate", "diff"],
        ["collate", "review"],
        ["collate", "export"],
    ]
    # What the prose says each command did.
    project = (here / "collate.toml").read_text(encoding="utf-8")
    assert 'title = "禮記·射義"' in project and re.search(r'^gaiji_table = "\.\./\.\./shared/data/', project, re.M)
    for label in ("四庫本", "正義本", "纂圖本", "集說本", "TLS本", "維基本"):
        assert f'label = "{label}"' in project
    assert "062-2b.1" in printed["diff"] and "〔SBCK-zuantu TLS 繁 文〕" in printed["diff"]
    assert "decision" in (here / "decisions.toml").read_text(encoding="utf-8")
    jiaokanji = (here / "output" / "liji-sheyi.jiaokanji.txt").read_text(encoding="utf-8")
    (entry,) = [line for line in jiaokanji.splitlines() if line.startswith("頁062-2a行1") and "「骸」" in line]
    assert entry.endswith("今仍底本。") and "並作「體」" in entry
