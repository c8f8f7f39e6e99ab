"""Every reader survives anything: random text gives a Witness whose spans partition it, or a CollateError.

The alphabet is made of the pieces each layout keys on (brackets, layer markers, indents,
page markers, entities, line ends), so random strings land in the readers' corners: runs that
never close, markers at the end of the file, a BOM in the middle, a lone ``\\r``.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest
from conftest import GAIJI
from growth import assert_linear
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from collate.errors import CollateError
from collate.model import Layer, Witness
from collate.normalize import Normalizer, build_normalizer
from collate.normalize.tokenize import is_token_char, joined, tokenize
from collate.readers import LAYOUTS, detect_layout, read_raw, read_witness

FRAGMENTS = (
    # CJK text, traditional and simplified, and the glyphs that mean something to a layout.
    "投", "壺", "壶", "之", "禮", "礼", "主人奉矢", "某有枉矢哨壶", "鼓○囗○", "〇", "○", "囗",
    # Small print, column breaks, 注疏 inline notes, Siku editors' notes, quotes.
    "(", ")", "/", "_{", "}", "【", "】", "『", "』", "「", "」", "．", "：", "，", "。",
    # Kanripo Mandoku markup.
    "&KR0002;", "&KR9;", "&", ";", "<pb:KR1d0076_SBCK_012-7a>", "<md:x>", "<", ">", "¶", "#+TITLE: x",
    "#+PROPERTY: JUAN 1", "(右/左)", "音義(", "疏(", "(正義/曰",
    # Indents and line ends of every kind.
    "\u3000", "\u3000" * 8, "\u00a0", "\u00a0\u00a0", " ", "\t", "\r\n", "\r", "\n", "\n\n",
    # Placeholders, PUA, a BOM.
    "\ue000", "\uf8ff", "?", "□", "■", "〓", "\ufeff",
    # Layer markers and attributions.
    "郑注", "注", " 疏", "疏", "蕙田案", "注曰", "疏曰", "继公谓", "正义曰：", "正義曰：",
    "文疏『a』至『b』", "註疏『投』至『禮』", "方氏悫曰", "右投壶", "【注 ", "【王氏曰", "【打 印】 【来源：x】",
    "【案", "反】", "=== 15 | 投壺 ===",
    # Stray ASCII.
    "a", "1", "=", "[", "]",
)  # fmt: skip

# Mostly fragments, some arbitrary characters (surrogates excluded: they cannot be written as UTF-8).
PIECES = st.one_of(
    st.sampled_from(FRAGMENTS),
    st.sampled_from(FRAGMENTS),
    st.sampled_from(FRAGMENTS),
    st.characters(codec="utf-8"),
)
TEXTS = st.lists(PIECES, max_size=60).map("".join)

READINGS_FRAGMENTS = (
    "[[reading]]\n", "[[ reading ]] # x\n", "[witness]\n", "[other]\n", "[[reading]", "[reading]\n",
    'at = "某有枉矢哨壶"\n', 'at = ""\n', 'base = "哨"\n', 'base = "壶"\n', 'base = ""\n', 'base = "X"\n',
    'reading = "峭"\n', 'reading = ""\n', 'reading = "哨"\n', 'source = "蕙田案"\n', 'source = " "\n',
    'position = "after"\n', 'position = "below"\n', 'layer = "zhu"\n', 'layer = "markup"\n',
    'note = "x"\n', 'title = "大戴禮記"\n', 'description = 3\n', "at = 1\n", "bogus = 'x'\n",
    "reading = [1, 2]\n", 'reading = [{at = "x"}]\n', "witness = 1\n", "witness = []\n",
    "# comment\n", "\n", "\r\n", " ", "=", '"', "'''", "[", "]", "{", "}", ",", "\ufeff", "\x00", "投",
)  # fmt: skip
READINGS_TEXTS = st.lists(
    st.one_of(st.sampled_from(READINGS_FRAGMENTS), st.characters(codec="utf-8")), max_size=40
).map("".join)

TEXT_LAYOUTS = sorted(name for name in LAYOUTS if name != "readings")
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def normalizer() -> Normalizer:
    return build_normalizer({}, {})


def read(text: str, layout: str) -> Witness:
    """``text`` written as UTF-8 to a file and read with ``layout`` (a gaiji table for Mandoku)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "w.txt"
        path.write_bytes(text.encode("utf-8"))
        gaiji = GAIJI if GAIJI.exists() else None
        return read_witness(path, layout=layout, gaiji_table=gaiji)


