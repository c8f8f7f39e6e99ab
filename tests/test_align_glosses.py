"""The 音義's glosses as units: an omission that can slide is set where it ends a gloss."""

from __future__ import annotations

from builders import align_rows

from collate.align.alignment import LayerAlignment
from collate.align.glosses import gloss_gaps


def row(alignment: LayerAlignment, j: int) -> str:
    """Witness ``j``'s cells as a string, '-' for an empty one."""
    return "".join("-" if (tok := col[j]) is None else tok.t for col in alignment.columns)


def test_a_lacking_gloss_ends_with_its_fanqie_not_the_one_before() -> None:
    # 倅七内反治直吏反注同 against 倅七内反大: the print lacks 治直吏反注同, not 反治直吏 and 注同.
    aligned, _ = align_rows({"W": "倅七内反治直吏反注同大", "S": "倅七内----反--大"})
    assert row(gloss_gaps(aligned), 1) == "倅七内反------大"


def test_an_omission_slides_left_as_well() -> None:
    # 刃反逡七廵反逡 against 刃反逡: the gap read as 七廵反逡 is set to end on its 反.
    aligned, _ = align_rows({"W": "刃反逡七廵反逡", "S": "刃反逡----"})
    assert row(gloss_gaps(aligned), 1) == "刃反----逡"
    done, _ = align_rows({"W": "刃反逡七廵反遁音巡", "S": "刃反----遁音巡"})
    assert gloss_gaps(done) is done  # already ending on 反: unchanged


def test_a_gap_that_cannot_end_a_gloss_stays() -> None:
    aligned, _ = align_rows({"W": "見君賢遍反", "S": "見-賢遍反"})
    assert gloss_gaps(aligned) is aligned
    # Nor does an omission slide where the witness reads otherwise next to it.
    other, _ = align_rows({"W": "倅反治直吏反注", "S": "倅----又注"})
    assert gloss_gaps(other) is other
