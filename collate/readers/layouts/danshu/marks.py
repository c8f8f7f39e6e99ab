"""The 單疏本 layout's tables: the gap, the formulas that open a 疏, a 標起止's shape, the headings,
the words that end a sentence; and the patterns built from them (see the package docstring)."""

from __future__ import annotations

import re

from collate.model.numerals import NUMERAL

GAP = "\u3000"
# A line SHORT cells or more shorter than the print's own lines, its paragraph going on, lost its
# last glyphs; the print's line length is found where SHORT_LINES_FROM lines or more are of it.
SHORT = 2
SHORT_LINES_FROM = 10
LINE_ENDS = "\r\n"

# The formula opening the 疏 proper after its lemma (a marker named by it). 正義曰 in 孔穎達's 正義,
# 釋曰 in 賈公彦's 儀禮疏/周禮疏.
OPENERS: tuple[str, ...] = ("正義曰", "釋曰")
# The e-texts' commonest slip in the formula: 日 for 曰 (the glyphs differ in width only).
OPENER_SLIPS: dict[str, str] = {"日": "曰"}
# A lemma's head word naming the commentary it quotes (kept in the lemma's ``passage``, set apart as a marker).
LEMMA_SOURCES: tuple[str, ...] = ("注", "箋")
LEMMA_JOIN = "至"
# Where a print sets the 疏 straight after its 標起止, with no formula (禮記正義's 儒行:
# 儒有忠信至此者　此明儒者自立之事), the 疏's own first words say a paragraph begins: 孔穎達's
# incipit 此明, 此經明, 此一節明 … after a gap or a line end. The words before it, back to the gap
# before them, are the lemma where they have a 標起止's shape with its 至.
INCIPIT = re.compile("(?<=[\u3000\n])此(?:經|一節|節|章)?明")
# Characters of a lemma: at most this many before 至 and after it, or in a lemma without 至.
LEMMA_MAX = (8, 8, 16)

JUAN_TITLE = re.compile(rf"(?P<work>[^\s{GAP}]{{1,10}}?)(?P<juan>卷第?{NUMERAL}+)")
CHAPTER_TITLE = re.compile(rf"[^\s{GAP}]{{1,10}}第{NUMERAL}+")
AUTHOR_INDENT = 2

# Words that end a sentence of the 疏: a gap after one of them sets off the next quotation; a
# gap after any other character may be a lost glyph.
SENTENCE_ENDS = frozenset("也矣焉乎哉耳者")
# The 疏 quotes a phrase of the 經 after a gap and closes it with 者 (``　騶虞者樂官備也``).
QUOTATION_CLOSE = "者"
QUOTATION_MAX = 12

SPACE = frozenset(" \t\u00a0" + GAP + LINE_ENDS)


def _opener_pattern() -> re.Pattern[str]:
    """An opener, each character possibly ``日`` for ``曰``, a line end allowed between two."""
    between = r"(?:\r?\n[ \t\u3000\u00a0]*)?"
    forms = []
    for opener in OPENERS:
        chars = [f"[{c}{''.join(k for k, v in OPENER_SLIPS.items() if v == c)}]" for c in opener]
        forms.append(between.join(chars))
    return re.compile("|".join(forms))


OPENER = _opener_pattern()
# For detection: a formula after a gap that follows a word (an ideograph, not punctuation), and
# a 標起止 with 至 right before it, the commonest evidence of the print.
WORD = "[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff〓]"
AFTER_WORD = re.compile(rf"(?<={WORD})[{GAP}\n][ \t{GAP}]*(?:" + OPENER.pattern + ")")
LEMMA_HIT = re.compile(rf"{WORD}{{1,8}}{LEMMA_JOIN}{WORD}{{1,8}}[{GAP}\n]+(?:" + OPENER.pattern + ")")
