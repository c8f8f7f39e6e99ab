"""A printed page's image: the link a project's pattern makes of a page's label and id.

A witness may name where the pictures of its pages are (``facs`` in its ``[[witness]]`` table):
a URL with fields in braces, filled in for each page. The fields:

- ``{page}``: the page as the print cites it (``062-1a``, ``3a``);
- ``{id}``: the page's full id as the file marks it (a Kanripo ``<pb:KR1d0053_WYG_062-1a>`` gives
  ``KR1d0053_WYG_062-1a``), or the page where the file gives none;
- of a Kanripo id, its parts: ``{text}`` (``KR1d0053``), ``{edition}`` (``WYG``), ``{juan}``
  (``062``), ``{leaf}`` (``1``) and ``{side}`` (``a``).

Kanripo pages are named ``TEXT_EDITION_JUAN-LEAFSIDE``: the text's catalogue number, the
edition's code (WYG 文淵閣四庫全書, SBCK 四部叢刊, …), the juan, the leaf and its side. Where
the scans of an edition are kept is the user's to say, e.g.
``facs = "https://example.org/scans/{text}/{edition}/{juan}/{leaf}{side}.jpg"``.
"""

from __future__ import annotations

import re
import string

FIELDS = ("page", "id", "text", "edition", "juan", "leaf", "side")
# TEXT_EDITION_JUAN-LEAFSIDE, as Kanripo's <pb:…> markers name a page.
_KANRIPO = re.compile(r"(?P<text>[A-Za-z0-9]+)_(?P<edition>[A-Za-z0-9]+)_(?P<juan>[^_-]+)-(?P<leaf>\d+)(?P<side>[a-z])")


def unknown_fields(pattern: str) -> list[str]:
    """The fields of ``pattern`` that are none of :data:`FIELDS` (a format it cannot be filled with too)."""
    try:
        named = [field for _, field, _, _ in string.Formatter().parse(pattern) if field is not None]
    except ValueError as exc:
        return [str(exc)]
    return [f for f in named if f not in FIELDS]


def page_url(pattern: str, page: str, ref: str = "") -> str:
    """The image of a page: ``pattern`` filled with the page's label and id (see the module)."""
    fields = dict.fromkeys(FIELDS, "")
    fields.update(page=page, id=ref or page)
    m = _KANRIPO.fullmatch(ref)
    if m is not None:
        fields.update(m.groupdict())
    return pattern.format(**fields)


__all__ = ["FIELDS", "page_url", "unknown_fields"]
