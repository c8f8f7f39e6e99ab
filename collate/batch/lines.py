"""Where each table and key of a batch manifest is written, so that an error can name its line.

``tomllib`` gives the values without their lines. The manifest is plain TOML of a known shape
(``[cluster]``, ``[defaults]`` and its subtables, ``[[job]]`` with its subtables and
``[[job.witness]]``), so a scan of its headers and keys finds them again: each table is named by
a path of names and element numbers, ``("job", 2, "witness", 1)`` for the first witness of the
second job. A value written where the scan does not look (an inline table) is placed at the line
of the table that holds it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# A path of table names and 1-based element numbers of arrays of tables.
TablePath = tuple[str | int, ...]

_HEADER = re.compile(r"^[ \t]*(\[\[?)[ \t]*([^\]\n]+?)[ \t]*\]")
_KEY = re.compile(r"^[ \t]*[\"']?([^\"'=.\s]+)[\"']?[ \t]*[=.]")


def _names(raw: str) -> list[str]:
    return [part.strip().strip("\"'") for part in raw.split(".")]


@dataclass
class Lines:
    """The line of each table header and of each key's first appearance in its table."""

    headers: dict[TablePath, int] = field(default_factory=dict)
    keys: dict[tuple[TablePath, str], int] = field(default_factory=dict)

    def of(self, table: TablePath, key: str | None = None) -> int | None:
        """The line of ``key`` in ``table`` (of the table itself if None), or of the nearest table holding it."""
        if key is not None and (table, key) in self.keys:
            return self.keys[(table, key)]
        while table:
            if table in self.headers:
                return self.headers[table]
            # A table with no header of its own (`[job.normalize]` without `[job]`…) is in its parent's.
            parent = table[:-1]
            if parent and (parent, str(table[-1])) in self.keys:
                return self.keys[(parent, str(table[-1]))]
            table = parent
        return None


def scan(text: str) -> Lines:
    """The lines of the manifest ``text``'s tables and keys."""
    lines = Lines()
    counts: dict[TablePath, int] = {}
    # The element number of the latest header of each array of tables, by its path of names.
    current: dict[tuple[str, ...], int] = {}
    table: TablePath = ()
    in_string = False
    for number, line in enumerate(text.splitlines(), 1):
        # Multi-line strings hold text, not keys: skip what is between their quotes.
        quotes = line.count('"""') + line.count("'''")
        if in_string:
            in_string = quotes % 2 == 0
            continue
        if quotes % 2 == 1:
            in_string = True
        header = _HEADER.match(line)
        if header:
            names = _names(header.group(2))
            table = _resolve(names, current)
            if header.group(1) == "[[":
                counts[table] = counts.get(table, 0) + 1
                current[tuple(str(n) for n in names)] = counts[table]
                table = (*table, counts[table])
            lines.headers.setdefault(table, number)
            if len(table) > 1:
                # A subtable's header is also where its parent's key of that name is written.
                parent, name = (table[:-2], table[-2]) if isinstance(table[-1], int) else (table[:-1], table[-1])
                lines.keys.setdefault((parent, str(name)), number)
            continue
        key = _KEY.match(line)
        if key:
            lines.keys.setdefault((table, key.group(1)), number)
    return lines


def _resolve(names: list[str], current: dict[tuple[str, ...], int]) -> TablePath:
    """The path of a header's names, each array of tables along it at its latest element."""
    path: list[str | int] = []
    for i, name in enumerate(names):
        path.append(name)
        # Not the last name: a header [[job]] then [job.x] puts x in the latest job.
        if i < len(names) - 1 and tuple(names[: i + 1]) in current:
            path.append(current[tuple(names[: i + 1])])
    return tuple(path)


__all__ = ["Lines", "TablePath", "scan"]
