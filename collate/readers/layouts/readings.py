"""Readings files (TOML): a sparse witness, extant only where a source reports a reading.

Each ``[[reading]]`` table says what the witness reads at one place of the base, and who
says so (the format is documented in ``witnesses/README.md``)::

    [witness]
    title = "大戴禮記·投壺"

    [[reading]]
    at = "某有枉矢哨壶"     # a phrase of the base locating the place (any script)
    base = "哨"            # the part of `at` concerned; "" for an addition
    reading = "峭"         # what the witness has there; "" when it lacks `base`
    source = "蕙田案（五禮通考卷165 頁3a）"

The result has no text layers: each ``[[reading]]`` table is one ``Layer.MARKUP`` span
(``Role.LAYOUT``, ``unit`` and the ``marker`` ``reading N`` numbering the tables from 1), and
everything else (the ``[witness]`` table, comments, blank lines) is ``Layer.MARKUP``
layout with unit 0. The entries are ``Parsed.readings``, each with its table's offsets;
``[witness]`` ``title`` and ``description`` go to the metadata. Anything wrong is a
:class:`~collate.errors.LayoutError` naming ``path:line:col`` — never a partial read,
since a reading silently dropped would look like silence of the witness.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from collate.errors import LayoutError
from collate.files import parse_toml
from collate.model import Layer, Position, Role, SparseReading, Witness
from collate.readers.base import Layout, Parsed, ReadOptions, SpanList

if TYPE_CHECKING:
    from collate.normalize import Normalizer

REQUIRED = ("at", "base", "reading", "source")
OPTIONAL = ("position", "layer", "note")
# Where an addition may go; an entry that states none goes after its ``at``.
POSITIONS = (Position.AFTER, Position.BEFORE)
WITNESS_KEYS = ("title", "description")
TOP_LEVEL = ("witness", "reading")

_TABLE = re.compile(r"^[ \t]*\[", re.MULTILINE)
# ``\r?``: ``$`` stops before ``\n`` only, and a file saved on Windows ends its lines ``\r\n``.
_READING_TABLE = re.compile(r"^[ \t]*\[\[[ \t]*reading[ \t]*\]\][ \t]*(?:#[^\r\n]*)?\r?$", re.MULTILINE)
_LINE = re.compile(r"[^\n]*\n?")


class ReadingsReader(Layout):
    """Reads a readings file (TOML) into :class:`~collate.model.SparseReading` entries.

    ``normalizer`` compares an entry's ``base`` with its ``at`` (a traditional ``base`` is
    found in a simplified ``at`` by their keys); without one, the default rules do. A
    project checks its readings files again with its own (:func:`check_readings`).
    """

    name = "readings"
    description = "readings file (TOML): [[reading]] entries of a sparse witness, each with its source"
    sparse = True

    def __init__(self, normalizer: Normalizer | None = None) -> None:
        self.normalizer = normalizer

    def detect(self, text: str) -> tuple[float, str]:
        """A file with ``[[reading]]`` tables fits; the registry also picks this for ``.toml``."""
        tables = len(_READING_TABLE.findall(text))
        if not tables:
            return 0.0, "no [[reading]] tables"
        return 0.9, f"{tables} [[reading]] tables (a readings file)"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Parse and check every entry; raise :class:`LayoutError` at the first bad one."""
        return _Reading(text, options.path or "readings", _folder(self.normalizer)).run()


def check_readings(witness: Witness, normalizer: Normalizer) -> None:
    """Check that each entry's ``base`` stands once in its ``at`` as ``normalizer`` compares them.

    Raises :class:`LayoutError` at the first entry where it does not (naming ``path:line:col``).
    """
    checker = _Reading(witness.text, witness.path, normalizer.fold)
    for entry in witness.readings:
        if entry.base:
            checker.check_base(entry.at, entry.base, entry.start, entry.end)


def _folder(normalizer: Normalizer | None) -> Callable[[str], str]:
    # Imported on first use: building a normalizer loads OpenCC and the variant tables.
    from collate.normalize import Normalizer

    return (normalizer or Normalizer()).fold


