"""Writing a project's regularization table, and naming it in the project file once.

An editor's regularization (:mod:`collate.normalize.regularizations`: "read 萹 as 篇", in some
witnesses and layers or in all) is kept in a table of its own, ``regularizations.toml`` beside
the project file, not in ``[normalize] variants`` of ``collate.toml``: the project file is the
editor's, laid out and commented by hand, and a review that rewrote it at every key would put
each of her saves at risk of a clash with ours. So the project file is edited at most once, to
name the table in ``[normalize] variant_tables`` (textually, with :mod:`tomlkit`: every comment
and every other key stays as written); the rules themselves, with who made them and when, go
to the table.

Both files are changed as the decisions file is (:class:`~collate.decisions.ledger.Ledger`): under
a lock, merged into the file as it is now (another review's rules and a hand edit kept), written
atomically. A table that is not a regularization table is refused before anything is written.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import AoT, Array, Comment, InlineTable, Table, Whitespace
from tomlkit.toml_document import TOMLDocument

from collate.decisions.file import headed_document, one_line
from collate.decisions.ledger import Ledger
from collate.errors import ProjectError
from collate.files import parse_toml, read_utf8
from collate.normalize.regularizations import (
    FORMAT_VERSION,
    REGULARIZATIONS_FILE,
    TABLE_KEY,
    UTF8_HINT,
    VERSION_KEY,
    Regularization,
    is_regularization_table,
    parse_regularizations,
)
from collate.project import Project

_Value = str | list[str] | None


def table_name(project: Project) -> str:
    """The regularization table a review writes: the first ``.toml`` of ``[normalize] variant_tables``,
    else ``regularizations.toml`` (to be named there by :func:`name_table`)."""
    section = project.sections.get("normalize")
    tables = section.get("variant_tables") if isinstance(section, Mapping) else None
    named = [t for t in tables if isinstance(t, str) and is_regularization_table(t)] if isinstance(tables, list) else []
    return named[0] if named else REGULARIZATIONS_FILE


def new_document(title: str = "") -> TOMLDocument:
    """A regularization table with no rules yet: the header comment (naming ``title``) and the version."""
    shown = one_line(title)
    lines = (
        f"Regularizations{f' of {shown}' if shown else ''}, written by `collate review` (key r).",
        "One [[regularization]] per rule: `variant` is read as `standard` in the witnesses and",
        "layers named (every witness, every layer where none are named), an orthographic",
        "difference (異體) from the next run on. Named in [normalize] variant_tables.",
    )
    return headed_document(lines, VERSION_KEY, FORMAT_VERSION)


def _fields(r: Regularization) -> list[tuple[str, _Value]]:
    # A fixed order, optional keys only when set: a new rule is a block like every other.
    return [
        ("id", r.id or None),
        ("variant", r.variant),
        ("standard", r.standard),
        ("witnesses", list(r.witnesses) or None),
        ("layers", list(r.layers) or None),
        ("editor", r.editor or None),
        ("when", r.when or None),
        ("locus", r.locus or None),
        ("comment", r.comment or None),
    ]


def _table(r: Regularization) -> Table:
    table = tomlkit.table()
    for key, value in _fields(r):
        if value is not None:
            table[key] = value
    # A blank line before each block, however the file ends.
    table.trivia.indent = "\n"
    return table


@dataclass(slots=True)
class _File:
    """A regularization table as a TOML document and as its rules, one for each table, in order."""

    doc: TOMLDocument
    rules: list[Regularization]

    def merge(self, put: Sequence[Regularization], remove: Collection[str]) -> str:
        """Take out the rules whose ids are in ``remove``, add those of ``put`` not there yet; the new text."""
        tables = self.doc.get(TABLE_KEY)
        if isinstance(tables, AoT) and remove:
            for k in reversed(range(len(tables))):
                if self.rules[k].id and self.rules[k].id in remove:
                    kept = _trailing(tables[k])
                    del tables[k]
                    del self.rules[k]
                    # The comments after a rule are the editor's, often on the rule below: they stay,
                    # at the end of the rule before (or of the file).
                    for item in kept:
                        if k > 0:
                            tables[k - 1].value.append(None, item)
                        else:
                            self.doc.append(None, item)
            if not len(tables):
                # An empty array of tables is written `regularization = []`: no table could follow it.
                del self.doc[TABLE_KEY]
                tables = None
        held = {r.id for r in self.rules}
        for r in put:
            if r.id in held:
                continue
            if not isinstance(tables, AoT):
                tables = tomlkit.aot()
                self.doc.append(TABLE_KEY, tables)
            tables.append(_table(r))
            self.rules.append(r)
        return self.doc.as_string()


def _trailing(table: Table) -> list[Comment | Whitespace]:
    """The comments (and the blank lines among them) that end a table's body: what follows its keys."""
    body = table.value.body
    k = len(body)
    while k > 0 and body[k - 1][0] is None and isinstance(body[k - 1][1], (Comment, Whitespace)):
        k -= 1
    out: list[Comment | Whitespace] = []
    for _, item in body[k:]:
        if isinstance(item, (Comment, Whitespace)):
            out.append(item)
    return out if any(isinstance(item, Comment) for item in out) else []


