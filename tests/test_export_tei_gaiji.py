"""Gaiji in the TEI: a file's ``&KR…;`` entity is a ``<g>`` declared in the header's ``<charDecl>``.

A Kanripo file names the glyphs Unicode lacks by entities; the gaiji table resolves most of them.
The TEI keeps each as ``<g ref="#KR0002">若</g>`` (the character read), or ``<g ref="#KR9999">〓</g>``
inside ``<unclear>`` where no table resolved it, and declares each once: the entity, what the
table says of the glyph, the character it was read as, the picture of it in Kanripo's table.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from builders import xp
from test_export_tei_own import assert_every_layer_reads_back
from test_reader_gaiji import table_file

from collate.exporters.tei import TEI_NS, build_tei
from collate.exporters.tei.markup import GETA, KANRIPO_GAIJI_IMAGE, XML_ID
from collate.init import project_from_files
from collate.pipeline import collate_project
from collate.results import ExportInput

BODY = "# -*- mode: mandoku-view -*-\n#+TITLE: 投壺\n<pb:KR1d0052_WYG_062-1a>¶\n{}¶\n"


def _tei(tmp_path: Path) -> Any:
    """Two Mandoku files of one passage, the second with two entities, collated as a project."""
    table = table_file(tmp_path, ["KR0002\t9\t\t若", "KR0756\t3\t\t[車*犬]"])
    (tmp_path / "a.txt").write_text(BODY.format("主人奉矢司射奉中"), encoding="utf-8")
    (tmp_path / "b.txt").write_text(BODY.format("主人奉&KR0002;司&KR0756;奉中"), encoding="utf-8")
    project = replace(project_from_files([Path("a.txt"), Path("b.txt")], root=tmp_path), gaiji_table=table)
    run = collate_project(project)
    return build_tei(ExportInput.of(run)), run.collation, run.read.by_siglum()


def test_an_entity_is_a_g_declared_with_what_its_table_says(tmp_path: Path) -> None:
    tree, collation, witnesses = _tei(tmp_path)
    resolved = xp(tree, "//tei:rdg//tei:g[@ref='#KR0002']")
    assert [g.text for g in resolved] == ["若"]
    (unresolved,) = xp(tree, "//tei:g[@ref='#KR0756']")
    assert unresolved.text == GETA and unresolved.getparent().get("reason") == "placeholder"
    (glyph,) = xp(tree, "//tei:charDecl/tei:glyph[@xml:id='KR0002']")
    props = {p.get("name"): p.get("value") for p in glyph.findall(f"{{{TEI_NS}}}localProp")}
    assert props == {"entity": "&KR0002;", "description": "若"}
    assert glyph.findtext(f"{{{TEI_NS}}}mapping[@type='standard']") == "若"
    assert glyph.find(f"{{{TEI_NS}}}graphic").get("url") == KANRIPO_GAIJI_IMAGE.format(code="KR0002")
    (unread,) = xp(tree, "//tei:charDecl/tei:glyph[@xml:id='KR0756']")
    assert unread.find(f"{{{TEI_NS}}}mapping") is None  # the table describes it, nothing resolves it
    assert {p.get("value") for p in unread.findall(f"{{{TEI_NS}}}localProp")} == {"&KR0756;", "[車*犬]"}
    assert {g.get(XML_ID) for g in xp(tree, "//tei:charDecl/tei:glyph")} == {"KR0002", "KR0756"}
    # The file's own text reads back: the resolved character, the entity no table resolved.
    assert assert_every_layer_reads_back(tree, collation, witnesses) > 0
