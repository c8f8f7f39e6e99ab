"""四庫全書 (文淵閣, WYG) 注疏 prints: layers named by inline words, ``注`` … ``音義(…)`` ``疏(…)``.

The WYG 十三經注疏 (禮記, 儀禮, 周禮, 毛詩, 尚書, 春秋左傳注疏 …) as the Kanseki Repository
transcribes them. Each body line is a printed line; the layers are not told apart by the size
of the print but by words printed in the running line. The tables below are the whole
layout; the code only applies them:

1. Headings (``HEADING``): the collection line ``欽定四庫全書``; a 卷 title (``禮記注疏卷六十二``,
   ``周禮注疏巻三十考證``); the line of commentators (``漢鄭氏注　唐陸徳明音義　孔穎達疏``); any
   other indented line of the text, which is a chapter title (``射義``, ``燕禮第六``); a
   section word opening a 經 paragraph (``記`` of 儀禮, see ``SECTION_WORDS``); and a tally of
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
   end): the Siku editors' collation notes, all NOTE with label ``考證``. A line flush left
   opens a note with its lemma (a quotation of 經, 注 or 疏); indented lines go on with it,
   except an indented line that opens with a ``注``/``疏`` lemma and holds a ``○`` (a second
   lemma of the same passage). The first ``○`` of a note ends its lemma; every ``○`` is a
   marker. In small print, ``(臣召南/)`` names the editor: an attribution labelled with the
   name, also when split over two pieces (``(臣學/)`` … ``(健/)``); ``(句/)`` is a reading
   mark (a marker). Other small print in a note is the note's text.
6. Brackets, ``/``, spaces, line ends and indentation are layout or markers, never text.
   Small print is closed on its printed line: an unclosed ``(`` ends at the line end (the
   next line's ``(`` goes on with its run), a stray ``)`` is layout: both are ``unbalanced``
   diagnostics and the reading goes on.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from collate.model import Diagnostic, Layer, Severity, Span
from collate.readers.base import LINE_SPACE, Line, Parsed, ReadOptions, ReadState, iter_lines

_NUMERAL = "〇一二三四五六七八九十百千"
COLLECTION = re.compile(r"欽定四庫全書")
# 禮記注疏卷六十二, 周禮注疏巻三十考證: a 卷 title, the 考證 one opening the editors' notes.
JUAN_TITLE = re.compile(rf"[^\s()/○]{{1,12}}[卷巻]第?[{_NUMERAL}]+(?P<kaozheng>[考攷]證)?")
# 漢鄭氏注　唐陸徳明音義　孔穎達疏: the line naming the commentators.
COMMENTATORS = re.compile(r"[^\s()/]{1,6}氏[注註傳箋](?:[\s\u3000]+[^\s()/]+)*")
TALLY = re.compile(rf"[經经][{_NUMERAL}]+字.*")
# Words that open a section of 經 in its first line (儀禮's 記): headings, not 經.
SECTION_WORDS: tuple[str, ...] = ("記",)
# A section word followed by one of these is the 經's own word (記曰 quotes a 記).
_NOT_SECTION = "曰云"

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
_INSIDE_WORD = "/()\r\n" + LINE_SPACE
_SPACE = "\r\n" + LINE_SPACE

# The models that place an unprinted 注/經 boundary: order and back-off weight.
NGRAM_ORDER = 3
BACKOFF = 5.0
_BOS, _EOS = "\x02", "\x03"  # a stretch's ends, as the models see them
# Words the print gives about an unmarked cut (see ``_Evidence``): the next 注's first words
# (from LEMMA_WORDS[1] down to LEMMA_WORDS[0] characters) and the following 疏's quotations
# of the 經 (QUOTE_MIN characters or more), worth QUOTE_WEIGHT (log-probability) a character.
LEMMA_WORDS = (3, 6)
QUOTE_MIN = 4
QUOTE_WEIGHT = 2.0
_SEPARATOR = "\x00"  # between the 疏's paragraphs: no quotation runs over it


@dataclass
class _Run:
    """A large-print run being read (mutable): 經 or 注, its pieces kept until it ends."""

    layer: Layer
    unit: int
    clean_start: bool
    pieces: list[tuple[int, int, bool]] = field(default_factory=list)  # (start, end, is text)


@dataclass(frozen=True, slots=True)
class _Stretch:
    """A 注 followed by 經 with no printed boundary: cut later, when the models are trained."""

    pieces: tuple[tuple[int, int, bool], ...]
    zhu_unit: int
    jing_unit: int


class ZhushuWygReader:
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
        return _Reading(text).run()


def match_word(text: str, pos: int, end: int, word: str, skip: str = _SPACE) -> list[tuple[int, int]] | None:
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


class _Reading(ReadState):
    """One read of a WYG 注疏 text: line classes first, then one scan of each body stretch."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.items: list[Span | _Stretch] = []
        self.trained: dict[Layer, list[str]] = {Layer.JING: [], Layer.ZHU: []}
        self.large: _Run | None = None
        self.small: tuple[Layer, int] | None = None  # the open small-print run
        self.after_close = False  # the last thing read was a run's ``)``
        self.shu_start = False  # a 疏 run has had no text yet
        self.in_group = False  # inside ``(…)``
        self.group_open = 0  # where the open ``(`` stands
        self.kz_unit = 0  # the 考證 note being read
        self.kz_lemma = False  # its lemma is not over yet
        self.kz_editor: tuple[int, str] | None = None  # unit and name of the last editor piece

    # -- output -------------------------------------------------------------------------
    def add(
        self, start: int, end: int, layer: Layer, unit: int = 0, role: str = "text", label: str | None = None
    ) -> None:
        """Keep ``text[start:end]`` as one span (in order; joined to its neighbours at the end)."""
        if end > start:
            self.items.append(Span(start, end, layer, unit, role, label))

    def layout(self, start: int, end: int) -> None:
        """Whitespace: inside a large-print run it waits with the run's pieces."""
        if self.large is not None:
            self.large.pieces.append((start, end, False))
        else:
            self.add(start, end, Layer.MARKUP, role="layout")

    def marker(self, pieces: Iterable[tuple[int, int]], label: str, unit: int = 0) -> None:
        """A printed word that is not text; markup the e-text put inside it is layout."""
        last = None
        for start, end in pieces:
            if last is not None:
                self.add(last, start, Layer.MARKUP, role="layout")
            self.add(start, end, Layer.MARKUP, unit, "marker", label)
            last = end

    # -- the file -----------------------------------------------------------------------
    def run(self) -> Parsed:
        kaozheng = False
        body: list[Line] = []
        for line in iter_lines(self.text):
            heading = self.heading_label(line, kaozheng)
            if heading is None:
                if kaozheng:
                    self.kaozheng_line(line)
                else:
                    body.append(line)
                continue
            self.body(body)
            body = []
            self.add(line.start, line.body_start, Layer.MARKUP, role="layout")
            self.add(line.body_start, line.body_end, Layer.HEADING, self.next_unit(), label=heading)
            self.add(line.body_end, line.end, Layer.MARKUP, role="layout")
            if heading == "juan title":
                m = JUAN_TITLE.fullmatch(self.text, line.body_start, line.body_end)
                kaozheng = bool(m and m.group("kaozheng"))
        self.body(body)
        return self.finish()

    def heading_label(self, line: Line, kaozheng: bool) -> str | None:
        """What heading ``line`` is, or None for a line of text."""
        text, start, end = self.text, line.body_start, line.body_end
        if start == end:
            return None
        if COLLECTION.fullmatch(text, start, end):
            return "collection"
        if JUAN_TITLE.fullmatch(text, start, end):
            return "juan title"
        if kaozheng:
            return None
        if COMMENTATORS.fullmatch(text, start, end):
            return "commentators"
        # The text is flush left and its small print opens lines with ``(``: an indented
        # line without brackets is a title.
        if start > line.start and "(" not in text[start:end] and ")" not in text[start:end]:
            return "chapter title"
        return None

    def finish(self) -> Parsed:
        """Cut the unmarked 注/經 stretches with models of this text, then freeze the spans."""
        models = {layer: _NGrams(texts) for layer, texts in self.trained.items()}
        spans = ReadState(self.text).spans
        for k, item in enumerate(self.items):
            if isinstance(item, Span):
                spans.add(item.start, item.end, item.layer, item.unit, item.role, item.label)
                continue
            chars = "".join(self.text[a:b] for a, b, is_text in item.pieces if is_text)
            left = _best_cut(chars, models[Layer.ZHU], models[Layer.JING], self.evidence(k, chars))
            cut_reported = False
            for a, b, is_text in item.pieces:
                if not is_text:
                    spans.layout(a, b)
                    continue
                at = a + max(0, min(b - a, left))
                left -= b - a
                spans.add(a, at, Layer.ZHU, item.zhu_unit)
                if at < b and not cut_reported:
                    cut_reported = True
                    message = "the print does not mark where this 注 ends: 經 is taken to resume here"
                    self.diagnostics.append(Diagnostic("estimated-boundary", message, at, at + 1, Severity.INFO))
                spans.add(at, b, Layer.JING, item.jing_unit)
        self.spans = spans
        return self.parsed()

    def evidence(self, k: int, chars: str) -> _Evidence:
        """What the print says after the stretch ``items[k]``: the next 注's lemma, the 疏's quotations."""
        items = self.items
        text = self.text
        following: list[str] = []
        i = k + 1
        # The next 注: it opens by quoting words of the 經 it follows.
        while i < len(items):
            item = items[i]
            if isinstance(item, _Stretch):
                following.append("".join(text[a:b] for a, b, t in item.pieces if t))
            elif item.layer is Layer.ZHU and item.role == "text":
                following.append(text[item.start : item.end])
            elif not (item.layer is Layer.MARKUP and (item.role == "layout" or item.label == ZHU_MARK)):
                break
            i += 1
        next_zhu = "".join(following)
        # The 疏 that follows (after more 經 and 注 of the same section, if any): the paragraphs
        # on the 經, not those opened by 注正義曰/注釋曰.
        parts: dict[int, list[str]] = {}
        on_zhu: set[int] = set()
        started = False
        while i < len(items):
            item = items[i]
            i += 1
            if isinstance(item, _Stretch):
                if started:
                    break
                continue
            if item.layer is Layer.HEADING or (item.role == "marker" and item.label in tuple(SEGMENT_MARKS)):
                break  # a new section of 經: a 疏 after it is on other words
            if item.layer is Layer.SHU and item.role == "text":
                started = True
                parts.setdefault(item.unit, []).append(text[item.start : item.end])
            elif item.role == "marker" and item.label in tuple(ZHU_MARK + w for w in SHU_OPENERS):
                on_zhu.add(item.unit)
            elif started and item.layer in (Layer.JING, Layer.ZHU) and item.role == "text":
                break
        on_jing = _SEPARATOR.join("".join(v) for u, v in parts.items() if u not in on_zhu)
        return _Evidence.of(chars, next_zhu, on_jing)

    # -- the body: 經, 注 and small-print runs ---------------------------------------------
    def body(self, lines: Sequence[Line]) -> None:
        """Scan consecutive body lines as one stream: runs go on over line ends."""
        if not lines:
            return
        starts = {line.body_start for line in lines}
        i, stream_end = lines[0].start, lines[-1].end
        while i < stream_end:
            i = self.step(i, stream_end, i in starts)
        self.end_large(clean=True)
        if self.small is not None and self.in_group:
            self.diagnostics.append(Diagnostic("unbalanced", "( is not closed", self.group_open, self.group_open + 1))
        self.small = None
        self.in_group = False
        self.after_close = False

    def step(self, i: int, end: int, line_start: bool) -> int:
        """Read what stands at ``i``; return where the next thing starts."""
        text = self.text
        char = text[i]
        if char in "\r\n" and self.in_group:
            # Small print is closed on its printed line; the next line's ``(`` goes on with it.
            self.diagnostics.append(
                Diagnostic("unbalanced", "( is not closed before the line end", self.group_open, self.group_open + 1)
            )
            self.in_group = False
            self.after_close = True
        if char in _SPACE:
            self.layout(i, i + 1)
            return i + 1
        if self.in_group:
            return self.group_char(i, end)
        if char == "(":
            return self.open_group(i, None, None)
        if char == ")":
            self.diagnostics.append(Diagnostic("unbalanced", ") closes nothing", i, i + 1))
            self.end_large(clean=True)
            self.add(i, i + 1, Layer.MARKUP, role="layout", label=")")
            return i + 1
        for label, layer in RUN_LABELS:
            pieces = match_word(text, i, end, label)
            if pieces is None:
                continue
            after = pieces[-1][1]
            while after < end and text[after] in _SPACE:
                after += 1
            if after < end and text[after] == "(":
                self.end_large(clean=True)
                self.small = None
                self.marker(pieces, label)
                self.layout_between(pieces[-1][1], after)
                return self.open_group(after, label, layer)
        if char == ZHU_MARK:
            ambiguous = self.large is not None and self.large.layer is Layer.ZHU
            self.end_large(clean=not ambiguous)
            self.small = None
            self.after_close = False
            self.add(i, i + 1, Layer.MARKUP, role="marker", label=ZHU_MARK)
            self.large = _Run(Layer.ZHU, self.next_unit(), clean_start=True)
            return i + 1
        if char in SEGMENT_MARKS:
            self.end_large(clean=True)
            self.small = None
            self.after_close = False
            self.add(i, i + 1, Layer.MARKUP, role="marker", label=char)
            self.large = _Run(Layer.JING, self.next_unit(), clean_start=True)
            return i + 1
        if self.large is None:
            self.small = None
            if line_start and (self.after_close or not self.items_since_heading()):
                word = next((w for w in SECTION_WORDS if text.startswith(w, i, end)), None)
                if word is not None and not text.startswith(tuple(_NOT_SECTION), i + len(word), end):
                    self.add(i, i + len(word), Layer.HEADING, self.next_unit(), label="section")
                    self.after_close = False
                    return i + len(word)
            self.after_close = False
            self.large = _Run(Layer.JING, self.next_unit(), clean_start=True)
        run = self.large
        if run.pieces and run.pieces[-1][2] and run.pieces[-1][1] == i:
            run.pieces[-1] = (run.pieces[-1][0], i + 1, True)
        else:
            run.pieces.append((i, i + 1, True))
        return i + 1

    def items_since_heading(self) -> bool:
        """Has anything but layout been read since the last heading (or the start)?"""
        for item in reversed(self.items):
            if isinstance(item, _Stretch):
                return True
            if item.layer is Layer.HEADING:
                return False
            if item.layer is not Layer.MARKUP or item.role != "layout":
                return True
        return False

    def layout_between(self, start: int, end: int) -> None:
        """Line ends between a run label and its ``(``."""
        if end > start:
            self.add(start, end, Layer.MARKUP, role="layout")

    def end_large(self, clean: bool) -> None:
        """The large-print run ends: kept as read, or, if its end is not printed, cut later."""
        run = self.large
        self.large = None
        if run is None:
            return
        chars = "".join(self.text[a:b] for a, b, is_text in run.pieces if is_text)
        if not clean and chars:
            self.items.append(_Stretch(tuple(run.pieces), run.unit, self.next_unit()))
            return
        if run.clean_start and clean and chars:
            self.trained[run.layer].append(chars)
        for a, b, is_text in run.pieces:
            if is_text:
                self.add(a, b, run.layer, run.unit)
            else:
                self.add(a, b, Layer.MARKUP, role="layout")

    def open_group(self, i: int, label: str | None, layer: Layer | None) -> int:
        """A ``(`` at ``i``: going on with the open run, or opening one."""
        text = self.text
        self.end_large(clean=True)
        self.in_group = True
        self.group_open = i
        if label is None and self.small is not None and self.after_close:
            self.add(i, i + 1, Layer.MARKUP, self.small[1], "marker", "(")
            self.after_close = False
            return i + 1
        self.after_close = False
        body = i + 1
        close = text.find(")", body)
        inner = text[body : close if close >= 0 else len(text)].replace("/", "")
        opener = next((w for w in SHU_OPENERS if inner.startswith(w) or inner.startswith(ZHU_MARK + w)), None)
        if label is None and TALLY.match(inner):
            self.add(i, body, Layer.MARKUP, role="marker", label="(")
            self.add(body, close if close >= 0 else body, Layer.HEADING, self.next_unit(), label="tally")
            self.small = (Layer.HEADING, 0)
            return close if close >= 0 else body
        if opener is not None:
            if label is not None and layer is not Layer.SHU:
                self.diagnostics.append(
                    Diagnostic("label", f"small print labelled {label} opens with {opener}: read as 疏", i, i + 1)
                )
            layer = Layer.SHU
        elif inner.startswith(NOTE_OPENERS):
            layer = Layer.NOTE
        elif layer is None:
            self.diagnostics.append(
                Diagnostic("label", "small print without a run label: read as 音義", i, i + 1, Severity.INFO)
            )
            layer = Layer.SHIWEN
        unit = self.next_unit()
        self.small = (layer, unit)
        self.shu_start = layer is Layer.SHU
        self.add(i, body, Layer.MARKUP, unit, "marker", "(")
        return body

    def group_char(self, i: int, end: int) -> int:
        """One character (or marker word) inside small print."""
        text = self.text
        assert self.small is not None
        layer, unit = self.small
        char = text[i]
        if char == ")":
            self.add(i, i + 1, Layer.MARKUP, unit, "marker", ")")
            self.in_group = False
            self.after_close = True
            return i + 1
        if char == "(":
            self.diagnostics.append(Diagnostic("unbalanced", "( is not closed", self.group_open, self.group_open + 1))
            self.group_open = i
            self.add(i, i + 1, Layer.MARKUP, unit, "marker", "(")
            return i + 1
        if char == "/":
            self.add(i, i + 1, Layer.MARKUP, unit, "marker", "column break")
            return i + 1
        if char in SEGMENT_MARKS:
            self.add(i, i + 1, Layer.MARKUP, unit, "marker", char)
            return i + 1
        if layer is Layer.SHU:
            found = self.shu_opener(i, end)
            if found is not None:
                pieces, word, on_zhu = found
                if on_zhu:
                    unit = self.next_unit()
                    self.small = (layer, unit)
                self.marker(pieces, word, unit)
                self.shu_start = False
                return pieces[-1][1]
        self.shu_start = False
        self.add(i, i + 1, layer, unit)
        return i + 1

    def shu_opener(self, i: int, end: int) -> tuple[list[tuple[int, int]], str, bool] | None:
        """正義曰/釋曰 opening a 疏, or 注正義曰/注釋曰 opening its part on the 注, at ``i``."""
        for word in SHU_OPENERS:
            on_zhu = match_word(self.text, i, end, ZHU_MARK + word, _INSIDE_WORD)
            if on_zhu is not None:
                return on_zhu, ZHU_MARK + word, True
            if self.shu_start:
                plain = match_word(self.text, i, end, word, _INSIDE_WORD)
                if plain is not None:
                    return plain, word, False
        return None

    # -- the 考證 -------------------------------------------------------------------------

    def kaozheng_line(self, line: Line) -> None:
        """One line of the editors' collation notes."""
        text = self.text
        self.add(line.start, line.body_start, Layer.MARKUP, role="layout")
        start, end = line.body_start, line.body_end
        opens = start == line.start or (
            text.startswith((ZHU_MARK, "疏"), start, end) and any(m in text[start:end] for m in SEGMENT_MARKS)
        )
        if start < end and (opens or not self.kz_unit):
            self.kz_unit = self.next_unit()
            self.kz_lemma = True
            self.kz_editor = None
        i = start
        unit = self.kz_unit
        while i < end:
            char = text[i]
            if char in LINE_SPACE:
                self.add(i, i + 1, Layer.MARKUP, role="layout")
                i += 1
            elif char in SEGMENT_MARKS:
                self.add(i, i + 1, Layer.MARKUP, unit, "marker", char)
                self.kz_lemma = False
                self.kz_editor = None
                i += 1
            elif char == "(":
                i = self.kaozheng_group(i, end, unit)
            elif char == ")":
                self.diagnostics.append(Diagnostic("unbalanced", ") closes nothing", i, i + 1))
                self.add(i, i + 1, Layer.MARKUP, role="layout", label=")")
                i += 1
            else:
                self.kz_editor = None
                self.add(i, i + 1, Layer.NOTE, unit, label=KAOZHENG)
                i += 1
        self.add(line.body_end, line.end, Layer.MARKUP, role="layout")

    def kaozheng_group(self, i: int, end: int, unit: int) -> int:
        """Small print in a note: an editor's name, a reading mark, or the note's own words."""
        text = self.text
        close = text.find(")", i + 1, end)
        if close < 0:
            self.diagnostics.append(Diagnostic("unbalanced", "( is not closed", i, i + 1))
            close = end
        inner = text[i + 1 : close].replace("/", "")
        self.add(i, i + 1, Layer.MARKUP, unit, "marker", "(")
        if inner in READING_MARKS:
            role, layer, label = "marker", Layer.MARKUP, inner
            self.kz_editor = None
        elif inner.startswith(EDITOR_PREFIX) or (self.kz_editor is not None and len(inner) <= 2):
            name = self.editor_name(i, inner)
            role, layer, label = "attribution", Layer.NOTE, name
        else:
            role, layer, label = "text", Layer.NOTE, KAOZHENG
            self.kz_editor = None
        for j in range(i + 1, close):
            if text[j] == "/":
                self.add(j, j + 1, Layer.MARKUP, unit, "marker", "column break")
            elif text[j] in LINE_SPACE:
                self.add(j, j + 1, Layer.MARKUP, role="layout")
            else:
                self.add(j, j + 1, layer, unit, role, label)
        if close < end:
            self.add(close, close + 1, Layer.MARKUP, unit, "marker", ")")
            if role == "attribution":
                self.kz_editor = (unit, label or "")
            return close + 1
        return close

    def editor_name(self, i: int, inner: str) -> str:
        """An editor's whole name: this piece and the piece printed next to it, either side."""
        if self.kz_editor is not None and not inner.startswith(EDITOR_PREFIX):
            return self.kz_editor[1]
        after = re.match(r"\)[\s\u3000]*\(([^()/]{1,2})/?\)", self.text[self.text.find(")", i) :])
        if after and after.group(1) not in READING_MARKS and len(inner) <= 2:
            return inner + after.group(1)
        return inner


