"""Indentation-driven prints as data: which block an indent opens."""

from __future__ import annotations

from collate.readers.layoutspec import Block, IndentLayout


def test_an_indent_opens_the_block_of_its_range() -> None:
    spec = IndentLayout(
        name="x",
        description="",
        indents=((0, 0, Block.CLASSIC), (1, 3, Block.COMMENTATOR), (4, 8, Block.NOTE)),
        header=(),
        headings=(),
        titles=(),
        bare_titles=(),
        note_attributions=(),
        commentator_attributions=(),
        markers=(),
    )
    assert [spec.block_at(n) for n in range(10)] == [
        Block.CLASSIC,
        *[Block.COMMENTATOR] * 3,
        *[Block.NOTE] * 5,
        None,  # deeper than any range: no block
    ]
