"""Page images: a witness's ``facs`` pattern links each printed page to its picture.

The pattern is checked where the project is read (a field that is none of a page's is named at
its witness's line); the TEI writes the link as ``pb/@facs`` beside the page's full id as the
file names it (``xml:id="KR1d0053_WYG_062-1a"``); the HTML links the page of every reading.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from builders import xp
from lxml import etree

from collate.errors import ProjectError
from collate.exporters.html import run_html
from collate.exporters.tei import build_tei
from collate.exporters.tei.markup import XML_ID
from collate.init import project_from_files
from collate.model.facsimile import page_url, unknown_fields
from collate.pipeline import collate_project
from collate.project import load_project
from collate.results import ExportInput

PATTERN = "https://example.org/scans/{text}/{edition}/{juan}/{leaf}{side}.jpg"
BODY = "# -*- mode: mandoku-view -*-\n#+TITLE: 投壺\n<pb:KR1d0053_WYG_062-{leaf}a>¶\n{text}¶\n"


def test_a_kanripo_page_id_fills_every_field() -> None:
    assert page_url(PATTERN, "062-1a", "KR1d0053_WYG_062-1a") == "https://example.org/scans/KR1d0053/WYG/062/1a.jpg"
    assert page_url("https://x.org/{id}/{page}", "3a") == "https://x.org/3a/3a"  # no id in the file: the page
    assert unknown_fields("https://x.org/{id}/{folio}") == ["folio"]
    assert unknown_fields(PATTERN) == []


def test_a_pattern_with_an_unknown_field_is_refused_at_its_key(tmp_path: Path) -> None:
    path = tmp_path / "collate.toml"
    path.write_text(
        '[[witness]]\nsiglum = "A"\npath = "a.txt"\n\n[[witness]]\nsiglum = "B"\npath = "b.txt"\n'
        'facs = "https://x.org/{folio}.jpg"\n',
        encoding="utf-8",
    )
    with pytest.raises(ProjectError) as err:
        load_project(path)
    said = str(err.value)
    # At the line of its key (8), not of the witness's siglum (6).
    assert "`facs` of witness B" in said and "'folio'" in said and ":8:" in said and "{id}" in said


def test_pages_link_to_their_pictures_in_the_tei_and_the_html(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(BODY.format(leaf=1, text="主人奉矢司射奉中"), encoding="utf-8")
    (tmp_path / "b.txt").write_text(BODY.format(leaf=2, text="主人奉矢司射奉壺"), encoding="utf-8")
    project = project_from_files([Path("a.txt"), Path("b.txt")], root=tmp_path)
    base, other = project.witnesses
    project = replace(project, witnesses=(replace(base, facs=PATTERN), other))
    data = ExportInput.of(collate_project(project))
    tree = build_tei(data)
    (pb,) = xp(tree, f"//tei:pb[@edRef='#{base.siglum}']")
    assert pb.get(XML_ID) == "KR1d0053_WYG_062-1a" and pb.get("n") == "062-1a"
    assert pb.get("facs") == "https://example.org/scans/KR1d0053/WYG/062/1a.jpg"
    # The other witness names no pattern: its page has its id, and no picture.
    (other_pb,) = xp(tree, f"//tei:pb[@edRef='#{other.siglum}']")
    assert other_pb.get(XML_ID) == "KR1d0053_WYG_062-2a" and other_pb.get("facs") is None
    page = etree.fromstring(run_html(data).encode("utf-8"), etree.HTMLParser(encoding="utf-8"))
    links = page.xpath("//td[@class='where']/a[@class='facs']")
    assert links and {a.get("href") for a in links} == {"https://example.org/scans/KR1d0053/WYG/062/1a.jpg"}
    assert all(a.text.startswith("頁062-1a") for a in links)
