"""Writing a run's outputs as one set: a killed run leaves the old set or the new one, never a mix.

Every file of the set is first written into a staging folder inside the output folder,
``out/.collate/new-XXXXXXXX/``; the old set is not touched while the exporters work. When all
are written, the set's manifest (:mod:`collate.runs.manifest`: the SHA-256 of each file and of each
input) is written into the staging folder last, atomically: that is the commit. Then each file
is renamed over the old one, the manifest over the old manifest, and the staging folder goes.

A rename within one file system is atomic. A run killed while writing leaves the old set whole
beside a staging folder with no manifest; one killed between two renames (a window of
microseconds) leaves a committed staging folder. Whatever next writes into the folder — a run or
an export — begins with :func:`recover`: a committed staging folder is moved into place (roll
forward), any other is deleted (roll back), and so are the temporary files of a killed writer.
``collate export`` then checks the set against its manifest and refuses a set that does not match
(a file edited since, or a folder a power cut left half-renamed: the files are synced to disk,
the folder entries not).

A format written in parts (a book's HTML) has them in the set as files of theirs: :mod:`collate.runs.parts`.

One writer at a time: ``out/.collate/lock`` is locked while a set is written (the system drops
the lock of a killed process, so a kill never leaves the folder locked; where there is no
``fcntl``, on Windows, there is no lock).

Not a generation folder with an atomically swapped pointer: the outputs are files people open
by name (``output/touhu.html``), and a symbolic link per file would be neither one swap nor
something that travels with a folder sent to someone else.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING

from collate import __version__
from collate.errors import ExportError
from collate.exporters import EXPORTERS, get_exporter
from collate.files import write_atomic
from collate.project import STEM_RULE, Project, is_file_stem
from collate.results import ExportInput
from collate.runs.manifest import (
    LEGACY,
    MANIFEST,
    STATE_DIR,
    Manifest,
    changed_inputs,
    input_hashes_now,
    manifest_of,
    manifest_text,
    parse_manifest,
    project_of,
    read_manifest,
    sha256_of,
)
from collate.runs.parts import parts_among, recorded_outputs, remove_stale
from collate.runs.saved import SAVED, Saving, decided, last_run, load_last
from collate.runs.writers import write_formats

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from collate.results import RunResult

STAGING = "new-"
# write_atomic's temporary files: `.{name}.`, tempfile's 8 random characters, `.tmp`.
_TMP = re.compile(r"\.(.+)\.[a-z0-9_]{8}\.tmp")


def _cannot(exc: OSError, where: Path) -> ExportError:
    return ExportError(f"cannot write: {exc.strerror or exc}", where=str(where))


def _state_folder(out: Path) -> Path:
    """``out/.collate``, made if need be; refused if it is a symbolic link.

    A zip, tar or git copy of an output folder keeps a link as a link: followed, the recovery of a
    killed run would delete folders named ``new-*`` wherever it points, and the lock and manifest
    would be written there.
    """
    state = out / STATE_DIR
    if state.is_symlink():
        raise ExportError(
            f"{STATE_DIR} is a symbolic link: collate writes its record and lock there and never follows one",
            where=str(state),
            hint=f"remove the link (a copy of an output folder needs no {STATE_DIR}), or write elsewhere with --out",
        )
    try:
        state.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot(exc, out) from None
    if (state / "lock").is_symlink():
        raise ExportError(
            "the lock file is a symbolic link", where=str(state / "lock"), hint="remove it: collate makes its own"
        )
    return state


@contextmanager
def hold_output(out: Path, waiting: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold ``out``'s lock while the block runs, after finishing what a killed writer left there.

    If another collate holds it, ``waiting`` hears why and the lock is waited for; without
    ``waiting`` that is an :class:`ExportError`.
    """
    state = _state_folder(out)
    try:
        handle = (state / "lock").open("ab")
    except OSError as exc:
        raise _cannot(exc, out) from None
    with handle:
        _lock(handle, out, waiting)
        recover(out)
        yield


def _lock(handle: IO[bytes], out: Path, waiting: Callable[[str], None] | None) -> None:
    if fcntl is None:
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if waiting is None:
            raise ExportError(
                "another collate is writing into this folder",
                where=str(out),
                hint="wait for it to finish, or write elsewhere with --out",
            ) from None
        waiting(f"another collate is writing into {out}: waiting for it to finish (or stop and use --out)")
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX)


def cache_folder(out: Path, name: str) -> Path:
    """A cache the runs into ``out`` keep (``out/.collate/NAME``, the shelf's keys): never a link's target."""
    return _state_folder(out) / name


def wait_for_output(out: Path, waiting: Callable[[str], None]) -> None:
    """Wait, saying so, while another collate holds ``out``'s lock; make nothing if there is none.

    A run asks before it collates, so that one that would find the folder busy when it came to
    write does not collate for minutes first; it takes the lock itself only to write (a run
    refused on its inputs leaves no folder behind).
    """
    lock = out / STATE_DIR / "lock"
    if lock.is_symlink() or (out / STATE_DIR).is_symlink():
        _state_folder(out)  # says why, as writing would
    if not lock.is_file():
        return
    try:
        handle = lock.open("rb")
    except OSError:
        return  # writing will say what is wrong
    with handle:
        _lock(handle, out, waiting)


