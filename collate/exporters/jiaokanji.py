"""The 校勘記: one line per substantive variant, in the traditional form editors print.

``頁2a行5　「哨」，大戴禮作「峭」。蕙田案：王肅云枉不直哨不正與鄭小異今本大戴禮乃作峭謬甚。``

Each entry gives the base's printed page and line, the lemma in 「」, each witness's reading
by its Chinese siglum (作 reads, 無…字 lacks, 「X」下有…字 has after X), then the editorial
notes attached to the place. A 通假 reading (罷 for 疲) is an entry marked （通假）.
Orthographic variants, taboo forms, placeholders and text a witness does not contain are not
entries (they are in the TEI). Nothing is converted for display: the base's words (the
lemma, the anchor of an addition, the notes) are printed in the base's own characters — a
simplified base as it is, since a conversion would print characters it does not have (闢 for
辟, 於 for 于) — and each witness's reading as that witness writes it. Readings are compared
with the lemma on the tokens' keys, as the normalizer made them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass, WitnessReading
from collate.files import write_atomic
from collate.model import Layer, SourceLocation, Witness

if TYPE_CHECKING:
    from collate.exporters import ExportInput
    from collate.notes.records import AttachedNote

# The classes an editor must judge; the others stay in the TEI and JSON.
SUBSTANTIVE = frozenset(
    {
        ReadingClass.SUBSTANTIVE,
        ReadingClass.TRANSPOSITION,
        ReadingClass.OMISSION,
        ReadingClass.ADDITION,
        ReadingClass.SCRIBAL_ERROR,
        ReadingClass.LOAN,
    }
)

# How a note is introduced, by who speaks (the notes stage gives the name as printed).
_NOTE_LABELS = {"秦蕙田": "蕙田案", "蕙田": "蕙田案", "四庫館臣": "案", "四库馆臣": "案"}
_NUMERALS = "〇一二三四五六七八九十"
_CLOSING = "。！？」』"
# A placeholder's key stands for a glyph the e-text lacks: one unknown character.
_UNKNOWN = "\ufffc"


def _keys(reading: WitnessReading, norm: str) -> str:
    """A reading's comparison keys, one a character (never shown).

    From its tokens' keys; a derived reading (no tokens) has the normalizer's ``norm``.
    """
    if not reading.tokens:
        return norm
    return "".join(t.n if len(t.n) == 1 and not t.is_placeholder else _UNKNOWN for t in reading.tokens)


def _count(n: int) -> str:
    """A number in Chinese numerals as counts are printed: 二, 十二, 二十, 一百五, 三百十二, 一萬〇五十."""
    if n < 10:
        return _NUMERALS[n]
    for value, unit in ((100_000_000, "億"), (10_000, "萬")):
        if n >= value:
            high, low = divmod(n, value)
            tail = _count(low) if low else ""
            if tail.startswith("十"):  # 一十 inside a number (一萬〇一十), 十 only at its head
                tail = "一" + tail
            rest = ("〇" if low and low < value // 10 else "") + tail
            return _count(high) + unit + rest
    out = ""
    for value, unit in ((1000, "千"), (100, "百"), (10, "十")):
        digit, n = divmod(n, value)
        if digit:
            out += ("" if (unit == "十" and digit == 1 and not out) else _NUMERALS[digit]) + unit
        elif out and n:
            out += "" if out.endswith("〇") else "〇"
    return out + (_NUMERALS[n] if n else "")


# Longer passages are cited by their first and last words, as 校勘記 do: 「A」至「B」凡N字.
_LONG = 12
_ENDS = 4


def _quote(text: str) -> str:
    """「text」, or 「first」至「last」 for a long passage."""
    if len(text) <= _LONG:
        return f"「{text}」"
    return f"「{text[:_ENDS]}」至「{text[-_ENDS:]}」"


def _chars(text: str) -> str:
    """``「X」字`` with the count when more than one: 「固」字, 「奏投壺之令」五字, 「A」至「B」凡三百字."""
    if len(text) == 1:
        return f"「{text}」字"
    if len(text) > _LONG:
        return f"{_quote(text)}凡{_count(len(text))}字"
    return f"「{text}」{_count(len(text))}字"


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the 校勘記 before its notes, and where it sorts (the base's file position)."""

    line: int
    column: int
    text: str
    notes: tuple[AttachedNote, ...] = ()


