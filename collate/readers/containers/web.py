"""A text saved from a web library page: the site's furniture lines around the work's text.

Web libraries (读书之家 and the like) serve a text one paragraph a line and end (or open) the
page with lines of site furniture: ``【打 印】 【来源：读书之家-dushuzhijia.com】``, ``【返回】``. Such a
line — nothing but brackets, each holding a furniture word (spaces ignored) — is BOILERPLATE,
taken out whole; every other line is the layout's, as it is. Furniture is looked for only in
the first and last ``_EDGE`` lines: inside a text, a bracket is the print's own.
"""

from __future__ import annotations

import re

from collate.model import Layer, Role
from collate.readers.base import ReadOptions, iter_lines
from collate.readers.body import Body, BodyBuilder

# Words of web-page furniture; a bracket holding one of them (spaces ignored) is not text.
FURNITURE = (
    "打印",
    "来源",
    "來源",
    "关闭",
    "關閉",
    "返回",
    "上一页",
    "下一页",
    "上一頁",
    "下一頁",
    "目录",
    "目錄",
    "收藏",
)
_EDGE = 3


def is_furniture_line(body: str) -> bool:
    """A line of nothing but bracketed web furniture (``【打 印】 【来源：…】``)."""
    # Not ``[^】]*``: on a line of unclosed 【 that rescans to the line end from each one.
    groups = re.findall(r"【([^【】]*)】", body)
    rest = re.sub(r"【[^【】]*】", "", body).strip(" \u3000\t")
    if not groups or rest:
        return False
    return all(any(word in re.sub(r"\s", "", g) for word in FURNITURE) for g in groups)


def _edge_lines(raw: str) -> list[tuple[int, int, int, int]]:
    """(start, body start, body end, end) of the lines with text, first and last few only."""
    lines = [(ln.start, ln.body_start, ln.body_end, ln.end) for ln in iter_lines(raw) if ln.body_end > ln.body_start]
    return lines[:_EDGE] + lines[max(_EDGE, len(lines) - _EDGE) :]


class WebContainer:
    """Takes out the furniture lines of a saved web page."""

    name = "web"
    description = "text saved from a web library: site furniture lines (【打 印】 【来源：…】) around it"

    def detect(self, raw: str) -> tuple[float, str]:
        """Furniture lines at the start or end of the file."""
        found = sum(1 for _, b, e, _ in _edge_lines(raw) if is_furniture_line(raw[b:e]))
        if not found:
            return 0.0, "no web-page furniture lines"
        return 0.4, f"{found} web-page furniture line{'s' if found > 1 else ''} (【打 印】 【来源：…】)"

    def read(self, raw: str, options: ReadOptions) -> Body:
        """Furniture lines out as BOILERPLATE (their line ends as layout); the rest as it is."""
        b = BodyBuilder(raw)
        furniture = {start for start, bs, be, _ in _edge_lines(raw) if is_furniture_line(raw[bs:be])}
        pos = 0
        for line in iter_lines(raw):
            if line.start not in furniture:
                continue
            b.keep(pos, line.start)
            b.drop(line.start, line.body_start)
            b.drop(line.body_start, line.body_end, Layer.BOILERPLATE, Role.TEXT, passage="web page")
            b.drop(line.body_end, line.end)
            pos = line.end
        b.keep(pos, len(raw))
        return b.build(self.name, self.description)


CONTAINER = WebContainer()
