"""What every layout reader promises, checked on the files each one is written for.

Each reader's own test file says what its layout means; this one holds the contract they
share: the spans partition the file, a layer's text is its spans joined, and detection
picks the layout a file is written in, by a clear margin over every other layout.
"""

from __future__ import annotations

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
from readers_support import assert_partition, text_of

from collate.model import Layer
from collate.readers import LAYOUTS, detect_layout, get_reader, read_witness

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