def _regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def _move_into_place(staging: Path, manifest: Manifest, out: Path) -> None:
    """Rename the committed set in ``staging`` over the old one, stale parts removed (:mod:`.parts`); safe to repeat."""
    old = recorded_outputs(out)
    try:
        for name in manifest.outputs:
            # A file kept from the last set, or moved before a kill, is not in the staging folder.
            if _regular(staging / name):
                os.replace(staging / name, out / name)
        if manifest.run is not None and _regular(staging / SAVED.name):
            os.replace(staging / SAVED.name, out / SAVED)
        remove_stale(out, old, manifest.outputs)
        os.replace(staging / MANIFEST.name, out / MANIFEST)
        # The saved run of older versions describes another set: an older collate must not trust it.
        (out / LEGACY).unlink(missing_ok=True)
    except OSError as exc:
        raise _cannot(exc, out) from None
    shutil.rmtree(staging, ignore_errors=True)


def _committed(staging: Path) -> Manifest | None:
    try:
        return parse_manifest((staging / MANIFEST.name).read_bytes(), str(staging))
    except (OSError, ExportError):
        return None


def recover(out: Path) -> None:
    """Finish or undo what a killed writer left in ``out``, so that its set is whole again.

    The newest committed staging folder is moved into place; other staging folders, and
    temporary files of an interrupted atomic write, are deleted.
    """
    state = out / STATE_DIR
    try:
        found = [p for p in state.iterdir() if p.name.startswith(STAGING) and p.is_dir() and not p.is_symlink()]
    except OSError:
        return
    committed = [(p, m) for p in found if (m := _committed(p)) is not None]
    newest = max(committed, key=lambda c: (c[0] / MANIFEST.name).stat().st_mtime_ns, default=None)
    for p in found:
        if newest is None or p != newest[0]:
            shutil.rmtree(p, ignore_errors=True)
    if newest is not None:
        _move_into_place(newest[0], newest[1], out)
    suffixes = tuple(get_exporter(name).suffix for name in EXPORTERS)
    for folder in (state, out):
        for p in folder.iterdir():
            tmp = _TMP.fullmatch(p.name)
            # In the output folder, only those of an output: the other files there are not ours.
            if tmp and _regular(p) and (folder == state or tmp.group(1).endswith(suffixes)):
                p.unlink(missing_ok=True)


def check_set(out: Path, manifest: Manifest, skip: Sequence[str] = ()) -> None:
    """Refuse a set whose files (but those in ``skip``) do not match their manifest.

    A missing file is no mix (it is written again, or leaves the set); one that differs was
    changed since it was written, and writing the rest beside it would mix two sets.
    """
    differ = [
        name
        for name, digest in manifest.outputs.items()
        if name not in skip and (out / name).exists() and (not _regular(out / name) or sha256_of(out / name) != digest)
    ]
    if differ:
        raise ExportError(
            "the outputs do not match the last run's manifest, changed since it was written: " + ", ".join(differ),
            where=str(out),
            hint="run `collate run` to write the whole set again",
        )


def _kept(out: Path, new: Manifest, written: Sequence[str]) -> dict[str, str]:
    """The files of the last set that stay in the new one: those of the same inputs, not written again."""
    try:
        old = read_manifest(out)
    except ExportError:
        return {}
    if old.collate != new.collate or old.inputs != new.inputs:
        return {}
    check_set(out, old, written)
    return {name: digest for name, digest in old.outputs.items() if name not in written and (out / name).exists()}


def _write_set(
    result: RunResult,
    out: Path,
    formats: Sequence[str] | None,
    progress: Callable[[str], None] | None,
    saved: bytes | None = None,
) -> tuple[Path, ...]:
    data = ExportInput.of(result)
    stem = data.collation.name
    if not is_file_stem(stem):
        # The project file's `name` is checked where it is read; this is a project built otherwise.
        raise ExportError(f"{stem!r} cannot name output files", where=str(out), hint=f"name them with {STEM_RULE}")
    exporters = {name: get_exporter(name) for name in formats or tuple(EXPORTERS)}
    names = {name: f"{stem}{exporter.suffix}" for name, exporter in exporters.items()}
    manifest = manifest_of(result.read.project, out)
    # A whole set replaces the last one, whatever it was; only some formats join the rest of it.
    written = (*names.values(), *parts_among(recorded_outputs(out), stem, formats))  # its old parts go
    kept = _kept(out, manifest, written) if formats else {}
    try:
        staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=out / STATE_DIR))
    except OSError as exc:
        raise _cannot(exc, out) from None
    try:
        save = Saving(result, staging / SAVED.name, saved, progress)
        digests = write_formats(data, [(name, staging / names[name]) for name in exporters], progress, save)
        manifest = replace(manifest, outputs={**kept, **digests}, run=hashlib.sha256(save.data).hexdigest())
        # The commit: from here on the new set is whole, and a kill is rolled forward.
        write_atomic(staging / MANIFEST.name, manifest_text(manifest))
    except BaseException:
        # Failed, or interrupted where Python still runs (Ctrl-C): the old set stands as it was.
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _move_into_place(staging, manifest, out)
    return tuple(out / names[name] for name in exporters)


