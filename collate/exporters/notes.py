"""The editorial notes of a run as JSON: each note, its anchor, its claims and their checks."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from collate.files import json_text, write_atomic

if TYPE_CHECKING:
    from collate.exporters import ExportInput


class NotesExporter:
    """The registry's handle on the notes table (``<name>.notes.json``)."""

    name = "notes"
    suffix = ".notes.json"
    description = "editorial notes (蕙田案, 【案】): anchors, parsed claims and their verdicts, as JSON"

    def write(self, data: ExportInput, path: Path) -> None:
        """Write the notes to ``path`` atomically (an empty table if the stage did not run)."""
        from collate.notes import notes_to_json

        table = notes_to_json(data.notes) if data.notes is not None else {"notes": []}
        write_atomic(path, json_text(table, indent=1) + "\n")


EXPORTER = NotesExporter()
