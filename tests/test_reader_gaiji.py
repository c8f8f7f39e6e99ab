"""The Kanseki Repository gaiji table: which entities resolve, to what, and a table that is not one."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GAIJI, need_shared
from readers_support import synthetic

from collate.errors import InputError
from collate.project import Project
from collate.readers.gaiji import load_gaiji

HEADER = "# -*- mode: mandoku-view -*-\n#+TITLE: 大戴禮記\n#+PROPERTY: JUAN 12\n"


def test_gaiji_table_loader() -> None:
    table = load_gaiji(need_shared(GAIJI))
    assert table["KR0002"] == "若"  # no form: the normalised character
    assert table["KR0001"] == "𫠦"  # the glyph itself when Unicode has it
    assert "KR0008" not in table  # neither form nor normalised character
    assert "KR0070" not in table  # 數? : the table itself doubts it
    assert load_gaiji(need_shared(GAIJI)) is table  # cached


def test_gaiji_table_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot read the gaiji table"):
        load_gaiji(tmp_path / "missing.org.txt")
    not_a_table = tmp_path / "notes.txt"
    not_a_table.write_text("#+TITLE: notes\n", encoding="utf-8")
    with pytest.raises(InputError, match="not a Kanripo gaiji table"):
        load_gaiji(not_a_table)
    with pytest.raises(InputError):
        synthetic(HEADER + "賢&KR0002;干\n", tmp_path, "mandoku", tmp_path / "missing.org.txt")


def table_file(folder: Path, rows: list[str]) -> Path:
    """A gaiji table in the Kanripo format: an org header, then ``code  count  form  normalised  image``."""
    path = folder / "charlist.org.txt"
    path.write_text(
        "#+TITLE: KR-Gaiji\n\n" + "".join(f"{row}\t[[file:images/x.png]]\n" for row in rows), encoding="utf-8"
    )
    return path


def test_an_entity_resolves_to_what_the_print_shows_when_unicode_has_it(tmp_path: Path) -> None:
    table = load_gaiji(
        table_file(
            tmp_path,
            [
                "KR0001\t3\t𫠦\t所",  # the glyph itself, though an everyday character is given
                "KR0002\t9\t\t若",  # no glyph: the everyday character
                "KR0003\t1\t\ue123\t風",  # a private-use glyph: the everyday character rather
                "KR0004\t1\t\ue124\t",  # a private-use glyph alone: kept (shown, matched to nothing)
            ],
        )
    )
    assert dict(table) == {"KR0001": "𫠦", "KR0002": "若", "KR0003": "風", "KR0004": "\ue124"}


@pytest.mark.parametrize(
    "row",
    [
        "KR0005\t1\t⿺風軍\t",  # an ideographic description
        "KR0006\t1\t[沔-丏+丐]\t",  # a description in brackets
        "KR0007\t1\t\t數?",  # the table doubts it
        "KR0008\t1\t\t膊:4,袒:1",  # several observed readings
        "KR0009\t1\t\t",  # nothing at all
        "KR0094\t3423\t\t?",  # the table's editors could not read it
        "KR0095\t1\t？\t",  # the same, in a full-width question mark
    ],
)
def test_what_the_table_does_not_say_plainly_is_left_unresolved(tmp_path: Path, row: str) -> None:
    table = load_gaiji(table_file(tmp_path, ["KR0002\t9\t\t若", row]))
    assert dict(table) == {"KR0002": "若"}


def test_a_short_row_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "charlist.org.txt"
    path.write_text("#+TITLE: KR-Gaiji\nKR0002\t9\t\t若\t[[x]]\nKR0003\t1\n", encoding="utf-8")
    with pytest.raises(InputError, match="needs code, count, form") as error:
        load_gaiji(path)
    assert error.value.where == f"{path.resolve()}:3:1"


def test_an_edited_table_is_read_again(tmp_path: Path) -> None:
    path = table_file(tmp_path, ["KR0002\t9\t\t若"])
    assert dict(load_gaiji(path)) == {"KR0002": "若"}
    table_file(tmp_path, ["KR0002\t9\t\t若", "KR0010\t2\t\t干"])
    assert dict(load_gaiji(path)) == {"KR0002": "若", "KR0010": "干"}


def _two_files(folder: Path, table: Path) -> Project:
    """A project of ``a.txt`` (the base, A) and ``b.txt`` (B) in ``folder``, with the gaiji ``table``."""
    from collate.project import project_from_mapping

    witnesses = [{"siglum": "A", "path": "a.txt"}, {"siglum": "B", "path": "b.txt"}]
    return project_from_mapping({"base": "A", "gaiji_table": str(table), "witness": witnesses}, root=folder)


def test_a_glyph_is_its_everyday_character_where_another_witness_reads_that(tmp_path: Path) -> None:
    # 莊&KR0050;反 against 莊瓜反: 𤓰 is 瓜 in another graph, on the table's word (not a reading);
    # &KR0880; (printed 七, everyday 匙) where the base reads 七 stays 七: no witness reads 匙.
    from collate.model import ReadingClass
    from collate.pipeline import collate_project

    table = table_file(tmp_path, ["KR0050\t6316\t𤓰\t瓜", "KR0880\t222\t七\t匙"])
    (tmp_path / "a.txt").write_text("殺割七載之屬莊瓜反下同\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(HEADER + "殺割&KR0880;載之屬莊&KR0050;反下同\n", encoding="utf-8")
    project = _two_files(tmp_path, table)
    run = collate_project(project)
    (loci,) = [layer.loci for layer in run.collation.layers]
    (locus,) = loci
    assert locus.lemma.text == "瓜" and locus.cls is ReadingClass.ORTHOGRAPHIC
    (reading,) = locus.readings
    assert reading.witnesses[0].text == "𤓰" and reading.cause == "variant" and reading.rules == ("variant-graph",)
    (change,) = reading.witnesses[0].tokens[0].changes
    assert (change.before, change.after) == ("𤓰", "瓜") and "gaiji table" in (change.source or "")


def test_a_rare_glyph_written_as_itself_is_its_everyday_character_where_another_witness_reads_that(
    tmp_path: Path,
) -> None:
    # 纂圖互註's 側𤓰反 against the 注疏本's 側瓜反: the e-text writes the glyph, not its entity; the
    # table's word holds for it as for the entity. 七 (KR0880's glyph, an everyday character) never.
    from collate.model import ReadingClass
    from collate.pipeline import collate_project

    table = table_file(tmp_path, ["KR0050\t6316\t𤓰\t瓜", "KR0880\t222\t七\t匙"])
    (tmp_path / "a.txt").write_text("殺割匙載之屬側瓜反下同\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text(HEADER + "殺割七載之屬側𤓰反下同\n", encoding="utf-8")
    project = _two_files(tmp_path, table)
    (layer,) = collate_project(project).collation.layers
    by_lemma = {locus.lemma.text: locus for locus in layer.loci}
    assert by_lemma["瓜"].cls is ReadingClass.ORTHOGRAPHIC
    assert by_lemma["瓜"].readings[0].witnesses[0].text == "𤓰"
    assert by_lemma["匙"].cls is ReadingClass.SUBSTANTIVE  # 七 is a word of its own


def test_the_table_names_the_rare_glyphs_with_one_everyday_character(tmp_path: Path) -> None:
    from collate.readers.gaiji import load_gaiji_glyphs

    rows = ["KR0050\t6316\t𤓰\t瓜", "KR0880\t222\t七\t匙", "KR0002\t9\t\t若", "KR0009\t1\t𠋣\t倚", "KR0011\t1\t𠋣\t依"]
    assert dict(load_gaiji_glyphs(table_file(tmp_path, rows))) == {"𤓰": "瓜"}
