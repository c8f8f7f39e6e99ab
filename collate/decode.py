"""Decoding witness files: bytes to text at the edge, with the encoding named or detected."""

from __future__ import annotations

import codecs
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from collate.errors import CollateError, InputError

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

# Tried in this order when no BOM names the encoding and UTF-8 fails.
_LEGACY = ("gb18030", "big5")


@dataclass(frozen=True, slots=True)
class Decoded:
    """A decoded file and the encoding that decoded it."""

    text: str
    encoding: str


# The "common characters" block of each legacy standard, by the lead byte of its encoding:
# GB2312 level 1 (3,755 most used hanzi, lead bytes 0xB0–0xD7) and Big5's 常用字 (5,401
# characters, lead bytes 0xA4–0xC6). Both standards order characters by use, so a wrong
# decoding of the other's bytes lands mostly outside these blocks.
_COMMON_LEAD = {"gb18030": ("gb2312", 0xB0, 0xD7), "big5": ("big5", 0xA4, 0xC6)}


def _plausibility(text: str, encoding: str) -> float:
    """Share of characters that are common in ``encoding``'s own standard, or punctuation.

    GB18030 and Big5 byte ranges overlap, so bytes of one often decode in the other too;
    the wrong decoding yields rare ideographs, PUA code points and symbols. A character
    counts when the standard places it among its common characters; CJK and ASCII
    punctuation and spaces count as neutral evidence.
    """
    if not text:
        return 0.0
    charset, low, high = _COMMON_LEAD[encoding]
    good = 0
    for ch in text:
        cp = ord(ch)
        if cp < 0x80 or 0x3000 <= cp <= 0x303F or 0xFF00 <= cp <= 0xFFEF:
            good += 1
            continue
        try:
            encoded = ch.encode(charset)
        except UnicodeEncodeError:
            continue
        if len(encoded) == 2 and low <= encoded[0] <= high:
            good += 1
    return good / len(text)


# Line ends as a witness counts them (:class:`~collate.model.Witness`), so a decoding error's
# line is the line an editor and every other message of collate name.
_LINE_END = re.compile(r"\r\n|\r|\n")
# A file whose first undecodable byte follows this many non-ASCII characters of valid UTF-8 is
# a UTF-8 file with a bad byte, not a legacy encoding: GB18030 or Big5 bytes do not form that
# many UTF-8 sequences by chance before the first that fails.
_UTF8_EVIDENCE = 8


def _at(data: bytes, offset: int, codec: str, path: str) -> str:
    """``path:line:col`` of byte ``offset``, counted in the text decoded before it (columns from 1)."""
    before = data[:offset].decode(codec, errors="replace")
    ends = list(_LINE_END.finditer(before))
    column = len(before) - (ends[-1].end() if ends else 0) + 1
    return f"{path}:{len(ends) + 1}:{column}"


def _bad_byte(exc: UnicodeDecodeError) -> str:
    """``byte 17 (0xff)``: the offset of the first byte that does not decode, and its value."""
    return f"byte {exc.start} (0x{exc.object[exc.start]:02x})"


def decode_bytes(data: bytes, path: str, encoding: str | None = None) -> Decoded:
    """Decode a witness file's bytes, or raise :class:`InputError` naming the file.

    With ``encoding`` given, only that is tried. Otherwise: a BOM (UTF-8, UTF-16, UTF-32),
    then strict UTF-8, then GB18030 and Big5, keeping the more plausible decoding. A byte
    that does not decode is named by ``path:line:col`` and its offset in the file.
    """
    if not data:
        raise InputError("the file is empty", where=path, hint="give a witness file with text in it")
    if encoding is not None:
        return _decode_named(data, path, encoding)
    found = _decode_bom(data, path)
    if found is not None:
        return found
    if b"\x00" in data:
        raise InputError(
            "holds NUL bytes: a binary file, or UTF-16 without a BOM",
            where=path,
            hint=f"give a text file, or name its encoding with `encoding = \"{_utf16_order(data)}\"` "
            "in the project file",
        )
    try:
        return Decoded(data.decode("utf-8"), "utf-8")
    except UnicodeDecodeError as exc:
        utf8_error = exc
    return _decode_legacy(data, path, utf8_error)


