"""The pipeline on one screen: read → (normalize → tokenize → align → apparatus) → export.

Each stage is a typed function; this module composes them for a :class:`Project`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from collate.model import Witness
from collate.project import Project
from collate.readers import read_witness

Progress = Callable[[str], None]


@dataclass(frozen=True, slots=True)
class ReadResult:
    """Every witness of a project, read."""

    project: Project
    witnesses: tuple[Witness, ...]

    @property
    def base(self) -> Witness:
        """The base witness."""
        return next(w for w in self.witnesses if w.siglum == self.project.base)


def read_project(project: Project, progress: Progress | None = None) -> ReadResult:
    """Read every witness the project declares."""
    witnesses = []
    for cfg in project.witnesses:
        if progress:
            progress(f"reading {cfg.siglum}")
        witnesses.append(
            read_witness(
                project.resolve(cfg.path),
                siglum=cfg.siglum,
                label=cfg.label,
                layout=cfg.layout,
                encoding=cfg.encoding,
                gaiji_table=project.resolve(project.gaiji_table) if project.gaiji_table else None,
                display=cfg.display_path,
            )
        )
    return ReadResult(project, tuple(witnesses))
