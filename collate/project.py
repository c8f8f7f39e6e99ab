"""The project file (``collate.toml``): what is collated, against which base, and how."""

from __future__ import annotations

import codecs
import difflib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from collate.decode import check_regular_file
from collate.errors import ProjectError
from collate.files import parse_toml, read_utf8

PROJECT_FILE = "collate.toml"
# Layers collated by default: the classic and its commentaries, each with its own kind.
DEFAULT_LAYERS = ("jing", "zhu", "shu", "shiwen")
_SIGLUM = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")
# The outputs are named `{name}.tei.xml` …: the name must stay one file in the output folder.
# \w is Unicode-aware (letters and digits of every script, CJK included, and _); a leading `.`
# would hide the files (and `.`/`..` name folders); separators would leave the folder.
_STEM = re.compile(r"(?!\.)[\w.-]+")
STEM_RULE = "letters, digits, CJK characters, - _ and . (not first); no / or \\"
# TOML writes NUL only as an escape (a raw one is invalid TOML): where an escape is, is where it came from.
_NUL_ESCAPE = re.compile(r"\\(?:u0000|U00000000)")


def is_siglum(name: str) -> bool:
    """True if ``name`` can be a siglum: an ASCII identifier (so never a path: no ``.`` or ``/``)."""
    return bool(_SIGLUM.fullmatch(name))


def is_file_stem(name: str) -> bool:
    """True if ``name`` can name output files: one plain file name in the output folder, not hidden."""
    return bool(_STEM.fullmatch(name))


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
    # The witness quotes the base's work in pieces (a compilation, a 集說): collated only where it quotes.
    quotes: bool = False

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
    # The work(s) of a compilation base to collate, as its run-in titles print them; None: every one.
    work: str | tuple[str, ...] | None = None
    sections: Mapping[str, Any] = field(default_factory=dict)
    # Folders of edition files (a shelf): the files holding passages the base quotes join as witnesses.
    shelf: tuple[Path, ...] = ()

    @property
    def works(self) -> tuple[str, ...]:
        """The works named by ``work`` (none: every work a compilation base quotes)."""
        if self.work is None:
            return ()
        return (self.work,) if isinstance(self.work, str) else self.work

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
        raise ProjectError(f"`{key}` is missing", where=where, hint=f'add `{key} = "…"`')
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


def _strings(value: object, key: str) -> Iterator[tuple[str, str]]:
    """Every string in a parsed TOML value (keys included), in the file's order, with the key it is at."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            inner = f"{key}.{k}" if key else str(k)
            yield inner, str(k)
            yield from _strings(v, inner)
    elif isinstance(value, list):
        for i, v in enumerate(value, 1):
            yield from _strings(v, f"{key}[{i}]")


def _check_no_nul(data: Mapping[str, Any], shown: str, raw_text: str) -> None:
    """No string of the project holds NUL: no path can (the OS refuses it), and no TEI text either."""
    for key, value in _strings(dict(data), ""):
        if "\0" in value:
            m = _NUL_ESCAPE.search(raw_text)
            line = f":{raw_text.count(chr(10), 0, m.start()) + 1}" if m else ""
            raise ProjectError(
                f"`{key}` holds a NUL character (\\u0000)",
                where=shown + line,
                hint="no file name or text can hold one: remove the escape",
            )


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


# --- Keys: every key of the project file is one a stage reads ---------------------------

SETTINGS = ("title", "name", "base", "witness", "gaiji_table", "layers", "work", "shelf")
WITNESS_KEYS = (
    "siglum",
    "label",
    "path",
    "layout",
    "container",
    "encoding",
    "notes",
    "bibl",
    "artifacts",
    "layers",
    "quotes",
)
# The stages' tables and the keys each reads; None: the keys are the table's own data (names).
# [normalize]'s keys are its module's own list (collate.normalize.config), read when checked.
SECTION_KEYS: dict[str, tuple[str, ...] | None] = {
    "normalize": (),
    "notes": ("lexicon", "authors"),
    "notes.lexicon": None,
    "notes.authors": None,
    "review": ("editor", "decisions", "decisions_outside"),
    "limits": ("characters", "ratio"),
}
# The settings and witness keys whose values are strings (names, paths, texts).
_TEXT_SETTINGS = ("title", "name", "base", "gaiji_table")
_TEXT_KEYS = ("siglum", "label", "path", "layout", "container", "notes", "bibl")
_HEADER = re.compile(r"^[ \t]*(\[\[?)[ \t]*([^\]\n]+?)[ \t]*\]", re.MULTILINE)


def _header_name(raw: str) -> str:
    """A table header's dotted name as TOML reads it: ``[ notes . "lexicon" ]`` is ``notes.lexicon``."""
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))


