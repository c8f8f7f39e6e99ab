"""The run itself, kept beside its outputs (``out/.collate/run.json.gz``) and loaded, not collated again.

``collate run`` writes the run as it stood before the editor's decisions (the witnesses as read,
their tokens, the collation, the notes, the compilation's coverage) into its output set; the
manifest keeps the file's SHA-256. ``export``, ``diff``, ``notes``, ``review``, ``habits`` and
``stats`` load it (:func:`last_run`) and apply the decisions of the day (:func:`decided`): an
editor's decisions change what is shown, never the collation. Only an input that changed since
(a witness, a table, a verdict on a print habit) has the run collated again, and the user is told.

The file is gzip'd JSON written and read by msgspec against the run's own record types
(:class:`~collate.results.RunResult` and everything it holds, frozen dataclasses): decoding builds
the records field by field from their annotations and refuses anything else, so a file received
from someone else is data, never code. A record's caches (:class:`~collate.model.memo.Memo`) are
written as nothing and come back empty.
"""

from __future__ import annotations

import gc
import gzip
import hashlib
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import msgspec

from collate import __version__
from collate.errors import ExportError
from collate.files import write_atomic
from collate.model.memo import Memo
from collate.project import Project
from collate.results import RunResult
from collate.runs.manifest import (
    MANIFEST,
    STATE_DIR,
    Manifest,
    changed_inputs,
    decisions_key,
    project_of,
    read_manifest,
    refuse_unrecorded,
    regularizations_key,
)

SAVED = STATE_DIR / "run.json.gz"
_AGAIN = "run `collate run` to collate and save the run again"
Tell = Callable[[str], None]


def _encode(value: Any) -> Any:
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, Memo):
        return None
    raise NotImplementedError(f"cannot save {type(value).__name__}")


def _decode(kind: Any, value: Any) -> Any:
    if kind is Path:
        return Path(value)
    if kind is Memo or getattr(kind, "__origin__", None) is Memo:
        return Memo()
    raise NotImplementedError(f"cannot load {kind}")


_ENCODER = msgspec.json.Encoder(enc_hook=_encode)
_DECODER = msgspec.json.Decoder(RunResult, dec_hook=_decode)


def run_bytes(run: RunResult) -> bytes:
    """The run as the saved file holds it, without the editor's decisions (they are applied on loading).

    Nor its table of tokens per witness and layer: every command after the run finds the tokens
    it shows in the alignments and loci, which hold them too, and the table would be two fifths of
    the file and of the time to load it. Compressed fast (level 1: a run shrinks about tenfold in a
    tenth of a second of a 300k-character book), with no time stamp, so that the same run saves
    the same bytes.
    """
    return gzip.compress(_ENCODER.encode(replace(run.without_decisions(), tokens={})), compresslevel=1, mtime=0)


@dataclass(slots=True)
class Saving:
    """Saving a run as a file of its set (``out/.collate/run.json.gz`` in the staging folder), once called.

    A callable, so that the writer of the set does it while a worker still writes the longest
    format (:func:`~collate.runs.writers.write_formats`' ``beside``); ``data`` is what it saved.
    """

    run: RunResult
    path: Path
    # The bytes the run was loaded from, where saving it again would write them (see load_last).
    known: bytes | None
    progress: Callable[[str], None] | None = None
    data: bytes = b""

    def __call__(self) -> None:
        if self.progress:
            self.progress("saving the run")
        self.data = self.known if self.known is not None else run_bytes(self.run)
        write_atomic(self.path, self.data)


def run_of_bytes(data: bytes, where: str) -> RunResult:
    """The run a saved file holds; a file that is not one is an :class:`ExportError` saying so.

    The cyclic collector is paused while the records are built: decoding makes millions of objects
    that hold no cycles, and the collections it would set off walk them all again and again (a
    300k-character book's run: 1.8 s to decode, 0.5 s so).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        return _DECODER.decode(gzip.decompress(data))
    except (OSError, EOFError, zlib.error, msgspec.DecodeError, msgspec.ValidationError, ValueError, TypeError) as e:
        raise ExportError(f"the saved run cannot be read: {e}", where=where, hint=_AGAIN) from None
    finally:
        if paused:
            gc.enable()


def _saved_file(out: Path, manifest: Manifest) -> bytes | None:
    """The bytes of the run saved in ``out``, checked against the record's digest; None if it saved none."""
    if manifest.run is None:
        return None
    path = out / SAVED
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ExportError("the saved run is missing", where=str(path), hint=_AGAIN) from None
    except OSError as exc:
        raise ExportError(f"cannot be read: {exc.strerror or exc}", where=str(path)) from None
    if hashlib.sha256(data).hexdigest() != manifest.run:
        raise ExportError(
            "the saved run is not the one the record of the last run names (changed since)",
            where=str(path),
            hint=_AGAIN,
        )
    return data


