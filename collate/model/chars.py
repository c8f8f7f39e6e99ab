"""Classes of characters every stage asks about: a glyph outside Unicode (Private Use Area), a
gaiji entity no table resolved, the mark a print sets for a glyph it cannot set, and an everyday
character (one a standard's first level holds)."""

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


def described_everyday(description: str) -> tuple[str, str] | None:
    """The glyph and the everyday character a Kanripo gaiji table's description names plainly
    (``"𤓰 瓜"``): the everyday one a single character, another than the glyph, in Unicode proper;
    else None."""
    form, _, everyday = description.partition(" ")
    if len(everyday) != 1 or everyday == form or is_private_use(everyday):
        return None
    return form, everyday


def is_everyday(char: str) -> bool:
    """In Big5 level 1 (5,401 frequent traditional characters) or GB2312 level 1 (3,755).

    A print form (偝, 竒, 𤓰) is rare by nature; an everyday character is a word of its own.
    """
    try:
        big5 = char.encode("big5")
    except UnicodeEncodeError:
        big5 = b""
    if len(big5) == 2 and 0xA4 <= big5[0] <= 0xC6:
        return True
    try:
        gb = char.encode("gb2312")
    except UnicodeEncodeError:
        return False
    return len(gb) == 2 and 0xB0 <= gb[0] <= 0xD7


def is_rare(char: str) -> bool:
    """Outside every common standard: neither Big5 (13,053 characters a traditional-script standard
    keeps apart) nor GB 2312 encodes it (𥙿, 𥙊): a graph a print cuts, not a word of the language's
    own that a text could read for another."""
    for codec in ("big5", "gb2312"):
        try:
            char.encode(codec)
        except UnicodeEncodeError:
            continue
        return False
    return True