def _block(text: str, table: str, n: int = 1) -> tuple[int, int] | None:
    """Where the ``n``-th table (or array element) named ``table`` is written: its header to the next header."""
    headers = list(_HEADER.finditer(text))
    found = [k for k, m in enumerate(headers) if _header_name(m.group(2)) == table]
    if len(found) < n:
        return None
    k = found[n - 1]
    return headers[k].start(), headers[k + 1].start() if k + 1 < len(headers) else len(text)


def _line_in(text: str, table: str, key: str | None, n: int = 1) -> str:
    """``:line`` of ``key`` in the ``n``-th table ``table``, or "" if it is not found where TOML may write it.

    ``key`` may be written as its own subtable (``[notes.lexicon]``, with or without a ``[notes]``
    before it) or as a key (``lexicon = …``, ``lexicon.x = …``) in the table's block; ``key`` None
    is the table's own header.
    """
    if key is not None:
        own = _block(text, f"{table}.{key}")
        if own is not None:
            return f":{text.count(chr(10), 0, own[0]) + 1}"
    block = _block(text, table, n)
    if block is None:
        return ""
    start, end = block
    if key is not None:
        m = re.compile(rf"^[ \t]*[\"']?{re.escape(key)}[\"']?[ \t]*[=.]", re.MULTILINE).search(text, start, end)
        if m is None:
            return ""
        start = m.start()
    return f":{text.count(chr(10), 0, start) + 1}"


def _unknown(message: str, key: str, known: Iterable[str], listed: str, where: str) -> ProjectError:
    """An unknown key, with the known one it most likely misspells, and the known ones."""
    known = sorted(known)
    close = difflib.get_close_matches(key, known, n=1)
    hint = f"{listed} " + ", ".join(known)
    return ProjectError(message, where=where, hint=f"did you mean `{close[0]}`? {hint}" if close else hint)


def _check_top_level(data: Mapping[str, Any], shown: str, raw_text: str) -> None:
    """Every top-level key is a setting or a stage's table; every key of a table with fixed keys is known.

    A misspelled key would otherwise be dropped without a word: ``[normalise]`` would leave the
    default rules in force, ``lable`` the siglum as the label.
    """
    tables = [k for k in SECTION_KEYS if "." not in k]
    for key, value in data.items():
        if key in SETTINGS:
            if key in _TEXT_SETTINGS and not isinstance(value, str):
                raise ProjectError(
                    f"`{key}` must be a string, not {type(value).__name__}", where=shown + _key_line(raw_text, key)
                )
            continue
        if key in SECTION_KEYS:
            _check_section(key, value, shown, raw_text)
        elif isinstance(value, dict):
            where = shown + _line_in(raw_text, key, None)
            raise _unknown(f"unknown table [{key}]", f"[{key}]", [f"[{t}]" for t in tables], "the tables are", where)
        else:
            raise _unknown(
                f"unknown setting `{key}`",
                key,
                SETTINGS,
                "the tables are " + ", ".join(f"[{t}]" for t in tables) + "; the settings are",
                shown + _key_line(raw_text, key),
            )


def _section_keys(name: str) -> tuple[str, ...] | None:
    if name == "normalize":
        from collate.normalize.config import _KEYS

        return _KEYS
    return SECTION_KEYS[name]


