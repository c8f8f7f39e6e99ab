"""An output written in parts, as its set knows it.

A format of :data:`~collate.exporters.IN_PARTS` may write its output as a main file and parts beside
it, named after the output (:func:`~collate.exporters.part_name`: a book's HTML is an index, with a
page and a search script a part, and the stylesheet and scripts they share as part 0). The parts
are files of the set like any other: written into the staging folder with their format, hashed in
the manifest, moved into place with the rest, checked against their hashes. Two things are theirs
alone:

* a later set may have fewer parts: those it no longer has are removed as it moves into place,
  before its manifest replaces the old one, which still names them, so that a kill in between is
  rolled forward by the next writer and they are removed then (:func:`remove_stale`);
* a format written again alone (``collate export --format html``) writes parts of its own: the old
  ones are neither kept in the set nor checked as the files kept are (:func:`parts_among`).
"""

from __future__ import annotations

import stat
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from collate.errors import ExportError
from collate.exporters import EXPORTERS, IN_PARTS, is_part, part_stem
from collate.runs.manifest import MANIFEST, read_manifest


def parts_among(names: Iterable[str], stem: str, formats: Sequence[str] | None) -> list[str]:
    """The parts of ``stem``'s outputs among ``names``, if ``formats`` (None: every one) write any in parts."""
    if IN_PARTS.isdisjoint(formats or EXPORTERS):
        return []
    return [name for name in names if is_part(name, stem)]


def recorded_outputs(out: Path) -> Mapping[str, str]:
    """The outputs the manifest in ``out`` names, by file name; none if there is none (or none that reads)."""
    if not (out / MANIFEST).is_file():
        return {}
    try:
        return read_manifest(out).outputs
    except ExportError:
        return {}


def remove_stale(out: Path, old: Mapping[str, str], new: Mapping[str, str]) -> None:
    """Remove from ``out`` the parts the last set's outputs (``old``) had and the new set's (``new``) have not.

    Only parts of an output the last set had, and only files: what else the last set named and this
    one does not (an output of a project renamed since) is the user's to remove.
    """
    mains = [name for name in old if not is_part(name)]
    for name in sorted(old.keys() - new.keys()):
        stem = part_stem(name)
        if stem is None or not any(main.startswith(f"{stem}.") for main in mains):
            continue
        try:
            if stat.S_ISREG((out / name).lstat().st_mode):
                (out / name).unlink()
        except FileNotFoundError:
            continue
