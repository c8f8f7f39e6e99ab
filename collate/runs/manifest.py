"""The record of the last run in an output folder: a JSON manifest, never code.

``out/.collate/last-run.json`` names the files of the output set with the SHA-256 of each, the
files the run read (the project file, the witnesses, gaiji and variant tables, the decisions)
with theirs, how to read the project again, and the SHA-256 of the saved run
(:mod:`collate.runs.saved`) that the commands after ``collate run`` load instead of collating
again, once they have checked that the inputs are the ones hashed (:func:`changed_inputs`).

Loading the record parses JSON and compares hashes, nothing else: an output folder received from
someone else runs no code of theirs, and a file the record names is read as a project only if
its hash is the recorded one. The record carries a schema version; one this collate does not
know (a newer one) is refused, as is a damaged one. ``last-run.pickle``, the saved run of older
versions, is never read: unpickling runs whatever the file says.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from collate import __version__
from collate.errors import ExportError
from collate.init import project_from_files
from collate.project import Project, is_file_stem, load_project

SCHEMA = 2
STATE_DIR = Path(".collate")
MANIFEST = STATE_DIR / "last-run.json"
LEGACY = STATE_DIR / "last-run.pickle"
_HEX = re.compile(r"[0-9a-f]{64}")
_AGAIN = "run `collate run` to write the whole set again"


@dataclass(frozen=True, slots=True)
class Source:
    """How a run's project is read again; paths are relative to the output folder.

    Either a project file (``file``), or witness files named on the command line (``files``, as
    they were given, relative to ``root``); ``gaiji`` is the gaiji table the run used.
    """

    file: str | None = None
    root: str | None = None
    files: tuple[str, ...] = ()
    gaiji: str | None = None


@dataclass(frozen=True, slots=True)
class Manifest:
    """One output set: the collate that wrote it, how to read its project, its inputs' and files' SHA-256.

    ``inputs`` is keyed by path relative to the output folder, ``outputs`` by file name in it.
    """

    collate: str
    source: Source
    inputs: Mapping[str, str]
    outputs: Mapping[str, str] = field(default_factory=dict)
    # The SHA-256 of the saved run (``.collate/run.json.gz``); None in a record of schema 1, which saved none.
    run: str | None = None


def sha256_of(path: Path) -> str:
    """The SHA-256 of the file at ``path``, read in pieces (a book's outputs are large)."""
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _rel(path: Path, out: Path) -> str:
    """``path`` as the record keeps it: relative to the output folder, so the two may move together."""
    target = path.resolve()
    try:
        return Path(os.path.relpath(target, out.resolve())).as_posix()
    except ValueError:  # another drive (Windows): there is no relative path
        return target.as_posix()


def _abs(recorded: str, out: Path) -> Path:
    """A path of the record, made absolute again against the output folder."""
    # Both were resolved when recorded, so `..` in the record is lexical: normpath is exact.
    return Path(os.path.normpath(out.resolve() / recorded))


def _inputs(project: Project) -> list[Path]:
    """Every file a run of ``project`` reads, besides collate's own data."""
    from collate.decisions.file import decisions_path

    paths = [project.source] if project.source else []
    paths += [project.resolve(w.path) for w in project.witnesses]
    if project.gaiji_table:
        paths.append(project.resolve(project.gaiji_table))
    # The normalizer reads these tables (collate.normalize.config); they change what folds.
    normalize = project.sections.get("normalize")
    tables = normalize.get("variant_tables", []) if isinstance(normalize, Mapping) else []
    paths += [project.resolve(Path(t)) for t in tables if isinstance(t, str)] if isinstance(tables, list) else []
    paths.append(decisions_path(project))
    return [p for p in paths if p.is_file()]


def input_hashes(project: Project, out: Path) -> dict[str, str]:
    """The SHA-256 of every file a run of ``project`` reads, keyed as the record of ``out`` keys them."""
    return {_rel(p, out): sha256_of(p) for p in _inputs(project)}


def manifest_of(project: Project, out: Path, outputs: Mapping[str, str] | None = None) -> Manifest:
    """The record of a run of ``project`` whose set is written into ``out``."""
    if project.source is not None:
        source = Source(file=_rel(project.source, out))
    else:
        source = Source(root=_rel(project.root, out), files=tuple(str(w.path) for w in project.witnesses))
    if project.gaiji_table is not None:
        source = replace(source, gaiji=_rel(project.resolve(project.gaiji_table), out))
    return Manifest(__version__, source, input_hashes(project, out), dict(outputs or {}))


def manifest_text(manifest: Manifest) -> str:
    """The record as the JSON file holds it."""
    s = manifest.source
    data = {
        "schema": SCHEMA,
        "collate": manifest.collate,
        "source": {"file": s.file, "root": s.root, "files": list(s.files), "gaiji": s.gaiji},
        "inputs": dict(sorted(manifest.inputs.items())),
        "outputs": dict(sorted(manifest.outputs.items())),
        "run": manifest.run,
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


def _hashes(value: object, what: str, where: str, names: bool) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(v, str) and _HEX.fullmatch(v) for v in value.values()):
        raise ExportError(f"the record's `{what}` is not a table of SHA-256 hashes", where=where, hint=_AGAIN)
    for key in value:
        # A name with a separator (or `..`) would have collate read or move a file outside the folder.
        if "\0" in key or (names and not is_file_stem(key)):
            raise ExportError(
                f"the record's `{what}` names {key!r}, not a file of the folder", where=where, hint=_AGAIN
            )
    return dict(value)


def _optional(value: object, what: str, where: str) -> str | None:
    if value is not None and (not isinstance(value, str) or "\0" in value):
        raise ExportError(f"the record's `source.{what}` is not a path", where=where, hint=_AGAIN)
    return value


def parse_manifest(text: str | bytes, where: str) -> Manifest:
    """The record in ``text``, or an :class:`ExportError` at ``where`` saying what is wrong with it."""
    try:
        data: Any = json.loads(text)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, or nested past the parser
        raise ExportError("the record of the last run cannot be read", where=where, hint=_AGAIN) from None
    schema = data.get("schema") if isinstance(data, dict) else None
    if not isinstance(schema, int) or isinstance(schema, bool) or schema < 1:
        raise ExportError("the record of the last run has no schema version", where=where, hint=_AGAIN)
    if schema > SCHEMA:
        raise ExportError(
            f"the record of the last run is of schema {schema}, newer than this collate reads ({SCHEMA})",
            where=where,
            hint="use the collate that wrote it, or " + _AGAIN,
        )
    source = data.get("source")
    collate = data.get("collate")
    if not isinstance(source, dict) or not isinstance(collate, str):
        raise ExportError("the record of the last run lacks `collate` or `source`", where=where, hint=_AGAIN)
    files = source.get("files", [])
    if not isinstance(files, list) or not all(isinstance(f, str) and "\0" not in f for f in files):
        raise ExportError("the record's `source.files` is not a list of paths", where=where, hint=_AGAIN)
    read = Source(
        _optional(source.get("file"), "file", where),
        _optional(source.get("root"), "root", where),
        tuple(files),
        _optional(source.get("gaiji"), "gaiji", where),
    )
    if (read.file is None) == (not read.files):
        raise ExportError("the record names neither a project file nor witness files", where=where, hint=_AGAIN)
    run = data.get("run")
    if run is not None and not (isinstance(run, str) and _HEX.fullmatch(run)):
        raise ExportError("the record's `run` is not a SHA-256 hash", where=where, hint=_AGAIN)
    return Manifest(
        collate,
        read,
        _hashes(data.get("inputs"), "inputs", where, names=False),
        _hashes(data.get("outputs"), "outputs", where, names=True),
        run,
    )


def read_manifest(out: Path) -> Manifest:
    """The record of the set in ``out``, or an :class:`ExportError` saying to run first."""
    path = out / MANIFEST
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        if (out / LEGACY).exists():
            raise ExportError(
                "this run was saved by an older collate, as a pickle: it is not read (loading one runs code)",
                where=str(out / LEGACY),
                hint=_AGAIN,
            ) from None
        raise ExportError(
            "no collation has been run here yet", where=str(out), hint="run `collate run` first"
        ) from None
    except OSError as exc:
        raise ExportError(f"cannot be read: {exc.strerror or exc}", where=str(path)) from None
    return parse_manifest(text, str(path))


def _shown(key: str, out: Path) -> str:
    """A recorded path as the user would write it here: relative to the working folder if inside it."""
    path = _abs(key, out)
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _changed(what: list[str], out: Path) -> ExportError:
    return ExportError(
        "the inputs are not those of the last run: " + ", ".join(what),
        where=str(out),
        hint="run `collate run` to collate them again",
    )


def input_hashes_now(manifest: Manifest, out: Path, project: Project) -> dict[str, str]:
    """The SHA-256 of the files the record hashed, as they are now, and of ``project``'s inputs it lacks."""
    now = {key: sha256_of(path) for key in manifest.inputs if (path := _abs(key, out)).is_file()}
    for path in _inputs(project):
        key = _rel(path, out)
        if key not in now:
            now[key] = sha256_of(path)
    return now


def changed_inputs(
    manifest: Manifest,
    out: Path,
    project: Project,
    skip: Sequence[str] = (),
    now: Mapping[str, str] | None = None,
) -> list[tuple[str, str]]:
    """The inputs of the last run that changed since, as the user would name them, each with how.

    The files the record hashed are hashed again where they are (a shelf's files too, which the
    project file does not list): ``changed`` or ``gone``; ``project``'s inputs that the record
    lacks are ``new``. ``skip`` are recorded keys left out (the decisions file, applied anew to a
    loaded run). ``now``: those hashes (:func:`input_hashes_now`) where the caller has them already.
    """
    if now is None:
        now = input_hashes_now(manifest, out, project)
    return [
        (_shown(key, out), "gone" if key not in now else "new" if key not in manifest.inputs else "changed")
        for key in sorted(manifest.inputs.keys() | now.keys())
        if key not in skip and manifest.inputs.get(key) != now.get(key)
    ]


def refuse_unrecorded(changed: Sequence[tuple[str, str]], out: Path, welcome: Sequence[str] = ()) -> None:
    """Refuse inputs the record did not hash (``new``) or that are ``gone``: only a run reads those.

    A record may come from anyone: what it did not hash is never read into an output by a command
    other than ``collate run``, and a run with files gone is no run to write again. ``welcome``
    (keys as the record keeps them) are the project's own files that a command here begins, which
    may be new.
    """
    ours = {_shown(key, out) for key in welcome}
    unrecorded = [f"{shown} ({how})" for shown, how in changed if how != "changed" and shown not in ours]
    if unrecorded:
        raise _changed(unrecorded, out)


def decisions_key(project: Project, out: Path) -> str:
    """The decisions file of ``project`` as the record of ``out`` keys it."""
    from collate.decisions.file import decisions_path

    return _rel(decisions_path(project), out)


def regularizations_key(project: Project, out: Path) -> str:
    """The regularization table ``collate review`` writes for ``project``, as the record of ``out`` keys it."""
    from collate.decisions.regularizations import table_name

    return _rel(project.resolve(Path(table_name(project))), out)


def _read_project(source: Source, out: Path) -> Project:
    """The project a record's ``source`` names, read as its files are now (no check of the record's hashes)."""
    if source.file is not None:
        project = load_project(_abs(source.file, out))
    else:
        project = project_from_files([Path(f) for f in source.files], root=_abs(source.root or ".", out))
    if source.gaiji is not None:
        project = replace(project, gaiji_table=_abs(source.gaiji, out))
    return project


def project_of(manifest: Manifest, out: Path) -> Project:
    """The project the record names, read only if the record hashed it (it may come from anyone)."""
    source = manifest.source
    if source.file is not None:
        path = _abs(source.file, out)
        if not path.is_file():
            raise ExportError(
                f"the project of the last run is not here: {path}",
                where=str(out / MANIFEST),
                hint="pass its project file with --config, or " + _AGAIN,
            )
        if manifest.inputs.get(source.file) != sha256_of(path):
            raise _changed([f"{_shown(source.file, out)} (changed)"], out)
    else:
        root = _abs(source.root or ".", out)
        # A file gone since is a changed input, said as such (not as a file missing from a command line).
        gone = [f for f in source.files if not (root / f).is_file()]
        if gone:
            raise _changed([f"{_shown(_rel(root / f, out), out)} (gone)" for f in gone], out)
    return _read_project(source, out)


def records_project_file(out: Path, path: Path) -> bool:
    """Whether the last run in ``out`` is of the project file ``path`` (a record there names it)."""
    try:
        source = read_manifest(out).source
    except ExportError:
        return False
    return source.file is not None and _abs(source.file, out) == Path(os.path.normpath(path.resolve()))


def last_run_project(out: Path) -> Project | None:
    """The project of the last run whose set is in ``out``, as its files are now; None if none ran there.

    For the commands that show a collation (``diff``, ``notes``, ``review``) where there is no
    project file: the witness files a run was given are named again as the run named them. Nothing
    is checked against the record's hashes — what is shown is the files as they are now — but a
    damaged record, or one of a newer schema, is an :class:`ExportError` saying so.
    """
    if not (out / MANIFEST).exists():
        return None
    return _read_project(read_manifest(out).source, out)


__all__ = [
    "MANIFEST",
    "STATE_DIR",
    "Manifest",
    "Source",
    "changed_inputs",
    "decisions_key",
    "input_hashes_now",
    "last_run_project",
    "manifest_of",
    "project_of",
    "read_manifest",
    "records_project_file",
    "refuse_unrecorded",
    "regularizations_key",
]
