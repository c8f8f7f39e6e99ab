"""陳氏禮記集說 (元 陳澔), the 四庫全書 print: 經 in large print, 集說 after it in ``(…/…)``.

How the print marks its layers (as the Kanseki Repository transcribes it):

- Lines without small print that are indented, and the flush-left ``欽定四庫全書`` and juan
  titles (``陳氏禮記集說卷十``, ``禮記集説卷一　　元　陳澔　撰``), are structure (HEADING): the
  chapter title stands indented two full-width spaces (``　　射義第四十六``).
- Large print, flush left and unbracketed, is the 經 (JING): one unit per stretch of 經 between
  two 集說 passages. A bracket holding only ``句`` inside it is the Siku editors' reading mark
  (``者(句/)不(句/)在此位也``): a marker, and the 經 goes on.
- ``(…)`` is double-column small print, ``/`` its column break. The 集說 on a stretch of 經
  follows it in small print and goes on over whole bracketed lines until large print resumes:
  one passage, wherever its pieces break. A chapter's headnote is small print indented under
  the title (``　　　(疏曰…)``), read the same way.
- A blank position inside small print (one or more ASCII spaces in the e-text, usually two)
  separates the parts of a passage; some juan print a circle ``○`` there instead
  (``…此章言諸侯時祭之禮/○犧音莎…``, ``…為陔也○劉氏曰…``): a marker, never text. A part
  opening with a name is a quoted authority: the name is an attribution span (the ``speaker``)
  and opens a new unit (``呂氏曰``, ``鄭氏曰``, ``朱子曰``, ``石梁王氏曰``, ``疏曰``, ``司裘註云``,
  ``今按``: all COMMENTARY). A part dense with
  pronunciation words (``長上聲中去聲``, ``還音旋``, ``拾其結切``, ``㢙僅同``) is the passage's
  closing 音 notes, and so is whatever follows them to the passage's end unless it names an
  authority. They are 陳澔's own glosses, not 陸德明's 釋文: COMMENTARY with the ``passage``
  ``音`` (``SOUND_NOTES``), so that a collation never sets them against a 注疏 print's 音義. Any
  other part is the author's own words (COMMENTARY). Inside a part, a surname with ``氏曰``,
  or ``朱子曰``, ``疏曰``, ``今按``, opens an authority too: the e-text often lost the blank
  before them (``…官備可知獸/呂氏曰彼茁者葭…``).
- ``疏曰`` quotes 孔穎達's 正義 as 陳澔 abridges it, among his other authorities, and he also
  cites it in passing (``疏云``) inside his own sentences. It is read as COMMENTARY with the
  attribution ``疏曰``, not SHU, so that in a collation with a 注疏 print SHU holds only the
  正義 itself and the ``speaker`` still says whose words these are.
- An unclosed ``(`` ends at the next ``(`` or its line end and a stray ``)`` is layout: both
  are ``unbalanced`` diagnostics.

Known limit: where the e-text scrambled the last small-print line of a passage (the blank and
a few characters change places: ``…謂之誣音比/音畀中與並去聲數  朔``), notes that lost their
blank stay in the author's words and a stray character after them is read with the notes.
"""

from __future__ import annotations

import re

from collate.model import Diagnostic, HeadingKind, Layer, MarkerKind, Role, Span
from collate.model.numerals import NUMERAL
from collate.readers.base import LINE_SPACE, Layout, Parsed, ReadOptions, ReadState, iter_lines

# The ``passage`` of 陳澔's closing pronunciation notes (kept in COMMENTARY, told apart by it).
SOUND_NOTES = "音"