def _check_section(name: str, value: object, shown: str, raw_text: str) -> None:
    """A stage's table: a table, holding only the keys (and subtables) its stage reads."""
    parent, _, own = name.rpartition(".")
    if not isinstance(value, dict):
        # Written as a value (`notes = 5`) or as an array of tables (`[[notes]]`).
        where = shown + (
            _line_in(raw_text, parent, own) if parent else _key_line(raw_text, name) or _line_in(raw_text, name, None)
        )
        if parent:
            raise ProjectError(f"`{own}` of [{parent}] must be a table ([{name}])", where=where)
        raise ProjectError(
            f"`{name}` must be a table ([{name}]) or one of the settings",
            where=where,
            hint="the settings are " + ", ".join(sorted(SETTINGS)),
        )
    known = _section_keys(name)
    if known is None:
        return
    for key, sub in value.items():
        if key not in known:
            where = shown + _line_in(raw_text, name, key)
            raise _unknown(f"unknown key `{key}` in [{name}]", key, known, f"the keys of [{name}] are", where)
        if f"{name}.{key}" in SECTION_KEYS:
            _check_section(f"{name}.{key}", sub, shown, raw_text)


def _check_witness_keys(entry: Mapping[str, Any], n: int, shown: str, raw_text: str) -> None:
    """The ``n``-th witness table holds only the keys a witness has, its texts as strings."""
    for key, value in entry.items():
        where = shown + _line_in(raw_text, "witness", key, n)
        if key not in WITNESS_KEYS:
            raise _unknown(f"unknown key `{key}` in witness {n}", key, WITNESS_KEYS, "a witness's keys are", where)
        if key in _TEXT_KEYS and not isinstance(value, str):
            raise ProjectError(f"`{key}` must be a string, not {type(value).__name__} (witness {n})", where=where)


def _check_encoding(encoding: object, siglum: str, path: object, where: str) -> None:
    """A witness's ``encoding`` names a codec Python has."""
    if encoding is None:
        return
    if not isinstance(encoding, str) or not encoding:
        raise ProjectError(
            f"`encoding` must be the name of an encoding, got {encoding!r}",
            where=where,
            hint='e.g. encoding = "gb18030"',
        )
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ProjectError(
            f"unknown encoding {encoding!r} for witness {siglum} ({path})",
            where=where,
            hint="name a Python codec, e.g. gb18030, big5, utf-16; or leave `encoding` out to detect it",
        ) from None


# A variation selector may follow the character: the e-text's glyph is one character still.
_ONE_CHARACTER = re.compile(r"^.[\ufe00-\ufe0f\U000e0100-\U000e01ef]?$", re.DOTALL)


def _check_artifacts(artifacts: list[str], siglum: str, where: str) -> None:
    """Each artifact is one character: the artifact rule compares a token's one character with it."""
    for a in artifacts:
        if not _ONE_CHARACTER.match(a) or a.isspace():
            raise ProjectError(
                f"`artifacts` of witness {siglum}: {a!r} is not one character",
                where=where,
                hint="each entry is one character the e-text put for a lost glyph, "
                'e.g. artifacts = ["防"]; list several as ["防", "某"]',
            )


def _check_witness_layers(witnesses: Iterable[WitnessConfig], layers: list[str], shown: str, raw_text: str) -> None:
    """A witness's own ``layers`` are some of the project's: otherwise it is collated nowhere.

    Such a witness would still be listed in the apparatus, as a witness that agrees everywhere.
    """
    for n, w in enumerate(witnesses, 1):
        if w.layers is None:
            continue
        where = f"{shown}:{_witness_line(raw_text, n, w.siglum)}" if raw_text else shown
        if not w.layers:
            raise ProjectError(
                f"`layers` of witness {w.siglum} is empty: it would be collated in no layer",
                where=where,
                hint='name the layers it has, e.g. layers = ["jing"], or leave `layers` out for all',
            )
        if not set(w.layers) & set(layers):
            raise ProjectError(
                f"`layers` of witness {w.siglum} ({', '.join(w.layers)}) names none of the layers the project "
                f"collates ({', '.join(layers)}): it would be collated nowhere",
                where=where,
                hint="add its layers to the project's `layers`, or correct the witness's",
            )


