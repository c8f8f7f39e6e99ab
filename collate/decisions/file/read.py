"""Reading and checking the decisions file: its decisions and its verdicts on print habits, each
malformed entry a :class:`~collate.errors.ProjectError` naming ``path:line``, and a file that is not
a decisions file (or of a newer version) refused before anything reads or writes it."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from collate.apparatus import ReadingClass
from collate.apparatus.habits import HabitVerdict
from collate.decisions.anchors import EDITOR_CLASSES, Anchor, Decision
from collate.decisions.ledger import read_text
from collate.errors import ProjectError
from collate.files import parse_toml
from collate.model import Layer
from collate.model.annotations import DecisionAction
from collate.project import Project

DECISIONS_FILE = "decisions.toml"
# The editor's verdicts on the print habits the collation finds: one [[habit]] table each.
HABIT_KEY = "habit"
HABIT_VERDICTS = ("confirm", "reject")
# The file's format, its `version` key: required, checked on every read, refused if newer.
FORMAT_VERSION = 1
VERSION_KEY = "version"
UTF8_HINT = "TOML files are UTF-8: save the decisions file as UTF-8"
_HEADER = re.compile(r"\s*\[\[\s*decision\s*\]\]")
# No base has two thousand million characters (a run refuses a witness of more than a few million).
MAX_OFFSET = 2**31


def decisions_path(project: Project) -> Path:
    """Where a project keeps its decisions: ``[review] decisions`` if set, else beside the project file."""
    review = project.sections.get("review")
    name = review.get("decisions") if isinstance(review, Mapping) else None
    return project.resolve(Path(name)) if isinstance(name, str) and name else project.root / DECISIONS_FILE


# What to do when `[review] decisions` names a file that is not collate's to write.
_NOT_OURS = "point `[review] decisions` in the project file at a file of its own, e.g. decisions.toml"


def _is_table(value: object) -> bool:
    return isinstance(value, dict) or (
        isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)
    )


def check_file(data: Mapping[str, Any], where: str) -> None:
    """Refuse a file that is not a decisions file this collate knows (a :class:`ProjectError`).

    A decisions file has only ``[[decision]]`` tables and says its format, ``version = 1``; a
    file without (a readings file, a project file) was not written by collate and is neither
    read as "no decisions" nor ever overwritten. A newer version is refused: this collate would
    drop what it does not know. An empty file (or one of comments) is a decisions file to be.
    """
    others = [key for key, value in data.items() if key not in ("decision", HABIT_KEY) and _is_table(value)]
    if others:
        shown = ", ".join(f"[{key}]" for key in others)
        raise ProjectError(
            f"not a decisions file: it has {shown}, and a decisions file has only [[decision]] tables",
            where=where,
            hint=_NOT_OURS,
        )
    if not data:
        return
    if VERSION_KEY not in data:
        raise ProjectError(
            f"not a decisions file: it has no `{VERSION_KEY}` key (collate writes `{VERSION_KEY} = "
            f"{FORMAT_VERSION}` at the top of each)",
            where=where,
            hint=f"{_NOT_OURS}; a decisions file of your own making needs `{VERSION_KEY} = {FORMAT_VERSION}`",
        )
    version = data[VERSION_KEY]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ProjectError(f"`{VERSION_KEY}` must be a whole number from 1, not {version!r}", where=where)
    if version > FORMAT_VERSION:
        raise ProjectError(
            f"decisions file version {version} is newer than this collate knows ({FORMAT_VERSION}); "
            "it is neither read nor written",
            where=where,
            hint="upgrade collate to review with these decisions",
        )


def load_decisions(path: Path) -> tuple[Decision, ...]:
    """The decisions in ``path`` in file order (none if it does not exist yet).

    A file that is not valid TOML or holds a malformed decision is a :class:`ProjectError`
    naming ``path:line``: the editor's work is never silently skipped.
    """
    raw = read_text(path, UTF8_HINT)
    return () if raw is None else parse_decisions(raw, str(path))


def parse_decisions(raw: str, where: str = DECISIONS_FILE) -> tuple[Decision, ...]:
    """The decisions of a decisions file's text (see :func:`load_decisions` and :func:`check_file`)."""
    data = parse_toml(raw, where)
    check_file(data, where)
    entries = data.get("decision", [])
    if not isinstance(entries, list):
        raise ProjectError("`decision` must be an array of tables ([[decision]])", where=where)
    lines = [i + 1 for i, line in enumerate(raw.splitlines()) if _HEADER.match(line)]
    out = []
    for k, entry in enumerate(entries):
        shown = f"{where}:{lines[k]}" if k < len(lines) else where
        out.append(_decision(entry, shown))
    return tuple(out)


def load_editorial(project: Project) -> tuple[tuple[Decision, ...], tuple[HabitVerdict, ...]]:
    """What the editor has decided for ``project``: the decisions, and the verdicts on print habits."""
    path = decisions_path(project)
    return load_decisions(path), load_habit_verdicts(path)


def load_habit_verdicts(path: Path) -> tuple[HabitVerdict, ...]:
    """The editor's verdicts on print habits in the decisions file ``path`` (none if it does not exist)."""
    raw = read_text(path, UTF8_HINT)
    return () if raw is None else parse_habit_verdicts(raw, str(path))


_HABIT_HEADER = re.compile(r"\s*\[\[\s*habit\s*\]\]")