def _decode_named(data: bytes, path: str, encoding: str) -> Decoded:
    """``data`` decoded as the ``encoding`` the project names, and nothing else."""
    try:
        return Decoded(data.decode(encoding), encoding)
    except LookupError:
        raise InputError(
            f"unknown encoding {encoding!r}", where=path, hint="name a Python codec, e.g. gb18030 or big5"
        ) from None
    except UnicodeDecodeError as exc:
        raise InputError(
            f"cannot be decoded as {encoding} at {_bad_byte(exc)}",
            where=_at(data, exc.start, encoding, path),
            hint="check the file's `encoding` in the project file",
        ) from None


def _decode_bom(data: bytes, path: str) -> Decoded | None:
    """``data`` decoded in the encoding its BOM names (None where it has none)."""
    for bom, name in _BOMS:
        if data.startswith(bom):
            if data == bom:
                raise InputError("holds a BOM and nothing else", where=path, hint="give a witness file with text in it")
            try:
                return Decoded(data.decode(name), name.replace("-sig", "") + " (BOM)")
            except UnicodeDecodeError as exc:
                raise InputError(
                    f"has a {name} BOM but is not valid {name} at {_bad_byte(exc)}",
                    where=_at(data, exc.start, name, path),
                ) from None
    return None


def _decode_legacy(data: bytes, path: str, utf8_error: UnicodeDecodeError) -> Decoded:
    """``data``, which is not UTF-8 (``utf8_error``), decoded as GB18030 or Big5, the more plausible."""
    where = _at(data, utf8_error.start, "utf-8", path)
    before = data[: utf8_error.start].decode("utf-8")
    if sum(1 for ch in before if ord(ch) > 0x7F) >= _UTF8_EVIDENCE:
        # UTF-8 up to a damaged byte: decoding the whole file as GB18030 would make nonsense of it.
        raise InputError(
            f"not valid UTF-8 at {_bad_byte(utf8_error)}; the text before it is UTF-8",
            where=where,
            hint="repair or remove the damaged bytes there, or name the file's encoding in the project file",
        )
    candidates = []
    for name in _LEGACY:
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        candidates.append((_plausibility(text, name), name, text))
    if candidates:
        score, name, text = max(candidates, key=lambda c: c[0])
        if score >= 0.5:
            return Decoded(text, name)
    raise InputError(
        "the encoding could not be determined (not UTF-8, UTF-16, GB18030 or Big5); "
        f"UTF-8 fails first at {_bad_byte(utf8_error)}",
        where=where,
        hint='name it in the project file, e.g. `encoding = "gb18030"` for this witness',
    )


_SPECIAL = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _utf16_order(data: bytes) -> str:
    """``utf-16-le`` or ``utf-16-be``: which byte order UTF-16 text without a BOM would be in.

    Line ends and ASCII have a zero high byte, which comes second in little-endian (``0a 00``)
    and first in big-endian (``00 0a``): the side where most NUL bytes fall tells.
    """
    even = data[0::2].count(0)
    odd = data[1::2].count(0)
    return "utf-16-be" if even > odd else "utf-16-le"


def check_regular_file(path: Path, shown: str, error: type[CollateError] = InputError, hint: str | None = None) -> None:
    """Refuse, before it is opened, a path that is not a regular file (``error`` naming ``shown``).

    Reading a FIFO waits for a writer that may never come, and a device may never end
    (``/dev/zero``) or wait for a keyboard (a terminal): either would hang the run without a word.
    A missing file raises ``FileNotFoundError`` itself, for the caller to say what it means.
    """
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise error(f"cannot be read: {exc.strerror}", where=shown, hint=hint) from None
    if stat.S_ISDIR(mode):
        raise error("is a folder, not a file", where=shown, hint=hint)
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _SPECIAL if test(mode)), "a special file")
        raise error(f"is {kind}, not a regular file (reading it could wait forever)", where=shown, hint=hint)


def read_text(path: Path, display: str | None = None, encoding: str | None = None) -> Decoded:
    """Read and decode a witness file; every failure is an :class:`InputError`."""
    shown = display or str(path)
    hint = "give the path of a witness file"
    try:
        check_regular_file(path, shown, hint=hint)
        data = path.read_bytes()
    except FileNotFoundError:
        if path.is_symlink():
            raise InputError(
                f"a symbolic link to {os.readlink(path)}, which does not exist",
                where=shown,
                hint="point the link at the witness file, or give the file's own path",
            ) from None
        raise InputError("no such file", where=shown, hint="check the witness `path` in the project file") from None
    except IsADirectoryError:
        raise InputError("is a folder, not a file", where=shown, hint=hint) from None
    except OSError as exc:
        raise InputError(f"cannot be read: {exc.strerror}", where=shown) from None
    return decode_bytes(data, shown, encoding)
