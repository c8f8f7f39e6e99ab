"""Classes of characters every stage asks about: a glyph outside Unicode (Private Use Area), a
gaiji entity no table resolved, and the mark a print sets for a glyph it cannot set."""

from __future__ import annotations

import re

# The printer's mark (下駄, geta) for a glyph that cannot be set: what a reader sees of a gaiji
# entity no table resolves.
GETA = "\u3013"
# A Kanripo gaiji entity as its files write it (&KR1249;): the witness's own text keeps it, and
# a token left unresolved reads it; what is printed for a reader is the geta.
GAIJI_ENTITY = re.compile(r"&KR\d+;")


def as_printed(text: str) -> str:
    """``text`` as printed for a reader: each unresolved gaiji entity (``&KR1249;``) as 〓."""
    return GAIJI_ENTITY.sub(GETA, text) if "&" in text else text


def is_private_use(char: str) -> bool:
    """A Private Use Area code point: a glyph outside Unicode, kept and shown, never matched."""
    cp = ord(char)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0x10FFFD
