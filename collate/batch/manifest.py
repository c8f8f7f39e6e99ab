"""The batch manifest (``corpus.toml``): the jobs of a batch, each a project, and where their outputs go.

A job is a project file (``project = "touhu/collate.toml"``: run as ``collate run -c`` runs it)
or a work with its witness files (``name``, ``base``, ``[[job.witness]]`` …: the keys of a project
file), which takes what it does not say from ``[defaults]``. The project of such a job is written
into its output folder as ``collate.toml``, with its paths made relative to it: every job is then
an ordinary project file, collated and written by the ordinary pipeline, and ``collate export``,
``collate diff -c`` and ``collate review -c`` work on it as on any other
(:mod:`collate.batch.inline` makes it).

Everything the manifest names is checked before any job runs — an unknown key, a missing file, a
job name used twice, a project that is not one — and each error names the manifest's line.
"""

from __future__ import annotations

import copy
import difflib
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from collate.batch.inline import InlineFiles, merge, project_text, require_file
from collate.batch.lines import Lines, TablePath, scan
from collate.decode import check_regular_file
from collate.errors import ExportError, ProjectError
from collate.files import parse_toml, read_utf8
from collate.project import (
    PROJECT_FILE,
    SECTION_KEYS,
    SETTINGS,
    STEM_RULE,
    WITNESS_KEYS,
    is_file_stem,
    load_project,
    project_from_mapping,
)

TOP_KEYS = ("cluster", "defaults", "job", "book")
# A book of juans (五禮通考): one job per file of the glob, its base; the rest from [defaults].
BOOK_KEYS = ("juans", "siglum", "label")
CLUSTER_KEYS = ("scheduler", "workers")
_TABLES = tuple(k for k in SECTION_KEYS if "." not in k)
# What every inline job may take from [defaults]: all a project says but its name and witnesses.
DEFAULT_KEYS = tuple(k for k in SETTINGS if k not in ("name", "witness")) + _TABLES
INLINE_KEYS = (*SETTINGS, *_TABLES)
PROJECT_JOB_KEYS = ("project", "name")
# Files of the output tree beside the jobs' folders: the batch's record, the statistics' page.
RESERVED = ("batch.json", "stats.html", "index.tsv")


@dataclass(frozen=True, slots=True)
class Job:
    """One job: its name, the project file it runs, the folder its outputs go to, and its manifest line.

    ``text`` is the project file of an inline job, to be written at ``project`` before it runs;
    None for a job that names a project file of its own.
    """

    name: str
    project: Path
    out: Path
    where: str
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Cluster:
    """The manifest's ``[cluster]``: an existing scheduler to use, or the size of the embedded one."""

    scheduler: str | None = None
    workers: int | None = None
    where: str = ""


@dataclass(frozen=True, slots=True)
class Batch:
    """A manifest read and checked: its jobs in order, its cluster, and the output tree."""

    path: Path
    jobs: tuple[Job, ...]
    cluster: Cluster
    out: Path


class _Located:
    """Makes errors that name the manifest and a line of it."""

    def __init__(self, path: Path, lines: Lines) -> None:
        self.shown = str(path)
        self.lines = lines

    def at(self, table: TablePath, key: str | None = None) -> str:
        line = self.lines.of(table, key)
        return f"{self.shown}:{line}" if line else self.shown

    def unknown(self, key: str, known: Iterable[str], what: str, table: TablePath) -> ProjectError:
        """An unknown key, with the known one it most likely misspells."""
        known = sorted(known)
        close = difflib.get_close_matches(key, known, n=1)
        hint = ("did you mean `" + close[0] + "`? " if close else "") + f"the keys of {what} are " + ", ".join(known)
        return ProjectError(f"unknown key `{key}` in {what}", where=self.at(table, key), hint=hint)


def _check_keys(table: Mapping[str, Any], known: Iterable[str], what: str, path: TablePath, loc: _Located) -> None:
    known = tuple(known)
    for key in table:
        if key not in known:
            raise loc.unknown(key, known, what, path)


