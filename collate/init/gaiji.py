"""The Kanripo gaiji table for witness files holding ``&KR…;`` entities: named, or found beside them.

Kanripo publishes the table as ``charlist.org.txt`` of its KR-Gaiji repository; a user keeps it
beside the witness files or in a ``data/`` folder next to theirs (``witnesses/`` and ``data/``
side by side), often renamed after where it comes from (``kanripo-KR-Gaiji-charlist.org.txt``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from collate.model.enums import StrEnum

# The name the table is kept under, and where to get it: said where none is found.
GAIJI_FILE = "kanripo-KR-Gaiji-charlist.org.txt"
GAIJI_SOURCE = "https://github.com/kanripo/KR-Gaiji (charlist.org.txt)"
# A file of the table: its name says gaiji and charlist (any case), or it is the charlist of a clone
# of the repository (KR-Gaiji/charlist.org.txt).
_NAMED = re.compile(r".*gaiji.*charlist.*", re.IGNORECASE)
_CLONE_FILE = "charlist.org.txt"
# A row of the table (KR0002 TAB count …): a file of another kind with a like name is not taken.
_ROW = re.compile(r"^KR\d+\t", re.MULTILINE)
_SNIFF = 4096


class GaijiChoice(StrEnum):
    """How ``collate init`` chose the project's gaiji table."""

    NOT_NEEDED = "not needed"  # no file holds an entity, and none was named
    GIVEN = "given"  # named with --gaiji
    FOUND = "found"  # found beside the witness files
    MISSING = "missing"  # the files hold entities, and no table was found


def _looks_like_table(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            head = f.read(_SNIFF).decode("utf-8", errors="replace")
    except OSError:
        return False
    return _ROW.search(head) is not None


def _in(folder: Path) -> Iterator[Path]:
    """The tables in ``folder``: the usual name first, then the others in name order."""
    if not folder.is_dir():
        return
    yield folder / GAIJI_FILE
    try:
        entries = sorted(folder.iterdir(), key=lambda p: p.name)
    except OSError:
        return
    for entry in entries:
        if entry.name == GAIJI_FILE:
            continue  # offered first, above
        if _NAMED.fullmatch(entry.name):
            yield entry
        elif "gaiji" in entry.name.lower() and entry.is_dir():
            yield entry / _CLONE_FILE


def find_gaiji_table(files: Sequence[Path], root: Path) -> Path | None:
    """The gaiji table beside the witness ``files`` (relative to ``root``), absolute; None where there is none.

    Looked for in each file's folder, then in the ``data/`` folder of each one's parent
    (``witnesses/../data/``): the folders a user keeps the table in, never a search of the disk.
    """
    # Lexical paths, as the project file's paths are made relative: witnesses/../data is the
    # folder beside the one the user named.
    folders = [Path(os.path.abspath(root / f)).parent for f in files]
    folders += [folder.parent / "data" for folder in folders]
    for folder in dict.fromkeys(folders):
        for candidate in _in(folder):
            if candidate.is_file() and _looks_like_table(candidate):
                return candidate
    return None
