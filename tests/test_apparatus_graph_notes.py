"""The graphs of a 今古文 note set the other way round are a reading, not two variant forms."""

from __future__ import annotations

from builders import rows_collation

from collate.apparatus import Collation, ReadingClass
from collate.apparatus.graph_notes import swapped_graphs
from collate.normalize import Normalizer

NORMALIZER = Normalizer()


def collation(rows: dict[str, str]) -> Collation:
    return rows_collation(rows, NORMALIZER, "鄉飲酒禮")


def classes(c: Collation, siglum: str) -> list[tuple[str, str, ReadingClass]]:
    return [(x.lemma.text, r.witnesses[0].text, r.cls) for x in c.loci() for r in x.readings if siglum in r.sigla]


def test_a_note_of_graphs_set_the_other_way_round_is_a_reading() -> None:
    # 儀禮·鄉飲酒禮 注: 俱升古文壹作一 in the 注疏本, 古文一作壹 in the 鄭注本; 壹/一 alone is a variant form.
    before = collation({"ZS": "俱升古文壹作一", "ZZ": "俱升古文一作壹", "JS": "俱升古文壹作一"})
    assert {cls for _, _, cls in classes(before, "ZZ")} == {ReadingClass.ORTHOGRAPHIC}
    after = swapped_graphs(before)
    assert classes(after, "ZZ") == [("壹", "一", ReadingClass.SUBSTANTIVE), ("一", "壹", ReadingClass.SUBSTANTIVE)]


def test_the_same_forms_outside_a_note_or_not_swapped_stay_variant_forms() -> None:
    for rows in (
        {"ZS": "俱升其文壹作一", "ZZ": "俱升其文一作壹"},  # no 古文, 今文, 故書 before it
        {"ZS": "俱升古文壹作一", "ZZ": "俱升古文一作一"},  # one graph read otherwise, not swapped
    ):
        c = collation(rows)
        assert swapped_graphs(c) is c, rows
