"""JSON text that is small and still reads one record a line.

``json.dumps(indent=...)`` puts every scalar on its own line, so a one-character token
costs a dozen lines of indentation; without ``indent`` the file is one line no one can diff.
This writer indents the document's structure but writes an array or object on one line when
it fits in :data:`WIDTH` characters (a token, a location, a range), and fills arrays of
scalars (line offsets, a column's status) line by line up to that width.

A container on one line is written without spaces (``[{"t":"者","n":"者","start":2623}]``), as
``json.dumps`` does with ``separators=(",", ":")``: an alignment table has a line like that for
every token of every witness, most of the file, and the spaces were a sixth of it. Only the
indented structure keeps a space after a key (``"start": 0`` on a line of its own).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, BinaryIO

WIDTH = 100
INDENT = 1


def dumps(value: Any) -> str:
    """``value`` as JSON text: UTF-8 characters as they are, short containers inline, newline at the end."""
    rendered = _render(value, 0, 0)
    return (rendered if isinstance(rendered, str) else "".join(rendered)) + "\n"


def dump(value: Any, out: BinaryIO) -> None:
    """Write :func:`dumps` of ``value`` to ``out`` as UTF-8, a few thousand pieces at a time."""
    rendered = _render(value, 0, 0)
    pieces = [rendered] if isinstance(rendered, str) else rendered
    step = 4096
    for k in range(0, len(pieces), step):
        out.write("".join(pieces[k : k + step]).encode("utf-8"))
    out.write(b"\n")


# What a value renders to: its text when on one line, else the pieces of its lines, joined
# once at the end (joining at every level would copy a layer's tens of megabytes each time).
Rendered = str | list[str]


# One encoder each, made once: ``json.dumps`` with options builds a new encoder every call
# (and ``JSONEncoder.encode`` a new C encoder), which is most of the time of a small record.
_ENCODE = json.JSONEncoder(ensure_ascii=False).encode
_STRING: Any = getattr(json.encoder, "c_encode_basestring", None) or json.encoder.py_encode_basestring


def _inline_encoder() -> Callable[[Any], str]:
    """``JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode``, its C encoder built once."""
    slow = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    make: Any = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return slow
    try:
        fast = make(None, None, _STRING, None, ":", ",", False, False, True)
    except TypeError:  # another C signature: the encoder as the library builds it
        return slow
    return lambda value: "".join(fast(value, 0))


_INLINE = _inline_encoder()


def _scalar(value: Any) -> str:
    """A scalar's JSON text, as ``json.dumps`` writes it (strings and integers without its overhead)."""
    kind = type(value)
    if kind is str:
        return str(_STRING(value))
    if kind is int:
        return int.__repr__(value)
    if kind is bool:
        return "true" if value else "false"
    if value is None:
        return "null"
    return _ENCODE(value)


def _item(value: Any, depth: int) -> Rendered:
    """A member of a long array, at C speed when it is a small record that fits on its line.

    An alignment table's cell (``[{"t":"者","n":"者","start":2623}]``) or ``null``: hundreds of
    thousands of them. Whatever fits in :data:`WIDTH` is written inline by :func:`_render`
    exactly as the encoder writes it, so the encoder's text is used when it fits; only a
    cell that does not fit is rendered member by member.
    """
    if value is None:
        return "null"
    if type(value) is list and len(value) == 1 and type(value[0]) is dict:
        inline = _INLINE(value)
        if depth * INDENT + len(inline) <= WIDTH:
            return inline
    return _render(value, depth, 0)


def _render(value: Any, depth: int, prefix: int) -> Rendered:
    """``value`` written at ``depth``; ``prefix`` is the width already used on its first line (a key)."""
    if isinstance(value, dict | list) and _shallow(value):
        # A small record (a token, a location) most often fits on its line: json.dumps writes
        # it exactly as the code below would (same separators), but at C speed.
        inline = _INLINE(value)
        if depth * INDENT + prefix + len(inline) <= WIDTH:
            return inline
    if isinstance(value, dict):
        keys = [_scalar(str(k)) for k in value]
        parts = [_render(v, depth + 1, len(k) + 2) for k, v in zip(keys, value.values(), strict=True)]
        return _join("{", "}", parts, depth, prefix, keys)
    if isinstance(value, list):
        if value and not any(isinstance(v, dict | list) for v in value):
            return _fill([_scalar(v) for v in value], depth, prefix)
        return _join("[", "]", [_item(v, depth + 1) for v in value], depth, prefix)
    return _scalar(value)


def _shallow(value: dict[Any, Any] | list[Any]) -> bool:
    """Few members, each a scalar or a container of scalars: cheap to try on one line."""
    limit = WIDTH // 2
    if len(value) > limit:
        return False
    for member in value.values() if isinstance(value, dict) else value:
        if isinstance(member, dict | list):
            inner = member.values() if isinstance(member, dict) else member
            if len(member) > limit or any(isinstance(x, dict | list) for x in inner):
                return False
    return True


def _join(
    open_: str, close: str, parts: list[Rendered], depth: int, prefix: int, keys: list[str] | None = None
) -> Rendered:
    """An array's members, or an object's (``keys`` beside its values): on one line if they fit, else one a line."""
    if not parts:
        return open_ + close
    room = WIDTH - depth * INDENT - prefix
    if len(parts) <= WIDTH // 2 and all(isinstance(p, str) for p in parts):
        lines: list[str] = [p for p in parts if isinstance(p, str)]
        if keys is not None:
            lines = [f"{k}:{p}" for k, p in zip(keys, lines, strict=True)]
        # On one line: the members, a comma between each two, and the brackets.
        if sum(map(len, lines)) + len(lines) + 1 <= room:
            inline = open_ + ",".join(lines) + close
            if "\n" not in inline:
                return inline
    pad = " " * ((depth + 1) * INDENT)
    between = ",\n" + pad
    out = [open_, "\n", pad]
    for k, part in enumerate(parts):
        if k:
            out.append(between)
        if keys is not None:
            out.append(f"{keys[k]}: ")
        if isinstance(part, str):
            out.append(part)
        else:
            out.extend(part)
    out += ("\n", " " * (depth * INDENT), close)
    return out


def _fill(parts: list[str], depth: int, prefix: int) -> str:
    """An array of scalars: inline if it fits, else as many items a line as fit."""
    if depth * INDENT + prefix + sum(map(len, parts)) + len(parts) + 1 <= WIDTH:
        return "[" + ",".join(parts) + "]"
    pad = " " * ((depth + 1) * INDENT)
    lines: list[str] = []
    line = ""
    for p in parts:
        # The line grows by ",item" and, being ended there, by the "," after it.
        if line and len(pad) + len(line) + len(p) + 2 > WIDTH:
            lines.append(line + ",")
            line = ""
        line = f"{line},{p}" if line else p
    lines.append(line)
    return "[\n" + "\n".join(pad + x for x in lines) + "\n" + " " * (depth * INDENT) + "]"
