"""A file several writers change: every change a read-merge-write under the file's lock.

Several reviews may be open on one project, and the editor may edit ``decisions.toml`` by
hand while one is. So no writer writes what it loaded earlier: :meth:`Ledger.change` takes
the file's lock, reads the file as it is now, lets the caller merge its change into that,
and writes the result atomically (:func:`collate.files.write_atomic`). What the file holds
and how a change merges is the caller's (:mod:`collate.decisions.file`); this module only
knows files, locks and text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Generic, TypeVar

from collate.errors import ExportError, ProjectError
from collate.files import read_utf8, write_atomic

# Seconds to wait for another writer. A save holds the lock for milliseconds, so a wait this
# long means the other process is stuck, and the editor should hear of it.
LOCK_TIMEOUT = 10.0
# A hand edit saved between the read and the rename is merged by starting again; a file that
# changes under every attempt is reported rather than fought over.
ATTEMPTS = 5

State = TypeVar("State")


def lock_path(path: Path) -> Path:
    """The lock file beside ``path`` that every change takes (``.decisions.toml.lock``).

    The lock cannot be on ``path`` itself: each write renames a new file over it.
    """
    return path.with_name(f".{path.name}.lock")


def read_text(path: Path, hint: str | None = None) -> str | None:
    """The text of ``path`` (None if there is no such file); unreadable is a :class:`ProjectError`."""
    try:
        return read_utf8(path, hint=hint)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ProjectError(f"cannot be read: {exc.strerror or exc}", where=str(path)) from None


def _remove_stale_temporaries(path: Path) -> None:
    """Delete what a save killed before its rename left beside ``path`` (its lock is held: none is live).

    Every save writes a temporary file ``.NAME.XXXXXXXX.tmp`` beside the file and renames it over
    it; a save killed in between leaves the temporary file, which nothing else would remove.
    """
    stale = re.compile(rf"\.{re.escape(path.name)}\.[a-z0-9_]{{8}}\.tmp")
    try:
        found = [p for p in path.parent.iterdir() if stale.fullmatch(p.name)]
    except OSError:
        return
    for p in found:
        if p.is_file() and not p.is_symlink():
            p.unlink(missing_ok=True)


class Ledger(Generic[State]):
    """Changes to files, each merged into the file as it is, with what was read kept for the next.

    A change reads the file again under its lock; parsing it again may be slow (tomlkit takes
    seconds over a book's decisions), so the state the last change left is kept with the
    text it wrote, and serves while the file still has that text: while no one else writes.
    """

    def __init__(self, hint: str | None = None, size: int = 8) -> None:
        self.hint = hint
        self.size = size
        self._cache: dict[Path, tuple[str | None, State]] = {}

    def change(self, path: Path, load: Callable[[str | None], State], merge: Callable[[State], str]) -> State:
        """Change ``path`` under its lock: ``merge`` the change into what ``load`` makes of it now.

        ``load`` turns the file's text (None if there is no file) into a state, raising if the
        file may not be written; ``merge`` changes that state and returns the file's new text.
        The new state is returned. A lock not had in :data:`LOCK_TIMEOUT` seconds or a failed
        write is an :class:`ExportError`, and the file is left as it was.
        """
        if not path.parent.is_dir():
            # Never made here: a folder created for a mistyped path would be one no one looks in.
            raise ExportError(
                f"cannot write: the folder {path.parent} does not exist",
                where=str(path),
                hint="make the folder first, or point the file at one that exists",
            )
        if lock_path(path).is_symlink():
            raise ExportError(
                f"cannot write: its lock file {lock_path(path).name} is a symbolic link",
                where=str(path),
                hint="remove the link: collate makes the lock file itself",
            )
        # Imported to write, never to read: every run reads the decisions file, few write it, and
        # filelock (with the logging it sets up) is a hundredth of a second of a small run's start.
        from filelock import FileLock, Timeout

        lock = FileLock(lock_path(path), timeout=LOCK_TIMEOUT)
        try:
            lock.acquire()
        except Timeout:
            raise ExportError(
                f"another process has been saving to it for {LOCK_TIMEOUT:g} s", where=str(path), hint="try again"
            ) from None
        except OSError as exc:
            raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
        try:
            _remove_stale_temporaries(path)
            for _ in range(ATTEMPTS):
                text = read_text(path, self.hint)
                # Taken out while it is changed, put back once the file holds what it says: a
                # merge or a write that fails leaves no state that is not the file's.
                cached = self._cache.pop(path, None)
                state = cached[1] if cached is not None and cached[0] == text else load(text)
                new = merge(state)
                # An editor saving by hand takes no lock: a save of theirs since the read is
                # merged by reading again rather than renamed over.
                if read_text(path, self.hint) != text:
                    continue
                write_atomic(path, new)
                self._cache[path] = (new, state)
                while len(self._cache) > self.size:
                    del self._cache[next(iter(self._cache))]
                return state
            raise ExportError(f"changed {ATTEMPTS} times while being saved", where=str(path), hint="try again")
        finally:
            lock.release()