def parse_habit_verdicts(raw: str, where: str = DECISIONS_FILE) -> tuple[HabitVerdict, ...]:
    """The ``[[habit]]`` tables of a decisions file's text: witness, the base's character, the witness's, verdict."""
    data = parse_toml(raw, where)
    check_file(data, where)
    entries = data.get(HABIT_KEY, [])
    if not isinstance(entries, list):
        raise ProjectError("`habit` must be an array of tables ([[habit]])", where=where)
    lines = [i + 1 for i, line in enumerate(raw.splitlines()) if _HABIT_HEADER.match(line)]
    out = []
    for k, entry in enumerate(entries):
        shown = f"{where}:{lines[k]}" if k < len(lines) else where
        if not isinstance(entry, dict):
            raise ProjectError("a habit must be a table", where=shown)
        chars = [_get(entry, key, str, shown) for key in ("base", "written")]
        if any(len(c) != 1 for c in chars):
            raise ProjectError("`base` and `written` must be one character each", where=shown)
        verdict = _get(entry, "verdict", str, shown)
        if verdict not in HABIT_VERDICTS:
            raise ProjectError(f"`verdict` {verdict!r} is not one of {', '.join(HABIT_VERDICTS)}", where=shown)
        out.append(
            HabitVerdict(
                siglum=_get(entry, "siglum", str, shown),
                base=chars[0],
                written=chars[1],
                verdict=verdict,
                editor=_get(entry, "editor", str, shown, required=False) or "",
                when=_get(entry, "when", str, shown, required=False) or "",
                comment=_get(entry, "comment", str, shown, required=False) or "",
            )
        )
    return tuple(out)


def _get(table: Mapping[str, Any], key: str, kind: type, where: str, *, required: bool = True) -> Any:
    value = table.get(key)
    if value is None:
        if required:
            raise ProjectError(f"`{key}` is missing", where=where)
        return None
    if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
        raise ProjectError(f"`{key}` must be a {kind.__name__}, not {type(value).__name__}", where=where)
    return value


def _enum(cls: type[DecisionAction] | type[ReadingClass] | type[Layer], value: str, key: str, where: str) -> Any:
    try:
        return cls(value)
    except ValueError:
        known = ", ".join(m.value for m in cls)
        raise ProjectError(f"`{key}` {value!r} is not one of {known}", where=where) from None


def _anchor(table: Mapping[str, Any], key: str, where: str) -> Anchor:
    readings = _get(table, "readings", list, where, required=False) or []
    if not all(isinstance(r, str) for r in readings):
        raise ProjectError(f"`{key}.readings` must be a list of strings", where=where)
    offset = _get(table, "offset", int, where)
    if not 0 <= offset < MAX_OFFSET:
        raise ProjectError(
            f"`{key}.offset` must be a character offset in the base, from 0, not {offset}",
            where=where,
            hint="it is where collate found the locus; leave it as collate wrote it",
        )
    return Anchor(
        layer=_enum(Layer, _get(table, "layer", str, where), f"{key}.layer", where),
        lemma=_get(table, "lemma", str, where, required=False) or "",
        readings=tuple(readings),
        before=_get(table, "before", str, where, required=False) or "",
        after=_get(table, "after", str, where, required=False) or "",
        offset=offset,
        locus=_get(table, "locus", str, where, required=False) or "",
    )


def _decision(entry: Any, where: str) -> Decision:
    if not isinstance(entry, dict):
        raise ProjectError("a decision must be a table", where=where)
    anchor = _anchor(_get(entry, "anchor", dict, where), "anchor", where)
    action: DecisionAction = _enum(DecisionAction, _get(entry, "action", str, where), "action", where)
    # A merge names its second locus ([decision.until]), a split where it cuts (`at`, from 1).
    until = _get(entry, "until", dict, where, required=action is DecisionAction.MERGE)
    at = _get(entry, "at", int, where, required=action is DecisionAction.SPLIT)
    if at is not None and at < 1:
        raise ProjectError(f"`at` must be a whole number from 1, not {at}", where=where)
    if at is not None and anchor.lemma and at >= len(anchor.lemma):
        raise ProjectError(
            f"`at` {at} does not fall between two characters of the lemma 「{anchor.lemma}」",
            where=where,
            hint=f"a split cuts after 1 to {len(anchor.lemma) - 1} characters"
            if len(anchor.lemma) > 1
            else "a lemma of one character cannot be split",
        )
    cls_name = _get(entry, "class", str, where, required=action is DecisionAction.RECLASSIFY)
    cls: ReadingClass | None = _enum(ReadingClass, cls_name, "class", where) if cls_name else None
    if cls is not None and cls not in EDITOR_CLASSES:
        raise ProjectError(
            f"`class` {cls.value!r} is not a class an editor gives",
            where=where,
            hint="one of " + ", ".join(c.value for c in EDITOR_CLASSES),
        )
    norm = _get(entry, "norm", str, where, required=action in (DecisionAction.ADOPT, DecisionAction.RECLASSIFY))
    return Decision(
        id=_get(entry, "id", str, where),
        action=action,
        anchor=anchor,
        editor=_get(entry, "editor", str, where, required=False) or "",
        when=_get(entry, "when", str, where, required=False) or "",
        comment=_get(entry, "comment", str, where, required=False) or "",
        siglum=_get(entry, "siglum", str, where, required=False),
        reading=_get(entry, "reading", str, where, required=False),
        norm=norm,
        cls=cls,
        batch=_get(entry, "batch", str, where, required=False),
        until=_anchor(until, "until", where) if until is not None else None,
        at=at,
    )
