"""The decisions file (``decisions.toml``): an editor's decisions, anchored so they survive a re-run.

A decision is made at a locus, but locus ids and offsets move when a witness file is
corrected or a witness added. So each decision carries an :class:`Anchor`: what the locus
says (layer, the base's text, the normalized texts of the readings), a few characters of
base text either side, and the base token offset. Re-applying finds the locus by content
and context first and uses the position only to break ties (:mod:`collate.review.apply`).

The file is plain TOML, one ``[[decision]]`` table per decision in the order they were
made, so it reads and diffs well under version control. It is written atomically; a
decision that no longer fits stays in it (an orphan) and is never dropped.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from collate.apparatus import LayerResult, Locus, Reading, ReadingClass, WitnessReading
from collate.errors import ProjectError
from collate.files import parse_toml, read_utf8, write_atomic
from collate.model import Layer, Token
from collate.normalize.placeholder import KEY_MARK
from collate.project import Project
from collate.review.records import DecisionAction

DECISIONS_FILE = "decisions.toml"
FORMAT_VERSION = 1
# Characters of base text kept on each side of a locus: enough to tell apart the many places
# where the same pair of readings occurs (筭/算; the thrice-repeated 主人曰枉矢哨壶不足辞也敢固 needs 8).
# Matching counts the characters that still agree, so a longer context costs no tolerance.
CONTEXT = 10
# Classes an editor may give a reading (the others are facts the builder establishes).
EDITOR_CLASSES = (ReadingClass.SUBSTANTIVE, ReadingClass.ORTHOGRAPHIC, ReadingClass.SCRIBAL_ERROR)


@dataclass(frozen=True, slots=True)
class Anchor:
    """How a decision finds its locus again: content, context, position.

    ``lemma`` is the base's text at the locus ('' where the base lacks text); ``readings``
    the content keys (:func:`reading_key`) of the variant readings, sorted; ``before`` and
    ``after`` up to :data:`CONTEXT` characters of base text either side; ``offset`` the
    base token offset and ``locus`` the locus id when the decision was made (both only
    break ties: they move whenever text before them changes).
    """

    layer: Layer
    lemma: str
    readings: tuple[str, ...]
    before: str
    after: str
    offset: int
    locus: str = ""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of one editor at one locus.

    ``siglum``, ``reading`` and ``norm`` name the reading concerned (the one adopted as the
    lemma, or reclassified): the witness the editor chose, its text, and its content key,
    which is what re-application matches. ``cls`` is the class given by a reclassification.
    Decisions made together on every locus with the same pair of readings share ``batch``.
    """

    id: str
    action: DecisionAction
    anchor: Anchor
    editor: str
    when: str
    comment: str = ""
    siglum: str | None = None
    reading: str | None = None
    norm: str | None = None
    cls: ReadingClass | None = None
    batch: str | None = None

    @property
    def aspect(self) -> str:
        """What the decision settles; a later decision of the same aspect supersedes it.

        Keeping and adopting both settle the lemma; a reclassification settles one reading's
        class; doubt is its own aspect (a lemma chosen later resolves it, see ``apply``).
        """
        if self.action in (DecisionAction.KEEP, DecisionAction.ADOPT):
            return "lemma"
        if self.action is DecisionAction.RECLASSIFY:
            return f"class:{self.norm}"
        return "doubt"


def token_key(token: Token) -> str:
    """A token's comparison form, except that a placeholder's key (unique per place) is its glyph."""
    return token.t if not token.n or token.n.startswith(KEY_MARK) or not token.n.isprintable() else token.n


def reading_key(reading: Reading | WitnessReading) -> str:
    """The content of a reading as an anchor records it: its normalized form, position-free."""
    first = reading if isinstance(reading, WitnessReading) else (reading.witnesses[0] if reading.witnesses else None)
    if first is not None and first.tokens:
        return "".join(token_key(t) for t in first.tokens)
    return reading.norm


def base_tokens(result: LayerResult) -> Mapping[int, Token]:
    """The base's tokens of a layer by their index in its token stream (indexed once per layer)."""
    return result.alignment.base.by_index


def anchor_of(locus: Locus, tokens: Mapping[int, Token]) -> Anchor:
    """The anchor of ``locus``, given its layer's base tokens by index (:func:`base_tokens`)."""
    before = "".join(tokens[i].t for i in range(locus.base_start - CONTEXT, locus.base_start) if i in tokens)
    after = "".join(tokens[i].t for i in range(locus.base_end, locus.base_end + CONTEXT) if i in tokens)
    return Anchor(
        layer=locus.layer,
        lemma=locus.lemma.text,
        readings=tuple(sorted({reading_key(r) for r in locus.variants()})),
        before=before,
        after=after,
        offset=locus.base_start,
        locus=locus.id,
    )


def now() -> str:
    """The local time as ISO 8601 with its UTC offset, to the second."""
    return datetime.now(timezone.utc).astimezone().isoformat(timespec="seconds")


def new_id() -> str:
    """A short random id: two editors deciding on separate copies never clash on merge."""
    return secrets.token_hex(5)


