"""Changing the decisions file: each change merged, under the file's lock, into the file as it is
then (:class:`~collate.decisions.ledger.Ledger`), edited as a TOML document so that what collate
did not write stays as it was."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import AoT, InlineTable, Table
from tomlkit.toml_document import TOMLDocument

from collate.apparatus.habits import HabitVerdict
from collate.decisions.anchors import Anchor, Decision
from collate.decisions.file.read import (
    FORMAT_VERSION,
    HABIT_KEY,
    UTF8_HINT,
    VERSION_KEY,
    load_habit_verdicts,
    parse_decisions,
)
from collate.decisions.ledger import Ledger
from collate.errors import ProjectError

# Characters a title must not bring into the header comment: controls (a newline would end the
# comment and let the title write TOML of its own; TOML allows no control but tab in a comment),
# line and paragraph separators and format controls (an editor may break the line there, or
# show the text in another order than it has).
_UNSAFE = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_Value = str | int | list[str] | None


def one_line(text: str) -> str:
    """``text`` fit for a TOML comment: each run of unsafe characters (see ``_UNSAFE``) one space."""
    kept = "".join(" " if unicodedata.category(c) in _UNSAFE else c for c in text)
    return re.sub(" {2,}", " ", kept).strip()


def headed_document(lines: Sequence[str], key: str, version: int) -> TOMLDocument:
    """A file collate keeps for the editor, with nothing in it yet: a comment of ``lines``, then its version."""
    doc = tomlkit.document()
    for line in lines:
        doc.add(tomlkit.comment(line))
    doc.add(key, version)
    return doc


def new_document(title: str = "") -> TOMLDocument:
    """A decisions file with no decisions yet: the header comment (naming ``title``) and the version."""
    shown = one_line(title)
    lines = (
        f"Editorial decisions{f' for {shown}' if shown else ''}, written by `collate review`.",
        "One [[decision]] per decision, in the order made; a later decision on the same place",
        "and matter supersedes an earlier one. [decision.anchor] finds the place again after",
        "witness files change: the base text there (lemma), the readings, the text around it.",
        "A [[habit]] table confirms or rejects a print habit (`collate habits`).",
    )
    return headed_document(lines, VERSION_KEY, FORMAT_VERSION)


def _fields(d: Decision) -> list[tuple[str, _Value]]:
    # A fixed order, optional keys only when set: a new decision is a block like every other.
    return [
        ("id", d.id),
        ("action", d.action.value),
        ("siglum", d.siglum),
        ("reading", d.reading),
        ("norm", d.norm),
        ("class", d.cls.value if d.cls else None),
        ("at", d.at),
        ("comment", d.comment or None),
        ("editor", d.editor or None),
        ("when", d.when),
        ("batch", d.batch),
    ]


def _anchor_fields(a: Anchor) -> list[tuple[str, _Value]]:
    return [
        ("layer", a.layer.value),
        ("locus", a.locus or None),
        ("offset", a.offset),
        ("lemma", a.lemma),
        ("readings", list(a.readings)),
        ("before", a.before),
        ("after", a.after),
    ]


def _set(table: Table | InlineTable, fields: Sequence[tuple[str, _Value]]) -> None:
    # Only what differs is written, in place: an unchanged value keeps its formatting and its
    # comment, and a key collate does not know is never touched.
    for key, value in fields:
        if value is None:
            if key in table:
                del table[key]
        elif key not in table or table[key] != value:
            table[key] = value


def _table(d: Decision) -> Table:
    table = tomlkit.table()
    _set(table, _fields(d))
    for key, value in (("anchor", d.anchor), ("until", d.until)):
        if value is not None:
            anchor = tomlkit.table()
            _set(anchor, _anchor_fields(value))
            table.append(key, anchor)
    # A blank line before each block, however the file ends, as in a file written at once.
    table.trivia.indent = "\n"
    return table


def _update(table: Table, d: Decision) -> None:
    _set(table, _fields(d))
    for key, value in (("anchor", d.anchor), ("until", d.until)):
        held = table.get(key)
        if value is not None and isinstance(held, (Table, InlineTable)):
            _set(held, _anchor_fields(value))
        elif value is not None:
            table[key] = _table(d)[key]
        elif key in table:
            del table[key]


@dataclass(slots=True)
class _File:
    """A decisions file as a TOML document and as its decisions, one for each table, in order."""

    doc: TOMLDocument
    decisions: list[Decision]

    def merge(self, put: Sequence[Decision], remove: Collection[str]) -> str:
        """Take out the decisions in ``remove``, replace or add those of ``put``; the new text."""
        tables = self.doc.get("decision")
        if isinstance(tables, AoT) and remove:
            for k in reversed(range(len(tables))):
                if self.decisions[k].id in remove:
                    del tables[k]
                    del self.decisions[k]
            if not len(tables):
                # An empty array of tables is written `decision = []`, which no table may follow.
                del self.doc["decision"]
                tables = None
        where = {d.id: k for k, d in enumerate(self.decisions)}
        for d in put:
            at = where.get(d.id)
            if at is not None and isinstance(tables, AoT):
                _update(tables[at], d)
                self.decisions[at] = d
                continue
            if not isinstance(tables, AoT):
                tables = tomlkit.aot()
                self.doc.append("decision", tables)
            tables.append(_table(d))
            where[d.id] = len(self.decisions)
            self.decisions.append(d)
        return self.doc.as_string()


def _load(path: Path, text: str | None, title: str) -> _File:
    if text is None or not text.strip():
        return _File(new_document(title), [])
    # Checked as collate reads decisions: a file that is not a decisions file, of a newer version
    # or with a malformed decision is refused here, before anything is written.
    decisions = list(parse_decisions(text, str(path)))
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise ProjectError(f"cannot be edited: {exc}", where=str(path)) from None
    tables = doc.get("decision")
    if tables is not None and (not isinstance(tables, AoT) or len(tables) != len(decisions)):
        # `decision = [{…}]` reads alike but could take no [[decision]] table after it.
        raise ProjectError("cannot be edited: its decisions are not [[decision]] tables", where=str(path))
    if VERSION_KEY not in doc:
        # Comments only (check_file refuses anything else without a version).
        doc.add(VERSION_KEY, FORMAT_VERSION)
    return _File(doc, decisions)


_LEDGER: Ledger[_File] = Ledger(hint=UTF8_HINT)


def change_decisions(
    path: Path, *, put: Sequence[Decision] = (), remove: Collection[str] = (), title: str = ""
) -> tuple[Decision, ...]:
    """Merge one change into the decisions file as it is now; the decisions it then holds.

    Under the file's lock the file is read again, the decisions whose ids are in ``remove``
    are taken out, each decision of ``put`` replaces the one of its id in place (the keys
    collate does not know kept) or is added at the end, and the file is written atomically.
    Everything else in it stays as it was. ``title`` names the work in a new file's header.
    A file collate may not write (:func:`check_file`, a malformed decision) is a
    :class:`ProjectError`, a lock not had or a failed write an :class:`ExportError`; the file
    is then as it was.
    """
    changed = _LEDGER.change(path, lambda text: _load(path, text, title), lambda f: f.merge(put, remove))
    return tuple(changed.decisions)


def save_decisions(path: Path, decisions: Sequence[Decision], title: str = "") -> None:
    """Make the decisions file hold exactly ``decisions``, merged as :func:`change_decisions` merges.

    For tools that write a whole list; a review adds its decisions with
    :func:`change_decisions`, and so never takes out a decision another review added.
    """

    def merge(f: _File) -> str:
        keep = {d.id for d in decisions}
        return f.merge(decisions, {d.id for d in f.decisions} - keep)

    _LEDGER.change(path, lambda text: _load(path, text, title), merge)


def dumps_decisions(decisions: Sequence[Decision], title: str = "") -> str:
    """The text of a new decisions file holding ``decisions``: the header, then one table each."""
    return _File(new_document(title), []).merge(decisions, ())


def change_habit_verdict(path: Path, verdict: HabitVerdict, title: str = "") -> tuple[HabitVerdict, ...]:
    """Merge one verdict on a habit into the decisions file (replacing the one on the same habit); all of them then.

    As :func:`change_decisions` does for decisions: under the file's lock, on the file as it is,
    everything else kept.
    """

    def merge(f: _File) -> str:
        tables = f.doc.get(HABIT_KEY)
        if not isinstance(tables, AoT):
            tables = tomlkit.aot()
            f.doc.append(HABIT_KEY, tables)
        same = (verdict.siglum, verdict.base, verdict.written)
        fields: list[tuple[str, _Value]] = [
            ("siglum", verdict.siglum),
            ("base", verdict.base),
            ("written", verdict.written),
            ("verdict", verdict.verdict),
            ("comment", verdict.comment or None),
            ("editor", verdict.editor or None),
            ("when", verdict.when),
        ]
        for table in tables:
            if (table.get("siglum"), table.get("base"), table.get("written")) == same:
                _set(table, fields)
                break
        else:
            table = tomlkit.table()
            _set(table, fields)
            table.trivia.indent = "\n"
            tables.append(table)
        return f.doc.as_string()

    _LEDGER.change(path, lambda text: _load(path, text, title), merge)
    return load_habit_verdicts(path)
