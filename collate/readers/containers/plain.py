"""A plain text file: the whole file is the body, line for line."""

from __future__ import annotations

from collate.readers.base import ReadOptions
from collate.readers.body import Body, identity


class PlainContainer:
    """No wrapping: every character of the file is the layout's."""

    name = "plain"
    description = "plain text file: the file's lines as they are"

    def detect(self, raw: str) -> tuple[float, str]:
        """Always fits, weakly: the fallback."""
        return 0.01, "a plain text file"

    def read(self, raw: str, options: ReadOptions) -> Body:
        """The identity body."""
        return identity(raw, self.name, self.description)


CONTAINER = PlainContainer()
