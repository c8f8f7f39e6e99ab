"""The files the library writes and the TOML it reads: atomic writes, UTF-8 and TOML with locations.

Every stage that touches a file of its own (the exporters, the decisions file, the run's record,
the project and readings files) goes through these, so a half-written file or an error
without a ``path:line:col`` has one place to be fixed.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

from collate.decode import check_regular_file
from collate.errors import CollateError, ExportError, ProjectError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# tomllib's message ends with "(at line L, column C)"; that is lifted into the location.
_AT = re.compile(r"\(at line (\d+), column (\d+)\)")
_BOM = b"\xef\xbb\xbf"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder, then rename.

    ``os.replace`` within one folder is atomic, so a reader (or an interrupted run) sees the
    old file or the new one, never half of one. Text is written as UTF-8.
    """
    payload = data.encode("utf-8") if isinstance(data, str) else data
    write_atomic_with(path, lambda out: out.write(payload))


def write_atomic_with(path: Path, write: Callable[[BinaryIO], object]) -> None:
    """As :func:`write_atomic`, with ``write`` writing the file's bytes as it makes them.

    For outputs too large to hold twice (a book's JSON): they go to the
    temporary file piece by piece.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as exc:
        raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    try:
        if hasattr(os, "fchmod"):
            # mkstemp makes the file private (0600); an output should get the usual permissions.
            os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ExportError(f"cannot write: {exc.strerror or exc}", where=str(path)) from None
    except BaseException:
        # Interrupted (Ctrl-C): leave no temporary file behind, then let it propagate.
        Path(tmp).unlink(missing_ok=True)
        raise


def read_utf8(path: Path, shown: str | None = None, hint: str | None = None) -> str:
    """The text of a UTF-8 file (a byte order mark dropped), as an editor saved it.

    Bytes that are not UTF-8 are a :class:`ProjectError` at ``path:line:col`` of the first bad
    byte, as an editor counts; a file that cannot be opened raises the ``OSError`` itself
    (``FileNotFoundError`` included), for the caller to say what a missing file means.
    """
    where = shown or str(path)
    # A FIFO or a device would wait forever: refused before it is opened.
    check_regular_file(path, where, ProjectError, hint=hint)
    body = path.read_bytes().removeprefix(_BOM)
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = body[: exc.start].decode("utf-8")
        line, column = good.count("\n") + 1, len(good) - (good.rfind("\n") + 1) + 1
        raise ProjectError(
            f"not UTF-8: byte 0x{body[exc.start]:02x} cannot be decoded", where=f"{where}:{line}:{column}", hint=hint
        ) from None


# Arrays and inline tables nested deeper than this are refused before parsing: the TOML parsers
# recurse once per level (5,000 levels end in a RecursionError), and no file collate reads nests
# more than three.
MAX_NESTING = 64
_QUOTES = ('"""', "'''", '"', "'")


def _too_deep(text: str, limit: int = MAX_NESTING) -> tuple[int, int] | None:
    """Where ``text`` first nests arrays or inline tables deeper than ``limit`` (line, column), if it does.

    Brackets inside strings and comments do not count; a table header (``[a]``, ``[[a]]``) opens
    and closes on its line. Only a guard against runaway depth: the parser says what else is wrong.
    """
    depth, i, n = 0, 0, len(text)
    while i < n:
        c = text[i]
        if c == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        quote = next((q for q in _QUOTES if text.startswith(q, i)), None)
        if quote is not None:
            i += len(quote)
            while i < n and not text.startswith(quote, i):
                # A backslash escapes in basic strings only (" and """), never in literal ones.
                i += 2 if text[i] == "\\" and quote[0] == '"' else 1
            i += len(quote)
            continue
        if c in "[{":
            depth += 1
            if depth > limit:
                line = text.count("\n", 0, i) + 1
                return line, i - (text.rfind("\n", 0, i) + 1) + 1
        elif c in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return None


def parse_toml(
    text: str, where: str, error: type[CollateError] = ProjectError, hint: str | None = None
) -> dict[str, Any]:
    """The table of a TOML text, or ``error`` at ``where:line:col`` saying what is wrong."""
    deep = _too_deep(text)
    if deep is not None:
        raise error(
            f"values nested more than {MAX_NESTING} deep (arrays or inline tables within each other)",
            where=f"{where}:{deep[0]}:{deep[1]}",
            hint=hint or "no file collate reads nests values so deep: is this the file you meant?",
        )
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except RecursionError:
        raise error("values nested too deep to read", where=where, hint=hint) from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _AT.search(msg)
        shown = f"{where}:{m.group(1)}:{m.group(2)}" if m else where
        raise error(f"not valid TOML: {re.sub(r' [(]at line.*', '', msg)}", where=shown, hint=hint) from None
    return data


def json_text(data: Any, indent: int) -> str:
    """``data`` as indented JSON text, its characters as they are (never ``\\uXXXX`` escapes)."""
    return json.dumps(data, ensure_ascii=False, indent=indent)


__all__ = ["json_text", "parse_toml", "read_utf8", "write_atomic"]
