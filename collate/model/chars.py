"""Classes of characters every stage asks about: a glyph outside Unicode (Private Use Area)."""

from __future__ import annotations


def is_private_use(char: str) -> bool:
    """A Private Use Area code point: a glyph outside Unicode, kept and shown, never matched."""
    cp = ord(char)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0x10FFFD