def assert_partition(w: Witness) -> None:
    pos = 0
    for span in w.spans:
        assert span.start == pos and span.end > span.start, (span, pos)
        pos = span.end
    assert pos == len(w.text)
    for d in w.diagnostics:
        assert 0 <= d.start <= d.end <= len(w.text), d
    for s in w.substitutions:
        assert 0 <= s.start < s.end <= len(w.text), s
    for m in w.marks:
        assert 0 <= m.offset <= len(w.text), m


def assert_tokens_rejoin(w: Witness) -> None:
    for layer in Layer:
        if not layer.is_text:
            continue
        expected = "".join(w.text[s.start : s.end] for s in w.spans if s.layer is layer and s.role == "text")
        tokens = tokenize(w, layer, normalizer())
        if tokens:
            assert joined(tokens, w) == expected, layer
        else:
            # Punctuation alone makes no token, and there is none to carry it.
            assert not any(is_token_char(c) for c in expected), (layer, expected)


def check(text: str, layout: str) -> None:
    try:
        w = read(text, layout)
    except CollateError as exc:
        # A refusal still says which file it is about.
        assert "w.txt" in str(exc)
        return
    assert w.layout == layout
    assert_partition(w)
    assert_tokens_rejoin(w)
    # Every place a diagnostic names can be located (line:col within the file).
    for d in w.diagnostics:
        line, col = w.line_col(d.start)
        assert line >= 1 and col >= 1


@pytest.mark.parametrize("layout", TEXT_LAYOUTS)
@FUZZ
@given(text=TEXTS)
@example(text="(")
@example(text=")")
@example(text="_{")
@example(text="【")
@example(text="\r")
@example(text="\ufeff")
@example(text="\u3000" * 8)
@example(text="(注a/b 疏c")
@example(text="&KR0002")
@example(text="<pb:")
@example(text="文疏『a』至『b』")
@example(text="\n\n\n")
def test_reader_survives_random_text(layout: str, text: str) -> None:
    check(text, layout)


@FUZZ
@given(text=READINGS_TEXTS)
@example(text="[[reading]]\n")
@example(text='[[reading]]\nat = "某有枉矢哨壶"\nbase = "哨"\nreading = "峭"\nsource = "x"\n')
@example(text="\x00")
@example(text="reading = 1\n")
@example(text="witness = 1\n[[reading]]\n")
def test_readings_reader_survives_random_toml(text: str) -> None:
    try:
        w = read(text, "readings")
    except CollateError as exc:
        assert "w.txt" in str(exc)
        return
    assert_partition(w)
    assert w.readings
    for r in w.readings:
        assert 0 <= r.start < r.end <= len(w.text)


def test_the_alphabet_reaches_every_layout() -> None:
    """The fragments include each layout's own markers, so random strings get past detection's gate."""
    sample = "\n".join(FRAGMENTS)
    for layout in TEXT_LAYOUTS:
        w = read(sample, layout)
        assert_partition(w)
        assert_tokens_rejoin(w)
        assert any(s.layer.is_text for s in w.spans), layout


# A long line of an opener that never closes: each pattern that searched from every opener
# to the line end made this quadratic (a minute for 60,000 【 in the web layout).
UNCLOSED = [
    ("plain", "web-bracket", "【"),
    ("mandoku", "zhu-bracket", "<pb:"),
    ("mandoku", "zhu-bracket", "("),
    ("plain", "zhushu", "文疏『"),
    ("plain", "siku-wltk", "("),
    ("plain", "yili-inline", "【"),
]


@pytest.mark.parametrize(("container", "layout", "opener"), UNCLOSED)
def test_a_long_line_of_unclosed_openers_reads_in_linear_time(container: str, layout: str, opener: str) -> None:
    text = opener * (60_000 // len(opener))
    layout_found, _ = detect_layout(text)
    spans = read_raw(text, container=container, layout=layout, path="w.txt").parsed.spans
    assert layout_found in LAYOUTS
    assert spans[0].start == 0 and spans[-1].end == len(text)

    def reading(size: int) -> Callable[[], object]:
        line = opener * (size // len(opener))
        return lambda: (detect_layout(line), read_raw(line, container=container, layout=layout, path="w.txt"))

    assert_linear(reading, 7_500)