_COLLECTION = re.compile(r"欽定四庫全書|钦定四库全书")
_JUAN_TITLE = re.compile(rf"[^\s()/]{{0,10}}集[說説说]卷{NUMERAL}+(?:[\s\u3000].*)?")
# Blank positions inside small print: ASCII spaces in this e-text, full-width ones in others.
_BLANK = " \u3000"
# The printed circle some juan set between the parts of a passage instead of a blank.
_CIRCLE = "○"
_SEPARATORS = _BLANK + _CIRCLE
# A part of a passage opening with its authority's name.
_AUTHORITY = re.compile(
    r"(?:[^\s()/]{1,4}?氏|[朱程張张]子)曰"  # 呂氏曰, 石梁王氏曰, 朱子曰
    r"|[疏䟽]曰"
    r"|[^\s()/]{0,3}?[註注疏]云"  # 司裘註云, 疏云
    r"|[今愚]按|愚謂"
)
# The same inside a part, where the name's first character cannot be told: a surname.
_INLINE_AUTHORITY = re.compile(r"[^\s()/]氏曰|[朱程張张]子曰|[疏䟽]曰|今按|愚按")
_READING_MARKS = frozenset({"句", "讀"})
# Words of pronunciation notes: 音 (X音Y), 聲 (上聲, 並去聲), 切/反 (fanqie), 如字, 同 (X與Y同),
# 倣 (後俱倣此 "likewise below").
_NOTE_WORDS = ("音", "聲", "切", "反", "如字", "同", "读", "讀", "倣")
# One note: X音Y, X去聲 / XY並去聲, X如字, X+fanqie+切/反, X與Y同.
_NOTE_ITEM = r"(?:[^\s]音[^\s]|[^\s]{1,2}並?[平上去入]聲|[^\s]如字|[^\s]{3}[切反]|[^\s]與[^\s]同)"
# Notes that lost their blank at the end of the author's words: two notes or more, and at
# most one stray character after them.
_TRAILING_NOTES = re.compile(rf"(?:{_NOTE_ITEM}){{2,}}[^\s]?$")

# What one character is: a span over no text, its offsets set when its run is emitted.
_LAYOUT = Span(0, 0, Layer.MARKUP, 0, Role.LAYOUT)
_COLUMN_BREAK = Span(0, 0, Layer.MARKUP, 0, Role.MARKER, marker=MarkerKind.COLUMN_BREAK)
_OPEN = Span(0, 0, Layer.MARKUP, 0, Role.MARKER, marker="(")
_CLOSE = Span(0, 0, Layer.MARKUP, 0, Role.MARKER, marker=")")
_READING_MARK = Span(0, 0, Layer.MARKUP, 0, Role.MARKER, marker=MarkerKind.READING_MARK)
_CIRCLE_MARK = Span(0, 0, Layer.MARKUP, 0, Role.MARKER, marker="○")


def is_notes(part: str, *, alone: bool = False) -> bool:
    """A part of a passage that reads as 音 notes: short and dense with pronunciation words.

    ``alone``: the part is a whole passage (no commentary before it), so ask for more density.
    """
    found = sum(part.count(w) for w in _NOTE_WORDS)
    if alone:
        return len(part) <= 12 and found * 3 >= len(part)
    return len(part) <= 80 and found * 5 >= len(part)