def _load(path: Path, text: str | None, title: str) -> _File:
    if text is None or not text.strip():
        return _File(new_document(title), [])
    # Checked as a run reads it: what is not a regularization table is refused before any write.
    rules = list(parse_regularizations(text, str(path)))
    try:
        doc = tomlkit.parse(text)
    except TOMLKitError as exc:
        raise ProjectError(f"cannot be edited: {exc}", where=str(path)) from None
    tables = doc.get(TABLE_KEY)
    if tables is not None and (not isinstance(tables, AoT) or len(tables) != len(rules)):
        raise ProjectError(f"cannot be edited: its rules are not [[{TABLE_KEY}]] tables", where=str(path))
    if VERSION_KEY not in doc:
        doc.add(VERSION_KEY, FORMAT_VERSION)
    return _File(doc, rules)


_LEDGER: Ledger[_File] = Ledger(hint=UTF8_HINT)


def change_regularizations(
    path: Path, *, put: Sequence[Regularization] = (), remove: Collection[str] = (), title: str = ""
) -> tuple[Regularization, ...]:
    """Merge one change into the table at ``path`` as it is now; the rules it then holds.

    Under the table's lock the file is read again, the rules whose ids are in ``remove`` are
    taken out, those of ``put`` added at the end (one whose id is there already is left as it
    is), and the file is written atomically; everything else in it stays. ``title`` names the
    work in a new table's header. A file that is not a regularization table is a
    :class:`ProjectError`, a lock not had or a failed write an :class:`ExportError`; the file is
    then as it was.
    """
    changed = _LEDGER.change(path, lambda text: _load(path, text, title), lambda f: f.merge(put, remove))
    return tuple(changed.rules)


@dataclass(slots=True)
class _ProjectFile:
    """The project file as a TOML document, and whether the last merge changed it."""

    doc: TOMLDocument
    added: bool = False


def _load_project(path: Path, text: str | None) -> _ProjectFile:
    if text is None:
        raise ProjectError("the project file is gone", where=str(path), hint="the table is named in it: restore it")
    try:
        return _ProjectFile(tomlkit.parse(text))
    except TOMLKitError as exc:
        raise ProjectError(f"cannot be edited: {exc}", where=str(path)) from None


def _name_in(state: _ProjectFile, name: str) -> str:
    doc = state.doc
    state.added = False
    section = doc.get("normalize")
    if section is None:
        section = tomlkit.table()
        doc.add("normalize", section)
    if not isinstance(section, (Table, InlineTable)):
        raise ProjectError("`normalize` is not a table", where="[normalize]")
    tables = section.get("variant_tables")
    if tables is None:
        section["variant_tables"] = [name]
        state.added = True
    elif not isinstance(tables, Array):
        raise ProjectError("`variant_tables` is not a list", where="[normalize] variant_tables")
    elif name not in [str(t) for t in tables]:
        tables.append(name)
        state.added = True
    return doc.as_string()


_PROJECT_LEDGER: Ledger[_ProjectFile] = Ledger(hint="TOML files are UTF-8: save the project file as UTF-8")


def name_table(project_file: Path, name: str) -> bool:
    """Name the table ``name`` in the project file's ``[normalize] variant_tables``; True if it was not yet.

    The file is edited as text (:mod:`tomlkit`), under its lock and atomically: only the list
    gains a name (made, with ``[normalize]`` if need be, where there is none); every other
    line, comment and key stays byte for byte. A file that names it already is not written.
    """
    if _names(project_file, name):
        return False
    changed = _PROJECT_LEDGER.change(
        project_file, lambda text: _load_project(project_file, text), lambda s: _name_in(s, name)
    )
    return changed.added


def _names(project_file: Path, name: str) -> bool:
    """Whether the project file names the table already (read as a run reads it)."""
    try:
        data = parse_toml(read_utf8(project_file), str(project_file))
    except (OSError, ProjectError):
        return False  # said by the locked edit, which reads it again
    section = data.get("normalize")
    tables = section.get("variant_tables") if isinstance(section, dict) else None
    return isinstance(tables, list) and name in tables
