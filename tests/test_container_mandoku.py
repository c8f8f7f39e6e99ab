"""The Kanripo Mandoku container: org lines, page markers, ``¶``, gaiji entities and lost pages.

Most tests read the 大戴禮記 投壺 file (SBCK) beside the repository with its layout (zhu-bracket);
short texts show what the container itself takes out of a file and hands the layout.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import GAIJI, MANDOKU, need_shared
from readers_support import markup_in_text, synthetic, text_of

from collate.model import HeadingKind, Layer, MarkerKind, Witness
from collate.readers import read_raw, read_witness
from collate.readers.base import ReadOptions
from collate.readers.body import UNRESOLVED
from collate.readers.containers import get_container
from collate.readers.containers.mandoku import CONTAINER as READER
from collate.readers.layouts.zhubracket import PREVIOUS_CHAPTER

HEADER = "# -*- mode: mandoku-view -*-\n#+TITLE: 大戴禮記\n#+PROPERTY: JUAN 12\n"
YILI_HEADER = "#+TITLE: 儀禮\n#+PROPERTY: JUAN 5\n"


@pytest.fixture(scope="module")
def md() -> Witness:
    return read_witness(need_shared(MANDOKU), siglum="DDK", layout="mandoku", gaiji_table=need_shared(GAIJI))


@pytest.fixture(scope="module")
def bare() -> Witness:
    """The same file read without a gaiji table."""
    return read_witness(need_shared(MANDOKU), siglum="DDK", layout="mandoku")


def spans_of(w: Witness, layer: Layer) -> list[tuple[str, str | None]]:
    return [(text_of(w, s), s.label) for s in w.spans if s.layer is layer]


def test_text_spans_hold_no_markers(md: Witness) -> None:
    assert markup_in_text(md, "<>¶()/\n#") == []


def test_pages_and_printed_lines(md: Witness) -> None:
    pages = [m.label for m in md.marks if m.kind == "page"]
    assert pages == ["012-7a", "012-7b", "012-8a", "012-8b", "012-9a", "012-9b"]
    assert md.page_at(md.text.index("投壺之禮")) == ("012-7a", 2)
    assert md.page_at(md.text.index("反位設")) == ("012-7b", 1)
    lost = md.locate(md.text.index("■"))
    assert (lost.line, lost.page, lost.page_line) == (40, "012-8b", 2)
    assert str(lost).endswith("dadai-touhu-kanripo-SBCK.txt:40:4 (p. 012-8b, l. 2)")
    # The header has no page.
    assert md.page_at(md.text.index("大戴禮記")) == (None, None)


def test_milestones_point_into_the_other_print(md: Witness) -> None:
    milestones = [m for m in md.marks if m.kind == "milestone"]
    assert [m.label for m in milestones][:2] == ["WYG 012-8a", "WYG 012-8b"]
    assert milestones[-1].label == "WYG 012-10b"
    assert all(md.text.startswith("<md:KR1d0076_WYG_", m.offset) for m in milestones)
    assert all(s.layer is Layer.MARKUP for s in md.spans if text_of(md, s).startswith("<md:"))


def test_gaiji_resolves_with_the_table(md: Witness) -> None:
    assert len(md.substitutions) == md.text.count("&KR0002;") == 3
    for sub in md.substitutions:
        assert md.text[sub.start : sub.end] == "&KR0002;"
        assert sub.replacement == "若"
        (holder,) = [s for s in md.spans if s.start <= sub.start and sub.end <= s.end]
        assert holder.layer is Layer.JING and holder.role == "text"
    assert not [d for d in md.diagnostics if d.code == "unresolved-entity"]


def test_gaiji_without_a_table_is_a_placeholder(bare: Witness) -> None:
    assert [s.replacement for s in bare.substitutions] == [None, None, None]
    found = [d for d in bare.diagnostics if d.code == "unresolved-entity"]
    assert [(d.start, d.end) for d in found] == [(s.start, s.end) for s in bare.substitutions]
    assert all(d.message.startswith("unresolved entity &KR0002;") for d in found)


def test_unknown_entity_with_a_table(tmp_path: Path) -> None:
    w = synthetic(HEADER + "<pb:KR1d0076_SBCK_012-7a>\n賢&KR9999999;干純\n", tmp_path, "mandoku", need_shared(GAIJI))
    (sub,) = w.substitutions
    assert sub.replacement is None
    (d,) = [d for d in w.diagnostics if d.code == "unresolved-entity"]
    assert "KR9999999" in d.message and (d.start, d.end) == (sub.start, sub.end)


def test_header_is_metadata(md: Witness) -> None:
    assert md.meta("title") == "大戴禮記"
    assert md.meta("juan") == "12"
    assert md.meta("edition") == "SBCK" and md.meta("text") == "KR1d0076"
    assert ("大戴禮記", "title") in spans_of(md, Layer.HEADING)
    header_markers = [text_of(md, s) for s in md.spans if s.role == "marker" and md.line_col(s.start)[0] <= 5]
    assert header_markers[:2] == ["# -*- mode: mandoku-view -*-", "#+TITLE: "]


def test_chapter_title_and_previous_chapter(md: Witness) -> None:
    assert spans_of(md, Layer.HEADING) == [
        ("大戴禮記", "title"),
        ("投壺", "chapter title"),
        ("第七十八", "chapter number"),
        ("大戴禮記卷第十二", "juan title"),
    ]
    previous = [text for text, label in spans_of(md, Layer.JING) if label == PREVIOUS_CHAPTER]
    assert previous == ["養諸侯兵不用而諸侯自爲政之法也"]
    assert md.layer_text(Layer.JING).startswith("養諸侯兵不用而諸侯自爲政之法也投壺之禮主人奉矢")


def test_small_print_is_zhu(md: Witness) -> None:
    assert md.layer_text(Layer.ZHU) == "壺高寸受㪷尺二五升"
    markers = [
        (text_of(md, s), s.label) for s in md.spans if s.role == "marker" and s.label in ("(", ")", "column break")
    ]
    assert markers == [("(", "("), ("/", "column break"), (")", ")")]


def test_the_kinds_a_reader_names_are_the_enums_members(md: Witness) -> None:
    # Printed words (a bracket, 正義曰) stay strings; the kinds the container and the layout name are members.
    headings = {s.heading for s in md.spans if s.heading is not None}
    kinds = (HeadingKind.TITLE, HeadingKind.CHAPTER_TITLE, HeadingKind.CHAPTER_NUMBER, HeadingKind.JUAN_TITLE)
    assert headings == set(kinds)
    assert all(type(h) is HeadingKind for h in headings)
    named = {s.marker for s in md.spans if s.marker in set(MarkerKind)}
    assert {MarkerKind.PAGE, MarkerKind.MILESTONE, MarkerKind.COLUMN_BREAK} <= named
    assert all(type(m) is MarkerKind for m in named)


def test_small_print_runs_join_across_lines(tmp_path: Path) -> None:
    text = HEADER + "<pb:KR1d0076_SBCK_012-7a>\n寸半(壺高/尺二)\n(寸受/五升)壺腹¶修五寸\n(未完\n"
    w = synthetic(text, tmp_path, "mandoku")
    zhu = [s for s in w.spans if s.layer is Layer.ZHU]
    assert [text_of(w, s) for s in zhu] == ["壺高", "尺二", "寸受", "五升", "未完"]
    assert len({s.unit for s in zhu[:4]}) == 1 and zhu[4].unit != zhu[0].unit
    assert w.layer_text(Layer.JING) == "寸半壺腹修五寸"
    (d,) = [d for d in w.diagnostics if d.code == "unbalanced"]
    assert w.text[d.start] == "(" and w.line_col(d.start)[0] == 7


def test_lost_glyph_is_diagnosed(md: Witness) -> None:
    (d,) = [d for d in md.diagnostics if d.code == "placeholder"]
    assert md.text[d.start] == "■"
    assert "于君所■以" in md.layer_text(Layer.JING)


def test_characters_per_layer(md: Witness) -> None:
    counts = {layer: len(md.layer_text(layer)) for layer in md.layers()}
    assert counts[Layer.JING] > counts[Layer.ZHU] == 9
    assert counts[Layer.HEADING] == len("大戴禮記投壺第七十八大戴禮記卷第十二")
    assert counts[Layer.MARKUP] == len(md.text) - counts[Layer.JING] - counts[Layer.ZHU] - counts[Layer.HEADING]


def test_detection_scores_its_file_by_page_markers() -> None:
    own, reason = READER.detect(need_shared(MANDOKU).read_text(encoding="utf-8"))
    assert own >= 0.9 and "<pb:" in reason


def test_mandoku_takes_out_its_markup_and_keeps_the_print_lines() -> None:
    raw = YILI_HEADER + "<pb:KR1d0026_SBCK_006-1a>¶\n燕禮小臣(小臣/相君)¶\n　¶\n若&KR0002;干¶投壺¶第七十八\n"
    got = get_container("mandoku").read(raw, ReadOptions())
    # The marker-only line goes whole; a blank printed line keeps its indent; an entity is one character.
    assert got.text == f"燕禮小臣(小臣/相君)\n　\n若{UNRESOLVED}干投壺第七十八\n"
    assert got.breaks == {got.text.index("投壺"), got.text.index("第七")}
    assert [(m.kind, m.label) for m in got.marks if m.kind != "line"] == [("page", "006-1a")]
    assert [m.label for m in got.marks if m.kind == "line"] == ["1", "2", "3"]
    assert dict(got.metadata)["juan"] == "5" and dict(got.metadata)["edition"] == "SBCK"


def test_a_missing_page_is_a_lacuna_with_its_extent() -> None:
    raw = YILI_HEADER + "<pb:KR1_SBCK_006-14a>¶\n# SB1_0016-028.png\n# page missing\n<pb:KR1_SBCK_006-15a>¶\n燕禮¶\n"
    reading = read_raw(raw, container="mandoku", layout="zhu-bracket")
    (lacuna,) = [m for m in reading.parsed.marks if m.kind == "lacuna"]
    assert lacuna.label == "006-14a, 2 pages"
    assert raw[lacuna.offset :].startswith("# page missing")
    spans = [s for s in reading.parsed.spans if s.start <= lacuna.offset < s.end]
    assert [(s.layer, s.label) for s in spans] == [(Layer.MARKUP, "lacuna")]


# --- a leaf whose text is not there: two page markers with only layout between them ----------------------


@pytest.mark.parametrize(
    ("between", "lost"),
    [
        # Layout only: line ends, a blank printed line, a blank line, another comment line.
        ("<pb:KR1_SBCK_006-14a>¶\n", ["006-14a, 1 page, empty in the file"]),
        ("<pb:KR1_SBCK_006-14a>¶\n　¶\n\n# SB1_0016-028.png\n", ["006-14a, 1 page, empty in the file"]),
        ("<pb:KR1_SBCK_006-14a><md:KR1_WYG_006-20a>¶\n", ["006-14a, 1 page, empty in the file"]),
        # Empty leaves in a row (006-13b, 006-14a) are one lacuna, as one `# page missing` for
        # two pages is.
        ("<pb:KR1_SBCK_006-13b>¶\n<pb:KR1_SBCK_006-14a>¶\n", ["006-13b, 2 pages, empty in the file"]),
        # The file says what became of the page: lost (the existing mark, once: the copy lacks it,
        # not only the e-text) or blank in the print.
        ("<pb:KR1_SBCK_006-14a>¶\n# page missing\n", ["006-14a, 1 page"]),
        ("<pb:KR1_SBCK_006-14a>¶\n# blank page\n", []),
        ("<pb:KR1_SBCK_006-14a>¶\n# 空白\n", []),
        # Text on the leaf, even one entity or a heading: not empty.
        ("<pb:KR1_SBCK_006-14a>&KR0002;¶\n", []),
        ("<pb:KR1_SBCK_006-14a>¶\n** 燕禮\n", []),
        ("<pb:KR1_SBCK_006-14a>大夫¶\n", []),
    ],
)
def test_two_page_markers_with_nothing_between_are_a_lacuna(between: str, lost: list[str]) -> None:
    raw = YILI_HEADER + "<pb:KR1_SBCK_006-13a>¶\n燕禮¶\n" + between + "<pb:KR1_SBCK_006-14b>¶\n小臣¶\n"
    reading = read_raw(raw, container="mandoku", layout="zhu-bracket")
    marks = [m for m in reading.parsed.marks if m.kind == "lacuna"]
    assert [m.label for m in marks] == lost
    for m in marks:
        # Between the last text before the lost leaf and the first after it, so the witness's
        # tokens on either side bound the lacuna.
        assert raw.index("燕禮") < m.offset < raw.index("小臣")
    found = [d for d in reading.parsed.diagnostics if d.code == "lacuna"]
    assert len(found) == len(lost)


def test_the_last_page_marker_alone_is_no_lacuna() -> None:
    """A marker with nothing after it ends the file: no second marker, no leaf known to be lost."""
    raw = YILI_HEADER + "<pb:KR1_SBCK_006-13b>¶\n燕禮¶\n<pb:KR1_SBCK_006-14a>¶\n"
    reading = read_raw(raw, container="mandoku", layout="zhu-bracket")
    assert not [m for m in reading.parsed.marks if m.kind == "lacuna"]


ZHENGZHU = "yili-yanli-zhengzhu-kanripo-SBCK.txt"


def _zhengzhu_lines() -> list[str]:
    from conftest import SHARED

    return need_shared(SHARED / "witnesses" / ZHENGZHU).read_text(encoding="utf-8").split("\n")


def test_lost_pages_read_the_same_without_their_page_missing_comments() -> None:
    """儀禮 鄭注本 (SBCK): its two `# page missing` leaves, with the comments taken out, are the same lacunae."""
    lines = _zhengzhu_lines()
    bare = [line for line in lines if not line.startswith("# SB1_") and line != "# page missing"]
    assert len(lines) - len(bare) == 4

    def lacunae(raw: str) -> list[tuple[str, str]]:
        reading = read_raw(raw, container="mandoku", layout="zhu-bracket")
        marks = [(m.offset, m.label) for m in reading.parsed.marks if m.kind == "lacuna"]
        # What text comes next, markers aside: where the print resumes.
        return [(label, re.sub(r"<[^<>]*>|¶|\s|#[^\n]*", "", raw[offset:])[:6]) for offset, label in marks]

    said, empty = lacunae("\n".join(lines)), lacunae("\n".join(bare))
    assert [label for label, _ in said] == ["006-14a, 2 pages", "006-19a, 2 pages"]
    # The same leaves, where the print resumes; only their label says the file is what lacks them.
    assert [(label.removesuffix(", empty in the file"), resumes) for label, resumes in empty] == said
    assert all(label.endswith(", empty in the file") for label, _ in empty)


def test_a_leaf_emptied_in_a_real_file_is_a_lacuna_not_an_omission(tmp_path: Path) -> None:
    """鄭注本 with the text of leaf 006-3a taken out, collated with the 注疏本: not extant there, never omitted."""
    from conftest import SHARED

    from collate.exporters.jiaokanji import entries
    from collate.model import ReadingClass
    from collate.pipeline import collate_project
    from collate.project import project_from_mapping

    lines = _zhengzhu_lines()
    start = lines.index("<pb:KR1d0026_SBCK_006-3a>¶")
    end = lines.index("<pb:KR1d0026_SBCK_006-3b>¶")
    assert end - start == 9
    (tmp_path / ZHENGZHU).write_text("\n".join(lines[: start + 1] + lines[end:]), encoding="utf-8")
    witnesses = [
        {
            "siglum": "ZS",
            "label": "注疏本",
            "path": str(need_shared(SHARED / "witnesses" / "yili-yanli-zhushu-kanripo-WYG.txt")),
        },
        {"siglum": "ZZ", "label": "鄭注本", "path": ZHENGZHU},
    ]
    gaiji = str(need_shared(GAIJI))
    run = collate_project(
        project_from_mapping({"base": "ZS", "gaiji_table": gaiji, "witness": witnesses}, root=tmp_path)
    )
    zz = run.read.by_siglum()["ZZ"]
    assert [m.label for m in zz.marks if m.kind == "lacuna"] == [
        "006-3a, 1 page, empty in the file",
        "006-14a, 2 pages",
        "006-19a, 2 pages",
    ]
    jing = run.collation.layer(Layer.JING)
    assert jing is not None and len(jing.alignment.extent("ZZ").lacunae) == 3
    for result in run.collation.layers:
        holes = result.alignment.extent("ZZ").lacunae
        for locus in result.loci:
            reading = locus.reading_of("ZZ")
            if reading is not None and any(a <= locus.col_start and locus.col_end <= b for a, b in holes):
                assert reading.cls is ReadingClass.NOT_EXTANT, (locus.lemma.text, reading.cls)
    lost = [e for e in entries(run.collation, run.read.by_siglum()) if "自其頁006-3a起缺一頁" in e]
    # 阼階下北面請執幂者 … 主人亦升: the 經 and 注 of the leaf.
    assert len(lost) == 2 and any("無「阼階下北」至" in e for e in lost)
