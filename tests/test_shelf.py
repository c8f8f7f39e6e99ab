"""A shelf of editions: the files holding the passages a compilation quotes join the collation.

五禮通考 卷163 and a shelf holding editions of 禮記·射義 and 周禮·射人 (which it quotes) and of
儀禮·燕禮 and 大戴禮記·投壺 (which it does not): the first join, the others stay on the shelf.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import SHARED, need_shared

from collate.cli import main
from collate.errors import ProjectError
from collate.normalize import Normalizer
from collate.pipeline import collate_project, shelve_project
from collate.project import project_from_mapping
from collate.results import RunResult
from collate.shelf import read_shelf, shelf_files
from collate.views.run import coverage_lines

ON_THE_SHELF = (
    "liji-sheyi-zhushu-kanripo-WYG.txt",
    "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt",
    "zhouli-zhushu-sheren-kanripo-WYG.txt",
    "yili-yanli-zhushu-kanripo-WYG.txt",
    "dadai-touhu-kanripo-SBCK.txt",
)


def juan_project(root: Path, shelf: list[str]) -> Path:
    """A project of 五禮通考 卷163 alone, with ``shelf``; its file's path."""
    shared = need_shared(SHARED)
    text = "\n".join(
        [
            'title = "五禮通考卷一百六十三"',
            'name = "wl163"',
            'base = "WL"',
            f'gaiji_table = "{shared / "data" / "kanripo-KR-Gaiji-charlist.org.txt"}"',
            "shelf = [" + ", ".join(f'"{s}"' for s in shelf) + "]",
            "",
            "[[witness]]",
            'siglum = "WL"',
            f'path = "{shared / "witnesses" / "wuli-tongkao-juan163-kanripo-WYG.txt"}"',
            "",
        ]
    )
    path = root / "collate.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def shelf_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    shared = need_shared(SHARED)
    root = tmp_path_factory.mktemp("shelf")
    (root / "editions").mkdir()
    for name in ON_THE_SHELF:
        shutil.copy(shared / "witnesses" / name, root / "editions" / name)
    return root


@pytest.fixture(scope="module")
def shelved(shelf_root: Path) -> RunResult:
    from collate.project import load_project

    project = load_project(juan_project(shelf_root, ["editions"]))
    return collate_project(project, shelf_cache=shelf_root / "cache")


@pytest.mark.shared
def test_the_editions_of_the_quoted_chapters_join_and_the_others_do_not(shelved: RunResult) -> None:
    assert shelved.shelf is not None
    assert len(shelved.shelf.files) == len(ON_THE_SHELF)
    files = {w.siglum: Path(w.path).stem for w in shelved.read.project.witnesses}
    joined = {files[s] for s in shelved.shelf.joined}
    assert {"liji-sheyi-zhushu-kanripo-WYG", "liji-sheyi-zuantu-huzhu-kanripo-SBCK"} <= joined
    assert "zhouli-zhushu-sheren-kanripo-WYG" in joined
    assert not joined & {"yili-yanli-zhushu-kanripo-WYG", "dadai-touhu-kanripo-SBCK"}
    lines = coverage_lines(shelved)
    zhushu = next(s for s, stem in files.items() if stem == "liji-sheyi-zhushu-kanripo-WYG")
    assert any(line.startswith("禮記射義: ") and f"{zhushu} (" in line for line in lines)
    assert any(line.startswith("not collated: 詩小雅") for line in lines)


@pytest.mark.shared
def test_the_editions_joined_are_named_as_init_names_them(shelved: RunResult) -> None:
    # By edition and the form of their commentary, beside the base's own siglum: never by file name.
    named = {Path(w.path).stem: (w.siglum, w.label) for w in shelved.read.project.witnesses}
    assert named["liji-sheyi-zuantu-huzhu-kanripo-SBCK"] == ("SBCK", "四部叢刊本")
    assert named["liji-sheyi-zhushu-kanripo-WYG"][1] == "注疏本《禮記註疏》"
    assert named["zhouli-zhushu-sheren-kanripo-WYG"][1] == "注疏本《周禮注疏》"
    assert len({s for s, _ in named.values()}) == len(named)


@pytest.mark.shared
def test_the_shelf_is_read_once_and_kept_by_content(shelf_root: Path, shelved: RunResult) -> None:
    kept = sorted((shelf_root / "cache").glob("*.json"))
    assert len(kept) == len(ON_THE_SHELF)
    from collate.project import load_project

    project = load_project(juan_project(shelf_root, ["editions"]))
    again, _ = read_shelf(project, [shelf_root / "editions"], Normalizer.from_project(project), shelf_root / "cache")
    assert {f.siglum: f.keys for f in again} == {f.siglum: f.keys for f in shelved.shelf.files}  # type: ignore[union-attr]


