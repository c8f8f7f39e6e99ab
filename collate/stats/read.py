"""The collations ``collate stats`` reads: the JSON output of a run, or of every job of a batch.

A run's folder holds an output set with its manifest (:mod:`collate.state`); a batch's holds one
such folder per job. The JSON file of each set (``NAME.json``, schema in docs/json-schema.md) is
found by its manifest and read only if its SHA-256 is the recorded one: statistics of a file
edited or half-written since would say what no collation said. Nothing is collated again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from collate.errors import CollateError, ExportError
from collate.state import MANIFEST, read_manifest, sha256_of

JSON_SCHEMA = "collate/2"


class StatsError(CollateError):
    """The folder holds no collation to read, or one that cannot be read."""

    code = "stats"


@dataclass(frozen=True, slots=True)
class RunFile:
    """One collation to read: its name (the run's folder, or the job's) and its JSON file."""

    name: str
    path: Path


def _json_name(outputs: dict[str, str]) -> str | None:
    """The collation's file among a set's outputs: the JSON exporter's, not another that ends the same."""
    from collate.exporters import EXPORTERS, get_exporter

    suffix = get_exporter("json").suffix
    others = [get_exporter(n).suffix for n in EXPORTERS if n != "json"]
    names = [
        n for n in outputs if n.endswith(suffix) and not any(len(o) > len(suffix) and n.endswith(o) for o in others)
    ]
    return names[0] if len(names) == 1 else None


def _run_file(folder: Path, name: str) -> RunFile:
    try:
        manifest = read_manifest(folder)
    except ExportError as exc:
        raise StatsError(exc.message, where=exc.where, hint=exc.hint) from None
    file = _json_name(dict(manifest.outputs))
    if file is None:
        raise StatsError(
            "the output set has no JSON collation",
            where=str(folder),
            hint="write it with `collate export --format json`",
        )
    path = folder / file
    if not path.is_file() or sha256_of(path) != manifest.outputs[file]:
        raise StatsError(
            f"{file} is not the file the run wrote (changed or missing since)",
            where=str(path),
            hint="run the collation again (`collate run`, or `collate batch`)",
        )
    return RunFile(name, path)


def find_runs(folder: Path) -> tuple[RunFile, ...]:
    """The collations in ``folder``: its own output set, else one per job folder of a batch, by name."""
    if not folder.is_dir():
        what = "not a folder" if folder.exists() else "no such folder"
        raise StatsError(what, where=str(folder), hint="give the output folder of a run or a batch")
    if (folder / MANIFEST).is_file():
        return (_run_file(folder, folder.resolve().name),)
    jobs = sorted(p for p in folder.iterdir() if p.is_dir() and (p / MANIFEST).is_file())
    if not jobs:
        raise StatsError(
            "no collation here: neither a run's output folder nor a batch's",
            where=str(folder),
            hint="run `collate run` or `collate batch` first, and give the folder it wrote",
        )
    return tuple(_run_file(p, p.name) for p in jobs)


def read_collation(run: RunFile) -> dict[str, Any]:
    """The JSON of one collation, checked to be of the schema this reads."""
    try:
        data: Any = json.loads(run.path.read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        raise StatsError(f"cannot be read: {exc}", where=str(run.path)) from None
    if not isinstance(data, dict) or data.get("schema") != JSON_SCHEMA or not isinstance(data.get("layers"), list):
        raise StatsError(
            f"not a collation of schema {JSON_SCHEMA}",
            where=str(run.path),
            hint="run the collation again with this collate",
        )
    return data


def collations(folder: Path) -> Iterator[tuple[RunFile, dict[str, Any]]]:
    """Each collation of ``folder`` with its JSON, one at a time (a batch's may not all fit in memory)."""
    for run in find_runs(folder):
        yield run, read_collation(run)


__all__ = ["RunFile", "StatsError", "collations", "find_runs", "read_collation"]
