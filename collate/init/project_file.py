"""``collate init``: the project file (``collate.toml``) for witness files, written where it is asked for."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import tomlkit
from tomlkit.items import Item

from collate.errors import ProjectError
from collate.files import parse_toml, write_atomic
from collate.init.gaiji import GAIJI_FILE, GAIJI_SOURCE, GaijiChoice, find_gaiji_table
from collate.init.project import described_project
from collate.project import PROJECT_FILE, Project, project_from_mapping


def _relative(path: Path, root: Path, folder: Path) -> str:
    """``path`` (relative to ``root``) as the project file in ``folder`` names it: relative to it."""
    target = os.path.abspath(root / path)
    try:
        return Path(os.path.relpath(target, os.path.abspath(folder))).as_posix()
    except ValueError:  # another drive (Windows): there is no relative path
        return Path(target).as_posix()


# What each key is and what to change, said beside it: the file is the editor's to edit.
_SAYS = {
    "title": "printed on every output; change freely",
    "base": "the base text: any witness's siglum",
    "gaiji_table": "resolves the &KR…; entities; relative to this file",
    "siglum": "short ASCII id; used in commands and the TEI",
    "label": "the short name printed in the apparatus",
    "path": "the witness file, relative to this file",
    "bibl": "the source as the TEI header cites it",
    "notes": "said of the witness in the TEI header",
}


def _said(key: str, value: str, says: str | None = None) -> Item:
    """``value`` as a TOML item with a comment saying what it is (:data:`_SAYS`, or ``says``)."""
    item = tomlkit.item(value)
    item.comment(says or _SAYS[key])
    item.trivia.comment_ws = "  "
    return item


def project_text(project: Project, folder: Path, *, entities: bool = False) -> str:
    """The project file of ``project``, to be written in ``folder``: its paths relative to it.

    ``entities``: the witnesses hold Kanripo gaiji entities; without a gaiji table the file says
    how to name one. Every key has a comment saying what it is and what to change.
    """
    doc = tomlkit.document()
    doc.add(tomlkit.comment("A collation project, written by `collate init` from the witness files named."))
    doc.add(tomlkit.comment('Edit it freely: README.md ("The project file") describes every key.'))
    doc.add("title", _said("title", project.title))
    doc.add("name", _said("name", project.name, f"names the output files: output/{project.name}.tei.xml …"))
    doc.add("base", _said("base", project.base))
    if project.gaiji_table is not None:
        doc.add("gaiji_table", _said("gaiji_table", _relative(project.gaiji_table, project.root, folder)))
    elif entities:
        doc.add(tomlkit.comment("The files hold Kanripo gaiji entities (&KR…;): name the table that resolves them."))
        doc.add(tomlkit.comment(f"Get it from {GAIJI_SOURCE}, then:"))
        doc.add(tomlkit.comment(f'gaiji_table = "path/to/{GAIJI_FILE}"'))
    witnesses = tomlkit.aot()
    for w in project.witnesses:
        table = tomlkit.table()
        table.add("siglum", _said("siglum", w.siglum))
        table.add("label", _said("label", w.label))
        table.add("path", _said("path", _relative(w.path, project.root, folder)))
        for key, value in (("bibl", w.bibl), ("notes", w.notes)):
            if value:
                table.add(key, _said(key, value))
        witnesses.append(table)
    doc.add(tomlkit.nl())
    doc.add("witness", witnesses)
    return tomlkit.dumps(doc)


@dataclass(frozen=True, slots=True)
class Initialized:
    """What ``collate init`` wrote: the project file, the project as a run reads it, how its gaiji table was chosen."""

    path: Path
    project: Project
    gaiji: GaijiChoice


def _gaiji(files: Sequence[Path], given: Path | None, entities: bool) -> tuple[Path | None, GaijiChoice]:
    """The gaiji table (relative to the working folder, or absolute) and how it was chosen."""
    if given is not None:
        if not given.is_file():
            raise ProjectError(
                "no such gaiji table", where=str(given), hint="name the Kanripo gaiji table (charlist.org.txt)"
            )
        return given, GaijiChoice.GIVEN
    if not entities:
        return None, GaijiChoice.NOT_NEEDED
    found = find_gaiji_table(files, Path.cwd())
    return found, GaijiChoice.FOUND if found is not None else GaijiChoice.MISSING


def init_project(
    files: Sequence[Path],
    folder: Path | None = None,
    *,
    base: str | None = None,
    force: bool = False,
    gaiji: Path | None = None,
) -> Initialized:
    """Write ``collate.toml`` in ``folder`` (default: the working folder) for ``files``: what was written.

    The witnesses are named as :func:`project_from_files` names them, the base first. A project file
    already there is an error unless ``force``: it may hold an editor's work. ``gaiji`` names the
    Kanripo gaiji table; without it, where the files hold entities, the table is looked for beside
    them (:func:`~collate.init.gaiji.find_gaiji_table`).
    """
    folder = folder or Path()
    path = folder / PROJECT_FILE
    if path.exists() and not force:
        raise ProjectError(
            "a project file is here already",
            where=str(path),
            hint="edit it, or pass --force to replace it with a new one",
        )
    project, headers = described_project(files, Path.cwd(), base)
    entities = any(h.entities for h in headers)
    table, choice = _gaiji(files, gaiji, entities)
    text = project_text(replace(project, gaiji_table=table), folder, entities=entities)
    # What is written is what a run reads: checked as a project file before it is written.
    written = project_from_mapping(parse_toml(text, str(path)), root=folder, source=path, raw_text=text)
    if force:
        write_atomic(path, text)
    else:
        try:
            # Exclusive creation: a project file made meanwhile is not overwritten either.
            with path.open("x", encoding="utf-8", newline="\n") as out:
                out.write(text)
        except FileExistsError:
            raise ProjectError(
                "a project file is here already", where=str(path), hint="edit it, or pass --force to replace it"
            ) from None
        except OSError as exc:
            raise ProjectError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    return Initialized(path, replace(written, source=path), choice)
