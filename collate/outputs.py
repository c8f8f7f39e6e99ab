"""Writing a run's outputs: every registered exporter, into one folder, each file atomically."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from collate.exporters import EXPORTERS, ExportInput, get_exporter
from collate.pipeline import RunResult


def write_outputs(
    result: RunResult,
    out: Path,
    formats: Sequence[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[Path, ...]:
    """Write the ``formats`` named (default: every registered one) into ``out``; return the paths.

    The exporters' input is made once from the run and handed to each; ``progress`` hears
    of each file as it is begun.
    """
    data = ExportInput.of(result)
    written = []
    for name in formats or tuple(EXPORTERS):
        exporter = get_exporter(name)
        path = out / f"{data.collation.name}{exporter.suffix}"
        if progress:
            progress(f"writing {path.name}")
        exporter.write(data, path)
        written.append(path)
    return tuple(written)
