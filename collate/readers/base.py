"""What every layout reader gives back, and the helpers they share."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from collate.model import Diagnostic, Mark, SparseReading, Span, Substitution


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """What a reader may need beyond the text: a gaiji table for Mandoku entities."""

    gaiji_table: Path | None = None
    path: str = ""


@dataclass(frozen=True, slots=True)
class Parsed:
    """A reader's result: stand-off annotations over the text it was given.

    ``spans`` must partition the text: sorted, contiguous, covering every character.
    """

    spans: tuple[Span, ...]
    marks: tuple[Mark, ...] = ()
    substitutions: tuple[Substitution, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    metadata: tuple[tuple[str, str], ...] = ()
    readings: tuple[SparseReading, ...] = field(default=())


class LayoutReader(Protocol):
    """A layout: how one kind of witness file is laid out, and how to read it."""

    name: str
    description: str

    def detect(self, text: str) -> tuple[float, str]:
        """How well ``text`` fits this layout (0..1) and why, in a short phrase."""
        ...

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into spans, marks and diagnostics."""
        ...
