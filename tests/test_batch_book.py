"""A book as a batch: a [book] of juans, each a job against a shelf, and the book's index of entries.

Two juans (the 四庫 text of 五禮通考 卷163 in two branches) and a shelf of three editions, of
which two (禮記·射義, 周禮·射人) hold passages the juan quotes. The jobs are run here in this
process (``run_job``, what a worker runs); the Dask cluster is tested in test_batch.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import GAIJI, SHARED, need_shared

from collate.batch import Status, load_batch, run_job
from collate.batch.index import HEADER, index_rows, write_index
from collate.batch.manifest import write_projects
from collate.batch.plan import plan
from collate.batch.run import _index_shelves
from collate.errors import ProjectError

EDITIONS = (
    "liji-sheyi-zhushu-kanripo-WYG.txt",
    "zhouli-zhushu-sheren-kanripo-WYG.txt",
    "yili-yanli-zhushu-kanripo-WYG.txt",
)
JUANS = {"juan163": "wuli-tongkao-juan163-kanripo-WYG.txt", "juan163b": "wuli-tongkao-juan163-kanripo-master.txt"}


def manifest(folder: Path, shelf: str = "editions", juans: str = "juans/*.txt") -> Path:
    text = "\n".join(
        [
            "[defaults]",
            'title = "五禮通考"',
            f'gaiji_table = "{need_shared(GAIJI)}"',
            f'shelf = ["{shelf}"]',
            "",
            "[book]",
            f'juans = "{juans}"',
            'siglum = "SK"',
            'label = "四庫本"',
            "",
        ]
    )
    path = folder / "book.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    witnesses = need_shared(SHARED / "witnesses")
    folder = tmp_path_factory.mktemp("book")
    (folder / "juans").mkdir()
    (folder / "editions").mkdir()
    for name, file in JUANS.items():
        shutil.copy(witnesses / file, folder / "juans" / f"{name}.txt")
    for file in EDITIONS:
        shutil.copy(witnesses / file, folder / "editions" / file)
    return folder


@pytest.mark.shared
def test_a_book_is_one_job_per_juan_each_with_the_shelf(book: Path) -> None:
    batch = load_batch(manifest(book), book / "out")
    assert [job.name for job in batch.jobs] == ["juan163", "juan163b"]
    text = batch.jobs[0].text
    assert text is not None and 'shelf = ["../../editions"]' in text and 'path = "../../juans/juan163.txt"' in text


@pytest.mark.shared
def test_the_shelf_is_read_once_the_jobs_collate_against_it_and_the_index_lists_every_entry(book: Path) -> None:
    batch = load_batch(manifest(book), book / "out")
    write_projects(batch)
    _index_shelves(batch, plan(batch))
    kept = sorted((book / "out" / ".collate" / "shelf").glob("*.json"))
    assert len(kept) == len(EDITIONS)  # one file of keys per edition, for every job
    for job in batch.jobs:
        outcome = run_job(job.name, str(job.project), str(job.out))
        assert outcome.status is Status.DONE, outcome.error
    assert sorted((book / "out" / ".collate" / "shelf").glob("*.json")) == kept  # read from the cache, not again
    path = write_index(batch)
    assert path is not None and path.read_text(encoding="utf-8").splitlines()[0] == HEADER
    rows = [row.split("\t") for row in index_rows(batch)]
    assert {juan for juan, _, _ in rows} == set(JUANS)
    works = {work for _, work, _ in rows}
    assert {"禮記·射義", "周禮·夏官"} <= works
    assert all(entry.startswith(("頁", "第")) for _, _, entry in rows)


def test_a_shelf_the_manifest_names_must_be_there(tmp_path: Path) -> None:
    (tmp_path / "juans").mkdir()
    (tmp_path / "juans" / "juan001.txt").write_text("禮記射義射者仁之道也\n", encoding="utf-8")
    with pytest.raises(ProjectError, match="the shelf folder 'editions' does not exist") as caught:
        load_batch(manifest_plain(tmp_path, shelf="editions"), tmp_path / "out")
    assert caught.value.where is not None and caught.value.where.endswith("book.toml:2")


def test_a_book_whose_glob_matches_nothing_is_a_located_error(tmp_path: Path) -> None:
    (tmp_path / "editions").mkdir()
    with pytest.raises(ProjectError, match="no file matches juans") as caught:
        load_batch(manifest_plain(tmp_path, juans="juans/*.txt"), tmp_path / "out")
    assert caught.value.where is not None and caught.value.where.endswith("book.toml:5")


def manifest_plain(folder: Path, shelf: str = "editions", juans: str = "juans/*.txt") -> Path:
    """A manifest with no gaiji table (no reference material needed)."""
    text = f'[defaults]\nshelf = ["{shelf}"]\n\n[book]\njuans = "{juans}"\n'
    path = folder / "book.toml"
    path.write_text(text, encoding="utf-8")
    return path
