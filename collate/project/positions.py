"""Where each key of a TOML text is written, so that an error about a value can name its line.

``tomllib`` gives the values without their places. One pass over the text finds them again: each
key, table header and array element is named by its *key path*, the names and (0-based) element
numbers that lead to it in the parsed data, as msgspec names them too: ``("witness", 1, "path")``
is the ``path`` of the second ``[[witness]]``, ``("layers", 0)`` the first element of ``layers``.
The text is read as TOML reads it (quoted keys, dotted keys, headers of subtables and arrays of
tables, inline tables, multi-line strings, comments), so a key named in a string or a comment is
never taken for one. The text is one ``tomllib`` has read already; on another, the scan stops
where it no longer understands and keeps what it found.
"""

from __future__ import annotations

import bisect
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# A path of key names and 0-based element numbers, from the top of the document.
KeyPath = tuple[str | int, ...]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
# A number, boolean or date: it ends where the next value, the container or the line does.
_SCALAR = re.compile(r"[^,\]}#\r\n]*")
_BLANK = re.compile(r"(?:[ \t\r\n]|#[^\n]*)*")
_SPACE = re.compile(r"[ \t]*")


@dataclass(frozen=True, slots=True)
class Position:
    """A place in the text: 1-based line and column (in characters)."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Positions:
    """The place of every key path of one TOML text: where each is first written."""

    places: Mapping[KeyPath, Position]

    def of(self, path: KeyPath) -> Position | None:
        """Where ``path`` is written, or else the nearest table or key holding it; None if none is.

        A path the text does not write (a key left out, taking its default) is placed at the
        table that would hold it.
        """
        while True:
            if path in self.places:
                return self.places[path]
            if not path:
                return None
            path = path[:-1]


@dataclass(frozen=True, slots=True)
class FileLines:
    """A file as messages name it, with the positions of its text: ``at(...)`` is ``file:line``."""

    shown: str
    positions: Positions

    def at(self, *path: str | int) -> str:
        """``file:line`` of ``path`` (or of the nearest table holding it); ``file`` if it is not written.

        The line alone: the project file's messages have always named lines, and a key's line is
        where the editor's eye goes.
        """
        position = self.positions.of(path)
        return f"{self.shown}:{position.line}" if position else self.shown


def scan(text: str) -> Positions:
    """The positions of the keys, tables and array elements of the TOML ``text``."""
    scanner = _Scanner(text)
    scanner.document()
    return Positions(scanner.places)


class _Scanner:
    """A reader of TOML's syntax that keeps where each path is, not what it holds."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.places: dict[KeyPath, Position] = {}
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        # The element number of the latest header of each array of tables (``[[witness]]``).
        self._arrays: dict[KeyPath, int] = {}

    def _mark(self, path: KeyPath, at: int) -> None:
        # The first place a path is written is where it is: a table is defined once.
        if path not in self.places:
            line = bisect.bisect_right(self._line_starts, at)
            self.places[path] = Position(line, at - self._line_starts[line - 1] + 1)

    def _skip(self, pattern: re.Pattern[str]) -> None:
        match = pattern.match(self.text, self.i)
        if match:
            self.i = match.end()

    def _peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def document(self) -> None:
        """The whole text: each line a header, a key and its value, or blank."""
        table: KeyPath = ()
        while True:
            self._skip(_BLANK)
            if self.i >= len(self.text):
                return
            start = self.i
            if self._peek() == "[":
                table = self._header()
            else:
                self._keyval(table)
            if self.i == start:
                # Not TOML the scan understands: what comes after cannot be placed with certainty.
                return

    def _header(self) -> KeyPath:
        """A ``[table]`` or ``[[array]]`` header: the path of the table it opens."""
        start = self.i
        double = self.text.startswith("[[", start)
        self.i += 2 if double else 1
        names = self._key()
        self._skip(_SPACE)
        self.i += 2 if double else 1
        path: KeyPath = ()
        for k, (name, _) in enumerate(names):
            path = (*path, name)
            if double and k == len(names) - 1:
                self._mark(path, start)
                n = self._arrays.get(path, -1) + 1
                self._arrays[path] = n
                path = (*path, n)
            elif path in self._arrays:
                # [witness.x] after [[witness]]: x is a table of the latest witness.
                path = (*path, self._arrays[path])
            self._mark(path, start)
        return path

    def _key(self) -> list[tuple[str, int]]:
        """A dotted key: each of its names with where it starts."""
        names: list[tuple[str, int]] = []
        while True:
            self._skip(_SPACE)
            start = self.i
            if self._peek() in ('"', "'"):
                self._string()
                raw = self.text[start : self.i]
                try:
                    name = str(tomllib.loads(f"k = {raw}")["k"])
                except tomllib.TOMLDecodeError:
                    return names
            else:
                match = _BARE_KEY.match(self.text, self.i)
                if not match:
                    return names
                name, self.i = match.group(), match.end()
            names.append((name, start))
            self._skip(_SPACE)
            if self._peek() != ".":
                return names
            self.i += 1

    def _keyval(self, table: KeyPath) -> None:
        """``key = value`` in ``table``: the key's names are placed, then the value's own keys."""
        names = self._key()
        path = table
        for name, at in names:
            path = (*path, name)
            self._mark(path, at)
        self._skip(_SPACE)
        if not names or self._peek() != "=":
            return
        self.i += 1
        self._skip(_SPACE)
        self._value(path)

    def _value(self, path: KeyPath) -> None:
        c = self._peek()
        if c in ('"', "'"):
            self._string()
        elif c == "[":
            self._container(path, "]")
        elif c == "{":
            self._container(path, "}")
        else:
            self._skip(_SCALAR)

    def _container(self, path: KeyPath, close: str) -> None:
        """An array (its elements placed by number) or an inline table (its keys by name)."""
        self.i += 1
        n = 0
        while True:
            self._skip(_BLANK)
            if self._peek() in (close, ""):
                self.i += 1
                return
            start = self.i
            if close == "]":
                self._mark((*path, n), start)
                self._value((*path, n))
                n += 1
            else:
                self._keyval(path)
            self._skip(_BLANK)
            if self._peek() == ",":
                self.i += 1
            elif self.i == start:
                self.i = len(self.text)
                return

    def _string(self) -> None:
        """Past a string of any of TOML's four kinds (escapes are only in the ``"`` ones)."""
        text, quote = self.text, self.text[self.i]
        triple = quote * 3
        multi = text.startswith(triple, self.i)
        self.i += 3 if multi else 1
        while self.i < len(text):
            c = text[self.i]
            if c == "\\" and quote == '"':
                self.i += 2
            elif multi and text.startswith(triple, self.i):
                self.i += 3
                # The closing quotes may follow one or two of the string's own: """a"""" is 'a"'.
                for _ in range(2):
                    if self._peek() == quote:
                        self.i += 1
                return
            elif not multi and c in (quote, "\n"):
                self.i += 1
                return
            else:
                self.i += 1


__all__ = ["FileLines", "KeyPath", "Position", "Positions", "scan"]