def write_outputs(
    result: RunResult,
    out: Path,
    formats: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
    waiting: Callable[[str], None] | None = None,
) -> tuple[Path, ...]:
    """Write the ``formats`` named (default: every registered one) into ``out`` as one set; return the paths.

    The exporters' input is made once from the run and handed to each; ``progress`` hears of
    each file as it is begun. Where only some formats are written, the other files of the last set
    stay in the set if they are of the same inputs; one of them that changed since it was written
    is an :class:`ExportError`, raised before anything is written. ``waiting`` hears of another
    writer holding the folder, and is waited for (see :func:`hold_output`).
    """
    with hold_output(out, waiting):
        return _write_set(result, out, formats, progress)


@dataclass(frozen=True, slots=True)
class Exported:
    """What an export did: the files of the formats asked for, and whether it wrote them or found them current."""

    paths: tuple[Path, ...]
    written: bool


def _current(
    out: Path, manifest: Manifest, project: Project, formats: Sequence[str] | None, now: Mapping[str, str]
) -> tuple[Path, ...]:
    """The files of ``formats`` if the set in ``out`` already holds them as an export would write them; else ().

    They are current when nothing they are made of changed since they were written: the same
    collate, every input as its record hashed it — the decisions file too, whose decisions and
    verdicts change what is printed — and each file there as written (:func:`check_set` has
    compared those present; one missing is written again). ``now``: the inputs' hashes as they are.
    """
    names = [f"{project.name}{get_exporter(name).suffix}" for name in formats or tuple(EXPORTERS)]
    parts = parts_among(manifest.outputs, project.name, formats)  # a book's HTML: its parts there too
    if manifest.collate != __version__ or manifest.run is None:
        return ()
    if not all(name in manifest.outputs and _regular(out / name) for name in (*names, *parts)):
        return ()
    if changed_inputs(manifest, out, project, now=now):
        return ()
    return tuple(out / name for name in names)


def export_outputs(
    out: Path,
    formats: Sequence[str] | None = None,
    project: Project | None = None,
    progress: Callable[[str], None] | None = None,
    waiting: Callable[[str], None] | None = None,
    force: bool = False,
) -> Exported:
    """Write ``formats`` (default: all) of the last run in ``out`` again, into its set; say what was done.

    The set is checked against its manifest before anything is written; the run is the saved one
    with the decisions of the day applied (:func:`~collate.runs.saved.last_run`), collated again only
    if an input changed since, which ``waiting`` is told. Files that nothing changed since they were
    written are left as they are, unless ``force``: the same run and decisions give the same bytes.
    ``project`` is the project (default: the one the manifest names). ``waiting`` also hears of
    another writer holding the folder, and it is waited for (see :func:`hold_output`).
    """
    if not (out / STATE_DIR).is_dir() or (out / STATE_DIR).is_symlink():
        read_manifest(out)  # says no run was made here, without making the folder
    with hold_output(out, waiting):
        manifest = read_manifest(out)
        check_set(out, manifest)
        if project is None:
            project = project_of(manifest, out)
        # Each input hashed once: what tells the files current also tells the run unchanged.
        now = input_hashes_now(manifest, out, project)
        if not force and (current := _current(out, manifest, project, formats, now)):
            return Exported(current, written=False)
        run, saved = load_last(out, project, progress, waiting, manifest, now)
        return Exported(_write_set(decided(run), out, formats, progress, saved), written=True)


def export_into(
    out: Path,
    runs: Path,
    formats: Sequence[str] | None = None,
    project: Project | None = None,
    progress: Callable[[str], None] | None = None,
    waiting: Callable[[str], None] | None = None,
) -> Exported:
    """Write ``formats`` (default: all) of the last run in ``runs`` into ``out``, a folder with no run of its own.

    The run is loaded as :func:`export_outputs` loads it (the decisions of the day applied, collated
    again only if an input changed since), under ``runs``' lock so that no writer swaps the set
    while it is read; ``out`` gets a whole new set with its own manifest, which the commands after
    read as they read any run's.
    """
    if not (runs / STATE_DIR).is_dir() or (runs / STATE_DIR).is_symlink():
        read_manifest(runs)  # says no run was made there, without making the folder
    with hold_output(runs, waiting):
        manifest = read_manifest(runs)
        run = decided(last_run(runs, project or project_of(manifest, runs), progress, waiting, manifest))
    return Exported(write_outputs(run, out, formats, progress, waiting), written=True)


def holds_run(out: Path) -> bool:
    """Whether ``out`` holds the record of a run (this collate's, or an older one's)."""
    return (out / MANIFEST).exists() or (out / LEGACY).exists()
