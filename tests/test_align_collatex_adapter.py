"""The CollateX adapter: columns of positions, and what the engine assumes of CollateX."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

from collate.align.collatex_adapter import collatex_columns

PACKAGE = Path(__file__).resolve().parents[1] / "collate"


def test_columns_hold_positions() -> None:
    # 壶/壺 differ (no folding here): a variant, in one column.
    assert collatex_columns([list("投壶之礼"), list("投壺之礼"), list("投之礼也")]) == [
        (0, 0, 0),
        (1, 1, None),
        (2, 2, 1),
        (3, 3, 2),
        (None, None, 3),
    ]


def test_an_omission_and_an_addition() -> None:
    assert collatex_columns([list("主人奉矢"), list("主奉矢也")]) == [(0, 0), (1, None), (2, 1), (3, 2), (None, 3)]


def test_none_keys_match_nothing() -> None:
    assert collatex_columns([["a", None, "c"], ["a", None, "c"]]) == [(0, 0), (1, 1), (2, 2)]
    # Two placeholders stand in one column as a variant, never as an agreement the engine
    # could anchor on: the engine sees the positions only, and n decides agreement.
    assert collatex_columns([[None], [None]]) == [(0, 0)]


def test_empty_sequences() -> None:
    assert collatex_columns([]) == []
    assert collatex_columns([[], []]) == []
    assert collatex_columns([list("ab"), []]) == [(0, None), (1, None)]
    assert collatex_columns([[], list("ab")]) == [(None, 0), (None, 1)]


def test_without_shared_tokens_collatex_pairs_left_to_right() -> None:
    """The engine skips CollateX for stretches that share no token; this is why it may."""
    rng = random.Random(11)
    for _ in range(40):
        na, nb = rng.randint(1, 9), rng.randint(1, 9)
        a = [chr(0x4E00 + rng.randrange(50)) for _ in range(na)]
        b = [chr(0x5E00 + rng.randrange(50)) for _ in range(nb)]
        expected = [(t if t < na else None, t if t < nb else None) for t in range(max(na, nb))]
        assert collatex_columns([a, b]) == expected


def test_only_the_adapter_imports_collatex() -> None:
    importers = sorted(
        p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*.py")
        if re.search(r"^\s*(import collatex|from collatex\b)", p.read_text(encoding="utf-8"), re.M)
    )
    assert importers == ["align/collatex_adapter.py"]


def test_collatex_is_imported_lazily() -> None:
    code = "import sys, collate.align.engine, collate.pipeline; print('collatex' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_collatex_is_imported_only_when_a_stretch_needs_it() -> None:
    # Texts that agree throughout are aligned by anchors alone; two characters swapped leave a
    # stretch that anchors cannot settle, and CollateX aligns it.
    code = (
        "import random, sys\n"
        "from collate.align.pairwise import AlignOptions, align_pair\n"
        "rng = random.Random(1)\n"
        "a = ''.join(chr(0x4E00 + rng.randrange(2000)) for _ in range(80))\n"
        "align_pair(a, a, AlignOptions())\n"
        "print('collatex' in sys.modules)\n"
        "align_pair(a, a[:40] + a[41] + a[40] + a[42:], AlignOptions())\n"
        "print('collatex' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "True"]
