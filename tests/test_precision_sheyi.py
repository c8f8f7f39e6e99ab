"""The apparatus against the hand-made key of 禮記·射義 (``../shared/gold/sheyi``): recall and precision.

The six editions of the shared witness files are collated as `collate init` then `collate run`
would (the 注疏本 the base), and the key's own scorer reads the JSON. What an editor needs of the
apparatus is a test: every real reading found (the key's rows a careful collator would not
class otherwise, its ``doubt=yes`` rows left out), and few entries that are none (經 98% of them
real, 注 95%). ``bench/README.md`` records the scores.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GAIJI, SHARED, SHEYI_FILES, need_shared

pytestmark = pytest.mark.shared

# Recall of the real rows and precision of the entries, per layer (the key's rows without doubt).
THRESHOLDS = {"經": (1.0, 0.98), "注": (1.0, 0.95)}
_LINE = re.compile(r"\[without doubt=yes rows\] recall (\d+)/(\d+)\s+precision ([\d.]+)%")


def _collate(folder: Path, *args: str) -> None:
    """``collate ARGS`` in ``folder``, as a user runs it there."""
    done = subprocess.run([sys.executable, "-m", "collate.cli", *args], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def scores(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[float, float]]:
    folder = tmp_path_factory.mktemp("sheyi")
    _collate(folder, "init", *(str(need_shared(SHARED / "witnesses" / name)) for name in SHEYI_FILES))
    # The files hold gaiji entities; init finds the table beside them (../data) and names it.
    text = (folder / "collate.toml").read_text(encoding="utf-8")
    assert any(line.startswith("gaiji_table = ") and GAIJI.name in line for line in text.splitlines())
    _collate(folder, "run")
    output = next((folder / "output").glob("*.json"))
    scorer = need_shared(SHARED / "gold" / "sheyi" / "score.py")
    printed = subprocess.run(
        [sys.executable, str(scorer), str(output)], capture_output=True, text=True, check=True
    ).stdout
    found: dict[str, tuple[float, float]] = {}
    for block in printed.split("=== ")[1:]:
        layer = block[:1]
        m = _LINE.search(block)
        assert m is not None, block
        found[layer] = (int(m.group(1)) / int(m.group(2)), float(m.group(3)) / 100)
    assert set(found) == set(THRESHOLDS), printed
    return found


@pytest.mark.parametrize("layer", list(THRESHOLDS))
def test_every_real_reading_is_found_and_few_entries_are_none(
    scores: dict[str, tuple[float, float]], layer: str
) -> None:
    recall, precision = scores[layer]
    least_recall, least_precision = THRESHOLDS[layer]
    assert recall >= least_recall and precision >= least_precision, (layer, recall, precision)
