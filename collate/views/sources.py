"""``collate sources``: for each passage a compilation quotes, where the shelf holds it.

One line per quoted article of the base, in its order: its place in the base, its title and
first words, then each shelf file holding it with the share of the article's strings matched
and its place in that file (``liji-sheyi-zhushu 97% p. 062-17a l. 8``), or ``no source on the
shelf``. Then what could not be read. A reader of a compilation can use it alone: it says where
each quotation comes from.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from collate.align.holdings import articles, opening_words
from collate.model import Layer, Witness
from collate.model.citation import SUMMARY
from collate.model.inert import inert

if TYPE_CHECKING:
    from collate.project import Project
    from collate.shelf import ShelfReport

# The layers an article's opening words are taken from: its text, whatever the layer.
TEXT_LAYERS = tuple(layer for layer in Layer if layer.is_text)
# Characters of an article shown to name it.
OPENING = 12


def source_lines(project: Project, report: ShelfReport) -> list[str]:
    """The lines of ``collate sources`` (see the module docstring), shown as printed (inert)."""
    from collate.readers import read_witness

    base_config = project.witness(project.base)
    gaiji = project.resolve(project.gaiji_table) if project.gaiji_table else None
    base = read_witness(project.resolve(base_config.path), siglum=project.base, gaiji_table=gaiji)
    files = {f.siglum: f for f in report.files}
    opened: dict[str, Witness] = {}
    lines: list[str] = []
    for k, article in enumerate(articles(base)):
        # The article's own text (not the page markers of the file around it).
        words = inert(opening_words(base, article, OPENING, TEXT_LAYERS), keep="")
        head = f"{SUMMARY.cite(base.locate(article.start))}\t{inert(article.title, keep='')}\t「{words}…」"
        found = [s for s in report.sources if s.article == k]
        if not found:
            lines.append(f"{head}\tno source on the shelf")
            continue
        cited = []
        for s in found:
            where = ""
            if s.offset is not None:
                if s.siglum not in opened:
                    opened[s.siglum] = read_witness(files[s.siglum].path, siglum=s.siglum, gaiji_table=gaiji)
                where = " " + SUMMARY.cite(opened[s.siglum].locate(s.offset))
            cited.append(f"{inert(s.siglum, keep='')} {round(100 * s.share)}%{where}")
        lines.append(f"{head}\t" + "; ".join(cited))
    lines += [f"not read: {inert(p, keep='')}" for p in report.problems]
    return lines


def print_sources(echo: Callable[[str], None], project: Project, report: ShelfReport) -> None:
    """Print :func:`source_lines` with ``echo``, tab-separated as they are (to read, or to pipe)."""
    for line in source_lines(project, report):
        echo(line)