def _check_lexicon_sigla(data: Mapping[str, Any], sigla: Iterable[str], shown: str, raw_text: str) -> None:
    """Every siglum ``[notes.lexicon]`` names is a witness of the project.

    A name mapped to a missing siglum would check the notes' claims against nothing, and say so
    nowhere. (Its other values are the notes stage's to check.)
    """
    notes = data.get("notes")
    lexicon = notes.get("lexicon") if isinstance(notes, dict) else None
    if not isinstance(lexicon, dict):
        return
    known = sorted(sigla)
    for name, value in lexicon.items():
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else [None]
        if not all(isinstance(v, str) for v in values):
            raise ProjectError(
                f"[notes.lexicon] {name!r} must be a siglum or a list of sigla, got {value!r}",
                where=shown + _line_in(raw_text, "notes.lexicon", name),
                hint='e.g. "大戴礼" = "DD"',
            )
        for siglum in values:
            if siglum and siglum not in known:
                close = difflib.get_close_matches(siglum, known, n=1)
                raise ProjectError(
                    f"[notes.lexicon] {name!r} names the siglum {siglum!r}, which is no witness of the project",
                    where=shown + _line_in(raw_text, "notes.lexicon", name),
                    hint=(f"did you mean {close[0]!r}? " if close else "")
                    + "the sigla are "
                    + ", ".join(known)
                    + '; a name known without a witness maps to ""',
                )


def _within(path: Path, folder: Path) -> bool:
    """True if ``path`` lies in ``folder`` once both are resolved (``..`` and links followed)."""
    try:
        path.resolve().relative_to(folder.resolve())
    except ValueError:
        return False
    return True


def _check_review(data: Mapping[str, Any], root: Path, shown: str, raw_text: str) -> None:
    """``[review]``: the editor a name on one line, the decisions file a path in the project's folder.

    The decisions file is written at every decision: a path outside the project (``/some/dir``,
    ``../x``) would have a review write where no one looks for the project's files, so it is
    refused unless the project says it means it (``decisions_outside = true``).
    """
    review = data.get("review")
    if not isinstance(review, dict):
        return

    def where(key: str) -> str:
        return shown + _line_in(raw_text, "review", key)

    editor = review.get("editor")
    if editor is not None and (
        not isinstance(editor, str) or not editor.strip() or any(c < " " or c == "\x7f" for c in editor)
    ):
        raise ProjectError(
            f"[review] editor must be a name on one line, not {editor!r}",
            where=where("editor"),
            hint='e.g. editor = "王"',
        )
    outside = review.get("decisions_outside", False)
    if not isinstance(outside, bool):
        raise ProjectError(
            f"[review] decisions_outside must be true or false, not {outside!r}", where=where("decisions_outside")
        )
    decisions = review.get("decisions")
    if decisions is None:
        return
    if not isinstance(decisions, str) or not decisions.strip():
        raise ProjectError(
            f"[review] decisions must be the path of a file, not {decisions!r}",
            where=where("decisions"),
            hint='e.g. decisions = "decisions.toml"',
        )
    path = Path(decisions) if Path(decisions).is_absolute() else root / decisions
    if not outside and not _within(path, root):
        raise ProjectError(
            f"[review] decisions {decisions!r} is outside the project's folder",
            where=where("decisions"),
            hint="keep the decisions beside the project file (e.g. decisions = \"decisions.toml\"), or say "
            "decisions_outside = true in [review] if they are meant to be elsewhere",
        )


