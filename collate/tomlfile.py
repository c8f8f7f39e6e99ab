"""The old home of :func:`~collate.files.parse_toml`, which lives in :mod:`collate.files`.

Only :mod:`collate.readers.readings` still imports it from here; once that module imports
:mod:`collate.files`, this one goes.
"""

from __future__ import annotations

from collate.files import parse_toml

__all__ = ["parse_toml"]
