"""An inline job's project: ``[defaults]`` under the job's own keys, the files it names checked
beside the manifest and their paths rewritten for the job's output folder, and the project file
written there (see :mod:`collate.batch.manifest`)."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from collate.batch.lines import TablePath
from collate.decode import check_regular_file
from collate.errors import ProjectError

# An inline job's decisions live beside the manifest, not in the output tree one may delete and rebuild.
DECISIONS_SUFFIX = ".decisions.toml"


def merge(defaults: Mapping[str, Any], own: Mapping[str, Any]) -> dict[str, Any]:
    """``own`` over ``defaults``: a table of both is merged key by key, any other value replaced."""
    merged = dict(defaults)
    for key, value in own.items():
        base = merged.get(key)
        merged[key] = merge(base, value) if isinstance(base, dict) and isinstance(value, dict) else value
    return merged


def _relative(path: str, manifest_dir: Path, job_dir: Path) -> str:
    """A manifest's path (relative to it) as the job's project file names it (relative to that); absolute stays."""
    if Path(path).is_absolute():
        return path
    target = manifest_dir / path
    try:
        return Path(os.path.relpath(target, job_dir)).as_posix()
    except ValueError:  # another drive (Windows): there is no relative path
        return target.as_posix()


def require_file(path: str, where: str, what: str, manifest_dir: Path) -> None:
    """Refuse a ``path`` (relative to the manifest) that is no regular file, naming ``where``."""
    target = Path(path) if Path(path).is_absolute() else manifest_dir / path
    if not target.exists():
        raise ProjectError(f"{what} {path!r} does not exist", where=where, hint="paths are relative to the manifest")
    check_regular_file(target, where, ProjectError, hint=f"name the file of {what}")


@dataclass(frozen=True, slots=True)
class InlineFiles:
    """An inline job's files: checked beside the manifest, rewritten for the job's own folder.

    ``at(table, key)`` names the manifest's line of a key, for the errors.
    """

    name: str
    entry: Mapping[str, Any]
    table: TablePath
    at: Callable[[TablePath, str | None], str]
    manifest_dir: Path
    job_dir: Path

    def relative(self, path: str) -> str:
        """``path`` (relative to the manifest) as the job's project file names it."""
        return _relative(path, self.manifest_dir, self.job_dir)

    def where(self, key: str) -> str:
        """Where ``key`` is set: in the job's own table, else in ``[defaults]``."""
        return self.at(self.table, key) if key in self.entry else self.at(("defaults",), key)

    def witness(self, k: int, witness: dict[str, Any]) -> dict[str, Any]:
        """The ``k``-th witness table with its file checked and its path rewritten."""
        path = (*self.table, "witness", k)
        if not isinstance(witness.get("path"), str):
            raise ProjectError(f"witness {k} of job {self.name!r} has no `path`", where=self.at(path, None))
        require_file(witness["path"], self.at(path, "path"), "the witness file", self.manifest_dir)
        return {**witness, "path": self.relative(witness["path"])}

    def rewrite(self, data: dict[str, Any]) -> None:
        """The gaiji table, the shelf folders and the variant tables of ``data`` checked and rewritten."""
        gaiji = data.get("gaiji_table")
        if isinstance(gaiji, str) and gaiji:
            require_file(gaiji, self.where("gaiji_table"), "the gaiji table", self.manifest_dir)
            data["gaiji_table"] = self.relative(gaiji)
        shelf = data.get("shelf")
        if isinstance(shelf, str):
            shelf = [shelf]
        if isinstance(shelf, list):
            where = self.where("shelf")
            for folder in shelf:
                if isinstance(folder, str) and folder:
                    target = Path(folder) if Path(folder).is_absolute() else self.manifest_dir / folder
                    if not target.is_dir():
                        hint = "paths are relative to the manifest"
                        raise ProjectError(f"the shelf folder {folder!r} does not exist", where=where, hint=hint)
            data["shelf"] = [self.relative(f) if isinstance(f, str) else f for f in shelf]
        normalize = data.get("normalize")
        if isinstance(normalize, dict) and isinstance(normalize.get("variant_tables"), list):
            tables = normalize["variant_tables"]
            own = isinstance(self.entry.get("normalize"), dict) and "variant_tables" in self.entry["normalize"]
            where = self.at((*self.table, "normalize") if own else ("defaults", "normalize"), "variant_tables")
            for t in tables:
                if isinstance(t, str):
                    require_file(t, where, "the variant table", self.manifest_dir)
            normalize["variant_tables"] = [self.relative(t) if isinstance(t, str) else t for t in tables]

    def review(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """The job's ``[review]`` table, its decisions file beside the manifest."""
        review = dict(data["review"]) if isinstance(data.get("review"), dict) else {}
        decisions = review.get("decisions")
        review["decisions"] = self.relative(
            decisions if isinstance(decisions, str) and decisions else self.name + DECISIONS_SUFFIX
        )
        # The decisions stay beside the manifest, outside the job's folder: the manifest means it so.
        review["decisions_outside"] = True
        return review


def project_text(data: Mapping[str, Any], batch: Path, name: str) -> str:
    """The project file of an inline job, in TOML: its settings, then its tables, its witnesses last."""
    import tomlkit

    ordered = {k: v for k, v in data.items() if not isinstance(v, (dict, list)) or k in ("layers", "shelf", "work")}
    ordered |= {k: v for k, v in data.items() if isinstance(v, dict)}
    ordered["witness"] = data["witness"]
    head = f"# The project of job {name!r} of the batch {batch.name}, as the manifest and its [defaults] make it.\n"
    return head + "# Change the manifest, not this file: the next batch writes it again.\n\n" + tomlkit.dumps(ordered)
