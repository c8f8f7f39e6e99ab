"""Reading the project file: its text parsed, its tables typed, its values checked, a :class:`Project` made."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from collate.decode import check_regular_file
from collate.errors import ProjectError
from collate.files import parse_toml, read_utf8
from collate.project.checks import (
    check_base,
    check_gaiji,
    check_lexicon_sigla,
    check_name,
    check_no_nul,
    check_review,
    check_shelf,
    check_work,
)
from collate.project.convert import read_tables
from collate.project.positions import FileLines, scan
from collate.project.records import Project
from collate.project.tables import SETTINGS
from collate.project.witnesses import check_layers, check_witness_layers, check_witnesses


def load_project(path: Path) -> Project:
    """Read and check a project file; every problem is a :class:`ProjectError` with a location."""
    shown = str(path)
    try:
        check_regular_file(path, shown, ProjectError, hint="give the path of a project file (collate.toml)")
        raw_text = read_utf8(path, shown, hint="TOML files are UTF-8: save the project file as UTF-8")
    except FileNotFoundError:
        raise ProjectError(
            "the project file does not exist",
            where=shown,
            hint="check its path, or write one for your witness files with `collate init FILES…`",
        ) from None
    except OSError as exc:
        raise ProjectError(f"cannot be read: {exc.strerror}", where=shown) from None
    data = parse_toml(raw_text, shown)
    return project_from_mapping(data, root=path.parent, source=path, raw_text=raw_text)


def project_from_mapping(
    data: Mapping[str, Any], *, root: Path, source: Path | None = None, raw_text: str = ""
) -> Project:
    """Build a :class:`Project` from parsed TOML; ``raw_text``, the file's text, gives errors their lines."""
    lines = FileLines(str(source) if source else "project", scan(raw_text))
    check_no_nul(data, lines)
    tables = read_tables(data, lines)
    witnesses = check_witnesses(tables.witness, lines)
    base = check_base(tables.base, witnesses, lines)
    if tables.gaiji_table:
        check_gaiji(tables.gaiji_table, root, lines)
    check_review(tables.review, root, lines)
    check_layers(tables.layers, lines.at("layers"))
    if not tables.layers:
        raise ProjectError(
            "`layers` is empty: nothing would be collated", where=lines.at("layers"), hint='e.g. layers = ["jing"]'
        )
    check_witness_layers(witnesses, tables.layers, lines)
    check_lexicon_sigla(tables.notes, (w.siglum for w in witnesses), lines)
    work = check_work(tables.work, lines)
    return Project(
        title=tables.title,
        name=check_name(tables.name, lines),
        base=base,
        witnesses=witnesses,
        root=root,
        source=source,
        gaiji_table=Path(tables.gaiji_table) if tables.gaiji_table else None,
        layers=tables.layers,
        work=work,
        # The stages' tables as written: each stage reads its own settings from them.
        sections={k: v for k, v in data.items() if k not in SETTINGS},
        shelf=check_shelf(tables.shelf, lines),
    )


__all__ = ["load_project", "project_from_mapping"]