def decisions_path(project: Project) -> Path:
    """Where a project keeps its decisions: ``[review] decisions`` if set, else beside the project file."""
    review = project.sections.get("review")
    name = review.get("decisions") if isinstance(review, Mapping) else None
    return project.resolve(Path(name)) if isinstance(name, str) and name else project.root / DECISIONS_FILE


# --- Reading the file ---------------------------------------------------------------------


def load_decisions(path: Path) -> tuple[Decision, ...]:
    """The decisions in ``path`` in file order (none if it does not exist yet).

    A file that is not valid TOML or holds a malformed decision is a :class:`ProjectError`
    naming ``path:line``: the editor's work is never silently skipped.
    """
    try:
        raw = read_utf8(path, hint="TOML files are UTF-8: save the decisions file as UTF-8")
    except FileNotFoundError:
        return ()
    except OSError as exc:
        raise ProjectError(f"cannot be read: {exc}", where=str(path)) from None
    return parse_decisions(raw, str(path))


def parse_decisions(raw: str, where: str = DECISIONS_FILE) -> tuple[Decision, ...]:
    """The decisions of a decisions file's text (see :func:`load_decisions`)."""
    data = parse_toml(raw, where)
    version = data.get("version", FORMAT_VERSION)
    if version != FORMAT_VERSION:
        raise ProjectError(f"decisions file version {version!r} is not {FORMAT_VERSION}", where=where)
    entries = data.get("decision", [])
    if not isinstance(entries, list):
        raise ProjectError("`decision` must be an array of tables ([[decision]])", where=where)
    lines = [i + 1 for i, line in enumerate(raw.splitlines()) if line.strip() == "[[decision]]"]
    out = []
    for k, entry in enumerate(entries):
        shown = f"{where}:{lines[k]}" if k < len(lines) else where
        out.append(_decision(entry, shown))
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


def _decision(entry: Any, where: str) -> Decision:
    if not isinstance(entry, dict):
        raise ProjectError("a decision must be a table", where=where)
    table = _get(entry, "anchor", dict, where)
    readings = _get(table, "readings", list, where, required=False) or []
    if not all(isinstance(r, str) for r in readings):
        raise ProjectError("`anchor.readings` must be a list of strings", where=where)
    anchor = Anchor(
        layer=_enum(Layer, _get(table, "layer", str, where), "anchor.layer", where),
        lemma=_get(table, "lemma", str, where, required=False) or "",
        readings=tuple(readings),
        before=_get(table, "before", str, where, required=False) or "",
        after=_get(table, "after", str, where, required=False) or "",
        offset=_get(table, "offset", int, where),
        locus=_get(table, "locus", str, where, required=False) or "",
    )
    action: DecisionAction = _enum(DecisionAction, _get(entry, "action", str, where), "action", where)
    cls_name = _get(entry, "class", str, where, required=action is DecisionAction.RECLASSIFY)
    cls: ReadingClass | None = _enum(ReadingClass, cls_name, "class", where) if cls_name else None
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
    )


# --- Writing the file ---------------------------------------------------------------------

_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r", "\b": "\\b", "\f": "\\f"}


def _toml_str(value: str) -> str:
    # A TOML basic string: quote, backslash and control characters escaped; CJK kept as is.
    out = []
    for ch in value:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _toml_value(value: str | int | Sequence[str]) -> str:
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, int):
        return str(value)
    return "[" + ", ".join(_toml_str(v) for v in value) + "]"


def dumps_decisions(decisions: Sequence[Decision], title: str = "") -> str:
    """The decisions file's text: a short header, then one ``[[decision]]`` table each, in order.

    Keys come in a fixed order and optional ones only when set, so a new decision adds a
    block at the end of the file and nothing else changes.
    """
    lines = [
        f"# Editorial decisions{f' for {title}' if title else ''}, written by `collate review`.",
        "# One [[decision]] per decision, in the order made; a later decision on the same place",
        "# and matter supersedes an earlier one. [decision.anchor] finds the place again after",
        "# witness files change: the base text there (lemma), the readings, the text around it.",
        f"version = {FORMAT_VERSION}",
    ]
    for d in decisions:
        fields: list[tuple[str, str | int | Sequence[str] | None]] = [
            ("id", d.id),
            ("action", d.action.value),
            ("siglum", d.siglum),
            ("reading", d.reading),
            ("norm", d.norm),
            ("class", d.cls.value if d.cls else None),
            ("comment", d.comment or None),
            ("editor", d.editor),
            ("when", d.when),
            ("batch", d.batch),
        ]
        a = d.anchor
        anchor: list[tuple[str, str | int | Sequence[str] | None]] = [
            ("layer", a.layer.value),
            ("locus", a.locus or None),
            ("offset", a.offset),
            ("lemma", a.lemma),
            ("readings", a.readings),
            ("before", a.before),
            ("after", a.after),
        ]
        lines += ["", "[[decision]]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in fields if v is not None]
        lines += ["", "[decision.anchor]"]
        lines += [f"{k} = {_toml_value(v)}" for k, v in anchor if v is not None]
    return "\n".join(lines) + "\n"


def save_decisions(path: Path, decisions: Sequence[Decision], title: str = "") -> None:
    """Write the decisions file atomically (temporary file, fsync, rename): never half a file."""
    write_atomic(path, dumps_decisions(decisions, title))
