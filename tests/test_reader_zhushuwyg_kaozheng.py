"""The 考證 of a WYG 注疏 卷: the editors' notes, one unit a lemma, their names as attributions."""

from __future__ import annotations

from collate.model import Layer, Role
from collate.readers.base import ReadOptions
from collate.readers.layouts.zhushuwyg import READER

# A 卷 with one line of text, then its 考證: a flush-left lemma, an indented 注 lemma with its ○
# (its note going on over an indented line), and another flush-left lemma.
TEXT = (
    "欽定四庫全書\n　儀禮注疏卷一\n士冠禮○筮于廟門注筮者以蓍問日吉凶於易也\n"
    "　儀禮注疏卷一考證\n"
    "士冠禮筮于廟門○監本譌作(臣/)\n　(紱/)按今改正(句/)\n"
    "　注筮者以蓍○臣清植按蓍字\n　今本脱\n"
    "主人玄冠○(臣/召南)按玄字\n"
)


def test_each_lemma_opens_a_note_of_the_kaozheng() -> None:
    spans = READER.read(TEXT, ReadOptions()).spans
    start = TEXT.index("士冠禮筮于廟門○")
    notes = [s for s in spans if s.layer is Layer.NOTE]
    assert all(s.start >= start for s in notes)  # the 卷's own text holds no note
    units = {s.unit for s in notes}
    assert len(units) == 3
    words = {u: "".join(TEXT[s.start : s.end] for s in notes if s.unit == u and s.role is Role.TEXT) for u in units}
    assert [words[u] for u in sorted(units)] == [
        "士冠禮筮于廟門監本譌作按今改正",
        "注筮者以蓍臣清植按蓍字今本脱",  # the indented line goes on with the note
        "主人玄冠按玄字",
    ]
    assert {s.passage for s in notes if s.role is Role.TEXT} == {"考證"}


def test_an_editor_named_in_small_print_is_the_attribution() -> None:
    spans = READER.read(TEXT, ReadOptions()).spans
    names = [(TEXT[s.start : s.end], s.speaker) for s in spans if s.role is Role.ATTRIBUTION]
    # 臣 and 紱 across a line end are one name; 臣召南 in one bracket is another.
    assert names == [("臣", "臣紱"), ("紱", "臣紱"), ("臣", "臣召南"), ("召南", "臣召南")]
    markers = {TEXT[s.start : s.end] for s in spans if s.role is Role.MARKER and s.start > TEXT.index("考證")}
    assert {"○", "句"} <= markers
