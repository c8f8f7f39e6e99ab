"""What the opening of a witness file says of it (:class:`Header`): its title, edition and juan.

A Kanripo Mandoku file names its edition (``#+PROPERTY: BASEEDITION WYG``, or the edition of its
page markers) and its title (``#+TITLE:``); a plain e-text of a 四庫 print opens with ``欽定四庫全書``
and its title line; a plain or web text often opens with a title line (``=== 20 | 射義 ===``), a
readings file has ``[witness] title``. Only the opening is read, through the same container and
layout a run uses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from collate.errors import InputError
from collate.model import Layer
from collate.model.chars import GAIJI_ENTITY
from collate.model.enums import HeadingKind

if TYPE_CHECKING:
    from collate.readers import Reading

# The opening read for the header: the Mandoku header and the first page markers are in the
# first dozen lines of every Kanripo file, a title line in the first few of a plain text.
_HEAD_LINES = 60
_HEAD_CHARACTERS = 20_000
_TITLE_MAX = 40


@dataclass(frozen=True, slots=True)
class Edition:
    """An edition as a reader names it (the label) and as a bibliography does."""

    label: str
    name: str


# Kanripo's edition codes (its branches, and BASEEDITION), and SK for a plain 四庫 e-text.
EDITIONS: dict[str, Edition] = {
    "WYG": Edition("四庫本", "文淵閣四庫全書本"),
    "SK": Edition("四庫本", "四庫全書本"),
    "SBCK": Edition("四部叢刊本", "四部叢刊本"),
    "SBBY": Edition("四部備要本", "四部備要本"),
    "TLS": Edition("TLS本", "Thesaurus Linguae Sericae"),
}
# What a 四庫 print's first line says; the e-text may be simplified.
_SIKU = ("欽定四庫全書", "钦定四库全书", "四庫全書", "四库全书")
# Headings that can be a file's title (not a section's end, an author line, a tally).
_TITLE_HEADINGS = (None, HeadingKind.TITLE, HeadingKind.JUAN_TITLE, HeadingKind.CHAPTER_TITLE, HeadingKind.ORG_HEADING)
_WIKI_HEADING = re.compile(r"(={2,})\s*(?P<title>.*?)\s*\1")
_NUMBERING = re.compile(r"\d+(?:\.\d+)*\s*[|｜:：.]?\s*")
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
# A chapter's title with its number printed after it (射義第四十六, 燕禮第六, 鄉射禮第五之二,
# 投壺第四十(一)): the number is the chapter's place in the book, and tells a chapter's title from
# any other heading that names no number.
_ORDINAL = re.compile(r"第[〇零一二三四五六七八九十百千]+(?:之[一二三四五六七八九十]+)?(?:[(（][^)）]*[)）])?$")
# Headings that name a chapter whatever their wording (the layout says so, or the org outline does).
_CHAPTER_HEADINGS = (HeadingKind.CHAPTER_TITLE, HeadingKind.ORG_HEADING)
# A chapter's name is a few ideographs: a longer line, or one with spaces, latin letters or a juan
# (禮記注疏卷六十二) is some other heading.
_CHAPTER_NAME = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]{1,12}")
_JUAN_WORDS = ("卷", "巻")


@dataclass(frozen=True, slots=True)
class Header:
    """What the opening of a witness file says of it; "" where it says nothing.

    ``path`` is the file as given; ``edition`` an edition code (``WYG``, ``SBCK``, ``SK``);
    ``juan`` the juan as printed (``卷六十二``); ``text_id`` the Kanripo text (``KR1d0053``);
    ``description`` a readings file's own; ``entities`` whether the file holds ``&KR…;`` gaiji;
    ``chapters`` the names of the chapters its headings print (``射義`` for ``射義第四十六``).
    """

    path: Path
    title: str = ""
    edition: str = ""
    juan: str = ""
    text_id: str = ""
    description: str = ""
    entities: bool = False
    chapters: tuple[str, ...] = ()


def _first(metadata: Sequence[tuple[str, str]], key: str) -> str:
    # The container's values come first (the org header before a layout's title lines).
    return next((value.strip() for k, value in metadata if k == key and value.strip()), "")


def _clean_title(text: str) -> str:
    """A heading as a title: without wiki ``===`` or a section number, and short, or ""."""
    text = _CONTROL.sub("", text).strip(" \t\u3000")
    wiki = _WIKI_HEADING.fullmatch(text)
    if wiki:
        text = wiki.group("title")
    text = _NUMBERING.sub("", text, count=1) if _NUMBERING.match(text) else text
    text = text.strip(" \t\u3000")
    return text if len(text) <= _TITLE_MAX else ""


def chapter_name(heading: str, *, named: bool = False) -> str:
    """The chapter a heading names, without its number (``射義第四十六`` → ``射義``), or "".

    ``named``: the reader says the heading is a chapter's (a chapter title, an org heading); other
    headings name a chapter only with its number after them, or as a wiki section (``=== 20 | 射義 ===``).
    A title naming the work and the chapter (``大戴禮記·投壺``) names the chapter after the dot.
    """
    text = _CONTROL.sub("", heading).strip(" \t\u3000")
    wiki = _WIKI_HEADING.fullmatch(text) is not None
    name = _clean_title(text).rpartition("·")[2] if "·" in text else _clean_title(text)
    numbered = _ORDINAL.search(name)
    if numbered:
        name = name[: numbered.start()]
    elif not (named or wiki or "·" in text):
        return ""
    name = name.strip(" \t\u3000")
    return name if _CHAPTER_NAME.fullmatch(name) and not any(w in name for w in _JUAN_WORDS) else ""


def _chapters(text: str, reading: Reading) -> tuple[str, ...]:
    """The chapters the headings of a file's opening name, in their order, each once."""
    found = [chapter_name(value, named=True) for key, value in reading.parsed.metadata if key == "chapter"]
    found += [chapter_name(value) for key, value in reading.parsed.metadata if key == "title"]
    found += [
        chapter_name(text[s.start : s.end], named=s.heading in _CHAPTER_HEADINGS)
        for s in reading.parsed.spans
        if s.layer is Layer.HEADING and (s.heading in _CHAPTER_HEADINGS or s.heading in _TITLE_HEADINGS)
    ]
    return tuple(dict.fromkeys(c for c in found if c))


