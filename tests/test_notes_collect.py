"""The editorial notes of a witness: one a ``Layer.NOTE`` unit, its words joined across lines."""

from __future__ import annotations

from builders import layered

from collate.model import Layer
from collate.notes.collect import notes_of

# Two notes, the second on two printed lines (its indentation is layout), and an attribution
# with no words after it.
PARTS = [
    (Layer.JING, "主人请曰某有枉矢哨壶"),
    (None, "\n　　"),
    (Layer.NOTE, "蕙田案", "attribution"),
    (Layer.NOTE, "今本大戴礼乃作峭"),
    (None, "\n"),
    (Layer.JING, "请以乐宾"),
    (None, "\n　　"),
    (Layer.NOTE, "蕙田案", "attribution"),
    (Layer.NOTE, "宾曰子有旨酒\n　　嘉肴"),
    (None, "\n"),
    (Layer.JING, "嘉肴"),
    (None, "\n　　"),
    (Layer.NOTE, "蕙田案", "attribution"),
]


def test_every_note_with_words_in_file_order() -> None:
    w = layered("SK", PARTS)
    first, second = notes_of(w)
    assert [(n.id, n.label, n.resp) for n in (first, second)] == [
        ("SK-n1", "蕙田案", "秦蕙田"),
        ("SK-n2", "蕙田案", "秦蕙田"),
    ]
    assert first.text == "今本大戴礼乃作峭"
    assert w.text[first.start : first.end] == first.text  # the attribution is not the note's words
    assert (first.location.line, first.location.column) == (2, 6)


def test_a_note_across_lines_is_its_words_without_the_layout() -> None:
    w = layered("SK", PARTS)
    _, second = notes_of(w)
    assert second.text == "宾曰子有旨酒嘉肴"
    assert [w.text[a:b] for a, b in second.pieces] == ["宾曰子有旨酒", "嘉肴"]
    assert w.text[second.start : second.end] == "宾曰子有旨酒\n　　嘉肴"
    # Character 6 of the words (嘉) is the first of the second piece.
    assert second.raw_offset(6) == second.pieces[1][0]
    assert second.raw_offset(len(second.text)) == second.end
