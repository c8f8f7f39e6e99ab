"""The Kanseki Repository gaiji table: ``&KR0002;`` entities to characters.

The table (``charlist.org.txt`` of kanripo/KR-Gaiji) is an org file of tab-separated rows
``KRnnnn  count  form  normalised  [[file:images/KRnnnn.png]]``. ``form`` is the glyph
itself when Unicode has it (𫠦), ``normalised`` the everyday character (所); either may be
empty, an ideographic description (``⿺風軍``, ``[沔-丏+丐]``), uncertain (``數?``) or a list
of observed readings with counts (``膊:4,袒:1``), or a question mark alone (unread).

An entity resolves to ``form`` when that is one standard (non-PUA) character, since that is
what the print shows and the normalizer folds variants later, with its reasons; otherwise
to ``normalised`` when that is one character; otherwise to a one-character PUA ``form``
(kept, shown, matched to nothing). Descriptions, doubtful and multiple readings are not
guessed at: such codes are left out and their entities stay unresolved placeholders.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

from collate.decode import check_regular_file
from collate.errors import InputError
from collate.model.chars import described_everyday, is_everyday, is_private_use


def load_gaiji(path: Path) -> Mapping[str, str]:
    """Code → character (``"KR0002"`` → ``"若"``) from a Kanripo gaiji table, cached per file.

    Raises :class:`InputError` if the file cannot be read or holds no table rows.
    """
    return load_gaiji_tables(path)[0]


def load_gaiji_descriptions(path: Path) -> Mapping[str, str]:
    """Code → what the table says of the glyph: its form and normalised cells as written
    (``"KR0756"`` → ``"[車*犬]"``, ``"KR0001"`` → ``"𫠦 所"``), for every row that says anything."""
    return load_gaiji_tables(path)[1]


def load_gaiji_glyphs(path: Path) -> Mapping[str, str]:
    """Glyph → everyday character, for the rare glyphs the table gives one plainly (𤓰 → 瓜).

    The table's editors name, for a glyph Unicode has, the everyday character it stands for; an
    e-text of theirs may write the glyph itself, not its entity. Only glyphs that are no everyday
    character themselves (their KR0880 shows 七 for a glyph that is 匙: 七 is a word of its own),
    and only those with one everyday character in every row that names them.
    """
    found: dict[str, set[str]] = {}
    for said in load_gaiji_descriptions(path).values():
        named = described_everyday(said)
        if named is not None and len(named[0]) == 1 and not (is_everyday(named[0]) or is_private_use(named[0])):
            found.setdefault(named[0], set()).add(named[1])
    return MappingProxyType({form: next(iter(e)) for form, e in found.items() if len(e) == 1})


def load_gaiji_tables(path: Path) -> tuple[Mapping[str, str], Mapping[str, str]]:
    """Both of :func:`load_gaiji` and :func:`load_gaiji_descriptions`, from one look at the file."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise InputError(f"cannot read the gaiji table: {exc.strerror}", where=str(path)) from None
    # A FIFO or a device would wait forever: refused before it is opened.
    check_regular_file(path, str(path), hint="give the path of the Kanripo gaiji table (a text file)")
    return _load(str(path.resolve()), stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=8)
def _load(path: str, mtime_ns: int, size: int) -> tuple[Mapping[str, str], Mapping[str, str]]:
    """Parse the table; the modification time and size are in the key so an edit is seen."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read the gaiji table: {exc}", where=path) from None
    table: dict[str, str] = {}
    described: dict[str, str] = {}
    rows = 0
    for number, row in enumerate(text.splitlines(), 1):
        if not row.startswith("KR"):
            continue
        cells = row.split("\t")
        if len(cells) < 4:
            raise InputError(
                "a gaiji table row needs code, count, form and normalised character",
                where=f"{path}:{number}:1",
                hint="is this the Kanripo charlist.org.txt?",
            )
        rows += 1
        char = _character(cells[2].strip(), cells[3].strip())
        if char is not None:
            table[cells[0].strip()] = char
        said = " ".join(c.strip() for c in cells[2:4] if c.strip())
        if said:
            described[cells[0].strip()] = said
    if not rows:
        raise InputError("no KRnnnn rows: not a Kanripo gaiji table", where=path)
    return MappingProxyType(table), MappingProxyType(described)


# A table cell of a question mark alone says the table's editors could not read the glyph
# (KR0094 and 23 more): not a character, so the entity stays an unresolved placeholder.
_UNKNOWN = frozenset("?？")


def _character(form: str, normalised: str) -> str | None:
    """The one character an entity stands for, or None if the table does not say it plainly."""
    form = "" if form in _UNKNOWN else form
    normalised = "" if normalised in _UNKNOWN else normalised
    if len(form) == 1 and not is_private_use(form):
        return form
    if len(normalised) == 1:
        return normalised
    if len(form) == 1:
        return form
    return None


__all__ = ["load_gaiji", "load_gaiji_descriptions", "load_gaiji_tables"]
