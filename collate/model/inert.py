"""Text that is inert wherever it is shown: control characters from the data are written as escapes, never obeyed.

A witness, a label, a path or a note may hold bytes a terminal acts on: ``ESC ] 0 ;`` retitles
the window, ``ESC [ 2 J`` clears it, a C1 ``CSI`` (U+009B) does the same on some terminals, a
bidi override (U+202E) makes a reading display as another. Every terminal view passes the
strings it did not write itself through :func:`inert`, which writes each such character as
its escape (``\\x1b``, ``\\u202e``), so what the file holds is what the editor sees.

rich does not help here: it drops BEL, BS, VT, FF and CR without a trace and passes ESC on.

The outputs need the same for what they print of names they did not write: a file name with a
newline would split every line of a 校勘記 that names the witness by it. Labels and paths go
through :func:`inert` with nothing kept before they are printed there.
"""

from __future__ import annotations

import re

# C0 controls, DEL and C1 controls; the bidi controls (embeddings, overrides, isolates, marks).
_CONTROL = "\x00-\x1f\x7f-\x9f"
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_SHOWN = re.compile(f"[{_CONTROL}{_BIDI}]")
_LINE_END = re.compile("\r\n?")


def _escape(ch: str) -> str:
    cp = ord(ch)
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}"


def inert(text: str, keep: str = "\n\t") -> str:
    """``text`` with every control character but those in ``keep`` written as its escape.

    ``keep`` holds the layout characters the caller's display needs (line ends, tabs); a
    tab-separated listing passes ``keep="\\n"`` so a tab in the data cannot shift its columns.
    Where line ends are kept, CRLF and a lone CR are line ends as they are for a witness's
    line numbers (:class:`~collate.model.Witness`): shown as one, so no CR can move the cursor
    back over a line already written.
    """
    if "\n" in keep and "\r" in text:
        text = _LINE_END.sub("\n", text)

    def shown(m: re.Match[str]) -> str:
        ch = m.group()
        return ch if ch in keep else _escape(ch)

    return _SHOWN.sub(shown, text)


# Inside JSON strings: json.dumps writes C0 as escapes itself, but with ``ensure_ascii=False``
# it leaves DEL, C1 and the bidi controls as they are.
_JSON_SHOWN = re.compile(f"[\x7f-\x9f{_BIDI}]")


def inert_json(text: str) -> str:
    """JSON text with DEL, C1 and bidi controls as ``\\uXXXX`` escapes: the same JSON value, inert.

    These characters can only stand inside strings (JSON's syntax is ASCII), where ``\\uXXXX``
    means the same character.
    """
    return _JSON_SHOWN.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


__all__ = ["inert", "inert_json"]
