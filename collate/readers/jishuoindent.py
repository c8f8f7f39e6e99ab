"""PLACEHOLDER: the jishuo-indent layout is being written; until then it never wins detection."""

from __future__ import annotations

from collate.readers.base import Parsed, ReadOptions
from collate.readers.plain import READER as PLAIN


class _Placeholder:
    name = "jishuo-indent"
    description = "not written yet"

    def detect(self, text: str) -> tuple[float, str]:
        return 0.0, "not written yet"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        return PLAIN.read(text, options)


READER = _Placeholder()
