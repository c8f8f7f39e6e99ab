"""The reader of indentation-driven prints applies any :class:`IndentLayout`: everything is in the table.

test_reader_siku reads 五禮通考 by its table (``SIKU_WLTK``); here a table of another, made-up
print — other indents, brackets, markers, attributions and titles — reads its text the same way.
"""

from __future__ import annotations

from collate.model import Layer, Role
from collate.readers.base import ReadOptions
from collate.readers.indented import IndentedReader
from collate.readers.layoutspec import Block, IndentLayout, Marker

TOY = IndentLayout(
    name="toy",
    description="a made-up print: [箋…|…] small print, commentators two columns in, notes three",
    indents=((0, 0, Block.CLASSIC), (2, 2, Block.COMMENTATOR), (3, 5, Block.NOTE)),
    header=("title",),
    headings=((r"右\S{1,4}", 1),),
    titles=("詩關雎",),
    bare_titles=(),
    note_attributions=("愚案",),
    commentator_attributions=(r"[\u4e00-\u9fff]氏曰",),
    markers=(Marker("箋", Layer.ZHU, opens=True), Marker("疏", Layer.SHU, opens=False)),
    small_print=("[", "]"),
    column_break="|",
)
TEXT = "毛詩\n詩關雎關關雎鳩[箋雎鳩|王雎 疏正義]\n\u3000\u3000朱氏曰興也\n\u3000\u3000\u3000愚案此詩\n\u3000右關雎\n"


def read() -> list[tuple[Layer, Role, str, str | None]]:
    parsed = IndentedReader(TOY).read(TEXT, ReadOptions())
    return [(s.layer, s.role, TEXT[s.start : s.end], s.label) for s in parsed.spans if s.layer is not Layer.MARKUP]


def test_the_table_decides_every_layer() -> None:
    assert read() == [
        (Layer.HEADING, Role.TEXT, "毛詩", None),  # the header's one line
        (Layer.HEADING, Role.TEXT, "詩關雎", "詩關雎"),  # a run-in title opens the passage it names
        (Layer.JING, Role.TEXT, "關關雎鳩", "詩關雎"),
        (Layer.ZHU, Role.TEXT, "雎鳩", "詩關雎"),  # small print behind its 箋 marker, both columns
        (Layer.ZHU, Role.TEXT, "王雎", "詩關雎"),
        (Layer.SHU, Role.TEXT, "正義", "詩關雎"),  # switched at its first 疏
        (Layer.COMMENTARY, Role.ATTRIBUTION, "朱氏曰", "朱氏曰"),  # two columns in: a commentator
        (Layer.COMMENTARY, Role.TEXT, "興也", "朱氏曰"),
        (Layer.NOTE, Role.ATTRIBUTION, "愚案", "愚案"),  # three columns in: a note
        (Layer.NOTE, Role.TEXT, "此詩", "愚案"),
        (Layer.HEADING, Role.TEXT, "右關雎", None),  # a heading pattern, indented far enough
    ]


def test_the_signs_of_the_table_are_layout_and_markers() -> None:
    parsed = IndentedReader(TOY).read(TEXT, ReadOptions())
    markup = [(s.role, TEXT[s.start : s.end]) for s in parsed.spans if s.layer is Layer.MARKUP]
    assert (Role.MARKER, "箋") in markup and (Role.MARKER, " 疏") in markup
    assert (Role.LAYOUT, "|") in markup and (Role.LAYOUT, "[") in markup
    assert dict(parsed.metadata) == {"title": "毛詩"} and parsed.diagnostics == ()
    assert "".join(TEXT[s.start : s.end] for s in parsed.spans) == TEXT


def test_detection_counts_the_table_s_own_signs() -> None:
    score, reason = IndentedReader(TOY).detect(TEXT)
    assert score > 0 and "[箋" in reason and "愚案" in reason
    assert IndentedReader(TOY).detect("關關雎鳩(注雎鳩)\n")[0] == 0