class _Writer:
    def __init__(self, collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> None:
        self.collation = collation
        self.witnesses = witnesses or {}
        self.labels = {w.siglum: w.label for w in collation.witnesses}
        self.order = {w.siglum: i for i, w in enumerate(collation.witnesses)}
        base_text = "".join(t.t for r in collation.layers for t in r.alignment.base.tokens)
        from collate.exporters.tei import script_of

        self.simplified = bool(base_text) and script_of(base_text) == "Hans"

    def anchor(self, result: LayerResult, locus: Locus) -> tuple[str, str]:
        """The base characters just before and just after a point where a witness adds text."""
        stream = result.alignment.base.tokens
        before = "".join(t.t for t in stream[max(0, locus.base_start - 2) : locus.base_start])
        after = "".join(t.t for t in stream[locus.base_end : locus.base_end + 2])
        return before, after

    def describe(self, result: LayerResult, locus: Locus, reading: Reading) -> tuple[str, bool]:
        """What the reading's witnesses have, and whether it needs the lemma shown before it."""
        sigla = sorted(reading.sigla, key=lambda s: self.order.get(s, len(self.order)))
        who = "、".join(self.labels.get(s, s) for s in sigla)
        both = "並" if len(reading.sigla) > 1 else ""
        lemma, text = locus.lemma.text, reading.text
        lf, rf = _keys(locus.lemma, locus.lemma.norm), _keys(reading.witnesses[0], reading.norm)
        if reading.cls is ReadingClass.TRANSPOSITION:
            same = _keys(reading.witnesses[0], reading.norm) == lf
            if same or len(lemma) > _LONG:
                # A passage the witness has at another place: where it stands is the reading
                # (quoted by its ends, a long one would read the same as the lemma).
                at = {w.siglum: w.location for w in reading.witnesses}
                where = "、".join(f"{self.labels.get(x, x)}在其{_place(at.get(x))}" for x in sigla)
                differs = "" if same else "，文有異同"
                return f"{who}{both}有此{_quote(lemma)}，{where}{differs}（次第不同）", False
            return f"{who}{both}作{_quote(text)}（倒文）", True
        if reading.cls is ReadingClass.LOAN:
            return f"{who}{both}作{_quote(text)}（通假）", True
        if not text:
            return f"{who}{both}無{_chars(lemma)}", False
        if not lemma:
            before, after = self.anchor(result, locus)
            if before:
                return f"{who}「{before}」下{both}有{_chars(text)}", False
            if after:
                return f"{who}「{after}」上{both}有{_chars(text)}", False
            return f"{who}{both}有{_chars(text)}", False
        if len(rf) > len(lf) and rf.startswith(lf):
            return f"{who}「{lemma}」下{both}有{_chars(text[len(lemma) :])}", False
        if len(rf) > len(lf) and rf.endswith(lf):
            return f"{who}「{lemma}」上{both}有{_chars(text[: len(text) - len(lemma)])}", False
        if len(lf) > len(rf) and (lf.startswith(rf) or lf.endswith(rf)):
            missing = lemma[len(text) :] if lf.startswith(rf) else lemma[: len(lemma) - len(text)]
            return f"{who}{both}無{_chars(missing)}", False
        return f"{who}{both}作{_quote(text)}", True

    def label(self, note: AttachedNote) -> str:
        return _NOTE_LABELS.get(note.resp, f"{note.resp}曰" if note.resp else "案")

    def note(self, note: AttachedNote) -> str:
        """The note in full, once; later entries it also judges say 「蕙田案見上」."""
        label = self.label(note)
        text = note.text.strip()
        return f"{label}：{text}" + ("" if text.endswith(tuple(_CLOSING)) else "。")

    def entry(self, result: LayerResult, locus: Locus) -> Entry | None:
        readings = [r for r in locus.readings if r.cls in SUBSTANTIVE]
        if not readings:
            return None
        parts = [self.describe(result, locus, r) for r in readings]
        where = _place(locus.lemma.location)
        layer = "" if locus.layer is Layer.JING else f"〔{locus.layer.chinese}〕"
        head = f"{layer}{_quote(locus.lemma.text)}，" if any(needs for _, needs in parts) else layer
        words = "，".join(text for text, _ in parts) + "。"
        sources = [r.source for r in readings if r.derived and r.source]
        if sources and not locus.notes:
            words = words[:-1] + "".join(f"（據{_plain(s)}）" for s in dict.fromkeys(sources)) + "。"
        words += self.decision(locus)
        loc = locus.lemma.location
        return Entry(loc.line if loc else 1 << 30, loc.column if loc else 0, f"{where}　{head}{words}", locus.notes)

    def lacunae(self) -> list[Entry]:
        """An entry for each stretch of the base on pages a witness's print has lost (缺頁), at its start.

        The base's place needs the base witness as read; without it (a collation alone) none is written.
        """
        base = self.witnesses.get(self.collation.base)
        if base is None:
            return []
        out = []
        for result in self.collation.layers:
            layer = "" if result.layer is Layer.JING else f"〔{result.layer.chinese}〕"
            for siglum in result.alignment.sigla[1:]:
                for a, b in result.alignment.extent(siglum).lacunae:
                    tokens = result.alignment.base.within(a, b)
                    if not tokens:
                        continue
                    loc = base.locate(tokens[0].start)
                    text = "".join(t.t for t in tokens)
                    words = f"{layer}{self.labels.get(siglum, siglum)}原書缺頁，無{_chars(text)}。"
                    out.append(Entry(loc.line, loc.column, f"{_place(loc)}　{words}", ()))
        return out

    def decision(self, locus: Locus) -> str:
        """The editor's decision in the words of a 校勘記: 今從…改作…, 今仍底本, 存疑."""
        d = locus.decision
        if d is None:
            return ""
        adopted = locus.editor_lemma()
        if adopted is not None:
            who = self.labels.get(d.siglum or "", d.siglum or "")
            lemma, text = locus.lemma.text, adopted.text
            if not text:
                words = f"今從{who}刪{_chars(lemma)}。"
            elif not lemma:
                words = f"今從{who}補{_chars(text)}。"
            else:
                words = f"今從{who}改作{_quote(text)}。"
        elif d.doubtful:
            words = "存疑。"
        else:
            words = "今仍底本。"
        if d.comment:
            words += f"（{'、'.join(d.resp)}：{d.comment}）"
        return words

    def entries(self) -> list[str]:
        """The entry lines in base order; a note judging several places is quoted at the first."""
        found = [e for r in self.collation.layers for locus in r.loci if (e := self.entry(r, locus)) is not None]
        found += self.lacunae()
        quoted: set[str] = set()
        lines = []
        for e in sorted(found, key=lambda e: (e.line, e.column)):
            notes = []
            for n in e.notes:
                notes.append(f"（{self.label(n)}見上）" if n.id in quoted else self.note(n))
                quoted.add(n.id)
            lines.append(e.text + "".join(notes))
        return lines

    def header(self, count: int) -> list[str]:
        c = self.collation
        others = [w for w in c.witnesses if w.siglum != c.base]
        base = self.labels.get(c.base, c.base)
        listed = "、".join(f"{w.label}（{w.siglum}{'，據案語所引' if w.sparse else ''}）" for w in others)
        lines = [f"{c.title}　校勘記", f"底本：{base}（{c.base}）。校本：{listed or '無'}。"]
        if self.simplified:
            lines.append("底本為簡體字本：出文、案語照錄底本原字，不轉繁體；校本異文照錄原字。")
        listed = "只錄實質異文（異文、脫文、衍文、倒文）及通假"
        lines.append(f"凡{count}條。{listed}；異體字、避諱字、數字化占位符見 TEI 本。")
        return lines


def _plain(source: str) -> str:
    """A source such as ``蕙田案（五禮通考卷165 頁3a）`` without nested brackets."""
    return source.replace("（", "，").replace("）", "")


def _place(location: SourceLocation | None) -> str:
    """``頁2a行5`` from the base's printed page and line; the file line when pages are unknown."""
    if location is None:
        return "（無頁行）"
    if location.page is None:
        return f"第{location.line}行"
    return f"頁{location.page}" + (f"行{location.page_line}" if location.page_line else "")


def build_jiaokanji(collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> str:
    """The 校勘記 of a collation as text: a header, a blank line, one entry a line.

    With ``witnesses`` (as read, by siglum), the pages a witness's print has lost are noted too.
    """
    writer = _Writer(collation, witnesses)
    entries = writer.entries()
    return "\n".join([*writer.header(len(entries)), "", *entries]) + "\n"


def entries(collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> Sequence[str]:
    """Just the entry lines, in base order."""
    return _Writer(collation, witnesses).entries()


class JiaokanjiExporter:
    """The registry's handle on this format."""

    name = "jiaokanji"
    suffix = ".jiaokanji.txt"
    description = "校勘記: one line per substantive variant, with page/line, sigla and editorial notes"

    def write(self, data: ExportInput, path: Path) -> None:
        """Write the 校勘記 of the collation to ``path`` atomically."""
        write_atomic(path, build_jiaokanji(data.collation, data.witnesses))


EXPORTER = JiaokanjiExporter()
