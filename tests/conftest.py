"""Shared fixtures: where the repository's seeds and the shared reference material live, the TEI schema."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from collate.validate import load_schema

REPO = Path(__file__).resolve().parents[1]
SEEDS = REPO / "seeds"
# The reference material beside the repository (real witness files, the TEI schema, the gold key).
# COLLATE_TEST_SHARED points elsewhere; pointed at a folder that does not exist, the suite runs as on
# a machine without it, every test that needs it skipped.
SHARED = Path(os.environ.get("COLLATE_TEST_SHARED") or REPO.parent / "shared")

SEED_000 = SEEDS / "000_2cc6d19ca27bf473.txt"
SEED_001 = SEEDS / "001_97a493e45035c1ac.txt"
SEED_002 = SEEDS / "002_2d24b731a51a381e.txt"
SEED_003 = SEEDS / "003_d200da07684132f5.txt"
SEED_004 = SEEDS / "004_f3f6db4bc961b448.txt"
MANDOKU = SHARED / "witnesses" / "dadai-touhu-kanripo-SBCK.txt"
DADAI_READINGS = REPO / "witnesses" / "dadai-readings.toml"
GAIJI = SHARED / "data" / "kanripo-KR-Gaiji-charlist.org.txt"
# 禮記·射義 in six editions of the shared witnesses: 注疏本 (the base), 單疏本, 纂圖本, 集說本, TLS, 維基本.
SHEYI_FILES = (
    "liji-sheyi-zhushu-kanripo-WYG.txt",
    "liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt",
    "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt",
    "liji-jishuo-chenhao-sheyi-kanripo-WYG.txt",
    "liji-sheyi-kanripo-TLS.txt",
    "liji-sheyi-wikisource-hangsau.txt",
)

# The suite tests behaviour, never the clock: no example of a property test fails for being slow on
# a loaded machine. Growth and speed are measured in bench/.
settings.register_profile("collate", deadline=None)
settings.load_profile("collate")

# The tests never read or write the user's own cache of variant classes: one of their own,
# shared by every test of the run (and the commands they start).
os.environ["COLLATE_CACHE"] = tempfile.mkdtemp(prefix="collate-test-cache-")


@pytest.fixture(scope="session", autouse=True)
def away_from_the_repository(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Every test starts in an empty folder, never the repository's.

    The repository folder may hold the user's own decisions.toml and output/ (a review or a run
    made there): a command that looks here for collate.toml, decisions.toml or output/ must not
    find them. A test that needs a project copies one (builders.copy_default_project).
    """
    before = Path.cwd()
    os.chdir(tmp_path_factory.mktemp("cwd"))
    yield
    os.chdir(before)


SHARED_REASON = f"needs the reference material beside the repository ({SHARED} is absent)"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "shared: the test reads the reference material beside the repository")
    config.addinivalue_line(
        "markers", "slow: an end-to-end test of seconds (a browser, a Dask cluster, processes killed); -m 'not slow'"
    )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``shared`` is skipped, saying why, where the reference material is absent."""
    if item.get_closest_marker("shared") is not None and not SHARED.is_dir():
        pytest.skip(SHARED_REASON)


@pytest.fixture
def shared() -> Path:
    """The reference material's folder; the test is skipped where it is absent."""
    if not SHARED.is_dir():
        pytest.skip(SHARED_REASON)
    return SHARED


def need_shared(path: Path) -> Path:
    """``path`` in the reference material; the test is skipped where the file is absent."""
    if not SHARED.is_dir():
        pytest.skip(SHARED_REASON)
    if not path.exists():
        pytest.skip(f"{path.name} is not available beside the repository")
    return path


@pytest.fixture
def repo() -> Path:
    """The repository root (the default project lives here)."""
    return REPO


@pytest.fixture(scope="session")
def tei_schema() -> Any:
    """TEI P5's tei_all.rng, compiled once per test session (it takes 5–10 s)."""
    return load_schema(need_shared(SHARED / "tei" / "tei_all.rng"))