def _table(value: object, what: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ProjectError(f"{what} must be a table", where=where)
    return value


def _cluster(data: Mapping[str, Any], loc: _Located) -> Cluster:
    table = _table(data.get("cluster", {}), "[cluster]", loc.at(("cluster",)))
    _check_keys(table, CLUSTER_KEYS, "[cluster]", ("cluster",), loc)
    scheduler = table.get("scheduler")
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler):
        raise ProjectError(
            "`scheduler` must be an address", where=loc.at(("cluster",), "scheduler"), hint='e.g. "tcp://host:8786"'
        )
    workers = table.get("workers")
    if workers is not None and (not isinstance(workers, int) or isinstance(workers, bool) or workers < 1):
        raise ProjectError("`workers` must be a whole number, 1 or more", where=loc.at(("cluster",), "workers"))
    return Cluster(scheduler, workers, loc.at(("cluster",), "scheduler"))


def _inline(
    n: int, entry: Mapping[str, Any], defaults: Mapping[str, Any], name: str, batch: Path, out: Path, loc: _Located
) -> Job:
    """An inline job: its project made from ``[defaults]`` and its own keys, its files checked."""
    table: TablePath = ("job", n)
    _check_keys(entry, INLINE_KEYS, f"job {name!r}", table, loc)
    # Copies: the paths of one job's tables are rewritten for its folder, not for the next job's.
    data = merge(copy.deepcopy(defaults), copy.deepcopy(entry))
    witnesses = data.get("witness")
    if not isinstance(witnesses, list) or not witnesses or not all(isinstance(w, dict) for w in witnesses):
        raise ProjectError(
            f"job {name!r} has no witnesses", where=loc.at(table), hint="add [[job.witness]] tables, or `project = …`"
        )
    files = InlineFiles(name, entry, table, loc.at, batch.parent.resolve(), (out / name).resolve())
    rewritten = []
    for k, witness in enumerate(witnesses, 1):
        _check_keys(witness, WITNESS_KEYS, f"witness {k} of job {name!r}", (*table, "witness", k), loc)
        rewritten.append(files.witness(k, witness))
    data["witness"] = rewritten
    data["name"] = name
    files.rewrite(data)
    data["review"] = files.review(data)
    try:
        project_from_mapping(data, root=files.job_dir, source=files.job_dir / PROJECT_FILE)
    except ProjectError as exc:
        # The project is the manifest's job: its error is said there.
        raise ProjectError(f"job {name!r}: {exc.message}", where=loc.at(table), hint=exc.hint) from None
    return Job(name, files.job_dir / PROJECT_FILE, files.job_dir, loc.at(table), project_text(data, batch, name))


def _project_job(n: int, entry: Mapping[str, Any], batch: Path, loc: _Located) -> tuple[object, Path]:
    """A job naming a project file: its name (the project's, unless the job names it) and its file."""
    table: TablePath = ("job", n)
    # Its settings are the project file's: a key beside `project` would be silently ignored.
    _check_keys(entry, PROJECT_JOB_KEYS, f"job {n} (a job naming a project file)", table, loc)
    path = entry["project"]
    if not isinstance(path, str) or not path:
        raise ProjectError("`project` must be the path of a project file", where=loc.at(table, "project"))
    require_file(path, loc.at(table, "project"), "the project file", batch.parent)
    file = Path(path) if Path(path).is_absolute() else batch.parent / path
    project = load_project(file)
    for w in project.witnesses:
        if not project.resolve(w.path).exists():
            raise ProjectError(
                f"witness {w.siglum}'s file {w.path} does not exist (named by {file})",
                where=loc.at(table, "project"),
                hint="correct the project file, or take the job out of the manifest",
            )
    name = entry.get("name", project.name)
    return name, file.resolve()


