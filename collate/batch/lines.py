"""Where each table and key of a batch manifest is written, so that an error can name its line.

The manifest is TOML, scanned as the project file is (:mod:`collate.project.positions`). The
batch names its tables by a path of names and 1-based element numbers, as its messages count the
jobs and their witnesses (``job 2``, ``witness 1 of job 'a'``): ``("job", 2, "witness", 1)`` is the
first witness of the second job. The scan numbers array elements from 0, as msgspec does; the
lines are looked up here with the one turned into the other.
"""

from __future__ import annotations

from dataclasses import dataclass

from collate.project.positions import KeyPath, Positions
from collate.project.positions import scan as scan_positions

# A path of table names and 1-based element numbers of arrays of tables.
TablePath = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Lines:
    """The places of a manifest's tables and keys, looked up by the batch's paths."""

    positions: Positions

    def of(self, table: TablePath, key: str | None = None) -> int | None:
        """The line of ``key`` in ``table`` (of the table itself if None), or of the nearest table holding it.

        None where no table holding it is written: a job of a ``[book]``'s juans, numbered after
        the manifest's own, has no line.
        """
        places = self.positions.places
        path: KeyPath = tuple(part - 1 if isinstance(part, int) else part for part in table)
        if key is not None:
            path = (*path, key)
        while path:
            if path in places:
                return places[path].line
            if isinstance(path[-1], int) and len(path) == 2:
                # The array of jobs is placed where its first job is: no place for a job not written.
                return None
            path = path[:-1]
        return None


def scan(text: str) -> Lines:
    """The lines of the manifest ``text``'s tables and keys."""
    return Lines(scan_positions(text))


__all__ = ["Lines", "TablePath", "scan"]
