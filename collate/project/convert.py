"""The parsed project file made records by msgspec; a value that does not fit, refused at its line.

msgspec stops at the first key or value that does not fit and names it by a path,
``$.witness[1].label``; the value of a name table (``[notes.lexicon]``) it names ``[...]``. The
path is walked here through the records' types and the data, so that the message can say which
key, what it must be (its ``Meta``), what it is, and the line it is written on.
"""

from __future__ import annotations

import difflib
import re
import types
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Union, get_args, get_origin, get_type_hints

import msgspec
from msgspec import Meta, Struct

from collate.errors import ProjectError
from collate.project.positions import FileLines, KeyPath
from collate.project.tables import SECTIONS, SETTINGS, WITNESS_KEYS, ProjectTable

_AT = re.compile(r"(?P<message>.*?)(?: - at `\$(?P<path>.*)`)?", re.DOTALL)
_SEGMENT = re.compile(r"\.(\w+)|\[(\d+|\.\.\.)\]")
_UNKNOWN = re.compile(r"Object contains unknown field `(.*)`", re.DOTALL)
_MISSING = re.compile(r"Object missing required field `(.*)`", re.DOTALL)
# msgspec's names of what it expected, for a key that has no ``Meta`` of its own.
_KINDS = {"str": "a string", "int": "a whole number", "float": "a number", "bool": "true or false"}
_KINDS |= {"array": "a list", "object": "a table"}
# How a witness's text is decoded and compared (its encoding, its artifacts, its layers) is said at
# the key's line, a wrong type as a wrong value (:mod:`collate.project.witnesses`): one line for one key,
# however it is wrong, never one of its elements'.
_AT_WITNESS = frozenset({"encoding", "artifacts", "layers"})


def read_tables(data: Mapping[str, Any], lines: FileLines) -> ProjectTable:
    """The project file's tables as records, or a :class:`ProjectError` at the first that does not fit."""
    try:
        return msgspec.convert(dict(data), type=ProjectTable, strict=True)
    except msgspec.ValidationError as exc:
        raise _refusal(str(exc), data, lines) from None


@dataclass(frozen=True, slots=True)
class _Step:
    """One key or element of msgspec's path: its name, the type it must have, and its value."""

    segment: str | int
    expected: Any
    value: Any
    # A name of a name table (a key of [notes.lexicon]), not a key of a record.
    entry: bool


def _refusal(text: str, data: Mapping[str, Any], lines: FileLines) -> ProjectError:
    match = _AT.fullmatch(text)
    message, at = (match["message"], match["path"] or "") if match else (text, "")
    steps = _walk(at, data)
    path: KeyPath = tuple(s.segment for s in steps)
    unknown = _UNKNOWN.fullmatch(message)
    if unknown:
        return _unknown_key(path, steps[-1].expected if steps else ProjectTable, unknown[1], data, lines)
    missing = _MISSING.fullmatch(message)
    if missing:
        key = missing[1]
        subject, suffix = _subject((*path, key), entry=False)
        return ProjectError(f"{subject} is missing{suffix}", where=_where(path, lines), hint=f'add `{key} = "…"`')
    return _wrong_value(steps, message, lines)


def _walk(at: str, data: Mapping[str, Any]) -> list[_Step]:
    """msgspec's path as steps through the types and the data; ``[...]`` becomes the name refused."""
    steps: list[_Step] = []
    tp: Any = ProjectTable
    value: Any = data
    for name, index in _SEGMENT.findall(at):
        entry = _is_table_of_names(tp)
        segment: str | int = name or (_refused_name(value, _child(tp, "")) if index == "..." else int(index))
        tp = _child(tp, segment)
        value = _get(value, segment)
        steps.append(_Step(segment, tp, value, entry and isinstance(segment, str)))
    return steps


def _members(tp: Any) -> list[Any]:
    """The types ``tp`` may be, its ``Annotated`` and ``None`` taken off."""
    if get_origin(tp) is Annotated:
        return _members(get_args(tp)[0])
    if get_origin(tp) in (Union, types.UnionType):
        return [m for arg in get_args(tp) for m in _members(arg)]
    return [] if tp is type(None) else [tp]


def _child(tp: Any, segment: str | int) -> Any:
    """The type of the key or element ``segment`` of a value of type ``tp`` (Any if it has none)."""
    for member in _members(tp):
        if isinstance(member, type) and issubclass(member, Struct) and isinstance(segment, str):
            return get_type_hints(member, include_extras=True).get(segment, Any)
        if get_origin(member) is dict and isinstance(segment, str):
            return get_args(member)[1]
        if get_origin(member) is tuple and isinstance(segment, int):
            return get_args(member)[0]
    return Any


def _is_table_of_names(tp: Any) -> bool:
    return any(get_origin(m) is dict for m in _members(tp))


def _refused_name(table: Any, value_type: Any) -> str:
    """The first name of a name table whose value is not of ``value_type``: the one msgspec refused."""
    for name, value in table.items() if isinstance(table, dict) else ():
        try:
            msgspec.convert(value, type=value_type, strict=True)
        except msgspec.ValidationError:
            return str(name)
    return "..."


