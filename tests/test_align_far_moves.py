"""Passages moved far and worded differently: found as transpositions, repeated formulas not."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import SEED_000, SHARED, need_shared

from collate.align.pairwise import AlignOptions, align_pair
from collate.apparatus import ReadingClass
from collate.model import Layer
from collate.pipeline import collate_project
from collate.project import project_from_mapping


def text(seed: int, size: int) -> str:
    rng = random.Random(seed)
    return "".join(chr(0x4E00 + rng.randrange(2000)) for _ in range(size))


def reworded(passage: str, seed: int, every: int = 4) -> str:
    """The passage with every ``every``-th character replaced: no 6-gram of it survives."""
    rng = random.Random(seed)
    return "".join(chr(0x6000 + rng.randrange(500)) if i % every == every - 1 else c for i, c in enumerate(passage))


def test_a_paragraph_moved_far_and_reworded_is_a_transposition() -> None:
    x, p, y, z = text(1, 120), text(2, 40), text(3, 300), text(4, 120)
    a = x + p + y + z
    b = x + y + reworded(p, 5) + z
    got = align_pair(a, b, AlignOptions())
    assert len(got.moves) == 1
    bs, be, ws, we = got.moves[0]
    assert 120 <= bs and be <= 160 and be - bs >= 30  # the base's passage, or most of it
    assert 420 <= ws and we <= 460  # the witness has it after y
    # Every base token of the passage is read against a token of the witness's passage.
    paired = dict(zip(got.base, got.witness, strict=True))
    assert all(ws <= paired[i] < we for i in range(bs, be))


def test_a_repeated_formula_far_away_is_no_move() -> None:
    # A formula the base repeats three times; the witness has one more occurrence elsewhere.
    formula = text(6, 24)
    x, y, z = text(7, 150), text(8, 150), text(9, 150)
    a = formula + x + formula + y + formula + z
    b = formula + x + formula + y + z + reworded(formula, 10, every=5)
    got = align_pair(a, b, AlignOptions())
    assert got.moves == ()


def test_without_transpositions_nothing_is_moved() -> None:
    x, p, y, z = text(11, 120), text(12, 40), text(13, 300), text(14, 120)
    got = align_pair(x + p + y + z, x + y + reworded(p, 15) + z, AlignOptions(min_transposition=None))
    assert got.moves == ()


@pytest.mark.skipif(not (SHARED / "witnesses").is_dir(), reason="needs ../shared")
def test_da_dai_has_the_pot_and_its_arrows_after_the_boys_paragraph(tmp_path: Path) -> None:
    """大戴禮 投壺 places 壺中置小豆爲其矢躍而去也… after 童子使者皆屬主黨; 五禮通考 before the drum scores."""
    dadai = need_shared(SHARED / "witnesses" / "dadai-touhu-kanripo-SBCK.txt")
    table = {
        "base": "SK",
        "work": "投壺",
        "witness": [
            {"siglum": "SK", "label": "四庫本", "path": str(SEED_000), "layout": "siku-wltk"},
            {"siglum": "DD", "label": "大戴禮", "path": str(dadai)},
        ],
    }
    run = collate_project(project_from_mapping(table, root=tmp_path))
    jing = next(r for r in run.collation.layers if r.layer is Layer.JING)
    moved = [x for x in jing.loci if x.cls is ReadingClass.TRANSPOSITION and "小豆" in x.lemma.text]
    assert len(moved) == 1
    assert moved[0].lemma.text.startswith("壶中实小豆")
    # Before, the passage was one omission of 108 characters.
    assert not [x for x in jing.loci if x.cls is ReadingClass.OMISSION and "小豆" in x.lemma.text]
