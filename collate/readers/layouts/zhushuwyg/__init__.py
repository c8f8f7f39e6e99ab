"""四庫全書 (文淵閣, WYG) 注疏 prints: layers named by inline words, ``注`` … ``音義(…)`` ``疏(…)``.

The WYG 十三經注疏 (禮記, 儀禮, 周禮, 毛詩, 尚書, 春秋左傳注疏 …) as the Kanseki Repository
transcribes them. Each body line is a printed line; the layers are not told apart by the size
of the print but by words printed in the running line. The tables (in
:mod:`~collate.readers.layouts.zhushuwyg.marks`, importable from here too) are the whole layout; the
code only applies them:

1. Headings (``HEADING``): the collection line ``欽定四庫全書``; a 卷 title (``禮記注疏卷六十二``,
   ``周禮注疏巻三十考證``); the line of commentators (``漢鄭氏注　唐陸徳明音義　孔穎達疏``); any
   other indented line of the text, which is a chapter title (``射義``, ``燕禮第六``); a
   section word opening a 經 paragraph (``記`` of 儀禮, see ``SECTION_WORDS``: in a print of 賈公彦's
   疏, which says 釋曰; in 禮記 記問之學 is the 經's own word); and a tally of
   characters in small print (``(經…字/注…字)``).
2. Large print is 經 (JING). ``○`` in large print parts 經 segments (a marker). The bare
   word ``注`` opens 鄭注 (ZHU), printed in the same large print: the word is a marker and
   the 注 runs over lines and pages until a run label (``音義(``, ``疏(``), a ``○``, a
   heading or the next ``注``.
3. ``RUN_LABELS`` followed by ``(`` open a small-print run ``(…/…)``: ``音義`` 陸德明's
   glosses (SHIWEN), ``疏`` (or ``䟽``) the 正義 (SHU). The run goes on over every piece that follows with
   nothing but line ends between (the 疏 is printed as whole bracketed lines over pages).
   Inside a 疏, ``SHU_OPENERS`` (``正義曰``, ``釋曰``) at its start and the same words after
   ``注`` anywhere (``注正義曰``, ``注釋曰``: the 疏 on the 注 begins; a new unit) are markers,
   also where the e-text splits them with ``/``, brackets or a line end (``正義/曰``). A run
   whose first words are a 疏 opener is 疏 whatever label stands before it (the e-text has
   ``注(釋曰…`` once for ``疏(``); one opened by ``案``/``按`` is a Siku editors' note (NOTE).
   Large print after a run's ``)`` is 經 again: the 經 resumes after the 音義 or the 疏.
4. Where a 注 is followed by 經 with no 音義 or 疏 between (``注諸猶於也孔子曰…注``), the
   print does not mark where the 注 ends. The stretch from one ``注`` to the next is cut
   where two character n-gram models, one of this text's 注 and one of its 經 (trained on
   the stretches whose both ends the print marks), fit best: 注 before the cut, 經 after
   it. Two habits of the print weigh in (``_Evidence``): 鄭注 opens by quoting words of the
   經 it follows, so the 經 has begun by the place where the next 注's first words stand
   (``注必也射乎言…`` after ``…必也射乎…``); and the 疏 that follows quotes the 經 it
   explains (``…詩云言念君子温其如玉此詩秦風…``), so a run of words it quotes is likely 經.
   Each such cut is an ``estimated-boundary`` diagnostic (info), so an editor can see
   and check it.
5. The 考證 section, from a 卷 title ending in ``考證``/``攷證`` to the next 卷 title (or the
   end): the Siku editors' collation notes, all NOTE with the ``passage`` ``考證``. A line flush left
   opens a note with its lemma (a quotation of 經, 注 or 疏); indented lines go on with it,
   except an indented line that opens with a ``注``/``疏`` lemma and holds a ``○`` (a second
   lemma of the same passage). The first ``○`` of a note ends its lemma; every ``○`` is a
   marker. In small print, ``(臣召南/)`` names the editor: an attribution whose ``speaker`` is the
   name, also when split over two pieces (``(臣學/)`` … ``(健/)``); ``(句/)`` is a reading
   mark (a marker). Other small print in a note is the note's text.
6. Brackets, ``/``, spaces, line ends and indentation are layout or markers, never text.
   Small print is closed on its printed line: an unclosed ``(`` ends at the line end (the
   next line's ``(`` goes on with its run), a stray ``)`` is layout: both are ``unbalanced``
   diagnostics and the reading goes on.

The code, one module a step: ``zhushuwyg_marks`` (the tables, which heading a line is, where a
word stands), ``zhushuwyg_scan`` (the read: line classes, then one scan of each body stream:
rules 1–3 and 6), ``zhushuwyg_kaozheng`` (rule 5), ``zhushuwyg_cuts`` (rule 4, once the whole
file is read).
"""

from __future__ import annotations

import re

from collate.readers.base import Layout, Parsed, ReadOptions

# The layout's tables, and its models' settings, importable from the layout's own module.
from collate.readers.layouts.zhushuwyg.cuts import BACKOFF, LEMMA_WORDS, NGRAM_ORDER, QUOTE_MIN, QUOTE_WEIGHT
from collate.readers.layouts.zhushuwyg.marks import (
    COLLECTION,
    COMMENTATORS,
    EDITOR_PREFIX,
    JUAN_TITLE,
    KAOZHENG,
    NOTE_OPENERS,
    READING_MARKS,
    RUN_LABELS,
    SECTION_WORDS,
    SEGMENT_MARKS,
    SHU_OPENERS,
    TALLY,
    ZHU_MARK,
    match_word,
)
from collate.readers.layouts.zhushuwyg.scan import Reading

__all__ = [
    "BACKOFF",
    "COLLECTION",
    "COMMENTATORS",
    "EDITOR_PREFIX",
    "JUAN_TITLE",
    "KAOZHENG",
    "LEMMA_WORDS",
    "NGRAM_ORDER",
    "NOTE_OPENERS",
    "QUOTE_MIN",
    "QUOTE_WEIGHT",
    "READER",
    "READING_MARKS",
    "RUN_LABELS",
    "SECTION_WORDS",
    "SEGMENT_MARKS",
    "SHU_OPENERS",
    "TALLY",
    "ZHU_MARK",
    "ZhushuWygReader",
    "match_word",
]


class ZhushuWygReader(Layout):
    """Reads WYG 注疏 prints: inline ``注``, ``音義(…)``, ``疏(…)`` and the closing 考證."""

    name = "zhushu-wyg"
    description = "四庫全書 注疏: large-print 經 and inline 注, 音義(…/…) and 疏(…/…) runs, 考證 notes"

    def detect(self, text: str) -> tuple[float, str]:
        """Needs the run labels ``音義(`` and ``疏(`` and 疏 opened by 正義曰/釋曰."""
        yinyi = len(re.findall(r"音\s*義\s*\(", text))
        shu = len(re.findall(r"疏\s*\(", text))
        opened = len(re.findall(r"疏\s*\((?:注/?)?(?:正/?義/?曰|釋/?曰)", text))
        if not (yinyi and shu):
            return 0.0, f"{yinyi} 音義( runs, {shu} 疏( runs: not a 注疏 print with inline labels"
        score = 0.4 * min(1.0, yinyi / 5) + 0.3 * min(1.0, shu / 5) + 0.3 * min(1.0, opened / 3)
        return round(score, 2), f"{yinyi} 音義( runs, {shu} 疏( runs ({opened} opened by 正義曰/釋曰)"

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into 經, 注, 音義, 疏, 考證 notes, headings and markup."""
        return Reading(text).run()


READER = ZhushuWygReader()