def _check_gaiji(gaiji: str, root: Path, shown: str, raw_text: str) -> None:
    """A gaiji table named must be a file: a missing one would leave every entity unresolved without a word."""
    path = Path(gaiji) if Path(gaiji).is_absolute() else root / gaiji
    where = shown + _key_line(raw_text, "gaiji_table")
    hint = "give the path of the Kanripo gaiji table (charlist.org.txt), relative to the project file, or leave it out"
    try:
        check_regular_file(path, f"{where}: the gaiji table {gaiji!r}", ProjectError, hint=hint)
    except FileNotFoundError:
        raise ProjectError(f"the gaiji table {gaiji!r} does not exist", where=where, hint=hint) from None


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
    """Build a :class:`Project` from parsed TOML."""
    shown = str(source) if source else "project"
    _check_no_nul(data, shown, raw_text)
    _check_top_level(data, shown, raw_text)
    entries = data.get("witness")
    if not isinstance(entries, list) or not entries:
        raise ProjectError("no witnesses", where=shown, hint="add one or more [[witness]] tables")
    witnesses: list[WitnessConfig] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise ProjectError(f"witness {i} is not a table", where=shown)
        _check_witness_keys(entry, i, shown, raw_text)
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
        _check_encoding(encoding, siglum, entry.get("path"), where)
        artifacts = entry.get("artifacts", [])
        if not isinstance(artifacts, list) or not all(isinstance(a, str) for a in artifacts):
            raise ProjectError(
                f"`artifacts` must be a list of characters, got {artifacts!r}",
                where=where,
                hint='e.g. artifacts = ["防"]',
            )
        _check_artifacts(artifacts, siglum, where)
        own_layers = entry.get("layers")
        if own_layers is not None:
            _check_layers(own_layers, where)
        quotes = entry.get("quotes", False)
        if not isinstance(quotes, bool):
            raise ProjectError(
                f"`quotes` must be true or false, not {quotes!r}",
                where=shown + _line_in(raw_text, "witness", "quotes", i),
                hint="quotes = true: the witness quotes the work in pieces and is collated only where it quotes",
            )
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
                quotes=quotes,
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
    if gaiji:
        _check_gaiji(gaiji, root, shown, raw_text)
    _check_review(data, root, shown, raw_text)
    layers = data.get("layers", list(DEFAULT_LAYERS))
    _check_layers(layers, shown + _key_line(raw_text, "layers"))
    if not layers:
        raise ProjectError(
            "`layers` is empty: nothing would be collated",
            where=shown + _key_line(raw_text, "layers"),
            hint='e.g. layers = ["jing"]',
        )
    _check_witness_layers(witnesses, layers, shown, raw_text)
    _check_lexicon_sigla(data, seen, shown, raw_text)
    work = data.get("work", "")
    if isinstance(work, list) and work and all(isinstance(w, str) and w for w in work):
        work = tuple(work)
    elif not isinstance(work, str):
        raise ProjectError(
            "`work` must be a work's name or a list of them",
            where=shown + _key_line(raw_text, "work"),
            hint='e.g. work = "禮記射義", or work = ["禮記射義", "周禮夏官"]',
        )
    name = _str(data, "name", shown, "collation")
    if not is_file_stem(name):
        raise ProjectError(
            f"`name` {name!r} is not a plain file name: the outputs are named after it",
            where=shown + _key_line(raw_text, "name"),
            hint=f'use {STEM_RULE}, e.g. name = "touhu"',
        )
    shelf = data.get("shelf", [])
    if isinstance(shelf, str):
        shelf = [shelf]
    if not isinstance(shelf, list) or not all(isinstance(x, str) and x for x in shelf):
        raise ProjectError(
            "`shelf` must be a list of folder paths",
            where=shown + _key_line(raw_text, "shelf"),
            hint='e.g. shelf = ["editions/"]',
        )
    known = {"title", "name", "base", "witness", "gaiji_table", "layers", "work", "shelf"}
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
        name=name,
        base=base,
        witnesses=tuple(witnesses),
        root=root,
        source=source,
        gaiji_table=Path(gaiji) if gaiji else None,
        layers=tuple(str(x) for x in layers),
        work=work or None,
        sections={k: v for k, v in data.items() if k not in known},
        shelf=tuple(Path(x) for x in shelf),
    )