class _Reading:
    def __init__(self, text: str, path: str, fold: Callable[[str], str]) -> None:
        self.text = text
        self.path = path
        self.fold = fold

    def where(self, offset: int) -> str:
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return f"{self.path}:{line}:{column}"

    def fail(self, message: str, offset: int, hint: str) -> LayoutError:
        return LayoutError(message, where=self.where(offset), hint=hint)

    def run(self) -> Parsed:
        data = parse_toml(self.text, self.path, LayoutError, "see witnesses/README.md for the readings format")
        for key in data:
            if key not in TOP_LEVEL:
                raise self.fail(
                    f"unknown top-level key {key!r}",
                    self.key_offset(key, 0, len(self.text)),
                    "a readings file holds one [witness] table and [[reading]] tables",
                )
        metadata = self.witness(data.get("witness", {}))
        entries = data.get("reading")
        headers = [m.start() for m in _READING_TABLE.finditer(self.text)]
        if not isinstance(entries, list) or not entries:
            raise self.fail("no readings", 0, "add [[reading]] tables")
        if len(headers) != len(entries):
            raise self.fail(
                "readings must be written as [[reading]] tables",
                0,
                "write each entry as its own [[reading]] table, not as an inline array",
            )
        spans = SpanList()
        readings = []
        pos = 0
        for n, (entry, start) in enumerate(zip(entries, headers, strict=True), 1):
            end = self.table_end(start)
            readings.append(self.entry(entry, start, end))
            spans.layout(pos, start)
            spans.add(start, end, Layer.MARKUP, n, Role.LAYOUT, marker=f"reading {n}")
            pos = end
        spans.layout(pos, len(self.text))
        return Parsed(spans.freeze(), metadata=tuple(metadata), readings=tuple(readings))

    def witness(self, table: Any) -> list[tuple[str, str]]:
        header = self.text.find("[witness]")
        if not isinstance(table, dict):
            raise self.fail("`witness` must be a table", max(header, 0), 'write [witness] with title = "…"')
        metadata = []
        for key, value in table.items():
            offset = self.key_offset(key, max(header, 0), len(self.text))
            if key not in WITNESS_KEYS:
                raise self.fail(f"unknown key {key!r} in [witness]", offset, f"known keys: {', '.join(WITNESS_KEYS)}")
            if not isinstance(value, str):
                raise self.fail(f"`{key}` must be a string", offset, f'write {key} = "…"')
            metadata.append((key, value))
        return metadata

    def table_end(self, start: int) -> int:
        """Where the table opened at ``start`` ends: after its last line that is not blank or a comment."""
        following = _TABLE.search(self.text, start + 1)
        limit = following.start() if following else len(self.text)
        end = start
        for m in _LINE.finditer(self.text, start, limit):
            stripped = m.group().strip()
            if stripped and not stripped.startswith("#"):
                end = m.end()
        return end

    def check_base(self, at: str, base: str, start: int, end: int) -> None:
        """``base`` must stand once in ``at``: as written, or compared by their keys."""
        found = at.count(base) or self.fold(at).count(self.fold(base))
        if found != 1:
            problem = "is not inside" if not found else f"occurs {found} times in"
            raise self.fail(
                f"`base` {base!r} {problem} `at` {at!r}",
                self.key_offset("base", start, end),
                "`base` must be the part of `at` the reading concerns, once",
            )

    def key_offset(self, key: str, start: int, end: int) -> int:
        m = re.compile(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*=", re.MULTILINE).search(self.text, start, end)
        return m.start() + len(m.group()) - len(m.group().lstrip()) if m else start

    def entry(self, entry: Any, start: int, end: int) -> SparseReading:
        if not isinstance(entry, dict):
            raise self.fail("a reading must be a table", start, "write [[reading]] and key = value lines")
        for key in entry:
            if key not in REQUIRED + OPTIONAL:
                raise self.fail(
                    f"unknown key {key!r} in a reading",
                    self.key_offset(key, start, end),
                    f"known keys: {', '.join(REQUIRED + OPTIONAL)}",
                )
        for key in REQUIRED:
            if key not in entry:
                raise self.fail(f"the reading lacks `{key}`", start, _HINTS[key])
        values: dict[str, str] = {}
        for key, value in entry.items():
            if not isinstance(value, str):
                raise self.fail(f"`{key}` must be a string", self.key_offset(key, start, end), _HINTS.get(key, ""))
            values[key] = value

        def at_key(key: str) -> int:
            return self.key_offset(key, start, end)

        at, base, reading = values["at"], values["base"], values["reading"]
        if not at:
            raise self.fail("`at` is empty", at_key("at"), _HINTS["at"])
        if not values["source"].strip():
            raise self.fail("`source` is empty", at_key("source"), _HINTS["source"])
        if not base and not reading:
            raise self.fail("`base` and `reading` are both empty", at_key("base"), _HINTS["reading"])
        if base == reading:
            raise self.fail("`reading` is the same as `base`", at_key("reading"), _HINTS["reading"])
        if base:
            self.check_base(at, base, start, end)
        position = values.get("position", Position.AFTER.value)
        if position not in POSITIONS:
            raise self.fail(f"unknown position {position!r}", at_key("position"), 'use "after" or "before"')
        if "position" in values and base:
            raise self.fail(
                "`position` is for additions only", at_key("position"), 'remove it, or make `base = ""` for an addition'
            )
        layer_name = values.get("layer", Layer.JING.value)
        text_layers = [layer.value for layer in Layer if layer.is_text]
        if layer_name not in text_layers:
            raise self.fail(f"unknown layer {layer_name!r}", at_key("layer"), f"use one of {', '.join(text_layers)}")
        return SparseReading(
            start=start,
            end=end,
            at=at,
            base=base,
            reading=reading,
            position=Position(position),
            layer=Layer(layer_name),
            source=values["source"],
            note=values.get("note", ""),
        )


_HINTS = {
    "at": 'write at = "…", a phrase of the base that locates the place',
    "base": 'write base = "…", the part of `at` concerned ("" for an addition)',
    "reading": 'write reading = "…", what the witness has there ("" when it lacks `base`)',
    "source": 'write source = "…", who reports the reading and where',
    "position": 'write position = "after" or "before" (additions only)',
    "layer": 'write layer = "jing" (or zhu, shu …)',
    "note": 'write note = "…", the words of the source',
}

READER = ReadingsReader()