class ChenhaoReader(Layout):
    """Reads 陳澔's 禮記集說: large-print 經, small-print 集說 parts split by blanks."""

    name = "jishuo-chen"
    description = "陳澔 禮記集說: 經 large print, 集說 in (…/…) with blank-separated 某氏曰 parts and 音 notes"

    def detect(self, text: str) -> tuple[float, str]:
        """Small print split by blanks into 某氏曰 quotations and 音 notes (上聲/去聲, X音Y)."""
        pieces = re.findall(r"\(([^()\n]*)\)", text)
        if not pieces:
            return 0.0, "no (…) small print"
        blank = rf"(?:[^ ] {{2,}}|{_CIRCLE})"
        authorities = sum(len(re.findall(rf"{blank}(?:[^\s()/]{{1,4}}?氏|朱子)曰", p)) for p in pieces)
        # Only notes after a blank: ``○`` then 音 notes is also how the 注 prints set 陸德明's 音義
        # after the 注 (zhu-bracket), so there it tells nothing of 陳澔.
        notes = sum(len(re.findall(r"[^ ] {2,}[^\s()/]{1,3}(?:[平上去入]聲|音)", p)) for p in pieces)
        zhu = sum(p.startswith("注") for p in pieces)
        if authorities + notes < 3 or zhu > len(pieces) / 10:
            return 0.0, "no blank- or ○-separated 某氏曰 quotations or 音 notes in small print"
        score = 0.6 + 0.2 * min(1.0, authorities / 3) + 0.15 * min(1.0, notes / 5)
        reason = f"{len(pieces)} (…) pieces; {authorities} 某氏曰 after blanks or ○, {notes} 音 notes after blanks"
        return round(score, 2), reason

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Line by line: headings, then large print and small-print pieces; passages at their end."""
        return _Reading(text).run()


class _Reading:
    def __init__(self, text: str) -> None:
        self.text = text
        self.state = ReadState(text)
        self.kinds: list[Span] = [_LAYOUT] * len(text)
        self.passage: list[int] = []  # offsets of the open passage's small print, blanks included
        self.jing: Span | None = None  # what the characters of the 經 stretch in force are

    def run(self) -> Parsed:
        text = self.text
        for line in iter_lines(text):
            start, end = line.body_start, line.body_end
            if start == end:
                continue
            body = text[start:end]
            plain = "(" not in body and ")" not in body
            if plain and (start > line.start or _COLLECTION.fullmatch(body) or _JUAN_TITLE.fullmatch(body)):
                self.close_passage()
                self.heading(start, end)
                continue
            self.pieces(start, end)
        self.close_passage()
        self.emit()
        return self.state.parsed()

    def heading(self, start: int, end: int) -> None:
        """A structure line; its inner spaces are layout."""
        body = self.text[start:end]
        if _COLLECTION.fullmatch(body):
            heading = HeadingKind.COLLECTION
        elif _JUAN_TITLE.fullmatch(body):
            heading = HeadingKind.JUAN_TITLE
        else:
            heading = HeadingKind.TITLE
            self.state.metadata.append(("chapter", body.strip(LINE_SPACE)))
        kind = Span(0, 0, Layer.HEADING, self.state.next_unit(), heading=heading)
        for i in range(start, end):
            if self.text[i] not in LINE_SPACE:
                self.kinds[i] = kind
        self.jing = None

    def pieces(self, start: int, end: int) -> None:
        """Large print and the small-print pieces of one line."""
        text, st = self.text, self.state
        pos = start
        while pos < end:
            char = text[pos]
            if char == "(":
                close = text.find(")", pos + 1, end)
                reopen = text.find("(", pos + 1, end)
                if close < 0 or 0 <= reopen < close:
                    stop = reopen if reopen >= 0 else end
                    st.diagnostics.append(Diagnostic("unbalanced", "( is not closed", pos, pos + 1))
                    self.small(pos, stop, None)
                    pos = stop
                else:
                    self.small(pos, close, close)
                    pos = close + 1
            elif char == ")":
                st.diagnostics.append(Diagnostic("unbalanced", ") closes nothing", pos, pos + 1))
                pos += 1
            elif char in LINE_SPACE:
                pos += 1
            elif char == "/":
                # A column break is small print's; one in large print is a slip of the e-text.
                self.kinds[pos] = _COLUMN_BREAK
                pos += 1
            else:
                self.close_passage()
                if self.jing is None:
                    self.jing = Span(0, 0, Layer.JING, st.next_unit())
                self.kinds[pos] = self.jing
                pos += 1

    def small(self, open_: int, body_end: int, close: int | None) -> None:
        """One small-print piece: a reading mark in 經, or part of the open 集說 passage."""
        text = self.text
        inner = text[open_ + 1 : body_end]
        mark = inner.replace("/", "").strip(_BLANK)
        self.kinds[open_] = _OPEN
        if close is not None:
            self.kinds[close] = _CLOSE
        if mark in _READING_MARKS and not self.passage:
            for i in range(open_ + 1, body_end):
                if text[i] == "/":
                    self.kinds[i] = _COLUMN_BREAK
                elif text[i] not in _BLANK:
                    self.kinds[i] = _READING_MARK
            return
        self.jing = None
        for i in range(open_ + 1, body_end):
            if text[i] == "/":
                self.kinds[i] = _COLUMN_BREAK
            else:
                self.passage.append(i)

    def close_passage(self) -> None:
        """Read the passage collected so far into its parts (large print or a heading ends it)."""
        if not self.passage:
            return
        offsets, self.passage = self.passage, []
        chars = "".join(self.text[i] for i in offsets)
        parts: list[tuple[str, list[int], str]] = []  # (text, offsets, kind: authority|notes|words)
        for i, char in zip(offsets, chars, strict=True):
            if char == _CIRCLE:
                self.kinds[i] = _CIRCLE_MARK
        for m in re.finditer(rf"[^{_SEPARATORS}]+", chars):
            part, at = m.group(0), offsets[m.start() : m.end()]
            if _AUTHORITY.match(part):
                kind = "authority"
            elif (parts and parts[-1][2] == "notes") or is_notes(part, alone=not parts):
                kind = "notes"
            else:
                kind = "words"
            parts.append((part, at, kind))
        # The author's words just before the notes (or at the passage's end) may end in notes
        # whose blank the e-text lost; a stray character or two may stand after them.
        last = next((n for n, p in enumerate(parts) if p[2] == "notes"), len(parts)) - 1
        stray = last == len(parts) - 1 and last > 0 and len(parts[last][0]) <= 2 and parts[last][2] == "words"
        for n in (last, last - 1) if stray else (last,):
            if n < 0 or parts[n][2] == "notes":
                continue
            part, at, kind = parts[n]
            body = _AUTHORITY.match(part)
            tail = _TRAILING_NOTES.search(part, body.end() if body else 0)
            if tail and tail.start() > 0:
                split = tail.start()
                parts[n : last + 1] = [(part[:split], at[:split], kind), (tail.group(0), at[split:], "notes")] + [
                    (p, a, "notes") for p, a, _ in parts[n + 1 : last + 1]
                ]
                break
        in_notes = False
        for part, at, kind in parts:
            authority = _AUTHORITY.match(part) if kind == "authority" else None
            if authority:
                self.words(part, at, self.attribution(at, authority.group(0)))
            elif kind == "notes":
                unit = self.state.unit if in_notes else self.state.next_unit()
                notes = Span(0, 0, Layer.COMMENTARY, unit, passage=SOUND_NOTES)
                for i in at:
                    self.kinds[i] = notes
            else:
                self.words(part, at, 0)
            in_notes = kind == "notes"

    def attribution(self, at: list[int], name: str) -> int:
        """Mark ``name`` at the first offsets of ``at`` as an attribution; the number of them."""
        attribution = Span(0, 0, Layer.COMMENTARY, self.state.next_unit(), Role.ATTRIBUTION, speaker=name)
        for i in at[: len(name)]:
            self.kinds[i] = attribution
        return len(name)

    def words(self, part: str, at: list[int], begin: int) -> None:
        """COMMENTARY from ``part[begin:]``, opening a unit at each authority named inside it."""
        words = Span(0, 0, Layer.COMMENTARY, self.state.unit if begin else self.state.next_unit())
        pos = begin
        for m in _INLINE_AUTHORITY.finditer(part, begin):
            for i in at[pos : m.start()]:
                self.kinds[i] = words
            self.attribution(at[m.start() :], m.group(0))
            words, pos = Span(0, 0, Layer.COMMENTARY, self.state.unit), m.end()
        for i in at[pos:]:
            self.kinds[i] = words

    def emit(self) -> None:
        """Runs of alike characters as spans; each marker character stays a span of its own."""
        spans, kinds = self.state.spans, self.kinds
        start = 0
        for i in range(1, len(kinds) + 1):
            if i == len(kinds) or not _same(kinds[i], kinds[start]) or kinds[start].role is Role.MARKER:
                spans.append(kinds[start].over(start, i))
                start = i


def _same(a: Span, b: Span) -> bool:
    """Two characters of one run (the same template, or alike)."""
    return a is b or a.alike(b)


__all__ = ["READER", "ChenhaoReader", "is_notes"]

READER = ChenhaoReader()
