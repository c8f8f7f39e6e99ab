"""The project file (``collate.toml``): what is collated, against which base, and how."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from collate.errors import ProjectError
from collate.files import parse_toml, read_utf8

PROJECT_FILE = "collate.toml"
# Layers collated by default: the classic and its commentaries, each with its own kind.
DEFAULT_LAYERS = ("jing", "zhu", "shu", "shiwen")
_SIGLUM = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


@dataclass(frozen=True, slots=True)
class WitnessConfig:
    """One witness as the project file declares it."""

    siglum: str
    label: str
    path: Path
    layout: str = "auto"
    container: str = "auto"
    encoding: str | None = None
    notes: str = ""
    bibl: str = ""
    artifacts: tuple[str, ...] = ()
    layers: tuple[str, ...] | None = None

    @property
    def display_path(self) -> str:
        """The path as the user wrote it, for messages."""
        return str(self.path)


@dataclass(frozen=True, slots=True)
class Project:
    """A collation project: witnesses, base, and the settings of each stage.

    ``root`` is the folder paths are relative to. ``sections`` keeps the other tables of
    the project file (``[normalize]``, ``[notes]`` …) for the stage that owns each.
    """

    title: str
    name: str
    base: str
    witnesses: tuple[WitnessConfig, ...]
    root: Path
    source: Path | None = None
    gaiji_table: Path | None = None
    layers: tuple[str, ...] = DEFAULT_LAYERS
    work: str | None = None
    sections: Mapping[str, Any] = field(default_factory=dict)

    def witness(self, siglum: str) -> WitnessConfig:
        """The witness with this siglum."""
        for w in self.witnesses:
            if w.siglum == siglum:
                return w
        raise ProjectError(f"no witness {siglum!r} in the project", where=str(self.source or self.root))

    def resolve(self, path: Path) -> Path:
        """A path from the project file, made absolute against the project's folder."""
        return path if path.is_absolute() else self.root / path


