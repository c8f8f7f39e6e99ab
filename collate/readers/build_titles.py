"""Rebuild the table of chapter titles: ``python -m collate.readers.build_titles DIR > collate/data/titles.tsv``.

DIR holds checkouts of the Kanseki Repository texts the table is made from, side by side
(``DIR/KR1d0053/KR1d0053_000.txt`` …; see ``SOURCES``). A chapter's title is the heading the
print gives it, ``曲禮上第一``: a name, 第, a numeral, standing at the start of a line of the
table of contents (原目) or, in 大戴禮記, in the list of chapters at the head of each juan (several
on a line, set apart by spaces). The name is what precedes 第; the heading as printed is kept
beside it. The first occurrence of each name counts: a 原目 repeats a title in its notes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from collate.model.numerals import NUMERAL

# (book, repository, files): where each book's chapter headings are read.
SOURCES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("禮記", "KR1d0053", ("KR1d0053_000.txt",)),
    ("儀禮", "KR1d0028", ("KR1d0028_000.txt",)),
    ("周禮", "KR1d0003", ("KR1d0003_000.txt",)),
    ("大戴禮記", "KR1d0076", tuple(f"KR1d0076_{n:03}.txt" for n in range(1, 14))),
)
# A heading: a name of ideographs (no 第 in it) and 第 with a numeral, alone or first in its piece.
_HEADING = re.compile(rf"(?P<name>[^\s第()（）/¶<>#○　]{{1,10}}?)第(?P<n>{NUMERAL}+)")
# What a line of a Kanripo file carries besides its text: the Mandoku line mark and page markers.
_MARKUP = re.compile(r"<pb:[^>]*>|<md:[^>]*>|¶")


def headings(text: str) -> Iterator[tuple[str, str]]:
    """(name, heading as printed) of each chapter heading in ``text`` (see the module docstring).

    A heading opens a line, or a piece of a line set apart by spaces (a juan's list of chapters);
    small print after it (``曲禮上第一音義(…)``) and a second title after ``○`` are not part of it.
    """
    for raw in text.splitlines():
        if raw.startswith("#"):
            continue
        line = _MARKUP.sub("", raw)
        for piece in re.split(r"[\s\u3000]+", line):
            m = _HEADING.match(piece)
            # 大戴禮記卷第一 heads a juan, not a chapter.
            if m and not m.group("name").endswith(("卷", "巻")):
                yield m.group("name"), m.group(0)


def rows(directory: Path) -> Iterator[tuple[str, str, str, str]]:
    """(book, chapter, heading, source file) of every book of ``SOURCES``, in the prints' order."""
    for book, repository, files in SOURCES:
        seen: set[str] = set()
        for name in files:
            path = directory / repository / name
            for chapter, heading in headings(path.read_text(encoding="utf-8")):
                if chapter not in seen:
                    seen.add(chapter)
                    yield book, chapter, heading, f"{repository}/{name}"


def table_text(found: Iterable[tuple[str, str, str, str]], header: str) -> str:
    """The table file: ``header`` (its comment lines) and one tab-separated row per chapter."""
    return header + "".join("\t".join(row) + "\n" for row in found)


def main(argv: list[str]) -> int:
    """Print the table rebuilt from the checkouts in ``argv[0]``, under the shipped table's header."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        usage = "usage: python -m collate.readers.build_titles DIR  (DIR: Kanripo checkouts side by side)"
        print(usage, file=sys.stderr)
        return 2
    from importlib import resources

    shipped = (resources.files("collate") / "data" / "titles.tsv").read_text(encoding="utf-8")
    header = "".join(line + "\n" for line in shipped.splitlines() if line.startswith("#"))
    sys.stdout.write(table_text(rows(Path(argv[0])), header))
    return 0


if __name__ == "__main__":  # pragma: no cover - the command line
    sys.exit(main(sys.argv[1:]))
