"""儀禮集說 (敖繼公): 經 lines and 集說 lines at the same indent (seed 004).

The first line is the book's title. Every other line is indented by two full-width spaces,
whatever it holds, so the layer comes from the line's opening words and its neighbours:

- ``注曰`` quotes 鄭注 (ZHU), ``疏曰`` 賈疏 (SHU), ``继公谓`` the author (COMMENTARY); each
  prefix is an attribution span. The same words inside a line switch the layer there
  (``…右手相【…】注曰谓相上工者``, ``…北上坐疏曰…``). A full-width space and ``案`` inside
  a line open a collation note (NOTE, attribution ``案``).
- A line opening with a stand-in character and ``曰`` (``防曰…``: the e-text lost the
  source's name) quotes a source we cannot name: COMMENTARY, with a warning.
- ``右…`` closes a section (HEADING). ``【…反】``/``【…音…】`` are 陸德明's glosses (SHIWEN).
- An unprefixed line is 經 or the author's own 集說. The book alternates: a 經 line, then
  the commentary on it, then the next 經 line. So an unprefixed line after a 經 line is
  集說, and one after commentary, a heading or the title is 經, unless its words say
  otherwise clearly: commentary is full of particles and glossing words (也 者 谓 言 此
  亦 盖 耳 矣 …), the 儀禮 of the rite of words of motion and vessels (拜 爵 升 降 坐 兴
  阶 觯 …). ``_lean`` measures that; past ``_OVERRIDE`` it overrides the alternation
  (``自此以后其经文有与燕礼同者则不重释之`` after a heading is 集說; the 經 line
  ``主人辞洗賔坐奠觚于篚兴对…`` after a 經 line that ends in commentary is 經).
- Text after a gloss on a 經 line is the author's comment (``…升即席【辟音避】凡受公礼者…``).

Known limit: a line holding 經 and then 集說 with nothing between them is read as one layer
(經); when it ends in a final particle (也 耳 矣 …) the next line is still taken for 經.
"""

from __future__ import annotations

import re

from collate.model import Diagnostic, HeadingKind, Layer, Role
from collate.readers.base import (
    Layout,
    Parsed,
    ReadOptions,
    SpanList,
    bracket_diagnostics,
    iter_lines,
    text_glyph_diagnostics,
)

_HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ue000-\uf8ff"

# Prefixes that name who speaks, simplified and traditional forms.
_SPEAKERS = {
    "注曰": Layer.ZHU,
    "註曰": Layer.ZHU,
    "疏曰": Layer.SHU,
    "继公谓": Layer.COMMENTARY,
    "繼公謂": Layer.COMMENTARY,
}
_SPEAKER = re.compile("|".join(_SPEAKERS))
# Inside a line: a speaker, a gloss, or a full-width space before the editors' 案.
_INLINE = re.compile(rf"(?P<speaker>{_SPEAKER.pattern})|(?P<gloss>【)|(?P<note>\u3000案)")
_GLOSS_END = re.compile(r"】")
_SECTION_END = re.compile(rf"右[{_HAN}]{{1,16}}")
# 防 is the character Siku e-texts put for glyphs they could not encode (DOMAIN.md); a line
# opening with it (or a placeholder) and 曰 quotes a source whose name was lost.
_UNNAMED_SOURCE = re.compile(r"[防?□■〓\ue000-\uf8ff]曰")

# Characters that lean a line towards commentary or towards the rite's text; see the
# module docstring. Both scripts, since other prints of the book are traditional.
_GLOSSING = frozenset("也者谓謂言云盖蓋亦此故当當经經乃耳矣犹猶则則所以然与與焉文")
_RITE = frozenset("拜爵升降坐兴興阶階觯觶觚賔宾賓荅答奠洗面席酌受祭卒")
# Sentence-final particles: the 儀禮 of the rite does not end a paragraph with them.
_FINAL_PARTICLES = frozenset("也耳矣焉乎哉与與")
# On seed 004 the lean of 經 lines stays below 0.26 and of 集說 lines above -0.01;
# 0.3 overrides the alternation only where the words leave no doubt.
_OVERRIDE = 0.3


def _lean(body: str) -> float:
    """Towards commentary (> 0) or the rite's text (< 0): the balance of telling characters."""
    words = re.sub(r"【[^】]*】?", "", body)
    if not words:
        return 0.0
    glossing = sum(ch in _GLOSSING for ch in words)
    rite = sum(ch in _RITE for ch in words)
    return (glossing - rite) / len(words)


def classify_unprefixed(body: str, after_jing: bool) -> Layer:
    """經 or 集說 for a line without a speaker prefix; ``after_jing``: the line before ended in 經."""
    lean = _lean(body)
    if after_jing:
        return Layer.JING if lean <= -_OVERRIDE else Layer.COMMENTARY
    return Layer.COMMENTARY if lean >= _OVERRIDE else Layer.JING


