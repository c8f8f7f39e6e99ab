"""儀禮 e-text with inline 鄭注 (Siku style): 經 lines, ``郑注`` switches, 【案…】 notes.

Each line is read on its own: file lines are the e-text's paragraphs, not printed lines,
so there are no line or page marks; indentation (U+00A0 here), line ends and blank lines
are layout. The tables below are the whole layout; the code only applies them:

1. A line matching ``HEADING`` is a heading (``卷六 乡射礼第五之二``); its named groups
   go to the metadata (``juan``, ``title``).
2. Any other line starts in ``LINE_LAYER`` (經). A ``SWITCHES`` marker, at the line start
   or inside it, is markup and switches to its layer until the line ends: the next line
   is 經 again, so ``遂实之…长受郑注长众宾长`` is 經 then 注. A marker naming the layer
   already in force is left as text.
3. ``NOTE`` (``【`` … ``】``) is an editors' note inside any layer: the brackets are
   markers, a leading ``NOTE_ATTRIBUTIONS`` word (案) is the attribution, the rest is
   ``Layer.NOTE``, one unit a note; after ``】`` the interrupted layer goes on as the same
   unit. A ``【`` left open ends at its line end, a stray ``】`` stays a marker: both are
   diagnostics and the reading goes on.
"""

from __future__ import annotations

import re

from collate.model import Diagnostic, Layer, MarkerKind, Role
from collate.model.numerals import NUMERAL
from collate.readers.base import Layout, Line, Parsed, ReadOptions, ReadState, iter_lines

HEADING = re.compile(rf"(?P<juan>卷{NUMERAL}+)[ \u3000\u00a0]+(?P<title>\S+)$")
LINE_LAYER = Layer.JING
# marker → (layer it switches to until the line ends, the marker's name)
SWITCHES: dict[str, tuple[Layer, str]] = {
    "郑注": (Layer.ZHU, "注"),
    "鄭注": (Layer.ZHU, "注"),
}
NOTE = ("【", "】")
NOTE_ATTRIBUTIONS: tuple[str, ...] = ("案",)

_EVENTS = re.compile("|".join(re.escape(m) for m in (*SWITCHES, *NOTE)))


class YiliReader(Layout):
    """Reads a 儀禮 e-text whose 注 follows ``郑注`` and whose notes are 【案…】."""

    name = "yili-inline"
    description = "儀禮 e-text: 經 lines, `郑注` switches to 注 until the line ends, 【案…】 notes"

    def detect(self, text: str) -> tuple[float, str]:
        """Scores the share of lines opening with 郑注, plus 【案 notes and NBSP indentation."""
        lines = [text[ln.body_start : ln.body_end] for ln in iter_lines(text) if ln.body_end > ln.body_start]
        if not lines:
            return 0.0, "empty"
        zhu = sum(1 for body in lines if body.startswith(tuple(SWITCHES)))
        if not zhu:
            return 0.0, "no line opens with 郑注"
        notes = text.count(NOTE[0] + NOTE_ATTRIBUTIONS[0])
        nbsp = sum(1 for ln in text.splitlines() if ln.startswith("\u00a0"))
        # In this layout about every other line is 注: a share of 0.4 counts as full.
        score = 0.7 * min(1.0, zhu / len(lines) / 0.4) + 0.15 * (notes > 0) + 0.15 * (nbsp > len(lines) / 2)
        reason = f"{zhu} of {len(lines)} lines open with 郑注; {notes} 【案…】 notes"
        return round(score, 2), reason + ("; NBSP indentation" if nbsp else "")

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Split ``text`` into 經, 注, note and heading spans, markers and layout."""
        return _Reading(text).run()


class _Reading(ReadState):
    """One read of a 儀禮 e-text, line by line."""

    def run(self) -> Parsed:
        return self.read_lines(self.line)

    def line(self, line: Line) -> None:
        start, end = line.body_start, line.body_end
        if start == end:
            return
        heading = HEADING.match(self.text, start, end)
        if heading:
            self.spans.add(start, end, Layer.HEADING, self.next_unit())
            self.metadata += [(k, v) for k, v in heading.groupdict().items() if v]
            return
        layer, unit = LINE_LAYER, self.next_unit()
        pos = start
        while pos < end:
            m = _EVENTS.search(self.text, pos, end)
            stop = m.start() if m else end
            self.spans.add(pos, stop, layer, unit)
            if m is None:
                return
            event = m.group(0)
            if event in SWITCHES:
                new_layer, name = SWITCHES[event]
                if new_layer is layer:
                    self.spans.add(m.start(), m.end(), layer, unit)
                else:
                    layer, unit = new_layer, self.next_unit()
                    self.spans.add(m.start(), m.end(), Layer.MARKUP, unit, Role.MARKER, marker=name)
                pos = m.end()
            elif event == NOTE[0]:
                pos = self.note(m.start(), end)
            else:
                self.diagnostics.append(
                    Diagnostic("unbalanced", f"{event} closes no note", m.start(), m.end())
                )
                self.spans.add(m.start(), m.end(), Layer.MARKUP, role=Role.MARKER, marker=MarkerKind.NOTE_CLOSE)
                pos = m.end()

    def note(self, start: int, end: int) -> int:
        """A 【…】 note opening at ``start``; returns where the interrupted layer resumes."""
        open_, close = NOTE
        unit = self.next_unit()
        self.spans.add(start, start + len(open_), Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.NOTE_OPEN)
        body = start + len(open_)
        closed_at = self.text.find(close, body, end)
        reopened_at = self.text.find(open_, body, end)
        if closed_at < 0 or 0 <= reopened_at < closed_at:
            body_end = reopened_at if reopened_at >= 0 else end
            where = "the next note" if reopened_at >= 0 else "the line end"
            self.diagnostics.append(
                Diagnostic("unbalanced", f"{open_} is not closed before {where}", start, body)
            )
        else:
            body_end = closed_at
        for word in NOTE_ATTRIBUTIONS:
            if self.text.startswith(word, body, body_end):
                self.spans.add(body, body + len(word), Layer.NOTE, unit, Role.ATTRIBUTION, speaker=word)
                body += len(word)
                break
        self.spans.add(body, body_end, Layer.NOTE, unit)
        if body_end != closed_at:
            return body_end
        self.spans.add(closed_at, closed_at + len(close), Layer.MARKUP, unit, Role.MARKER, marker=MarkerKind.NOTE_CLOSE)
        return closed_at + len(close)


READER = YiliReader()
