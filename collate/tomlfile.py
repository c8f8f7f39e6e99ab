"""Parsing the project's TOML files (project, readings, decisions) with errors that say where."""

from __future__ import annotations

import re
import sys
from typing import Any

from collate.errors import CollateError, ProjectError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

# tomllib's message ends with "(at line L, column C)"; that is lifted into the location.
_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def parse_toml(
    text: str, where: str, error: type[CollateError] = ProjectError, hint: str | None = None
) -> dict[str, Any]:
    """The table of a TOML text, or ``error`` at ``where:line:col`` saying what is wrong."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = _AT.search(msg)
        shown = f"{where}:{m.group(1)}:{m.group(2)}" if m else where
        raise error(f"not valid TOML: {re.sub(r' [(]at line.*', '', msg)}", where=shown, hint=hint) from None
    return data
