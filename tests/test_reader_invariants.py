"""What every layout reader promises, checked on the files each one is written for.

Each reader's own test file says what its layout means; this one holds the contract they
share: the spans partition the file (and any text shuffled from the layout's syntax), a
layer's text is its spans joined, and detection picks the layout a file is written in, by a
clear margin over every other layout.
"""

from __future__ import annotations

import re
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
    SHARED,
    need_shared,
)
from hypothesis import given
from hypothesis import strategies as st
from readers_support import assert_partition, text_of

from collate.model import Layer
from collate.normalize import Normalizer
from collate.normalize.tokenize import tokenize_witness
from collate.readers import LAYOUTS, get_container, get_reader, read_raw, read_witness
from collate.readers.base import ReadOptions

WITNESSES = SHARED / "witnesses"
# The files each detectable layout is written in: the seeds and real files of each source.
DETECTED: dict[str, tuple[Path, ...]] = {
    "siku-wltk": (
        SEED_000,
        WITNESSES / "wuli-tongkao-juan163-kanripo-master.txt",
        WITNESSES / "wuli-tongkao-juan163-kanripo-WYG.txt",
    ),
    "zhushu": (SEED_001,),
    "yili-inline": (SEED_002,),
    "web-bracket": (SEED_003,),
    "jishuo": (SEED_004,),
    "zhu-bracket": (
        MANDOKU,
        WITNESSES / "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt",
        WITNESSES / "yili-yanli-zhengzhu-kanripo-SBCK.txt",
        WITNESSES / "zhouli-sheren-kanripo-SBCK.txt",
    ),
    "zhushu-wyg": (
        WITNESSES / "liji-sheyi-zhushu-kanripo-WYG.txt",
        WITNESSES / "yili-yanli-zhushu-kanripo-WYG.txt",
        WITNESSES / "zhouli-zhushu-sheren-kanripo-WYG.txt",
    ),
    "danshu": (WITNESSES / "liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt",),
    "jishuo-chen": (WITNESSES / "liji-jishuo-chenhao-sheyi-kanripo-WYG.txt",),
    "jishuo-indent": (WITNESSES / "yili-jishuo-yanli-kanripo-WYG.txt",),
    "tls": (WITNESSES / "liji-sheyi-kanripo-TLS.txt",),
}
# The container each file comes in.
CONTAINER_OF = {
    path: {SEED_000: "paged", SEED_003: "web"}.get(path, "mandoku" if path.parent == WITNESSES else "plain")
    for paths in DETECTED.values()
    for path in paths
}
# Read but not detected from the text: a readings file is known by its .toml name, and
# plain, the fallback, reads anything (here the punctuated 注疏 seed and a Wikisource text).
READ = {
    **{f"{layout}:{path.name}": (layout, path) for layout, paths in DETECTED.items() for path in paths},
    "readings": ("readings", DADAI_READINGS),
    "plain": ("plain", SEED_001),
    "plain:wikisource": ("plain", WITNESSES / "liji-sheyi-wikisource-hangsau.txt"),
}
FILES = [(layout, path) for layout, paths in DETECTED.items() for path in paths]

# Pieces of each layout's syntax (in a body: the container's markup already taken out),
# shuffled into texts that must still be partitioned.
PIECES: dict[str, tuple[str, ...]] = {
    "siku-wltk": (
        "(注", "(", ")", "/", " 疏", "疏", "\u3000", "\u3000" * 8, "蕙田案", "方氏悫曰", "礼记投壶", "右投壶",
        "\n", "射", "曰", "?",
    ),
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
    "zhu-bracket": (
        "(", ")", "/", "○", "〇", "陸曰", "重言", "案", "第七", "投壺", "卷第一", "鄭氏注", "(經三字/注二字)",
        "\n", "\u3000", "壺", "■", "〓",
    ),
    "zhushu-wyg": (
        "注", "音義(", "疏(", "正義/曰", "釋曰", "注釋曰", "(", ")", "/", "○", "\u3000", "禮記注疏卷一考證",
        "(臣召南/)", "(句/)", "\n", "射", "曰",
    ),
    "danshu": ("\u3000", "至", "正義曰", "釋曰", "注", "射義第四十六", "禮記正義卷第一", "\n", "射", "也", "〓"),
    "jishuo-chen": ("(", ")", "/", "  ", "呂氏曰", "今按", "疏曰", "\u3000\u3000", "射義第四十六", "\n", "射", "上聲"),
    "jishuo-indent": ("\u3000", "注曰", "繼公謂", "疏曰", "(", ")", "/", "正誤", "記", "\n", "射", "也"),
    "tls": ("47.1", "47.12", ".", "1", "，", "。", "\n", "射", "之"),
    "plain": ("=== 20 | 射義 ===", "【案", "【", "】", "，", "\n", "射", "之"),
}  # fmt: skip
# Pieces of each container's own syntax, shuffled among a layout's.
CONTAINER_PIECES: dict[str, tuple[str, ...]] = {
    "mandoku": (
        "#+TITLE: ", "#+PROPERTY: JUAN 1", "# x", "# page missing", "** 47 射義", "<pb:KR1_SBCK_001-1a>",
        "<md:KR1_WYG_001-1a>", "<pb:", ">", "¶", "&KR0002;", "&KR9999999;", "&", ";", "\n",
    ),
    "paged": ("\n", "\n\n", "\n\n\n", "\u3000\n", "\r\n\r\n"),
    "plain": ("\n", "\r\n"),
    "web": ("\n", "【打 印】", "【来源：某】", " ", "【", "】"),
}  # fmt: skip


