"""From loose files to a project: ``collate init``, commands on the last run of files, their messages.

Every case runs in a temporary folder made the working directory: nothing here reads or
writes the repository's own project, decisions or outputs.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from builders import copy_default_project
from click.testing import CliRunner, Result
from conftest import SEED_000, SEED_001, SHARED, need_shared

from collate.cli import main
from collate.exporters import EXPORTERS
from collate.files import parse_toml
from collate.init import Header, name_witnesses, project_name, read_header
from collate.project import load_project

WITNESSES = SHARED / "witnesses"
ZHUSHU = WITNESSES / "liji-sheyi-zhushu-kanripo-WYG.txt"
ZUANTU = WITNESSES / "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt"
WIKISOURCE = WITNESSES / "liji-sheyi-wikisource-hangsau.txt"
JISHUO = WITNESSES / "liji-jishuo-chenhao-sheyi-kanripo-WYG.txt"
DADAI_READINGS = Path(__file__).resolve().parents[1] / "witnesses" / "dadai-readings.toml"
TEXT = "投壺之禮，主人奉矢，司射奉中，使人執壺。\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder, made the working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def two(here: Path) -> tuple[str, str]:
    """Two small witness files in the working folder (no project file)."""
    (here / "a.txt").write_text(TEXT, encoding="utf-8")
    (here / "b.txt").write_text(TEXT.replace("中", "壺"), encoding="utf-8")
    return "a.txt", "b.txt"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def ok(result: Result) -> Result:
    assert result.exit_code == 0, result.output
    return result


def failed(result: Result) -> str:
    """The one-line message of a clean failure."""
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    return result.output


def project_toml(folder: Path) -> dict[str, Any]:
    return parse_toml((folder / "collate.toml").read_text(encoding="utf-8"), "collate.toml")


def shared(*files: Path) -> list[str]:
    return [str(need_shared(f)) for f in files]


# --- collate init ------------------------------------------------------------------------------


def test_init_names_three_kinds_of_file_from_their_headers(here: Path) -> None:
    ok(invoke("init", *shared(ZHUSHU, ZUANTU, WIKISOURCE)))
    data = project_toml(here)
    assert (data["title"], data["name"], data["base"]) == ("禮記·射義", "liji-sheyi", "WYG")
    witnesses = data["witness"]
    assert [(w["siglum"], w["label"]) for w in witnesses] == [
        ("WYG", "四庫本"),
        ("SBCK", "四部叢刊本"),
        ("wikisource", "維基本"),  # a site's text: named by where it comes from, not its chapter
    ]
    assert witnesses[0]["bibl"] == "《禮記註疏》卷六十二，文淵閣四庫全書本（Kanseki Repository KR1d0053）"
    # Paths are relative to the project file, and name the files given.
    assert [(here / w["path"]).resolve() for w in witnesses] == [
        ZHUSHU.resolve(),
        ZUANTU.resolve(),
        WIKISOURCE.resolve(),
    ]
    assert not Path(witnesses[0]["path"]).is_absolute()


def test_the_project_init_writes_runs_as_it_is(here: Path) -> None:
    ok(invoke("init", *shared(ZHUSHU, ZUANTU)))
    ok(invoke("run"))
    jiaokanji = (here / "output" / "liji-sheyi.jiaokanji.txt").read_text(encoding="utf-8")
    assert "底本：四庫本（WYG）。校本：四部叢刊本（SBCK）" in jiaokanji
    assert ".txt" not in jiaokanji


def test_two_files_of_one_edition_are_told_apart(here: Path) -> None:
    ok(invoke("init", *shared(ZHUSHU, JISHUO)))
    witnesses = project_toml(here)["witness"]
    assert [(w["siglum"], w["label"]) for w in witnesses] == [
        ("WYG-zhushu", "四庫本"),  # the base keeps the edition's name
        ("WYG-jishuo", "集說本"),  # the other, by the form of its commentary
    ]


def test_hashed_file_names_give_no_siglum_and_a_readings_file_joins(here: Path) -> None:
    ok(invoke("init", str(SEED_000), str(SEED_001), str(DADAI_READINGS)))
    data = project_toml(here)
    # Seed 000 opens with 钦定四库全书: a 四庫 print; seed 001 with its title line.
    assert [(w["siglum"], w["label"]) for w in data["witness"]] == [
        ("SK", "四庫本"),
        ("W001", "投壺第四十(一)"),
        ("dadai", "大戴禮記·投壺"),
    ]
    assert not any(re.search(r"[0-9a-f]{8}", w["siglum"]) for w in data["witness"])
    assert data["name"] == "collation"
    ok(invoke("run"))


@pytest.mark.parametrize("base", ["SBCK", "ZUANTU"])
def test_base_by_siglum_or_file_comes_first(here: Path, base: str) -> None:
    files = shared(ZHUSHU, ZUANTU)
    ok(invoke("init", *files, "--base", files[1] if base == "ZUANTU" else base))
    data = project_toml(here)
    assert data["base"] == "SBCK" and [w["siglum"] for w in data["witness"]] == ["SBCK", "WYG"]


def test_a_base_that_is_no_witness_lists_the_sigla(here: Path) -> None:
    message = failed(invoke("init", *shared(ZHUSHU, ZUANTU), "--base", "DD"))
    assert "'DD'" in message and "WYG, SBCK" in message
    assert not (here / "collate.toml").exists()


def test_init_never_overwrites_a_project_file_without_force(here: Path, two: tuple[str, str]) -> None:
    (here / "collate.toml").write_text("# the editor's own\n", encoding="utf-8")
    message = failed(invoke("init", *two))
    assert "collate.toml" in message and "--force" in message
    assert (here / "collate.toml").read_text(encoding="utf-8") == "# the editor's own\n"
    ok(invoke("init", *two, "--force"))
    assert [w["siglum"] for w in project_toml(here)["witness"]] == ["a", "b"]


def test_init_of_one_file_or_a_missing_one_is_an_error(here: Path, two: tuple[str, str]) -> None:
    assert "a collation needs two or more" in failed(invoke("init", two[0]))
    message = failed(invoke("init", two[0], "nowhere.txt"))
    assert "nowhere.txt: no such file" in message and "project file" not in message
    assert not (here / "collate.toml").exists()


def test_a_run_of_files_names_them_as_init_does(here: Path) -> None:
    files = shared(ZHUSHU, ZUANTU)
    ok(invoke("run", *files))
    run_labels = (here / "output" / "liji-sheyi.jiaokanji.txt").read_text(encoding="utf-8").splitlines()[1]
    ok(invoke("init", *files))
    project = load_project(here / "collate.toml")
    assert [w.siglum for w in project.witnesses] == ["WYG", "SBCK"]
    assert run_labels == "底本：四庫本（WYG）。校本：四部叢刊本（SBCK）。"


def test_header_of_a_kanripo_edition_branch_is_read_from_its_page_markers() -> None:
    header = read_header(need_shared(ZUANTU))
    assert (header.title, header.edition, header.text_id, header.entities) == ("纂圖互註禮記", "SBCK", "KR1d0054", True)


@pytest.mark.parametrize(
    ("files", "sigla"),
    [
        (["x/liji.txt", "y/liji.txt", "dadai-12.txt"], ["liji", "liji2", "dadai"]),
        (["000_2cc6d19ca27bf473.txt", "001_97a493e45035c1ac.txt"], ["W000", "W001"]),
        (["2cc6d19ca27bf473.txt", "97a493e45035c1ac.txt"], ["W1", "W2"]),
        (["a.txt", "a2.txt", "sub/a.txt"], ["a", "a2", "a3"]),
    ],
)
def test_sigla_from_file_names_are_readable_and_unique(files: list[str], sigla: list[str]) -> None:
    named = name_witnesses([Header(Path(f)) for f in files])
    assert [w.siglum for w in named] == sigla


def test_editions_of_one_chapter_are_labelled_as_editors_cite_them() -> None:
    headers = [
        Header(Path("liji-sheyi-zhushu-kanripo-WYG.txt"), title="禮記註疏", edition="WYG"),
        Header(Path("liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt"), title="纂圖互註禮記", edition="SBCK"),
        Header(Path("liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt"), title="禮記正義", edition="SBCK"),
        Header(Path("liji-jishuo-chenhao-sheyi-kanripo-WYG.txt"), title="陳氏禮記集說", edition="WYG"),
        Header(Path("liji-sheyi-kanripo-TLS.txt"), title="禮記", edition="TLS"),
        Header(Path("liji-sheyi-wikisource-hangsau.txt"), title="射義"),
    ]
    assert [w.label for w in name_witnesses(headers)] == ["四庫本", "纂圖本", "正義本", "集說本", "TLS本", "維基本"]
    # Two files of one edition whose titles name no form of commentary: edition and title.
    alike = [Header(Path("a.txt"), title="禮記", edition="WYG"), Header(Path("b.txt"), title="周禮", edition="SBCK")]
    alike.append(Header(Path("c.txt"), title="儀禮", edition="SBCK"))
    assert [w.label for w in name_witnesses(alike)] == ["四庫本", "四部叢刊本《周禮》", "四部叢刊本《儀禮》"]


def test_labels_alike_are_told_apart_by_title_then_file() -> None:
    headers = [
        Header(Path("wuli-master.txt"), title="五禮通考", edition="WYG"),
        Header(Path("wuli-WYG.txt"), title="五禮通考", edition="WYG"),
        Header(Path("zhushu.txt"), title="禮記註疏", edition="WYG"),
    ]
    # The base keeps the edition's name, the 注疏 is named by its form, the other 五禮通考 by its title.
    assert [w.label for w in name_witnesses(headers)] == ["四庫本", "四庫本《五禮通考》", "注疏本"]
    assert [w.siglum for w in name_witnesses(headers)] == ["WYG-master", "WYG", "WYG-zhushu"]
    # Two chapters of one print (周禮 卷七 and 卷八, both 四部叢刊本《周禮》): the title once, then the file.
    two = [Header(Path("base.txt"), title="禮記", edition="WYG")]
    two += [Header(Path(f"zhouli-{c}-SBCK.txt"), title="周禮", edition="SBCK") for c in ("sheren", "zhuzi")]
    assert [w.label for w in name_witnesses(two)][1:] == [
        "四部叢刊本《周禮》（zhouli-sheren-SBCK.txt）",
        "四部叢刊本《周禮》（zhouli-zhuzi-SBCK.txt）",
    ]


def test_the_project_name_is_what_the_file_names_share() -> None:
    def name(*files: str) -> str:
        return project_name([Header(Path(f)) for f in files])

    assert name("liji-sheyi-zhushu-kanripo-WYG.txt", "liji-sheyi-wikisource.txt") == "liji-sheyi"
    assert name("wuli-kanripo-WYG.txt", "liji-kanripo-SBCK.txt") == "collation"
    assert name("000_2cc6d19ca27bf473.txt", "000_97a493e45035c1ac.txt") == "collation"


# --- Commands on the last run of loose files ---------------------------------------------------


@pytest.mark.parametrize("command", ["diff", "notes"])
def test_commands_show_the_last_run_of_files(two: tuple[str, str], command: str) -> None:
    assert "no project file here" in failed(invoke(command))
    ok(invoke("run", *two))
    shown = ok(invoke(command)).output
    if command == "diff":
        assert "奉中，〔b 壺" in shown
    ok(invoke(command, *two))


def test_diff_takes_files_and_sigla(two: tuple[str, str]) -> None:
    assert "〔b 壺" in ok(invoke("diff", *two, "b")).output
    assert "no witness 'c'" in failed(invoke("diff", *two, "c"))


def test_review_of_the_last_run_of_files_gets_past_the_project(two: tuple[str, str]) -> None:
    # Without a terminal it stops there, having found the project: the last run's files.
    assert "no project file here" in failed(invoke("review"))
    ok(invoke("run", *two))
    assert "needs a terminal" in failed(invoke("review"))


def test_export_of_the_last_run_of_files(here: Path, two: tuple[str, str]) -> None:
    ok(invoke("run", *two))
    (here / "output" / "collation.tei.xml").unlink()
    assert "wrote output/collation.tei.xml" in ok(invoke("export", "-f", "tei")).output
    assert "current output/collation.json" in ok(invoke("export", *two, "-f", "json")).output
    assert "wrote output/collation.json" in ok(invoke("export", *two, "-f", "json", "--force")).output


def test_export_in_a_project_folder_refreshes_the_last_run_of_files(here: Path, two: tuple[str, str]) -> None:
    copy_default_project(here)
    ok(invoke("run"))
    touhu = (here / "output" / "touhu.tei.xml").read_bytes()
    ok(invoke("run", *two))
    result = ok(invoke("export", "-f", "jiaokanji", "--force"))
    assert "the last run collated a.txt, b.txt, not collate.toml" in result.output
    assert "wrote output/collation.jiaokanji.txt" in result.output
    assert (here / "output" / "touhu.tei.xml").read_bytes() == touhu
    # Asked for the project's, export says the last run was of other inputs.
    assert "not those of the last run" in failed(invoke("export", "--config", "collate.toml"))


def test_a_file_gone_since_a_run_of_files_is_a_changed_input(here: Path, two: tuple[str, str]) -> None:
    ok(invoke("run", *two))
    (here / "b.txt").unlink()
    message = failed(invoke("export"))
    assert "not those of the last run" in message and "b.txt (gone)" in message


# --- Messages ----------------------------------------------------------------------------------


def test_export_help_lists_the_formats() -> None:
    shown = ok(invoke("export", "--help")).output
    assert "see `collate export --help`" not in shown
    for name in EXPORTERS:
        assert name in shown


def test_an_unknown_format_lists_the_formats(two: tuple[str, str]) -> None:
    result = invoke("export", "-f", "pdf")
    assert result.exit_code == 2 and "'pdf' is not one of" in result.output and "'jiaokanji'" in result.output


@pytest.mark.parametrize("command", ["run", "diff", "notes", "export"])
def test_a_missing_config_says_it_does_not_exist(here: Path, command: str) -> None:
    message = failed(invoke(command, "--config", "nosuch.toml"))
    assert "nosuch.toml: the project file does not exist" in message
    assert "no project file here" not in message


def test_no_project_here_says_to_init_one(here: Path) -> None:
    message = failed(invoke("run"))
    assert "collate.toml: no project file here" in message and "collate init" in message


@pytest.mark.parametrize("command", ["run", "diff", "notes", "export", "init"])
def test_a_missing_file_given_is_named_not_the_project_file(two: tuple[str, str], command: str) -> None:
    message = failed(invoke(command, two[0], "nowhere.txt"))
    assert "nowhere.txt: no such file" in message
    assert "project file" not in message


def test_a_run_of_one_file_is_an_error(here: Path, two: tuple[str, str]) -> None:
    message = failed(invoke("run", two[0]))
    assert "a.txt: one witness only: a collation needs two or more" in message
    assert "readings file" in message
    assert not (here / "output").exists()


def test_one_file_and_a_readings_file_collate(here: Path) -> None:
    shutil.copy(SEED_000, here / "base.txt")
    shutil.copy(DADAI_READINGS, here / "dadai.toml")
    ok(invoke("run", "base.txt", "dadai.toml"))
    assert "readings file" in failed(invoke("run", "dadai.toml", "base.txt"))
