"""The decisions file (``decisions.toml``): an editor's decisions, kept so they are never lost.

Each decision (:class:`~collate.decisions.anchors.Decision`) is one ``[[decision]]`` table, in
the order made, so the file reads and diffs well under version control; ``version`` says its
format. A decision that no longer fits stays in it (an orphan) and is never dropped.

Several reviews may write the file at once, and the editor may edit it by hand while one is
open. So it is never written from what was loaded: each change (decisions added or replaced
by id, decisions removed by id) is merged into the file as it is then, under its lock
(:class:`~collate.decisions.ledger.Ledger`). The file is edited as a TOML document
(:mod:`tomlkit`), so what collate did not write — comments, keys it does not know, decisions
added by hand — stays as it was. A file that is not a decisions file (a readings file named
by mistake) or of a newer version is refused before anything is written.

The records and anchors (:class:`Decision`, :class:`Anchor`, …) are named here too, each
imported as itself so that callers may import them from here: this was their module.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.exceptions import TOMLKitError
from tomlkit.items import AoT, InlineTable, Table
from tomlkit.toml_document import TOMLDocument

from collate.apparatus import ReadingClass
from collate.apparatus.habits import HabitVerdict
from collate.decisions.anchors import EDITOR_CLASSES as EDITOR_CLASSES
from collate.decisions.anchors import Anchor as Anchor
from collate.decisions.anchors import Decision as Decision
from collate.decisions.anchors import anchor_of as anchor_of
from collate.decisions.anchors import base_tokens as base_tokens
from collate.decisions.anchors import new_id as new_id
from collate.decisions.anchors import now as now
from collate.decisions.anchors import reading_key as reading_key
from collate.decisions.ledger import Ledger, read_text
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
_UTF8 = "TOML files are UTF-8: save the decisions file as UTF-8"
_HEADER = re.compile(r"\s*\[\[\s*decision\s*\]\]")
# No base has two thousand million characters (a run refuses a witness of more than a few million).
MAX_OFFSET = 2**31


def decisions_path(project: Project) -> Path:
    """Where a project keeps its decisions: ``[review] decisions`` if set, else beside the project file."""
    review = project.sections.get("review")
    name = review.get("decisions") if isinstance(review, Mapping) else None
    return project.resolve(Path(name)) if isinstance(name, str) and name else project.root / DECISIONS_FILE


# --- Reading the file ---------------------------------------------------------------------

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
    raw = read_text(path, _UTF8)
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
    raw = read_text(path, _UTF8)
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
            ("editor", verdict.editor),
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


# --- Writing the file ---------------------------------------------------------------------

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


def new_document(title: str = "") -> TOMLDocument:
    """A decisions file with no decisions yet: the header comment (naming ``title``) and the version."""
    shown = one_line(title)
    doc = tomlkit.document()
    for line in (
        f"Editorial decisions{f' for {shown}' if shown else ''}, written by `collate review`.",
        "One [[decision]] per decision, in the order made; a later decision on the same place",
        "and matter supersedes an earlier one. [decision.anchor] finds the place again after",
        "witness files change: the base text there (lemma), the readings, the text around it.",
        "A [[habit]] table confirms or rejects a print habit (`collate habits`).",
    ):
        doc.add(tomlkit.comment(line))
    doc.add(VERSION_KEY, FORMAT_VERSION)
    return doc


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
        ("editor", d.editor),
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


_LEDGER: Ledger[_File] = Ledger(hint=_UTF8)


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
