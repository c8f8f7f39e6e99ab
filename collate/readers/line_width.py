"""A print's full line of large print, from its own lines: where a line stops short.

An indented print (the 四庫 五禮通考) sets its large print in lines of one length; a line that
stops short of it ends a passage. The length is the print's own: the commonest of its flush-left
large-print lines (:func:`full_width`).
"""

from __future__ import annotations

from collections import Counter

# A line this many characters or more shorter than the print's full line stops short.
SHORT_BY = 2
# The print's full line is the commonest length of its flush-left large-print lines, where
# there are FULL_LINES of them at least.
FULL_LINES = 5


def printed_body(line: str) -> str:
    """A line's printed characters: no line end, no Mandoku line mark, no spaces."""
    return line.rstrip("\r").replace("¶", "").strip(" \t\u3000")


def full_width(text: str) -> int | None:
    """The characters of a full line of the print's large print, if its lines say (see FULL_LINES)."""
    flush = (printed_body(line) for line in text.split("\n") if line[:1] not in ("", " ", "\u3000", "#", "<", "("))
    lengths = Counter(len(body) for body in flush if "(" not in body and len(body) >= 10)
    if sum(lengths.values()) < FULL_LINES:
        return None
    return lengths.most_common(1)[0][0]
