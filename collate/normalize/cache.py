"""The variant classes, kept on disk between runs: built once per set of tables and settings.

Building the classes of the variant rules from some 25,000 dictionary pairs takes a few
tenths of a second, most of a small project's run. The classes depend only on the shipped
tables, the project's own variant settings and the package version, so they are stored,
as plain JSON (data, never code), under a name made from a digest of all of these. A
missing, unreadable or damaged file is rebuilt; a cache folder that cannot be written is
simply not used. ``COLLATE_CACHE`` names the folder (default: ``$XDG_CACHE_HOME/collate``
or ``~/.cache/collate``); ``COLLATE_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from collate import __version__

Table = dict[str, tuple[str, str]]
# Bumped when what is stored changes shape.
FORMAT = 1


def folder() -> Path | None:
    """Where the cache lives, or None when it is turned off."""
    chosen = os.environ.get("COLLATE_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "collate"


def digest(files: Iterable[Path], settings: str) -> str:
    """A name for the classes built from ``files`` (their bytes) with ``settings`` (their repr)."""
    h = hashlib.sha256(f"{FORMAT}\0{__version__}\0{settings}".encode())
    for path in files:
        h.update(b"\0" + path.name.encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


def load(key: str) -> dict[str, tuple[str, Table]] | None:
    """The rules' (source, table) stored under ``key``, or None (absent, unreadable, damaged)."""
    where = folder()
    if where is None:
        return None
    try:
        raw = json.loads((where / f"classes-{key}.json").read_text(encoding="utf-8"))
        return {
            name: (str(rule["source"]), {m: (str(c), str(v)) for m, (c, v) in rule["table"].items()})
            for name, rule in raw["rules"].items()
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(key: str, rules: Mapping[str, tuple[str, Mapping[str, tuple[str, str]]]]) -> None:
    """Keep the rules' (source, table) under ``key``; silently nothing if the folder is not writable."""
    where = folder()
    if where is None:
        return
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": {name: {"source": source, "table": dict(table)} for name, (source, table) in rules.items()},
    }
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".classes-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, where / f"classes-{key}.json")
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return
