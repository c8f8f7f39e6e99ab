"""The witness model: a witness owns its raw text; everything else is an offset into it.

A reader turns a file into a :class:`Witness`: the decoded text, untouched, plus
stand-off annotations over it. Spans partition the text (every character belongs to
exactly one span), so nothing a file holds is ever lost, and every later record
(token, reading, diagnostic) can name ``file:line:col`` and the printed page.

These are the records every stage shares; each lives in the module of what it is about,
and all are importable from here (``from collate.model import Witness``):

- :mod:`~collate.model.enums`: the closed sets (:class:`Layer`, :class:`Role`, :class:`MarkKind`,
  :class:`HeadingKind`, :class:`MarkerKind`, :class:`Severity`, :class:`Position`, :class:`ChangeClass`,
  :class:`Cause`, :class:`ReadingClass`);
- :mod:`~collate.model.spans`: what a reader records by offset (:class:`Span`, :class:`Mark`,
  :class:`Substitution`, :class:`Diagnostic`, :class:`Unsettled`);
- :mod:`~collate.model.witness`: the :class:`Witness` and the :class:`SourceLocation` it gives an offset;
- :mod:`~collate.model.readings`: a readings file's entries (:class:`SparseReading`);
- :mod:`~collate.model.tokens`: :class:`Token`, the normalization :class:`Change` on it, :class:`RuleInfo`.

and the small facts every stage and output states the same way, each in one table:

- :mod:`~collate.model.numerals`: Chinese numerals (the readers' alphabet, the 校勘記's counts);
- :mod:`~collate.model.citation`: how each output cites a page and line, and the prints' page labels;
- :mod:`~collate.model.people`: who speaks in the notes, and whom they cite, by every name they go by;
- the layers' names in Chinese, in an edition and in English are :class:`Layer`'s own, and the
  reading classes' names in each output :class:`ReadingClass`'s.
"""

from __future__ import annotations

from collate.model.enums import (
    Cause,
    ChangeClass,
    HeadingKind,
    Layer,
    MarkerKind,
    MarkKind,
    Position,
    ReadingClass,
    Role,
    Severity,
    StrEnum,
)
from collate.model.readings import SparseReading
from collate.model.spans import (
    BLANK,
    EMPTY_LEAF,
    SHORT_LINE,
    Diagnostic,
    Mark,
    Span,
    Substitution,
    Unsettled,
    blank_width,
)
from collate.model.tokens import Change, RuleInfo, Token
from collate.model.witness import SourceLocation, Witness

__all__ = [
    "BLANK",
    "EMPTY_LEAF",
    "SHORT_LINE",
    "Cause",
    "Change",
    "ChangeClass",
    "Diagnostic",
    "HeadingKind",
    "Layer",
    "Mark",
    "MarkKind",
    "MarkerKind",
    "Position",
    "ReadingClass",
    "Role",
    "RuleInfo",
    "Severity",
    "SourceLocation",
    "Span",
    "SparseReading",
    "StrEnum",
    "Substitution",
    "Token",
    "Unsettled",
    "Witness",
    "blank_width",
]
