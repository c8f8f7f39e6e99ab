"""The editorial notes of a run as JSON: each note, its anchor, its claims and their checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from collate.exporters import write_atomic

if TYPE_CHECKING:
    from collate.pipeline import RunResult


class NotesExporter:
    """The registry's handle on the notes table (``<name>.notes.json``)."""

    name = "notes"
    suffix = ".notes.json"
    description = "editorial notes (蕙田案, 【案】): anchors, parsed claims and their verdicts, as JSON"

    def write(self, run: RunResult, path: Path) -> None:
        """Write the run's notes to ``path`` atomically (an empty table if the stage did not run)."""
        from collate.notes import notes_to_json

        data = notes_to_json(run.notes) if run.notes is not None else {"notes": []}
        write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


EXPORTER = NotesExporter()