@pytest.mark.shared
def test_collate_sources_names_the_chapter_of_each_passage(shelf_root: Path) -> None:
    result = CliRunner().invoke(main, ["sources", "-c", str(juan_project(shelf_root, ["editions"]))])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    sheyi = [line for line in lines if "\t禮記射義\t" in line]
    assert sheyi and all("liji-sheyi-zhushu-kanripo-WYG" in line for line in sheyi)
    assert any("p. 062-" in line for line in sheyi)  # its page in the 注疏本
    assert any("\t詩小雅\t" in line and line.endswith("no source on the shelf") for line in lines)


def test_a_shelf_that_is_not_there_or_holds_nothing_is_said(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.pdf").write_bytes(b"%PDF")
    files, problems = shelf_files([tmp_path / "missing", tmp_path / "empty"])
    assert files == []
    assert any("missing" in p and "does not exist" in p for p in problems)
    assert any("empty" in p and "holds no edition file" in p for p in problems)


def test_a_file_on_the_shelf_that_cannot_be_read_is_left_off_and_the_rest_used(tmp_path: Path) -> None:
    shelf = tmp_path / "shelf"
    (shelf / "a").mkdir(parents=True)
    (shelf / "b").mkdir()
    (shelf / "a" / "ed.txt").write_text("君子之射也以爲諸侯之射也\n", encoding="utf-8")
    (shelf / "b" / "ed.txt").write_text("君子之射矣以爲諸侯之射也\n", encoding="utf-8")  # same name, another edition
    (shelf / "bad.txt").write_bytes(b"\xff\xfe\x00\xd8garbage\x00")
    (tmp_path / "base.txt").write_text("君子之射也\n", encoding="utf-8")
    project = project_from_mapping({"base": "A", "witness": [{"siglum": "A", "path": "base.txt"}]}, root=tmp_path)
    files, problems = read_shelf(project, [shelf], Normalizer())
    assert sorted(f.siglum for f in files) == ["ed", "ed-2"]  # two files of one name, told apart
    assert any("bad.txt" in p and "left off the shelf" in p for p in problems)


def test_a_base_that_quotes_no_titled_work_takes_nothing_from_the_shelf(tmp_path: Path) -> None:
    (tmp_path / "shelf").mkdir()
    (tmp_path / "shelf" / "ed.txt").write_text("君子之射也\n", encoding="utf-8")
    (tmp_path / "base.txt").write_text("君子之射也\n", encoding="utf-8")
    project = project_from_mapping(
        {"base": "A", "shelf": ["shelf"], "witness": [{"siglum": "A", "path": "base.txt"}]}, root=tmp_path
    )
    joined, report = shelve_project(project, Normalizer())
    assert joined.witnesses == project.witnesses and report.joined == ()


def test_the_shelf_setting_is_a_list_of_folders(tmp_path: Path) -> None:
    (tmp_path / "base.txt").write_text("君子之射也\n", encoding="utf-8")
    with pytest.raises(ProjectError, match="`shelf` must be a list of folder paths"):
        mapping = {"base": "A", "shelf": [1], "witness": [{"siglum": "A", "path": "base.txt"}]}
        project_from_mapping(mapping, root=tmp_path)


@pytest.mark.shared
def test_a_juan_alone_and_a_shelf_on_the_command_line(
    shelf_root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`collate sources JUAN --shelf DIR` and `collate run JUAN --shelf DIR`: no project file, one file."""
    shared = need_shared(SHARED)
    juan = tmp_path / "juan.txt"
    shutil.copy(shared / "witnesses" / "wuli-tongkao-juan163-kanripo-WYG.txt", juan)
    monkeypatch.chdir(tmp_path)
    shelf = str(shelf_root / "editions")
    found = CliRunner().invoke(main, ["sources", "juan.txt", "--shelf", shelf])
    assert found.exit_code == 0, found.output
    assert any("\t禮記射義\t" in line and "liji-sheyi-zhushu-kanripo-WYG" in line for line in found.output.splitlines())
    ran = CliRunner().invoke(main, ["run", "juan.txt", "--shelf", shelf])
    assert ran.exit_code == 0, ran.output
    assert "shelf: 5 edition files read" in ran.output
    alone = CliRunner().invoke(main, ["run", "juan.txt"])
    assert alone.exit_code != 0 and "one witness only" in alone.output  # without a shelf, one file is not enough
