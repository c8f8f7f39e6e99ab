"""The containers on small texts: what each takes out, what the layout is handed, and the merge back."""

from __future__ import annotations

from collate.model import Layer
from collate.readers import read_raw
from collate.readers.base import ReadOptions
from collate.readers.body import UNRESOLVED
from collate.readers.containers import detect_container, get_container

MANDOKU = "#+TITLE: 儀禮\n#+PROPERTY: JUAN 5\n"


def body(name: str, raw: str) -> str:
    return get_container(name).read(raw, ReadOptions()).text


def test_pages_are_pages_only_when_they_are_regular() -> None:
    page = "".join(f"射者仁之道也{i}\n" for i in range(8))
    assert detect_container((page + "\n") * 4)[0] == "paged"
    paragraphs = "射者仁之道也\n\n" + "故射者進退周還必中禮\n" * 12 + "\n其節天子以騶虞爲節\n" * 3
    assert detect_container(paragraphs)[0] == "plain"


def test_the_paged_body_has_no_blank_lines_and_a_page_after_each_break() -> None:
    raw = "甲\n乙\n丙\n丁\n\n戊\n己\n庚\n辛\n\n\n壬\n"
    got = get_container("paged").read(raw, ReadOptions())
    assert got.text == "甲\n乙\n丙\n丁\n戊\n己\n庚\n辛\n壬\n"
    assert [m.label for m in got.marks if m.kind == "page"] == ["1a", "1b", "2a"]


def test_mandoku_takes_out_its_markup_and_keeps_the_print_lines() -> None:
    raw = MANDOKU + "<pb:KR1d0026_SBCK_006-1a>¶\n燕禮小臣(小臣/相君)¶\n　¶\n若&KR0002;干¶投壺¶第七十八\n"
    got = get_container("mandoku").read(raw, ReadOptions())
    # The marker-only line goes whole; a blank printed line keeps its indent; an entity is one character.
    assert got.text == f"燕禮小臣(小臣/相君)\n　\n若{UNRESOLVED}干投壺第七十八\n"
    assert got.breaks == {got.text.index("投壺"), got.text.index("第七")}
    assert [(m.kind, m.label) for m in got.marks if m.kind != "line"] == [("page", "006-1a")]
    assert [m.label for m in got.marks if m.kind == "line"] == ["1", "2", "3"]
    assert dict(got.metadata)["juan"] == "5" and dict(got.metadata)["edition"] == "SBCK"


def test_a_missing_page_is_a_lacuna_with_its_extent() -> None:
    raw = MANDOKU + "<pb:KR1_SBCK_006-14a>¶\n# SB1_0016-028.png\n# page missing\n<pb:KR1_SBCK_006-15a>¶\n燕禮¶\n"
    reading = read_raw(raw, container="mandoku", layout="zhu-bracket")
    (lacuna,) = [m for m in reading.parsed.marks if m.kind == "lacuna"]
    assert lacuna.label == "006-14a, 2 pages"
    assert raw[lacuna.offset :].startswith("# page missing")
    spans = [s for s in reading.parsed.spans if s.start <= lacuna.offset < s.end]
    assert [(s.layer, s.label) for s in spans] == [(Layer.MARKUP, "lacuna")]


def test_web_furniture_at_the_edges_is_boilerplate() -> None:
    raw = "古者諸侯之射也【注言别尊卑】\n" * 3 + "【打 印】 【来源：读书之家】\n"
    assert detect_container(raw)[0] == "web"
    reading = read_raw(raw)
    (furniture,) = [s for s in reading.parsed.spans if s.layer is Layer.BOILERPLATE]
    assert raw[furniture.start : furniture.end] == "【打 印】 【来源：读书之家】"
    assert body("web", raw) == "古者諸侯之射也【注言别尊卑】\n" * 3


def test_merge_cuts_a_layout_span_where_the_container_took_a_marker_out() -> None:
    raw = MANDOKU + "<pb:KR1_SBCK_001-1a>\n射者仁<pb:KR1_SBCK_001-1b>之道也\n"
    reading = read_raw(raw, container="mandoku", layout="plain")
    jing = [raw[s.start : s.end] for s in reading.parsed.spans if s.layer is Layer.JING]
    assert jing == ["射者仁", "之道也"]
    pb = [s for s in reading.parsed.spans if s.label == "pb"]
    assert len(pb) == 2 and all(s.layer is Layer.MARKUP for s in pb)
