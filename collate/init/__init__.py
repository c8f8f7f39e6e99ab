"""From witness files to a project: sigla and labels read off each file's header, and ``collate init``.

``collate run a.txt b.txt`` and ``collate init a.txt b.txt`` name the witnesses alike, from what
each file says of itself (:class:`Header`):

- a Kanripo Mandoku file names its edition (``#+PROPERTY: BASEEDITION WYG``, or the edition of
  its ``<pb:KR1d0053_WYG_062-1a>`` page markers in an edition branch) and its title (``#+TITLE:``);
- a plain e-text of a 四庫 print opens with ``欽定四庫全書`` and its title line; a plain or web text
  often opens with a title line (``=== 20 | 射義 ===``), a readings file has ``[witness] title``.

A known edition gives the siglum (``WYG``) and the label readers see (``四庫本``); two files of one
edition are told apart by the title in the label (``四庫本《禮記註疏》``) and a word of the file name
in the siglum (``WYG-zhushu``). Without an edition the title is the label, and the siglum is the word
of the file name no other file has; a hash (``000_2cc6d19ca27bf473``) is never a siglum.

Only the opening of a file is read for this, through the same container and layout a run uses
(:func:`~collate.readers.read_raw`): a header is at the top, and a whole book is not read twice.

What a file says of itself is read in :mod:`collate.init.headers`, the witnesses named from it in
:mod:`collate.init.naming` and the project's title (the work and the chapter the files share,
``禮記·射義``) in :mod:`collate.init.title`; :mod:`collate.init.project` makes the project of the
files named and :mod:`collate.init.project_file` writes it as ``collate.toml``, with the Kanripo
gaiji table named or found beside the files (:mod:`collate.init.gaiji`).
"""

from __future__ import annotations

from collate.init.gaiji import GaijiChoice, find_gaiji_table
from collate.init.headers import EDITIONS, Edition, Header, chapter_name, edition_of, read_header
from collate.init.naming import name_witnesses, project_name
from collate.init.project import project_from_files
from collate.init.project_file import Initialized, init_project, project_text
from collate.init.title import project_title, work_of

__all__ = [
    "EDITIONS",
    "Edition",
    "GaijiChoice",
    "Header",
    "Initialized",
    "chapter_name",
    "edition_of",
    "find_gaiji_table",
    "init_project",
    "name_witnesses",
    "project_from_files",
    "project_name",
    "project_text",
    "project_title",
    "read_header",
    "work_of",
]
