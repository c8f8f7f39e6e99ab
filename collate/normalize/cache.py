"""What the normalizer derives from its tables and OpenCC, kept on disk between runs: built once per
set of tables and settings.

Building the classes of the variant rules from some 25,000 dictionary pairs takes a few
tenths of a second, most of a small project's run; reading the 40,000 related pairs
(``cjkvi_related.tsv``) as text, a tenth; loading OpenCC's ``s2t`` to learn which ideographs
it changes (the simplified forms a text's script is judged by), a twentieth. Each depends only
on its tables (the shipped ones, the project's own variant settings) or on OpenCC's version,
and on the code that builds it (the normalizer's and the model's modules, read as bytes: a collate
updated or edited under the same version number builds anew), so each is stored, as plain JSON (data,
never code), under a name made from a digest of all of these: a table or a module changed in
any byte is another name, never a stale file. A missing, unreadable or damaged file is rebuilt;
a cache folder that cannot be written is simply not used. ``COLLATE_CACHE`` names the folder
(default: ``$XDG_CACHE_HOME/collate`` or ``~/.cache/collate``); ``COLLATE_CACHE=off`` turns the
cache off.
"""

from __future__ import annotations

import functools
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


# The packages whose code builds what is stored: the normalizer, and the model's records and
# character classes it builds them from.
_BUILDERS = ("normalize", "model")


@functools.cache
def code_digest(root: Path | None = None) -> str:
    """A digest of the code that builds what is stored: the bytes of the modules of :data:`_BUILDERS`
    under ``root`` (the installed ``collate``).

    The package version alone is not enough: a change to how the classes are built that keeps
    the version (a developer's edit, an install from a newer checkout) would otherwise be served
    the classes the older code built. Read once a process, a few milliseconds; a module that
    cannot be read counts as missing (the version still tells releases apart).
    """
    base = root or Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for package in _BUILDERS:
        for path in sorted((base / package).glob("*.py")):
            try:
                data = path.read_bytes()
            except OSError:
                continue
            h.update(f"{package}/{path.name}\0".encode() + data)
    return h.hexdigest()[:16]


def digest(files: Iterable[Path], settings: str) -> str:
    """A name for what is built from ``files`` (their bytes) with ``settings`` (their repr) by this code."""
    h = hashlib.sha256(f"{FORMAT}\0{__version__}\0{code_digest()}\0{settings}".encode())
    for path in files:
        h.update(b"\0" + path.name.encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()[:32]


def load(key: str) -> dict[str, tuple[str, Table]] | None:
    """The rules' (source, table) stored under ``key``, or None (absent, unreadable, damaged)."""
    raw = _read(f"classes-{key}.json")
    try:
        return {
            name: (str(rule["source"]), {m: (str(c), str(v)) for m, (c, v) in rule["table"].items()})
            for name, rule in raw["rules"].items()
        }
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def store(key: str, rules: Mapping[str, tuple[str, Mapping[str, tuple[str, str]]]]) -> None:
    """Keep the rules' (source, table) under ``key``; silently nothing if the folder is not writable."""
    _write(
        f"classes-{key}.json",
        {
            "format": FORMAT,
            "rules": {name: {"source": source, "table": dict(table)} for name, (source, table) in rules.items()},
        },
    )


def load_related(key: str) -> dict[str, str] | None:
    """The related pairs stored under ``key`` (pair → relations), or None (absent, unreadable, damaged)."""
    raw = _read(f"related-{key}.json")
    pairs: dict[str, str] = {}
    try:
        for relations, keys in raw["related"].items():
            if not isinstance(relations, str) or not isinstance(keys, list):
                return None
            # One string for every pair of a group: a few hundred relations among 40,000 pairs.
            pairs.update(dict.fromkeys(keys, relations))
    except (KeyError, TypeError, AttributeError):
        return None
    return pairs


def store_related(key: str, pairs: Mapping[str, str]) -> None:
    """Keep the related pairs under ``key``, grouped by their relations; nothing if the folder is not writable."""
    groups: dict[str, list[str]] = {}
    for pair, relations in pairs.items():
        groups.setdefault(relations, []).append(pair)
    _write(f"related-{key}.json", {"format": FORMAT, "related": groups})


def load_forms(key: str) -> frozenset[str] | None:
    """The characters stored under ``key`` (:func:`collate.normalize.script.sampled_simplified_forms`), or None."""
    raw = _read(f"forms-{key}.json")
    try:
        chars = raw["forms"]
    except (KeyError, TypeError):
        return None
    return frozenset(chars) if isinstance(chars, str) else None


def store_forms(key: str, forms: frozenset[str]) -> None:
    """Keep the characters ``forms`` under ``key``, as one string; nothing if the folder is not writable."""
    _write(f"forms-{key}.json", {"format": FORMAT, "forms": "".join(sorted(forms))})


def _read(name: str) -> Any:
    """The JSON stored as ``name``, or None (the cache off, the file absent, unreadable or not JSON)."""
    where = folder()
    if where is None:
        return None
    try:
        return json.loads((where / name).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write(name: str, data: Any) -> None:
    """Store ``data`` as ``name``, whole or not at all (a reader never sees half a file)."""
    where = folder()
    if where is None:
        return
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=where, prefix=".cache-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                json.dump(data, out, ensure_ascii=False, separators=(",", ":"))
            os.replace(tmp, where / name)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError:
        return