def _get(value: Any, segment: str | int) -> Any:
    if isinstance(value, dict):
        return value.get(segment)
    if isinstance(value, list | tuple) and isinstance(segment, int) and segment < len(value):
        return value[segment]
    return None


def _meta(tp: Any) -> Meta | None:
    """The ``Meta`` saying what a value of ``tp`` must be, if the record gives one."""
    if get_origin(tp) is Annotated:
        found = [m for m in tp.__metadata__ if isinstance(m, Meta) and m.description]
        return found[-1] if found else _meta(get_args(tp)[0])
    if get_origin(tp) in (Union, types.UnionType):
        return next((m for m in map(_meta, get_args(tp)) if m is not None), None)
    return None


def _where(path: KeyPath, lines: FileLines) -> str:
    """The line of ``path``: a witness at its siglum, what it is read with at the key naming it."""
    if len(path) == 2 and path[0] == "witness":
        return lines.at("witness", path[1], "siglum")
    if len(path) >= 3 and path[0] == "witness" and path[2] in _AT_WITNESS:
        return lines.at(*path[:3])
    return lines.at(*path)


def _wrong_value(steps: list[_Step], message: str, lines: FileLines) -> ProjectError:
    """A value of the wrong type, or out of its range: what it must be, and what it is."""
    path: KeyPath = tuple(s.segment for s in steps)
    where = _where(path, lines)
    if len(path) == 2 and path[0] == "witness":
        return ProjectError(f"witness {int(path[1]) + 1} is not a table", where=where)
    if len(path) == 1 and path[0] in SECTIONS:
        return ProjectError(
            f"`{path[0]}` must be a table ([{path[0]}]) or one of the settings",
            where=where,
            hint="the settings are " + ", ".join(sorted(SETTINGS)),
        )
    # The key the value is of: the last name on the path; the numbers after it are elements of its list.
    k = max((i for i, s in enumerate(steps) if isinstance(s.segment, str)), default=0)
    key, items, value = steps[k], path[k + 1 :], steps[-1].value
    meta = _meta(key.expected)
    what = meta.description if meta and meta.description else _expected(message)
    if items:
        got = f": item {int(items[0]) + 1} is {type(value).__name__}"
    else:
        got = f", not {type(value).__name__ if ', got `' in message else repr(value)}"
    subject, suffix = _subject(path[: k + 1], key.entry)
    hint = f"e.g. {meta.examples[0]}" if meta and meta.examples else None
    return ProjectError(f"{subject} must be {what}{got}{suffix}", where=where, hint=hint)


def _expected(message: str) -> str:
    kinds = re.match(r"Expected `([^`]*)`", message)
    names = [n for n in kinds[1].split(" | ") if n != "null"] if kinds else []
    return " or ".join(_KINDS.get(n, n) for n in names) or "another value"


def _subject(path: KeyPath, entry: bool) -> tuple[str, str]:
    """How a message names the key at ``path``, and what it adds after: ``("`label`", " (witness 2)")``."""
    if len(path) == 1:
        return f"`{path[0]}`", ""
    if path[0] == "witness":
        return "`" + ".".join(map(str, path[2:])) + "`", f" (witness {int(path[1]) + 1})"
    table = ".".join(map(str, path[:-1]))
    return f"[{table}] {path[-1]!r}" if entry else f"[{table}] {path[-1]}", ""


def _unknown_key(path: KeyPath, tp: Any, key: str, data: Mapping[str, Any], lines: FileLines) -> ProjectError:
    """A key no stage reads, with the known one it most likely misspells, and the known ones.

    A misspelled key would otherwise be dropped without a word: ``[normalise]`` would leave the
    default rules in force, ``lable`` the siglum as the label.
    """
    where = lines.at(*path, key)
    if not path:
        tables = [f"[{t}]" for t in SECTIONS]
        if isinstance(data.get(key), dict):
            return _unknown(f"unknown table [{key}]", f"[{key}]", tables, "the tables are", where)
        listed = "the tables are " + ", ".join(tables) + "; the settings are"
        return _unknown(f"unknown setting `{key}`", key, SETTINGS, listed, where)
    if path[0] == "witness":
        n = int(path[1]) + 1
        return _unknown(f"unknown key `{key}` in witness {n}", key, WITNESS_KEYS, "a witness's keys are", where)
    name = ".".join(map(str, path))
    known = next((m.__struct_fields__ for m in _members(tp) if isinstance(m, type) and issubclass(m, Struct)), ())
    return _unknown(f"unknown key `{key}` in [{name}]", key, known, f"the keys of [{name}] are", where)


def _unknown(message: str, key: str, known: Iterable[str], listed: str, where: str) -> ProjectError:
    """An unknown key, with the known one it most likely misspells, and the known ones."""
    names = sorted(known)
    close = difflib.get_close_matches(key, names, n=1)
    hint = f"{listed} " + ", ".join(names)
    return ProjectError(message, where=where, hint=f"did you mean `{close[0]}`? {hint}" if close else hint)


__all__ = ["read_tables"]
