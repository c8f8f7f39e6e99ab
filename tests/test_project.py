from __future__ import annotations

from pathlib import Path

import pytest

from collate.errors import ProjectError
from collate.init import project_from_files
from collate.project import load_project


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "collate.toml"
    path.write_text(body, encoding="utf-8")
    return path


def test_default_project_loads(repo: Path) -> None:
    project = load_project(repo / "collate.toml")
    assert project.base == "SK"
    assert [w.siglum for w in project.witnesses] == ["SK", "ZS", "DD"]
    assert project.witness("DD").label == "大戴禮"
    for w in project.witnesses:
        assert project.resolve(w.path).exists(), w.path


def test_duplicate_siglum_is_named_with_its_line(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        '[[witness]]\nsiglum = "A"\npath = "a.txt"\n\n[[witness]]\nsiglum = "A"\npath = "b.txt"\n',
    )
    with pytest.raises(ProjectError, match="duplicate siglum 'A'"):
        load_project(path)


def test_unknown_layout_lists_the_known_ones(tmp_path: Path) -> None:
    path = write(tmp_path, '[[witness]]\nsiglum = "A"\npath = "a.txt"\nlayout = "nope"\n')
    with pytest.raises(ProjectError) as err:
        load_project(path)
    assert "unknown layout 'nope'" in str(err.value)
    assert "siku-wltk" in str(err.value)


def test_non_ascii_siglum_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, '[[witness]]\nsiglum = "四庫"\npath = "a.txt"\n')
    with pytest.raises(ProjectError, match="ASCII"):
        load_project(path)


def test_bad_toml_gives_line_and_column(tmp_path: Path) -> None:
    path = write(tmp_path, 'title = "x"\n[[witness]\n')
    with pytest.raises(ProjectError) as err:
        load_project(path)
    assert f"{path}:2:" in str(err.value)


def test_base_must_be_a_witness(tmp_path: Path) -> None:
    path = write(tmp_path, 'base = "Z"\n[[witness]]\nsiglum = "A"\npath = "a.txt"\n')
    with pytest.raises(ProjectError, match="base 'Z'"):
        load_project(path)


def test_a_base_that_is_no_siglum_lists_the_sigla(tmp_path: Path) -> None:
    body = 'base = "XX"\n' + "".join(f'[[witness]]\nsiglum = "{s}"\npath = "{s}.txt"\n' for s in ("SK", "ZS", "DD"))
    with pytest.raises(ProjectError) as err:
        load_project(write(tmp_path, body))
    assert err.value.where == f"{tmp_path / 'collate.toml'}:1"
    assert err.value.hint is not None and "SK, ZS, DD" in err.value.hint


@pytest.mark.parametrize("base", ["zs", "ZZ"])
def test_a_near_miss_of_a_siglum_is_suggested(tmp_path: Path, base: str) -> None:
    body = f'base = "{base}"\n' + "".join(f'[[witness]]\nsiglum = "{s}"\npath = "{s}.txt"\n' for s in ("SK", "ZS"))
    with pytest.raises(ProjectError) as err:
        load_project(write(tmp_path, body))
    assert err.value.hint is not None and "did you mean 'ZS'" in err.value.hint


# The second witness's siglum is on line 7; the key in question on line 10.
LATE_KEY = (
    'title = "x"\n[[witness]]\nsiglum = "A"\npath = "a.txt"\n\n'
    '[[witness]]\nsiglum = "B"\nlabel = "乙本"\npath = "b.txt"\n'
)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ('layout = "nope"', "unknown layout 'nope'"),
        ('container = "zip"', "unknown container 'zip'"),
        ('encoding = "utf-9"', "unknown encoding 'utf-9'"),
        ('artifacts = ["防防"]', "is not one character"),
        ('layers = ["markup"]', "`layers` must list text layers"),
        ("layers = []", "`layers` of witness B is empty"),
        ("encoding = 5", "`encoding` must be the name of an encoding"),
    ],
)
def test_a_witness_key_is_refused_at_its_own_line(tmp_path: Path, key: str, message: str) -> None:
    path = write(tmp_path, LATE_KEY + key + "\n")
    assert path.read_text(encoding="utf-8").splitlines()[9] == key
    with pytest.raises(ProjectError) as err:
        load_project(path)
    assert message in err.value.message
    assert err.value.where == f"{path}:10"


def test_files_make_a_project_with_the_first_as_base(tmp_path: Path) -> None:
    files = [Path("x/liji.txt"), Path("y/liji.txt"), Path("dadai-12.txt")]
    for f in files:
        (tmp_path / f).parent.mkdir(exist_ok=True)
        (tmp_path / f).write_text("投壺之禮\n", encoding="utf-8")
    project = project_from_files(files, root=tmp_path)
    assert [w.siglum for w in project.witnesses] == ["liji", "liji2", "dadai"]
    assert [w.label for w in project.witnesses] == ["liji.txt（x/liji.txt）", "liji.txt（y/liji.txt）", "dadai-12.txt"]
    assert project.base == "liji" and project.root == tmp_path
