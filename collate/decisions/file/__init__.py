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

Reading and checking the file is :mod:`~collate.decisions.file.read`, changing it
:mod:`~collate.decisions.file.change`; both are named here. The records and anchors
(:class:`Decision`, :class:`Anchor`, …) are named here too, each imported as itself so that
callers may import them from here: this was their module.
"""

from __future__ import annotations

from collate.decisions.anchors import EDITOR_CLASSES as EDITOR_CLASSES
from collate.decisions.anchors import Anchor as Anchor
from collate.decisions.anchors import Decision as Decision
from collate.decisions.anchors import anchor_of as anchor_of
from collate.decisions.anchors import base_tokens as base_tokens
from collate.decisions.anchors import new_id as new_id
from collate.decisions.anchors import now as now
from collate.decisions.anchors import reading_key as reading_key
from collate.decisions.file.change import (
    change_decisions,
    change_habit_verdict,
    dumps_decisions,
    headed_document,
    new_document,
    one_line,
    save_decisions,
)
from collate.decisions.file.read import (
    DECISIONS_FILE,
    FORMAT_VERSION,
    HABIT_KEY,
    HABIT_VERDICTS,
    MAX_OFFSET,
    VERSION_KEY,
    check_file,
    decisions_path,
    load_decisions,
    load_editorial,
    load_habit_verdicts,
    parse_decisions,
    parse_habit_verdicts,
)

__all__ = [
    "DECISIONS_FILE",
    "EDITOR_CLASSES",
    "FORMAT_VERSION",
    "HABIT_KEY",
    "HABIT_VERDICTS",
    "MAX_OFFSET",
    "VERSION_KEY",
    "Anchor",
    "Decision",
    "anchor_of",
    "base_tokens",
    "change_decisions",
    "change_habit_verdict",
    "check_file",
    "decisions_path",
    "dumps_decisions",
    "headed_document",
    "load_decisions",
    "load_editorial",
    "load_habit_verdicts",
    "new_document",
    "new_id",
    "now",
    "one_line",
    "parse_decisions",
    "parse_habit_verdicts",
    "reading_key",
    "save_decisions",
]
