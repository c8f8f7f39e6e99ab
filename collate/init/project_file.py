"""``collate init``: the project file (``collate.toml``) for witness files, written where it is asked for."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import tomlkit

from collate.errors import ProjectError
from collate.files import parse_toml, write_atomic
from collate.init.project import described_project
from collate.project import PROJECT_FILE, Project, project_from_mapping


def _relative(path: Path, root: Path, folder: Path) -> str:
    """``path`` (relative to ``root``) as the project file in ``folder`` names it: relative to it."""
    target = os.path.abspath(root / path)
    try:
        return Path(os.path.relpath(target, os.path.abspath(folder))).as_posix()
    except ValueError:  # another drive (Windows): there is no relative path
        return Path(target).as_posix()


def project_text(project: Project, folder: Path, *, entities: bool = False) -> str:
    """The project file of ``project``, to be written in ``folder``: its paths relative to it.

    ``entities``: the witnesses hold Kanripo gaiji entities, and the file says how to resolve them.
    """
    doc = tomlkit.document()
    doc.add(tomlkit.comment("A collation project, written by `collate init` from the witness files named."))
    doc.add(tomlkit.comment('Edit it freely: README.md ("The project file") describes every key.'))
    doc.add("title", project.title)
    doc.add("name", project.name)
    doc.add("base", project.base)
    if entities:
        doc.add(tomlkit.comment("The files hold Kanripo gaiji entities (&KR…;): name the table that resolves them."))
        doc.add(tomlkit.comment('gaiji_table = "path/to/kanripo-KR-Gaiji-charlist.org.txt"'))
    witnesses = tomlkit.aot()
    for w in project.witnesses:
        table = tomlkit.table()
        table.add("siglum", w.siglum)
        table.add("label", w.label)
        table.add("path", _relative(w.path, project.root, folder))
        for key, value in (("bibl", w.bibl), ("notes", w.notes)):
            if value:
                table.add(key, value)
        witnesses.append(table)
    doc.add(tomlkit.nl())
    doc.add("witness", witnesses)
    return tomlkit.dumps(doc)


def init_project(
    files: Sequence[Path], folder: Path | None = None, *, base: str | None = None, force: bool = False
) -> tuple[Path, Project]:
    """Write ``collate.toml`` in ``folder`` (default: the working folder) for ``files``; its path and project.

    The witnesses are named as :func:`project_from_files` names them, the base first. A project file
    already there is an error unless ``force``: it may hold an editor's work.
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
    text = project_text(project, folder, entities=any(h.entities for h in headers))
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
    return path, replace(written, source=path)
