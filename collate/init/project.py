"""The project of witness files named without a project file, as ``collate init`` names them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from collate.errors import ProjectError
from collate.init.headers import Header, read_header
from collate.init.naming import juan_not_in_title, name_witnesses, project_name
from collate.init.title import project_title
from collate.project import Project, WitnessConfig


def _headers(files: Sequence[Path], root: Path, alone: bool = False) -> tuple[Header, ...]:
    # Every file is read before the number of them is judged: a bad file is named first.
    headers = tuple(read_header(root / f, str(f)) for f in files)
    if not headers:
        raise ProjectError("no witness files named", hint="name two or more witness files, the base first")
    if len(headers) < 2 and not alone:
        raise ProjectError(
            "one witness only: a collation needs two or more",
            where=str(files[0]),
            hint="name another witness file: a second text, or a readings file of its variants",
        )
    return headers


def _with_base(witnesses: tuple[WitnessConfig, ...], base: str | None, root: Path) -> tuple[WitnessConfig, ...]:
    """The witnesses with the base first: the first one, or the one ``base`` names (a siglum or a file)."""
    chosen = witnesses[0]
    if base is not None:
        same_file = [w for w in witnesses if os.path.abspath(root / w.path) == os.path.abspath(root / base)]
        named = [w for w in witnesses if w.siglum == base] or same_file
        if not named:
            raise ProjectError(
                f"the base {base!r} is none of the witnesses",
                hint="name its siglum (" + ", ".join(w.siglum for w in witnesses) + ") or one of the files given",
            )
        chosen = named[0]
    if chosen.path.suffix == ".toml":
        # A readings file is silent outside its entries: there is no text to collate against.
        raise ProjectError(
            "the base is a readings file, not a full text",
            where=str(chosen.path),
            hint="name a full-text witness first, or choose the base with --base",
        )
    return (chosen, *(w for w in witnesses if w is not chosen))


def described_project(
    files: Sequence[Path], root: Path, base: str | None, alone: bool = False
) -> tuple[Project, tuple[Header, ...]]:
    """The project of ``files`` (relative to ``root``), and what each file's header says."""
    headers = _headers(files, root, alone)
    named = name_witnesses(headers)
    witnesses = _with_base(named, base, root)
    first = headers[named.index(witnesses[0])]
    # The chapter the files share, in its work (禮記·射義); where they name none, the base's own title.
    title = project_title(headers, first) or first.title + juan_not_in_title(first)
    project = Project(
        title=title or "collation",
        name=project_name(headers),
        base=witnesses[0].siglum,
        witnesses=witnesses,
        root=root,
    )
    return project, headers


def project_from_files(
    files: Sequence[Path], *, root: Path | None = None, base: str | None = None, alone: bool = False
) -> Project:
    """The project of witness files named without a project file, named as ``collate init`` names them.

    ``files`` are as given, relative to ``root`` (default: the working folder); the first is the
    base unless ``base`` names another (by siglum or file). A run of files and the project file
    ``collate init`` writes for them agree. ``alone``: one file will do (its other witnesses
    come from a shelf).
    """
    return described_project(files, root or Path.cwd(), base, alone)[0]
