"""What every layout reader promises, checked on the files each one is written for.

Each reader's own test file says what its layout means; this one holds the contract they
share: the spans partition the file (and any text shuffled from the layout's syntax), a
layer's text is its spans joined, and detection picks the layout a file is written in, by a
clear margin over every other layout.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

import pytest
from conftest import (
    DADAI_READINGS,
    GAIJI,
    MANDOKU,
    SEED_000,
    SEED_001,
    SEED_002,
    SEED_003,
    SEED_004,
    need_shared,
)
from hypothesis import given
from hypothesis import strategies as st
from readers_support import text_of

from collate.model import Layer, Span
from collate.readers import LAYOUTS, detect_layout, get_reader, read_witness
from collate.readers.base import ReadOptions

# The file each detectable layout is written in.
DETECTED = {
    "siku-wltk": SEED_000,
    "zhushu": SEED_001,
    "yili-inline": SEED_002,
    "web-bracket": SEED_003,
    "jishuo": SEED_004,
    "mandoku": MANDOKU,
}
# Read but not detected from the text: a readings file is known by its .toml name, and
# plain, the fallback, reads anything (here the punctuated 注疏 seed).
READ = {**DETECTED, "readings": DADAI_READINGS, "plain": SEED_001}

# Pieces of each layout's syntax, shuffled into texts that must still be partitioned.
PIECES: dict[str, tuple[str, ...]] = {
    "zhushu": (
        "_{", "}", "〇", "文疏『甲』至『乙』", "註疏", "正義曰：", "陸曰：", "經", "注", "『", "』",
        "\n", "\n\n", "\u00a0",
    ),
    "yili-inline": ("郑注", "【", "】", "案", "经", "注", "?", "\n", "\n\n", "\u00a0", "卷六 乡射礼"),
    "web-bracket": (
        "注", " 疏", "【", "】", "王氏曰", "蕙田案", "又案", "右射", "打 印", "来源",
        "\n", " ", "\u3000", "□", "射", "曰",
    ),
    "jishuo": (
        "注曰", "疏曰", "继公谓", "【", "】", "反", "右", "\u3000", "\u3000\u3000", "\u3000案",
        "\n", "\r\n", "防曰", "也", "拜", "\ue5ab",
    ),
    "mandoku": (
        "#+TITLE: ", "#+PROPERTY: JUAN 1", "# x", "<pb:KR1_SBCK_001-1a>", "<md:KR1_WYG_001-1a>", "<pb:", ">",
        "¶", "(", ")", "/", "&KR0002;", "&", ";", "\n", "\u3000", "第七", "卷第一", "壺", "■",
    ),
}  # fmt: skip


def assert_partition(spans: Sequence[Span], text: str) -> None:
    """``spans`` partition ``text``: none empty, each starting where the last ended, 0 to the end."""
    assert all(s.start < s.end for s in spans)
    assert all(a.end == b.start for a, b in pairwise(spans))
    assert (spans[0].start, spans[-1].end) == (0, len(text)) if spans else text == ""
    assert "".join(text[s.start : s.end] for s in spans) == text


def contents(path: Path) -> str:
    return need_shared(path).read_text(encoding="utf-8")


@pytest.mark.parametrize(("layout", "path"), READ.items(), ids=list(READ))
def test_spans_partition_the_file_and_rebuild_each_layer(layout: str, path: Path) -> None:
    gaiji = need_shared(GAIJI) if layout == "mandoku" else None
    w = read_witness(need_shared(path), layout=layout, gaiji_table=gaiji)
    assert_partition(w.spans, w.text)
    for layer in Layer:
        assert w.layer_text(layer) == "".join(text_of(w, s) for s in w.spans if s.layer is layer), layer
    assert sum(len(w.layer_text(layer)) for layer in w.layers()) == len(w.text)


@pytest.mark.parametrize(("layout", "path"), DETECTED.items(), ids=list(DETECTED))
def test_detection_picks_the_layout_by_a_margin(layout: str, path: Path) -> None:
    text = contents(path)
    assert detect_layout(text)[0] == layout
    own = get_reader(layout).detect(text)[0]
    for other, other_path in DETECTED.items():
        if other != layout:
            assert get_reader(layout).detect(contents(other_path))[0] <= own - 0.5, other
    for name in LAYOUTS:
        if name not in (layout, "readings"):
            assert get_reader(name).detect(text)[0] < own, name


@pytest.mark.parametrize("layout", PIECES)
@given(data=st.data())
def test_any_text_is_partitioned(layout: str, data: st.DataObject) -> None:
    text = data.draw(st.lists(st.sampled_from(PIECES[layout]), max_size=40).map("".join), label="text")
    assert_partition(get_reader(layout).read(text, ReadOptions()).spans, text)