def load_batch(path: Path, out: Path | None = None) -> Batch:
    """Read and check the manifest at ``path``; the jobs' outputs go under ``out`` (default: ``STEM-output/``).

    Every problem is a :class:`ProjectError` naming the manifest's line; nothing is written.
    """
    shown = str(path)
    try:
        check_regular_file(path, shown, ProjectError, hint="give the path of a batch manifest (a TOML file)")
        text = read_utf8(path, shown, hint="TOML files are UTF-8: save the manifest as UTF-8")
    except FileNotFoundError:
        raise ProjectError("no batch manifest here", where=shown, hint="give the path of a batch manifest") from None
    except OSError as exc:
        raise ProjectError(f"cannot be read: {exc.strerror}", where=shown) from None
    data = parse_toml(text, shown)
    loc = _Located(path, scan(text))
    _check_keys(data, TOP_KEYS, "the manifest", (), loc)
    cluster = _cluster(data, loc)
    defaults = _table(data.get("defaults", {}), "[defaults]", loc.at(("defaults",)))
    _check_keys(defaults, DEFAULT_KEYS, "[defaults]", ("defaults",), loc)
    entries = data.get("job", [])
    if not isinstance(entries, list):
        raise ProjectError("`job` must be [[job]] tables", where=loc.at(("job",)))
    # The book's juans after the manifest's own jobs: those keep their numbers, and their lines.
    entries = [*entries, *_book_jobs(data.get("book"), path, loc)]
    if not entries:
        raise ProjectError(
            "no jobs", where=shown, hint="add [[job]] tables, each a project file or a work, or a [book] of juans"
        )
    folder = (out if out is not None else path.parent / f"{path.stem}-output").resolve()
    jobs: list[Job] = []
    seen: dict[str, str] = {}
    for n, entry in enumerate(entries, 1):
        entry = _table(entry, f"job {n}", loc.at(("job", n)))
        job = _job(n, entry, defaults, path, folder, loc)
        if job.name in seen:
            raise ProjectError(
                f"duplicate job name {job.name!r} (the first is at {seen[job.name]})",
                where=loc.at(("job", n), "name"),
                hint="give each job its own `name`: it names the job's output folder",
            )
        seen[job.name] = job.where
        jobs.append(job)
    return Batch(path, tuple(jobs), cluster, folder)


def _book_jobs(book: object, batch: Path, loc: _Located) -> list[dict[str, Any]]:
    """One inline job per juan of a ``[book]``: the file of the glob ``juans`` (relative to the
    manifest) as the base, named by its file's stem; the other settings from ``[defaults]``."""
    if book is None:
        return []
    table = _table(book, "[book]", loc.at(("book",)))
    _check_keys(table, BOOK_KEYS, "[book]", ("book",), loc)
    pattern = table.get("juans")
    if not isinstance(pattern, str) or not pattern:
        raise ProjectError("[book] has no `juans`", where=loc.at(("book",)), hint='e.g. juans = "wuli/*.txt"')
    siglum, label = table.get("siglum", "SK"), table.get("label", "四庫本")
    if not isinstance(siglum, str) or not isinstance(label, str):
        raise ProjectError("`siglum` and `label` of [book] must be strings", where=loc.at(("book",)))
    files = sorted(p for p in batch.parent.glob(pattern) if p.is_file())
    if not files:
        hint = "the glob is relative to the manifest"
        raise ProjectError(f"no file matches juans = {pattern!r}", where=loc.at(("book",), "juans"), hint=hint)
    jobs = []
    for f in files:
        name = f.stem
        if not is_file_stem(name):
            raise ProjectError(
                f"the juan file {f.name!r} cannot name a job's folder",
                where=loc.at(("book",), "juans"),
                hint=f"rename it: {STEM_RULE}",
            )
        relative = os.path.relpath(f, batch.parent)
        jobs.append({"name": name, "base": siglum, "witness": [{"siglum": siglum, "label": label, "path": relative}]})
    return jobs


def _job(n: int, entry: Mapping[str, Any], defaults: Mapping[str, Any], batch: Path, out: Path, loc: _Located) -> Job:
    name: object
    file: Path | None = None
    if "project" in entry:
        name, file = _project_job(n, entry, batch, loc)
    else:
        name = entry.get("name")
    where = loc.at(("job", n), "name")
    if not isinstance(name, str) or not name:
        raise ProjectError(
            f"job {n} has no `name`", where=loc.at(("job", n)), hint='add name = "…" (its output folder)'
        )
    if not is_file_stem(name):
        raise ProjectError(
            f"job name {name!r} cannot name a folder", where=where, hint=f'use {STEM_RULE}, e.g. name = "juan001"'
        )
    if name in RESERVED:
        raise ProjectError(
            f"job name {name!r} is the name of a file the batch writes beside the jobs' folders",
            where=where,
            hint="give the job another `name`",
        )
    if file is not None:
        return Job(name, file, out / name, loc.at(("job", n)))
    return _inline(n, entry, defaults, name, batch, out, loc)


def write_projects(batch: Batch) -> None:
    """Write each inline job's project file into its output folder, where it differs from what is there."""
    from collate.files import write_atomic

    for job in batch.jobs:
        if job.text is None:
            continue
        try:
            if job.project.is_file() and job.project.read_text(encoding="utf-8") == job.text:
                continue
            job.out.mkdir(parents=True, exist_ok=True)
            write_atomic(job.project, job.text)
        except OSError as exc:
            raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(job.project)) from None


__all__ = ["Batch", "Cluster", "Job", "load_batch", "write_projects"]
