"""``collate batch`` keeps Dask's warnings and log lines off the terminal: stderr is its progress alone."""

from __future__ import annotations

import io
import logging
import socket
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from builders import copy_default_project

from collate.batch.cluster import quiet

# Dask's dashboard port: taken, Dask warns that it hosts its HTTP server on another.
DASHBOARD = 8787


@contextmanager
def port_taken(port: int) -> Iterator[None]:
    """``port`` of 127.0.0.1 in use while the block runs: held here, or already by someone else."""
    held = socket.socket()
    try:
        held.bind(("127.0.0.1", port))
        held.listen()
    except OSError:
        pass  # in use already: as good
    try:
        yield
    finally:
        held.close()


def test_dask_warnings_and_logs_are_silenced_inside_and_restored_after() -> None:
    # Imported first: what importing Dask does to the filters is no business of this test.
    import distributed.utils  # noqa: F401
    # Dask's own handler, as it sets one up outside pytest: a stream for its log lines.
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    dask_log = logging.getLogger("distributed")
    dask_log.addHandler(handler)
    filters = list(warnings.filters)
    try:
        with quiet(), warnings.catch_warnings(record=True) as seen:
            warnings.warn_explicit("Port 8787 is already in use", UserWarning, "node.py", 1, module="distributed.node")
            warnings.warn_explicit("a large graph", UserWarning, "client.py", 1, module="distributed.client")
            warnings.warn_explicit("ours", UserWarning, "x.py", 1, module="collate.x")
            logging.getLogger("distributed.scheduler").error("a worker died")
        assert stream.getvalue() == ""
        # Another library's warning is shown as ever: only Dask's are kept off the terminal.
        assert [str(w.message) for w in seen] == ["ours"]
        assert warnings.filters == filters
        logging.getLogger("distributed.scheduler").error("after")
        assert stream.getvalue() == "after\n"
    finally:
        dask_log.removeHandler(handler)


@pytest.mark.slow
def test_a_batch_prints_no_dask_warning_on_stderr(tmp_path: Path) -> None:
    (tmp_path / "touhu").mkdir()
    copy_default_project(tmp_path / "touhu")
    manifest = tmp_path / "corpus.toml"
    manifest.write_text('[[job]]\nproject = "touhu/collate.toml"\n', encoding="utf-8")
    # A process of its own: its workers' stderr and the scheduler's are the terminal's, as in real use.
    with port_taken(DASHBOARD):
        command = ["batch", str(manifest), "--workers", "1", "--out", str(tmp_path / "out")]
        done = subprocess.run(
            [sys.executable, "-m", "collate.cli", *command],
            capture_output=True,
            text=True,
            cwd=tmp_path,
        )
    assert done.returncode == 0, done.stderr
    assert "1 done" in done.stdout
    lines = done.stderr.splitlines()
    assert lines and all(line.startswith("done touhu") for line in lines), done.stderr
    for word in ("warning", "distributed", "dask"):
        assert word not in done.stderr.lower(), done.stderr