class JishuoReader(Layout):
    """Reads 儀禮集說 e-texts: same-indent 經 and 集說 lines, 注曰/疏曰/继公谓 prefixes."""

    name = "jishuo"
    description = "儀禮集說: 經 and 集說 at one indent; 注曰/疏曰/继公谓 lines; 【…反】 glosses; 右… ends"

    def detect(self, text: str) -> tuple[float, str]:
        """Most lines indented by full-width spaces, several opening with 注曰/继公谓/疏曰."""
        lines = [ln for ln in iter_lines(text) if ln.body_end > ln.body_start]
        if not lines:
            return 0.0, "empty"
        indented = sum(text[ln.start : ln.body_start] == "\u3000\u3000" for ln in lines) / len(lines)
        speakers = sum(bool(_SPEAKER.match(text, ln.body_start)) for ln in lines)
        if indented < 0.7 or speakers < 2:
            return 0.0, "no same-indent lines opening with 注曰/疏曰/继公谓"
        glosses = len(re.findall(r"【[^】\n]{1,40}反】", text))
        score = 0.85 + (0.05 if glosses else 0.0)
        return (
            score,
            f"{speakers} lines open with 注曰/疏曰/继公谓 at the common indent, {glosses} 【…反】 glosses",
        )

    def read(self, text: str, options: ReadOptions) -> Parsed:
        """Line by line: a heading, a prefixed quotation, or 經/集說 by position and wording."""
        spans = SpanList()
        diagnostics: list[Diagnostic] = []
        metadata: list[tuple[str, str]] = []
        unit = 0
        after_jing = False
        seen_content = False
        for line in iter_lines(text):
            spans.layout(line.start, line.body_start)
            start, end = line.body_start, line.body_end
            body = text[start:end]
            if not body:
                spans.layout(line.body_end, line.end)
                continue
            unit += 1
            diagnostics.extend(bracket_diagnostics(text, start, end, {"【": "】"}))
            if not seen_content and line.body_start == line.start and "【" not in body:
                spans.add(start, end, Layer.HEADING, unit, heading=HeadingKind.TITLE)
                metadata.append(("title", body))
                after_jing = False
            elif _SECTION_END.fullmatch(body):
                spans.add(start, end, Layer.HEADING, unit, heading=HeadingKind.SECTION_END)
                after_jing = False
            else:
                layer, pos = self._opening(text, start, end, after_jing, spans, diagnostics, unit)
                layer, unit = _read_rest(text, pos, end, layer, spans, unit)
                # A 經 line ending in a final particle ends in the author's comment run on
                # without a break (``…奠于中庭此中庭者…同以当辟也``): 經 comes next.
                after_jing = layer is Layer.JING and text[end - 1] not in _FINAL_PARTICLES
            seen_content = True
            spans.layout(end, line.end)
        frozen = spans.freeze()
        diagnostics += text_glyph_diagnostics(text, frozen)
        diagnostics.sort(key=lambda d: d.start)
        return Parsed(spans=frozen, diagnostics=tuple(diagnostics), metadata=tuple(metadata))

    @staticmethod
    def _opening(
        text: str,
        start: int,
        end: int,
        after_jing: bool,
        spans: SpanList,
        diagnostics: list[Diagnostic],
        unit: int,
    ) -> tuple[Layer, int]:
        """The layer a line opens in, with its attribution span added; returns (layer, position)."""
        speaker = _SPEAKER.match(text, start, end)
        if speaker:
            layer = _SPEAKERS[speaker.group(0)]
            spans.add(start, speaker.end(), layer, unit, Role.ATTRIBUTION, speaker=speaker.group(0))
            return layer, speaker.end()
        unnamed = _UNNAMED_SOURCE.match(text, start, end)
        if unnamed:
            spans.add(start, unnamed.end(), Layer.COMMENTARY, unit, Role.ATTRIBUTION, speaker=unnamed.group(0))
            message = f"{unnamed.group(0)} quotes a source under a name the e-text garbled; read as 集說"
            diagnostics.append(Diagnostic("unknown-attribution", message, start, unnamed.end()))
            return Layer.COMMENTARY, unnamed.end()
        return classify_unprefixed(text[start:end], after_jing), start


def _read_rest(text: str, pos: int, end: int, layer: Layer, spans: SpanList, unit: int) -> tuple[Layer, int]:
    """The rest of a line from ``pos``: text, glosses and inline layer switches.

    Returns the layer the line ends in and the last unit number used.
    """
    while pos < end:
        m = _INLINE.search(text, pos, end)
        stop = m.start() if m else end
        spans.add(pos, stop, layer, unit)
        if m is None:
            break
        unit += 1
        if m.group("speaker"):
            layer = _SPEAKERS[m.group("speaker")]
            spans.add(m.start(), m.end(), layer, unit, Role.ATTRIBUTION, speaker=m.group("speaker"))
            pos = m.end()
        elif m.group("note"):
            spans.layout(m.start(), m.start() + 1)
            layer = Layer.NOTE
            spans.add(m.start() + 1, m.end(), layer, unit, Role.ATTRIBUTION, speaker="案")
            pos = m.end()
        else:
            spans.add(m.start(), m.end(), Layer.MARKUP, unit, Role.MARKER, marker="【")
            close = _GLOSS_END.search(text, m.end(), end)
            inner_end = close.start() if close else end
            spans.add(m.end(), inner_end, Layer.SHIWEN, unit)
            pos = inner_end
            if close:
                spans.add(close.start(), close.end(), Layer.MARKUP, unit, Role.MARKER, marker="】")
                pos = close.end()
            # After a gloss a 經 line goes on with the author's comment, unless a
            # speaker or another gloss follows at once.
            if layer is Layer.JING and pos < end and not _INLINE.match(text, pos, end):
                layer = Layer.COMMENTARY
            unit += 1
    return layer, unit


__all__ = ["READER", "classify_unprefixed"]

READER = JishuoReader()