class _NGrams:
    """A character n-gram model of one layer, each order backing off to the one below.

    Interpolated with a fixed weight (``BACKOFF``) and add-one unigrams: the training text
    is a few thousand characters, too few to tune anything finer.
    """

    def __init__(self, texts: Iterable[str], order: int = NGRAM_ORDER) -> None:
        self.order = order
        self.grams: Counter[str] = Counter()
        self.contexts: Counter[str] = Counter()
        for t in texts:
            seq = _BOS * (order - 1) + t + _EOS
            for i in range(order - 1, len(seq)):
                for n in range(1, order + 1):
                    gram = seq[i - n + 1 : i + 1]
                    self.grams[gram] += 1
                    self.contexts[gram[:-1]] += 1
        self.total = self.contexts[""]
        self.vocabulary = sum(1 for g in self.grams if len(g) == 1) + 1

    def logp(self, chars: str) -> float:
        """Log-probability of ``chars`` as a whole stretch of this layer, both ends included."""
        seq = _BOS * (self.order - 1) + chars + _EOS
        score = 0.0
        for i in range(self.order - 1, len(seq)):
            p = (self.grams[seq[i]] + 1) / (self.total + self.vocabulary)
            for n in range(2, self.order + 1):
                gram = seq[i - n + 1 : i + 1]
                p = (self.grams[gram] + BACKOFF * p) / (self.contexts[gram[:-1]] + BACKOFF)
            score += math.log(p)
        return score