def last_run(
    out: Path,
    project: Project,
    progress: Callable[[str], None] | None = None,
    tell: Tell | None = None,
    manifest: Manifest | None = None,
    now: Mapping[str, str] | None = None,
) -> RunResult:
    """The last run whose set is in ``out``, loaded; collated again only where that cannot be (:func:`load_last`)."""
    return load_last(out, project, progress, tell, manifest, now)[0]


def load_last(
    out: Path,
    project: Project,
    progress: Callable[[str], None] | None = None,
    tell: Tell | None = None,
    manifest: Manifest | None = None,
    now: Mapping[str, str] | None = None,
) -> tuple[RunResult, bytes | None]:
    """The last run whose set is in ``out``, loaded; collated again only where that cannot be.

    With it, the saved file's bytes where saving the run again would write those very bytes (its
    places those it was saved with; the decisions of the day are never saved): an export after a
    review copies them rather than encoding a book's run anew (half a second at 3 × 300k
    characters). None where it was collated again, or moved.

    ``project`` is the project as it is now. The saved run is loaded when its inputs are unchanged
    (the decisions file aside: decisions are applied anew, :func:`decided`) and the verdicts on
    print habits are those it was built with. Otherwise — an input the record hashed changed, no
    run saved, a record of another collate — ``tell`` hears why and the project is collated again,
    without decisions. An input the record did not hash, or one gone, is an :class:`ExportError`
    (:func:`~collate.runs.manifest.refuse_unrecorded`), as is a record damaged or of a newer
    collate, and a saved run that does not match its record. ``manifest`` is the record of ``out``
    where the caller has read it already.
    """
    from collate.decisions.file import decisions_path, load_habit_verdicts
    from collate.pipeline import collate_project

    manifest = manifest or read_manifest(out)
    habits = load_habit_verdicts(decisions_path(project))
    changed = changed_inputs(manifest, out, project, skip=(decisions_key(project, out),), now=now)
    # The editor's own regularization table, which a review begins beside the project file, is no
    # stranger's input: new or changed, it is collated with, as any changed input is.
    refuse_unrecorded(changed, out, welcome=(regularizations_key(project, out),))
    if changed:
        why = "the inputs changed since the last run: " + ", ".join(f"{shown} ({how})" for shown, how in changed)
    elif manifest.collate != __version__:
        # The records of another version may not decode as this one's: its run is not read.
        why = f"the last run was made by collate {manifest.collate}, not this one ({__version__})"
    elif (data := _saved_file(out, manifest)) is None:
        why = "the last run saved no collation"
    elif (saved := run_of_bytes(data, str(out / SAVED))).habits != habits:
        why = "the verdicts on print habits changed since the last run"
    else:
        here = _moved_here(saved, project)
        return here, data if here.read.project == saved.read.project else None
    if tell is not None:
        tell(f"{why}; collating again")
    return collate_project(project, progress, habits=habits), None


def _moved_here(run: RunResult, project: Project) -> RunResult:
    """``run`` with its project's places (folder, file, tables, settings) those of ``project``, the project here.

    A saved run names the places of the run that made it (a folder given relative to where it was
    run, another machine's): every later use — the decisions file, a manifest written again — must
    find them here. The run's witnesses stay its own (a shelf's joined them).
    """
    saved = run.read.project
    moved = replace(
        saved,
        root=project.root,
        source=project.source,
        gaiji_table=project.gaiji_table,
        sections=project.sections,
        shelf=project.shelf,
    )
    return replace(run, read=replace(run.read, project=moved))


def load_run(
    out: Path, project: Project | None = None, progress: Callable[[str], None] | None = None, tell: Tell | None = None
) -> RunResult:
    """The last run whose set is in ``out``, with the decisions of the day applied (see :func:`last_run`).

    ``project`` is the project as it is now (default: the one the record names, read only if it is
    unchanged since).
    """
    if project is None:
        project = project_of(read_manifest(out), out)
    return decided(last_run(out, project, progress, tell))


def decided(run: RunResult, project: Project | None = None) -> RunResult:
    """``run`` with the editor's decisions of the day applied: ``project``'s decisions file as it is now.

    ``project`` is the project as read now (default: the run's own; a loaded run's is already the
    project here, :func:`last_run`, never the places its saved file names).
    """
    from collate.decisions.file import decisions_path, load_decisions
    from collate.pipeline import decide

    return decide(run, load_decisions(decisions_path(project or run.read.project)))


__all__ = [
    "MANIFEST",
    "SAVED",
    "Saving",
    "decided",
    "last_run",
    "load_last",
    "load_run",
    "run_bytes",
    "run_of_bytes",
]
