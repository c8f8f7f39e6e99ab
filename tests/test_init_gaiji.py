"""``collate init`` and the Kanripo gaiji table: named with --gaiji, or found beside the witness files."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import GAIJI, SHARED, need_shared

from collate.cli import main
from collate.files import parse_toml
from collate.init import find_gaiji_table
from collate.init.gaiji import GAIJI_FILE
from collate.project import load_project

TABLE = "#+STARTUP: inlineimages\nKR0002\t00039893\t\t若\t[[file:images/KR0002.png]]\n"
WITH_ENTITY = "<pb:KR1d0061_SBCK_007-1a>¶\n射義第四十六¶\n&KR0002;射者仁之道也¶\n"
PLAIN = "射義第四十六\n射者仁之道也\n"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty folder, made the working directory."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def tree(root: Path, table: str | None = "data/" + GAIJI_FILE, entities: bool = True) -> list[str]:
    """``witnesses/a.txt`` and ``witnesses/b.txt`` under ``root``, and the table at ``table``; the files as given."""
    (root / "witnesses").mkdir(parents=True, exist_ok=True)
    (root / "witnesses" / "a.txt").write_text(WITH_ENTITY if entities else PLAIN, encoding="utf-8")
    (root / "witnesses" / "b.txt").write_text(PLAIN, encoding="utf-8")
    if table is not None:
        (root / table).parent.mkdir(parents=True, exist_ok=True)
        (root / table).write_text(TABLE, encoding="utf-8")
    return ["witnesses/a.txt", "witnesses/b.txt"]


def init(*args: str) -> Result:
    result = CliRunner().invoke(main, ["init", *args])
    assert result.exit_code == 0, result.output
    return result


def written(folder: Path) -> str:
    return (folder / "collate.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "table",
    [
        "data/" + GAIJI_FILE,  # witnesses/../data/
        "witnesses/" + GAIJI_FILE,  # beside the files
        "data/KR-Gaiji-charlist.org.txt",  # another name with gaiji and charlist in it
        "data/KR-Gaiji/charlist.org.txt",  # a clone of Kanripo's repository
    ],
)
def test_the_table_is_found_beside_the_witness_files(tmp_path: Path, table: str) -> None:
    files = tree(tmp_path, table)
    assert find_gaiji_table([Path(f) for f in files], tmp_path) == tmp_path / table


def test_a_file_named_alike_that_is_no_table_is_not_taken(tmp_path: Path) -> None:
    files = tree(tmp_path, None)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "gaiji-charlist-notes.txt").write_text("notes on the table\n", encoding="utf-8")
    assert find_gaiji_table([Path(f) for f in files], tmp_path) is None


def test_init_writes_the_table_it_found_and_says_so(here: Path) -> None:
    result = init(*tree(here))
    assert f'gaiji_table = "data/{GAIJI_FILE}"' in written(here)
    assert f"gaiji table data/{GAIJI_FILE} (found beside the witness files)" in result.output
    # The project a run reads resolves it, relative to the project file.
    assert load_project(here / "collate.toml").resolve(Path(f"data/{GAIJI_FILE}")).is_file()


def test_the_table_is_relative_to_the_project_file_like_the_witnesses(here: Path) -> None:
    files = tree(here / "corpus")
    (here / "project").mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(here / "project")
        init(*(f"../corpus/{f}" for f in files))
    data = parse_toml(written(here / "project"), "collate.toml")
    assert data["gaiji_table"] == f"../corpus/data/{GAIJI_FILE}"
    assert data["witness"][0]["path"] == "../corpus/witnesses/a.txt"


def test_without_a_table_the_key_stays_a_comment_saying_where_to_get_it(here: Path) -> None:
    result = init(*tree(here, None))
    text = written(here)
    assert "gaiji_table" not in parse_toml(text, "collate.toml")
    assert f'# gaiji_table = "path/to/{GAIJI_FILE}"' in text
    assert "github.com/kanripo/KR-Gaiji" in text
    assert "no gaiji table was found" in result.output and "--gaiji" in result.output


def test_files_without_entities_name_no_table(here: Path) -> None:
    result = init(*tree(here, entities=False))
    assert "gaiji" not in written(here) and "gaiji" not in result.output


def test_gaiji_names_the_table(here: Path) -> None:
    files = tree(here, "tables/my-table.txt", entities=False)
    result = init(*files, "--gaiji", "tables/my-table.txt")
    assert parse_toml(written(here), "collate.toml")["gaiji_table"] == "tables/my-table.txt"
    assert "gaiji table tables/my-table.txt" in result.output and "found" not in result.output


def test_gaiji_naming_no_file_is_a_clean_error(here: Path) -> None:
    result = CliRunner().invoke(main, ["init", *tree(here), "--gaiji", "nowhere.txt"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "nowhere.txt: no such gaiji table" in result.output
    assert not (here / "collate.toml").exists()


def test_init_help_names_the_option() -> None:
    assert "--gaiji" in CliRunner().invoke(main, ["init", "--help"]).output


@pytest.mark.shared
def test_the_shared_table_is_found_for_the_shared_witnesses(here: Path) -> None:
    files = [
        need_shared(SHARED / "witnesses" / "liji-sheyi-zhushu-kanripo-WYG.txt"),
        need_shared(SHARED / "witnesses" / "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt"),
    ]
    result = init(*(str(f) for f in files))
    data = parse_toml(written(here), "collate.toml")
    assert (here / data["gaiji_table"]).resolve() == need_shared(GAIJI).resolve()
    assert not Path(data["gaiji_table"]).is_absolute()
    assert "found beside the witness files" in result.output