def contents(path: Path) -> str:
    return need_shared(path).read_text(encoding="utf-8")


@pytest.mark.parametrize(("layout", "path"), READ.values(), ids=list(READ))
def test_spans_partition_the_file_and_rebuild_each_layer(layout: str, path: Path) -> None:
    w = read_witness(need_shared(path), layout=layout, gaiji_table=need_shared(GAIJI))
    assert_partition(w.spans, w.text)
    for layer in Layer:
        assert w.layer_text(layer) == "".join(text_of(w, s) for s in w.spans if s.layer is layer), layer
    assert sum(len(w.layer_text(layer)) for layer in w.layers()) == len(w.text)


@pytest.mark.parametrize(("layout", "path"), FILES, ids=[p.name for _, p in FILES])
def test_detection_picks_container_and_layout_by_a_margin(layout: str, path: Path) -> None:
    w = read_witness(need_shared(path), gaiji_table=need_shared(GAIJI))
    assert (w.container, w.layout) == (CONTAINER_OF[path], layout), w.layout_reason
    body = get_container(w.container).read(contents(path), ReadOptions(gaiji_table=need_shared(GAIJI))).text
    own = get_reader(layout).detect(body)[0]
    for name in LAYOUTS:
        if name not in (layout, "readings"):
            assert get_reader(name).detect(body)[0] <= own - 0.1, name


@pytest.mark.parametrize("container", CONTAINER_PIECES)
@pytest.mark.parametrize("layout", PIECES)
@given(data=st.data())
def test_any_text_is_partitioned(container: str, layout: str, data: st.DataObject) -> None:
    pieces = PIECES[layout] + CONTAINER_PIECES[container]
    text = data.draw(st.lists(st.sampled_from(pieces), max_size=40).map("".join), label="text")
    reading = read_raw(text, layout=layout, container=container)
    assert_partition(reading.parsed.spans, text)


@pytest.mark.parametrize(("layout", "path"), FILES, ids=[p.name for _, p in FILES])
def test_no_container_or_layout_sign_reaches_a_token(layout: str, path: Path) -> None:
    """No ASCII letter or digit, ``<pb``, ``¶``, bracket or entity fragment is a token of a text layer.

    An entity the gaiji table does not resolve is one placeholder token (its code, for the editor).
    """
    w = read_witness(need_shared(path), gaiji_table=need_shared(GAIJI))
    for layer, tokens in tokenize_witness(w, Normalizer()).items():
        bad = [t.t for t in tokens if re.search(r"[A-Za-z0-9<>&;¶#/()]", t.t) and not t.is_placeholder]
        assert not bad, (layer, bad[:10])


@pytest.mark.parametrize(("layout", "path"), FILES, ids=[p.name for _, p in FILES])
def test_a_longer_file_of_the_same_print_is_detected_alike(layout: str, path: Path) -> None:
    """Detection weighs kinds of evidence, not their count: a chapter three times as long reads alike."""
    raw = contents(path)
    body_lines = "".join(line for line in raw.splitlines(keepends=True) if not line.startswith("#"))
    longer = raw.rstrip("\n") + "\n" + body_lines * 2
    reading = read_raw(longer, gaiji_table=need_shared(GAIJI), path=path.name)
    assert (reading.container, reading.layout) == (CONTAINER_OF[path], layout), reading.layout_reason