def _str(table: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if value is None:
        raise ProjectError(f"`{key}` is missing", where=where, hint=f"add `{key} = \"…\"`")
    if not isinstance(value, str):
        raise ProjectError(f"`{key}` must be a string, not {type(value).__name__}", where=where)
    return value


def _line_of(text: str, needle: str) -> int:
    i = text.find(needle)
    return text.count("\n", 0, i) + 1 if i >= 0 else 1


def _key_line(text: str, key: str) -> str:
    """``:line`` of a top-level ``key = …`` (before the first table), or "" if it is not written."""
    first_table = re.search(r"^[ \t]*\[", text, re.MULTILINE)
    end = first_table.start() if first_table else len(text)
    m = re.compile(rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*=", re.MULTILINE).search(text, 0, end)
    return f":{text.count(chr(10), 0, m.start()) + 1}" if m else ""


_WITNESS_TABLE = re.compile(r"^[ \t]*\[\[[ \t]*witness[ \t]*\]\]", re.MULTILINE)
_SIGLUM_KEY = re.compile(r"^[ \t]*siglum[ \t]*=", re.MULTILINE)


def _witness_line(text: str, n: int, siglum: str) -> int:
    """The line of the ``n``-th witness table's ``siglum`` (not the first line that holds its text)."""
    headers = list(_WITNESS_TABLE.finditer(text))
    if len(headers) < n:
        return _line_of(text, siglum)
    start = headers[n - 1].start()
    end = headers[n].start() if n < len(headers) else len(text)
    key = _SIGLUM_KEY.search(text, start, end)
    return text.count("\n", 0, key.start() if key else start) + 1


def _check_reading_names(layout: str, container: str, siglum: str, where: str) -> None:
    """A witness's ``layout`` and ``container`` must name registered ones (or ``auto``)."""
    from collate.readers import CONTAINERS, LAYOUTS

    # ``mandoku`` was a layout before containers and layouts were told apart: it names the container.
    if layout not in ("auto", "mandoku") and layout not in LAYOUTS:
        raise ProjectError(
            f"unknown layout {layout!r} for witness {siglum}",
            where=where,
            hint="known layouts: " + ", ".join(sorted(LAYOUTS)) + ", or auto",
        )
    if container != "auto" and container not in CONTAINERS:
        raise ProjectError(
            f"unknown container {container!r} for witness {siglum}",
            where=where,
            hint="known containers: " + ", ".join(sorted(CONTAINERS)) + ", or auto",
        )


def _check_layers(layers: object, where: str) -> None:
    from collate.model import Layer

    text_layers = [x.value for x in Layer if x.is_text]
    if not isinstance(layers, list) or any(x not in text_layers for x in layers):
        raise ProjectError(
            f"`layers` must list text layers, got {layers!r}", where=where, hint="choose from " + ", ".join(text_layers)
        )


def load_project(path: Path) -> Project:
    """Read and check a project file; every problem is a :class:`ProjectError` with a location."""
    shown = str(path)
    try:
        raw_text = read_utf8(path, shown, hint="TOML files are UTF-8: save the project file as UTF-8")
    except FileNotFoundError:
        raise ProjectError(
            "no project file here", where=shown, hint="run in a project folder, pass --config, or name witness files"
        ) from None
    except OSError as exc:
        raise ProjectError(f"cannot be read: {exc.strerror}", where=shown) from None
    data = parse_toml(raw_text, shown)
    return project_from_mapping(data, root=path.parent, source=path, raw_text=raw_text)


def project_from_mapping(
    data: Mapping[str, Any], *, root: Path, source: Path | None = None, raw_text: str = ""
) -> Project:
    """Build a :class:`Project` from parsed TOML."""
    shown = str(source) if source else "project"
    entries = data.get("witness")
    if not isinstance(entries, list) or not entries:
        raise ProjectError("no witnesses", where=shown, hint="add one or more [[witness]] tables")
    witnesses: list[WitnessConfig] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise ProjectError(f"witness {i} is not a table", where=shown)
        siglum = _str(entry, "siglum", f"{shown} (witness {i})")
        where = f"{shown}:{_witness_line(raw_text, i, siglum)}" if raw_text else shown
        if not _SIGLUM.match(siglum):
            raise ProjectError(
                f"siglum {siglum!r} is not an ASCII identifier",
                where=where,
                hint="use letters, digits, - or _, starting with a letter (e.g. SK); put Chinese in `label`",
            )
        if siglum in seen:
            raise ProjectError(f"duplicate siglum {siglum!r}", where=where, hint="give each witness its own siglum")
        seen.add(siglum)
        layout = _str(entry, "layout", where, "auto")
        container = _str(entry, "container", where, "auto")
        _check_reading_names(layout, container, siglum, where)
        encoding = entry.get("encoding")
        artifacts = entry.get("artifacts", [])
        if not isinstance(artifacts, list) or not all(isinstance(a, str) for a in artifacts):
            raise ProjectError(
                f"`artifacts` must be a list of characters, got {artifacts!r}",
                where=where,
                hint='e.g. artifacts = ["防"]',
            )
        own_layers = entry.get("layers")
        if own_layers is not None:
            _check_layers(own_layers, where)
        witnesses.append(
            WitnessConfig(
                siglum=siglum,
                label=_str(entry, "label", where, siglum),
                path=Path(_str(entry, "path", where)),
                layout=layout,
                container=container,
                encoding=str(encoding) if encoding else None,
                notes=_str(entry, "notes", where, ""),
                bibl=_str(entry, "bibl", where, ""),
                artifacts=tuple(artifacts),
                layers=tuple(own_layers) if own_layers is not None else None,
            )
        )
    base = _str(data, "base", shown, witnesses[0].siglum)
    if base not in seen:
        raise ProjectError(
            f"base {base!r} is not one of the witnesses",
            where=shown + _key_line(raw_text, "base"),
            hint="set `base` to a siglum",
        )
    base_config = next(w for w in witnesses if w.siglum == base)
    if base_config.layout == "readings" or (base_config.layout == "auto" and base_config.path.suffix == ".toml"):
        # A readings file is silent outside its entries: there is no text to collate against.
        raise ProjectError(
            f"base {base!r} is a readings file, not a full text",
            where=shown + _key_line(raw_text, "base"),
            hint="set `base` to the siglum of a full-text witness",
        )
    gaiji = _str(data, "gaiji_table", shown, "")
    layers = data.get("layers", list(DEFAULT_LAYERS))
    _check_layers(layers, shown + _key_line(raw_text, "layers"))
    if not layers:
        raise ProjectError(
            "`layers` is empty: nothing would be collated",
            where=shown + _key_line(raw_text, "layers"),
            hint='e.g. layers = ["jing"]',
        )
    work = _str(data, "work", shown, "")
    known = {"title", "name", "base", "witness", "gaiji_table", "layers", "work"}
    for key, value in data.items():
        # The other keys are the stages' tables ([normalize], [notes] …): a value there is a typo.
        if key not in known and not isinstance(value, dict):
            raise ProjectError(
                f"`{key}` must be a table ([{key}]) or one of the settings",
                where=shown + _key_line(raw_text, key),
                hint="the settings are " + ", ".join(sorted(known)),
            )
    return Project(
        title=_str(data, "title", shown, "collation"),
        name=_str(data, "name", shown, "collation"),
        base=base,
        witnesses=tuple(witnesses),
        root=root,
        source=source,
        gaiji_table=Path(gaiji) if gaiji else None,
        layers=tuple(str(x) for x in layers),
        work=work or None,
        sections={k: v for k, v in data.items() if k not in known},
    )


def project_from_files(files: list[Path]) -> Project:
    """An ad-hoc project from witness files: the first is the base, sigla from the file names."""
    if files and files[0].suffix == ".toml":
        raise ProjectError(
            "the first file is the base, and this one is a readings file, not a full text",
            where=str(files[0]),
            hint="name a full-text witness first",
        )
    witnesses = []
    seen: set[str] = set()
    for path in files:
        stem = re.sub(r"[^A-Za-z0-9_-]", "", path.stem) or "W"
        if not stem[0].isalpha():
            stem = "W" + stem
        siglum, n = stem, 2
        while siglum in seen:
            siglum, n = f"{stem}{n}", n + 1
        seen.add(siglum)
        witnesses.append(WitnessConfig(siglum=siglum, label=path.name, path=path))
    return Project(
        title="collation",
        name="collation",
        base=witnesses[0].siglum,
        witnesses=tuple(witnesses),
        root=Path.cwd(),
    )
