"""The title ``collate init`` gives a project: the chapter the witness files share, in its work (禮記·射義)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SHARED, SHEYI_FILES, need_shared

from collate.cli import main
from collate.files import parse_toml
from collate.init import Header, chapter_name, project_from_files, project_title, read_header, work_of

WITNESSES = SHARED / "witnesses"
YANLI = (
    "yili-yanli-zhushu-kanripo-WYG.txt",
    "yili-jishuo-yanli-kanripo-WYG.txt",
    "yili-yanli-zhengzhu-kanripo-SBCK.txt",
)


def header(name: str, title: str = "", *chapters: str) -> Header:
    return Header(Path(name), title=title, chapters=chapters)


# A heading, whether the reader says it is a chapter's, and the chapter it names.
CHAPTER_CASES = [
    ("射義第四十六", False, "射義"),
    ("射義", True, "射義"),
    ("射義", False, ""),  # a bare line may be any heading: a chapter's only with its number
    ("=== 20 | 射義 ===", False, "射義"),
    ("47 射義", True, "射義"),
    ("燕禮第六", True, "燕禮"),
    ("鄉射禮第五之二", False, "鄉射禮"),
    ("投壺第四十(一)", False, "投壺"),
    ("大戴禮記·投壺", False, "投壺"),
    ("禮記注疏卷六十二", True, ""),
    ("禮記正義卷第六十九", False, ""),
    ("漢鄭氏注\u3000唐陸徳明音義\u3000孔穎達疏", True, ""),
    ("Chapter 47", True, ""),
]


@pytest.mark.parametrize(("heading", "named", "chapter"), CHAPTER_CASES)
def test_a_heading_names_a_chapter_without_its_number(heading: str, named: bool, chapter: str) -> None:
    assert chapter_name(heading, named=named) == chapter


WORK_CASES = [
    ("禮記註疏", "禮記"),
    ("禮記正義", "禮記"),
    ("纂圖互註禮記", "禮記"),
    ("陳氏禮記集說", "禮記"),
    ("附釋音禮記注疏", "禮記"),
    ("儀禮集說", "儀禮"),
    ("禮記正義卷第六十九", "禮記"),
    ("五禮通考卷一百六十三", "五禮通考"),
    ("大戴禮記·投壺", "大戴禮記"),
    ("大戴禮記", "大戴禮記"),
    ("投壺第四十(一)", ""),  # a chapter's title line names no work
]


@pytest.mark.parametrize(("title", "work"), WORK_CASES)
def test_an_edition_title_names_its_work(title: str, work: str) -> None:
    assert work_of(title) == work


def test_six_editions_of_a_chapter_are_titled_by_the_work_and_the_chapter() -> None:
    headers = [
        header("zhushu.txt", "禮記註疏", "射義"),
        header("zhengyi.txt", "禮記正義", "射義"),
        header("zuantu.txt", "纂圖互註禮記", "射義"),
        header("jishuo.txt", "陳氏禮記集說", "射義"),
        header("tls.txt", "禮記", "射義"),
        header("wiki.txt", "射義", "射義"),
    ]
    assert project_title(headers, headers[0]) == "禮記·射義"
    # One file alone says as much.
    assert project_title(headers[3:4], headers[3]) == "禮記·射義"


def test_the_chapter_most_files_name_then_the_base_s() -> None:
    most = [header("a.txt", "禮記註疏", "燕義"), header("b.txt", "禮記", "射義"), header("c.txt", "禮記正義", "射義")]
    assert project_title(most, most[0]) == "禮記·射義"
    tied = [header("a.txt", "大戴禮記", "投壺"), header("b.txt", "禮記註疏", "射義")]
    assert project_title(tied, tied[1]) == "禮記·射義"
    assert project_title(tied, tied[0]) == "大戴禮記·投壺"


def test_the_work_most_files_name_then_the_base_s_then_the_one_the_others_extend() -> None:
    base = header("base.txt", "大戴禮記", "投壺")
    assert project_title([base, header("zs.txt", "禮記註疏", "投壺")], base) == "大戴禮記·投壺"
    wiki = header("wiki.txt", "投壺", "投壺")
    others = [header("zs.txt", "禮記註疏", "投壺"), header("dd.txt", "大戴禮記", "投壺")]
    # A base naming no work: of two named once each, the one the other's title extends.
    assert project_title([wiki, *others], wiki) == "禮記·投壺"


def test_a_readings_file_names_the_chapter_not_the_work() -> None:
    headers = [
        header("000.txt", "五礼通考卷一百六十五"),
        header("001.txt", "投壺第四十(一)", "投壺"),
        header("dadai-readings.toml", "大戴禮記·投壺", "投壺"),
    ]
    assert project_title(headers, headers[0]) == "投壺"


def test_no_chapter_keeps_the_base_s_own_title(tmp_path: Path) -> None:
    assert project_title([header("a.txt", "周禮注疏"), header("b.txt", "周禮")], header("a.txt", "周禮注疏")) == ""
    for name, text in (("a.txt", "射人掌國之三公\n"), ("b.txt", "射人掌國之三卿\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert project_from_files([Path("a.txt"), Path("b.txt")], root=tmp_path).title == "collation"


def test_init_writes_the_chapter_title_of_plain_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("=== 20 | 射義 ===\n古者諸侯之射也\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("射義第四十六\n古者諸侯之射也\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["init", "a.txt", "b.txt"])
    assert result.exit_code == 0, result.output
    data = parse_toml((tmp_path / "collate.toml").read_text(encoding="utf-8"), "collate.toml")
    assert data["title"] == "射義"
    assert "title 射義" in result.output


# --- The real files --------------------------------------------------------------------------


def headers_of(*names: str) -> list[Header]:
    return [read_header(need_shared(WITNESSES / name)) for name in names]


@pytest.mark.shared
def test_the_six_sheyi_files_name_their_chapter() -> None:
    headers = headers_of(*SHEYI_FILES)
    assert [h.chapters for h in headers] == [("射義",)] * 6
    assert project_title(headers, headers[0]) == "禮記·射義"
    # Any one of them, alone or as the base.
    for h in headers[:5]:
        assert project_title([h], h) == "禮記·射義"
    assert project_title(headers, headers[5]) == "禮記·射義"


@pytest.mark.shared
@pytest.mark.parametrize(
    ("names", "title"),
    [
        (YANLI, "儀禮·燕禮"),
        (("dadai-touhu-kanripo-SBCK.txt",), "大戴禮記·投壺"),
        # An excerpt that starts within its chapter names none: the base's own title, as before.
        (("zhouli-zhushu-sheren-kanripo-WYG.txt", "zhouli-sheren-kanripo-SBCK.txt"), "周禮注疏卷三十"),
        (("wuli-tongkao-juan163-kanripo-master.txt", "wuli-tongkao-juan163-kanripo-WYG.txt"), "五禮通考卷一百六十三"),
    ],
)
def test_other_chapters_are_titled_alike(names: tuple[str, ...], title: str) -> None:
    files = [need_shared(WITNESSES / name) for name in names]
    assert project_from_files(files, alone=True).title == title


@pytest.mark.shared
def test_init_of_the_sheyi_files_writes_the_chapter_title(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["init", *(str(need_shared(WITNESSES / name)) for name in SHEYI_FILES)])
    assert result.exit_code == 0, result.output
    data = parse_toml((tmp_path / "collate.toml").read_text(encoding="utf-8"), "collate.toml")
    assert (data["title"], data["name"]) == ("禮記·射義", "liji-sheyi")