def _head(text: str) -> str:
    """The opening of a file's text, cut at a line end."""
    head = "".join(text.splitlines(keepends=True)[:_HEAD_LINES])
    if len(head) > _HEAD_CHARACTERS:
        cut = head.rfind("\n", 0, _HEAD_CHARACTERS)
        head = head[: cut + 1 if cut > 0 else _HEAD_CHARACTERS]
    return head


def read_header(path: Path, shown: str | None = None) -> Header:
    """Read what the opening of the witness file at ``path`` says of it (``shown``: as given).

    A file that is missing or cannot be read is an :class:`~collate.errors.InputError` naming it.
    """
    from collate.decode import read_text
    from collate.readers import read_raw

    shown = shown or str(path)
    if not path.exists() and not path.is_symlink():
        # A link to nothing, or a loop of links, is said so where it is read.
        raise InputError("no such file", where=shown, hint="check the name of the witness file given")
    text = read_text(path, shown).text
    # A readings file is TOML, read whole (its opening alone would not parse); it is small.
    reading = read_raw(text if path.suffix == ".toml" else _head(text), path=shown)
    metadata = reading.parsed.metadata
    title = _first(metadata, "title")
    if not title:
        title = next(
            (
                _clean_title(text[s.start : s.end])
                for s in reading.parsed.spans
                if s.layer is Layer.HEADING and s.heading in _TITLE_HEADINGS and _clean_title(text[s.start : s.end])
            ),
            "",
        )
    edition = (_first(metadata, "baseedition") or _first(metadata, "edition")).upper()
    if not edition and _first(metadata, "collection") in _SIKU:
        edition = "SK"
    juan = _first(metadata, "juan")
    return Header(
        path=Path(shown),
        title=_clean_title(title),
        edition=edition if _CODE.fullmatch(edition) else "",
        juan=juan if juan.startswith(("卷", "巻")) else "",
        text_id=_first(metadata, "id") or _first(metadata, "text"),
        description=_first(metadata, "description"),
        entities=bool(GAIJI_ENTITY.search(text)),
        chapters=_chapters(text, reading),
    )


def edition_of(code: str) -> Edition | None:
    """The edition a code names: a known one, else one named by its code (``ZTDZ本``)."""
    if not code:
        return None
    return EDITIONS.get(code) or Edition(f"{code}本", code)
