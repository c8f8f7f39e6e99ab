"""The words of a WYG 注疏 print (layout ``zhushu-wyg``): its tables, and how a line or a word is found.

The tables are the whole layout (see :mod:`collate.readers.layouts.zhushuwyg` for what each means);
:mod:`collate.readers.layouts.zhushuwyg.scan` and :mod:`collate.readers.layouts.zhushuwyg.kaozheng` only apply them.
Here too are the two lookups both need: which heading a line is (:func:`heading_label`) and
where a printed word stands when the e-text has put markup between its characters
(:func:`match_word`).
"""

from __future__ import annotations

import re

from collate.model import HeadingKind, Layer
from collate.model.numerals import NUMERAL
from collate.readers.base import LINE_SPACE, Line

COLLECTION = re.compile(r"欽定四庫全書")
# 禮記注疏卷六十二, 周禮注疏巻三十考證: a 卷 title, the 考證 one opening the editors' notes.
JUAN_TITLE = re.compile(rf"[^\s()/○]{{1,12}}[卷巻]第?{NUMERAL}+(?P<kaozheng>[考攷]證)?")
# 漢鄭氏注　唐陸徳明音義　孔穎達疏: the line naming the commentators.
COMMENTATORS = re.compile(r"[^\s()/]{1,6}氏[注註傳箋](?:[\s\u3000]+[^\s()/]+)*")
TALLY = re.compile(rf"[經经]{NUMERAL}+字.*")
# Words that open a section of 經 in its first line (儀禮's 記): headings, not 經.
SECTION_WORDS: tuple[str, ...] = ("記",)
# The 疏's formulas that say whose 疏 a print carries, and so whether its chapters have such
# sections: 賈公彦's (釋曰) 儀禮疏 ends a chapter in a 記 headed by the word; 孔穎達's (正義曰) 正義
# are on works that have none (禮記 is itself 記: its 記問之學 is the 經's own word).
SECTION_FORMULA = "釋曰"
NO_SECTION_FORMULA = "正義曰"
# A section word followed by one of these is the 經's own word (記曰 quotes a 記).
NOT_SECTION = "曰云"

ZHU_MARK = "注"
SEGMENT_MARKS = "○〇"
# (label, layer of the small-print run it opens); ``注(`` is an e-text slip for ``疏(``.
# ``䟽`` is the print's other form of 疏 (the e-text has both).
RUN_LABELS: tuple[tuple[str, Layer], ...] = (
    ("音義", Layer.SHIWEN), ("疏", Layer.SHU), ("䟽", Layer.SHU), ("注", Layer.ZHU),
)  # fmt: skip
SHU_OPENERS: tuple[str, ...] = ("正義曰", "釋曰")
# Small print opening with these words is the Siku editors' own note.
NOTE_OPENERS: tuple[str, ...] = ("案", "按")
# 考證: small print naming an editor opens with 臣; (句/) and (讀/) mark a reading.
EDITOR_PREFIX = "臣"
READING_MARKS: tuple[str, ...] = ("句", "讀")
KAOZHENG = "考證"
# Markup the e-text may put between the characters of one printed word.
INSIDE_WORD = "/()\r\n" + LINE_SPACE
SPACE = "\r\n" + LINE_SPACE


def heading_label(text: str, line: Line, kaozheng: bool) -> HeadingKind | None:
    """What heading ``line`` of ``text`` is, or None for a line of text.

    In the 考證 section (``kaozheng``) only the collection line and 卷 titles are headings:
    its indented lines go on with a note.
    """
    start, end = line.body_start, line.body_end
    if start == end:
        return None
    if COLLECTION.fullmatch(text, start, end):
        return HeadingKind.COLLECTION
    if JUAN_TITLE.fullmatch(text, start, end):
        return HeadingKind.JUAN_TITLE
    if kaozheng:
        return None
    if COMMENTATORS.fullmatch(text, start, end):
        return HeadingKind.COMMENTATORS
    # The text is flush left and its small print opens lines with ``(``: an indented
    # line without brackets is a title.
    if start > line.start and "(" not in text[start:end] and ")" not in text[start:end]:
        return HeadingKind.CHAPTER_TITLE
    return None


def match_word(text: str, pos: int, end: int, word: str, skip: str = SPACE) -> list[tuple[int, int]] | None:
    """Where ``word`` stands at ``pos``, allowing ``skip`` characters between its characters.

    The word's pieces as (start, end), or None if it is not there.
    """
    pieces: list[tuple[int, int]] = []
    i = pos
    for n, char in enumerate(word):
        if n:
            while i < end and text[i] in skip:
                i += 1
        if i >= end or text[i] != char:
            return None
        if pieces and pieces[-1][1] == i:
            pieces[-1] = (pieces[-1][0], i + 1)
        else:
            pieces.append((i, i + 1))
        i += 1
    return pieces
