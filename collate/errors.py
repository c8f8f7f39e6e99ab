"""One hierarchy of library errors, each with a stable code and, where known, a location.

The CLI turns these into a one-line message and an exit code in exactly one place.
"""

from __future__ import annotations


class CollateError(Exception):
    """Base of every error the library raises on purpose.

    ``where`` is ``path`` or ``path:line:col``; ``hint`` says what the user can do.
    """

    code = "error"

    def __init__(self, message: str, *, where: str | None = None, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
        self.hint = hint

    def __str__(self) -> str:
        text = f"{self.where}: {self.message}" if self.where else self.message
        if self.hint:
            text += f" ({self.hint})"
        return text


class InputError(CollateError):
    """A witness file cannot be read: missing, empty, binary, undecodable."""

    code = "input"


class ProjectError(CollateError):
    """The project file is wrong: bad TOML, missing keys, duplicate sigla, unknown layouts."""

    code = "project"


class LayoutError(CollateError):
    """A file does not fit the layout it was read with."""

    code = "layout"


class ExportError(CollateError):
    """An output could not be written, or the last run's result is missing."""

    code = "export"


class ValidationError(CollateError):
    """A TEI document is not valid."""

    code = "validation"
