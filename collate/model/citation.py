"""How a place in a witness is cited: the printed page and line where the print has them, else the file's line.

A page's label is the print's own, as its reader found it: ``3a`` for the first side of the third
leaf of a print whose e-text sets its half-folio pages apart by blank lines (:func:`half_folio`),
``012-7a`` for a Kanripo page (juan 12, leaf 7, side a). Its lines are counted from the page's top.

Each output writes a place its own way, one :class:`Style` each, all here:

- ``MESSAGE``: ``f.txt:23:4 (p. 3a, l. 5)``, ``f.txt:23:4 (p. 3a)``, ``f.txt:23:4``;
- ``TERMINAL``: ``3a.5``, ``3a``, ``23:4``;
- ``SUMMARY``: ``p. 3a l. 5``, ``p. 3a (23:4)``, ``23:4``;
- ``NOTES``: ``p.3a l.5``, ``p.3a``, ``23:4``;
- ``LISTING``: ``23:4 p.3a l.5``, ``23:4 p.3a``, ``23:4``;
- ``HTML``: ``頁3a 行5``, ``頁3a``, ``行23 列4``;
- ``JIAOKANJI``: ``頁3a行5``, ``頁3a``, ``第23行``;
- ``TEI``: ``頁3a行5``, ``頁3a``, ``第23行`` (the 校勘記's: the apparatus is read as one)

(a page and its line; a page whose lines are not counted; no printed page, the file's line).

``MESSAGE`` is ``str()`` of a :class:`~collate.model.SourceLocation` (diagnostics, errors, the
tooltips of the HTML page); ``TERMINAL``, ``SUMMARY``, ``NOTES`` and ``LISTING`` are the terminal
views' (the review's locus line, the run's summary, the notes table, the witness listing); ``HTML``
the edition page's; ``JIAOKANJI`` the 校勘記's; ``TEI`` the TEI's, where a verdict on a witness
says where its evidence is, as the 校勘記 cites it (the file is the project's, named in the header).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from collate.model.inert import inert

if TYPE_CHECKING:
    from collate.model.witness import SourceLocation


@dataclass(frozen=True, slots=True)
class Style:
    """How one output writes a place.

    Each is a template over ``path``, ``line``, ``column`` (the file's), ``page`` and
    ``page_line`` (the print's): ``page`` names the page, then ``line`` follows where the print's
    line is known, ``unlined`` where it is not; ``file`` stands alone where the file has no printed
    pages, ``missing`` where there is no place at all. ``inert``: a page's label is the file's own
    (a Mandoku ``<pb:…>`` marker), shown to a terminal through :func:`~collate.model.inert.inert`.
    """

    page: str
    line: str
    file: str
    unlined: str = ""
    missing: str = ""
    inert: bool = False

    def cite(self, location: SourceLocation | None) -> str:
        """``location`` as this output writes it."""
        if location is None:
            return self.missing
        fields = {"path": location.path, "line": location.line, "column": location.column}
        if location.page is None:
            return self.file.format(**fields)
        page = inert(location.page, keep="") if self.inert else location.page
        rest = self.line if location.page_line else self.unlined
        return (self.page + rest).format(**fields, page=page, page_line=location.page_line)

    def page_alone(self, page: str) -> str:
        """A page named alone (``頁3a``: a page break's title, the first of lost pages).

        For the styles whose page is named without the file's place (all but ``MESSAGE``, ``LISTING`` and ``TEI``).
        """
        return self.page.format(page=inert(page, keep="") if self.inert else page)


MESSAGE = Style("{path}:{line}:{column} (p. {page}", ", l. {page_line})", "{path}:{line}:{column}", unlined=")")
TERMINAL = Style("{page}", ".{page_line}", "{line}:{column}", missing="-", inert=True)
SUMMARY = Style(
    "p. {page}", " l. {page_line}", "{line}:{column}", unlined=" ({line}:{column})", missing="-", inert=True
)
NOTES = Style("p.{page}", " l.{page_line}", "{line}:{column}", inert=True)
LISTING = Style("{line}:{column} p.{page}", " l.{page_line}", "{line}:{column}")
HTML = Style("頁{page}", " 行{page_line}", "行{line} 列{column}")
JIAOKANJI = Style("頁{page}", "行{page_line}", "第{line}行", missing="（無頁行）")
TEI = Style("頁{page}", "行{page_line}", "第{line}行")


def half_folio(index: int) -> str:
    """The label of the printed page ``index`` (0-based): a leaf number and its side, ``1a``, ``1b``, ``2a`` …"""
    return f"{index // 2 + 1}{'ab'[index % 2]}"


# A page label's leaf and side, after what names the juan (``012-7a``: 012-, 7, a).
_LEAF = re.compile(r"(?P<prefix>.*?)(?P<leaf>\d+)(?P<side>[a-z])")
# A label's last part (after a juan's ``-``) as the number of a leaf or page and what follows it.
_ORDER = re.compile(r"(?P<number>\d+)(?P<rest>\D*)")


def pages_between(first: str | None, after: str | None) -> int:
    """How many half-folio pages from ``first`` up to, not including, ``after`` (0: unknown).

    Both must be labels of one juan (``006-14a``, ``006-15a``: 2).
    """
    a = _LEAF.fullmatch(first or "")
    z = _LEAF.fullmatch(after or "")
    if a is None or z is None or a.group("prefix") != z.group("prefix"):
        return 0

    def index(m: re.Match[str]) -> int:
        return int(m.group("leaf")) * 2 + (ord(m.group("side")) - ord("a"))

    return max(0, index(z) - index(a))


def page_before(label: str) -> str | None:
    """The half-folio page before ``label`` (``008-4a`` → ``008-3b``, ``3b`` → ``3a``), or None if
    ``label`` is no half-folio label or the juan's first page."""
    m = _LEAF.fullmatch(label)
    if m is None or m.group("side") not in "ab":
        return None
    leaf, width = int(m.group("leaf")), len(m.group("leaf"))
    if m.group("side") == "b":
        return f"{m.group('prefix')}{m.group('leaf')}a"
    if leaf <= 1:
        return None
    # A leaf written with leading zeros (07a) keeps its width; one without (10a) has none (9b).
    number = str(leaf - 1).zfill(width) if m.group("leaf").startswith("0") else str(leaf - 1)
    return f"{m.group('prefix')}{number}b"


def page_order(page: str) -> tuple[int, str] | None:
    """A printed page label (``12``, ``3a``, ``12-7a``) as a sortable key, or None if it is not one."""
    m = _ORDER.fullmatch(page.rsplit("-", 1)[-1])
    return (int(m.group("number")), m.group("rest")) if m else None


__all__ = [
    "HTML",
    "JIAOKANJI",
    "LISTING",
    "MESSAGE",
    "NOTES",
    "SUMMARY",
    "TEI",
    "TERMINAL",
    "Style",
    "half_folio",
    "page_before",
    "page_order",
    "pages_between",
]