@dataclass(frozen=True, slots=True)
class _Evidence:
    """What the print says about one unmarked stretch: the last cut it allows, weights per character.

    ``limit``: the next 注 opens with words of the 經 it follows (``LEMMA_WORDS``), so the 經
    begins at the latest where those words stand in the stretch. ``weights``: ``QUOTE_WEIGHT``
    for each character the following 疏 quotes while it explains the 經 (``QUOTE_MIN`` or more
    in a row), evidence that it is 經. (The 疏's part on the 注 also quotes the 經 it
    paraphrases, so it says nothing sure about the 注 and is not used.)
    """

    limit: int
    weights: tuple[float, ...]

    @classmethod
    def of(cls, chars: str, next_zhu: str, shu_on_jing: str) -> _Evidence:
        """The evidence for ``chars`` from the 注 and the 疏 that follow it."""
        limit = len(chars) - 1
        low, high = LEMMA_WORDS
        for size in range(min(high, len(next_zhu)), low - 1, -1):
            at = chars.rfind(next_zhu[:size])
            if at > 0:
                limit = at
                break
        weights = tuple(QUOTE_WEIGHT * q for q in _quoted(chars, shu_on_jing))
        return cls(limit, weights)


def _quoted(chars: str, other: str) -> list[int]:
    """1 for each character of ``chars`` inside a run of ``QUOTE_MIN`` or more that ``other`` quotes."""
    marks = [0] * len(chars)
    if not other:
        return marks
    for i in range(len(chars)):
        size = QUOTE_MIN
        while i + size <= len(chars) and chars[i : i + size] in other:
            size += 1
        if size > QUOTE_MIN:
            for j in range(i, i + size - 1):
                marks[j] = 1
    return marks


def _best_cut(chars: str, zhu: _NGrams, jing: _NGrams, evidence: _Evidence | None = None) -> int:
    """How many of ``chars`` are 注: the cut where a whole 注 then a whole 經 fit best."""
    if len(chars) < 2:
        return len(chars)
    limit = len(chars) - 1 if evidence is None else max(1, evidence.limit)
    weights = (0.0,) * len(chars) if evidence is None else evidence.weights
    total = sum(weights)

    def score(k: int) -> float:
        before = sum(weights[:k])
        return zhu.logp(chars[:k]) + jing.logp(chars[k:]) + (total - before) - before

    return max(range(1, limit + 1), key=score)


READER = ZhushuWygReader()
