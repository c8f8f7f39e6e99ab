"""The collations ``collate stats`` reads: the JSON output of a run, or of every job of a batch.

A run's folder holds an output set with its manifest (:mod:`collate.runs.manifest`); a batch's holds one
such folder per job. The JSON file of each set (``NAME.json``, schema in docs/json-schema.md) is
found by its manifest and read only if its SHA-256 is the recorded one: statistics of a file
edited or half-written since would say what no collation said. It is read into typed records
(msgspec structs of the part of the schema the statistics use), so a value of another type is an
error naming its JSON path. Nothing is collated again.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from collate.errors import CollateError, ExportError
from collate.runs.manifest import MANIFEST, read_manifest, sha256_of

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


@dataclass(frozen=True, slots=True)
class Said:
    """A witness's words at a locus, as the collation recorded them: its siglum, text and place."""

    siglum: str
    text: str
    ref: str | None


@dataclass(frozen=True, slots=True)
class StatsReading:
    """One reading of a locus: its class (and cause), its normalized form, the witnesses that read it."""

    cls: str
    cause: str | None
    norm: str
    witnesses: tuple[Said, ...]


@dataclass(frozen=True, slots=True)
class StatsLocus:
    """One variant locus: its id and class, the lemma, the witnesses reading it, the other readings."""

    id: str
    cls: str
    lemma: Said | None
    lemma_witnesses: tuple[str, ...]
    readings: tuple[StatsReading, ...]
    decided: bool


@dataclass(frozen=True, slots=True)
class StatsCollation:
    """What ``collate stats`` reads of one collation's JSON: its witnesses' labels and its loci by layer.

    ``sparse`` are its readings files: witnesses extant only where they report a reading.
    """

    labels: tuple[tuple[str, str], ...]
    layers: tuple[tuple[str, tuple[StatsLocus, ...]], ...]
    sparse: frozenset[str] = frozenset()


class _Place(msgspec.Struct, frozen=True):
    ref: str | None = None


class _Said(msgspec.Struct, frozen=True):
    siglum: str
    text: str = ""
    location: _Place | None = None

    def said(self) -> Said:
        return Said(self.siglum, self.text, self.location.ref if self.location is not None else None)


class _Reading(msgspec.Struct, frozen=True, rename={"cls": "class"}):
    cls: str
    norm: Any = None
    cause: str | None = None
    witnesses: list[_Said] | None = None

    def reading(self) -> StatsReading:
        return StatsReading(self.cls, self.cause, str(self.norm), tuple(w.said() for w in self.witnesses or ()))


class _Locus(msgspec.Struct, frozen=True, rename={"cls": "class"}):
    id: Any = None
    cls: str = ""
    lemma: _Said | None = None
    lemma_witnesses: list[str] | None = None
    readings: list[_Reading] | None = None
    decision: Any = None

    def locus(self) -> StatsLocus:
        return StatsLocus(
            str(self.id),
            self.cls,
            self.lemma.said() if self.lemma is not None else None,
            tuple(self.lemma_witnesses or ()),
            tuple(r.reading() for r in self.readings or ()),
            self.decision is not None,
        )


class _Witness(msgspec.Struct, frozen=True):
    siglum: str
    label: str | None = None
    sparse: bool = False


class _Layer(msgspec.Struct, frozen=True):
    layer: str
    loci: list[_Locus] | None = None


class _Collation(msgspec.Struct, frozen=True):
    """The part of the JSON exporter's file (docs/json-schema.md) the statistics read, as msgspec checks it."""

    witnesses: list[_Witness] | None = None
    layers: list[_Layer] | None = None

    def collation(self) -> StatsCollation:
        return StatsCollation(
            tuple((w.siglum, w.label or w.siglum) for w in self.witnesses or ()),
            tuple((x.layer, tuple(locus.locus() for locus in x.loci or ())) for x in self.layers or ()),
            frozenset(w.siglum for w in self.witnesses or () if w.sparse),
        )


def _not_ours(error: msgspec.ValidationError, where: str) -> StatsError:
    # msgspec says what and where: "Expected `str`, got `int` - at `$.layers[0].loci[3].class`".
    return StatsError(
        f"not a collation this collate wrote: {error}", where=where, hint="run the collation again with this collate"
    )


def read_collation(run: RunFile) -> StatsCollation:
    """What the statistics need of one collation's JSON, checked part by part as it is read.

    The file's hash is the one its manifest records, but a folder received from someone else
    may hold a manifest made for a file of any content: every value is checked, and one that is
    not what collate writes is a :class:`StatsError` naming the file and its place in the JSON.
    """
    try:
        data: Any = json.loads(run.path.read_bytes())
    except (OSError, ValueError, RecursionError) as exc:
        raise StatsError(f"cannot be read: {exc}", where=str(run.path)) from None
    # Checked by type as a whole (msgspec), not value by value by hand.
    if not isinstance(data, dict) or data.get("schema") != JSON_SCHEMA or not isinstance(data.get("layers"), list):
        raise StatsError(
            f"not a collation of schema {JSON_SCHEMA}",
            where=str(run.path),
            hint="run the collation again with this collate",
        )
    return stats_collation(data, str(run.path))


def stats_collation(data: object, where: str) -> StatsCollation:
    """What the statistics need of a collation's JSON ``data`` (read from ``where``), checked by its types.

    The records the statistics read are typed (msgspec structs): a value that is not what collate
    writes is a :class:`StatsError` naming the file and the value's JSON path.
    """
    try:
        return msgspec.convert(data, _Collation).collation()
    except msgspec.ValidationError as exc:
        raise _not_ours(exc, where) from None


def collations(folder: Path) -> Iterator[tuple[RunFile, StatsCollation]]:
    """Each collation of ``folder`` with its JSON, one at a time (a batch's may not all fit in memory)."""
    for run in find_runs(folder):
        yield run, read_collation(run)


__all__ = [
    "RunFile",
    "Said",
    "StatsCollation",
    "StatsError",
    "StatsLocus",
    "StatsReading",
    "collations",
    "find_runs",
    "read_collation",
    "stats_collation",
]
