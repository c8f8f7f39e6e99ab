"""The 校勘記: one line per substantive variant, in the traditional form editors print.

``頁2b行5　「哨」，大戴禮作「峭」。蕙田案：王肃云枉不直哨不正与郑小异今本大戴礼乃作峭谬甚。``

Each entry gives the base's printed page and line, the lemma in 「」, each witness's reading
by its Chinese siglum (作 reads, 無…字 lacks, 「X」下有…字 has after X) with the witness's own
page and line where its print has them (``纂圖本（頁020-8b行3）作「體」``), then the editorial
notes attached to the place. A 通假 reading (罷 for 疲) is an entry marked （通假）, a graphic
confusion (己 for 已, 日 for 曰) one marked （形近）. Witnesses
share one clause (``並作``) only where they print the same characters: a reading compared
equal (賔對, 賓對) is still written by each witness in its own glyphs.

Orthographic variants, taboo forms, placeholders, text a witness does not contain and text
the base does not contain (beyond a fragmentary base) are not entries (they are in the TEI).
Nothing is converted for display: the base's words (the lemma, the anchor of an addition, the
notes) are printed in the base's own characters — a simplified base as it is, since a
conversion would print characters it does not have (闢 for 辟, 於 for 于, 註 for 注) — and each
witness's reading as that witness writes it. Readings are compared with the lemma on the
tokens' keys, as the normalizer made them. The wording itself (numerals, quotations, places)
is :mod:`collate.exporters.jiaokanji.words`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass, WitnessReading
from collate.exporters.jiaokanji.words import (
    LONG,
    chars,
    count,
    lacuna_words,
    lost_pages,
    place,
    plain,
    printed_place,
    quote,
)
from collate.files import write_atomic
from collate.model import Cause, Layer, MarkKind, SourceLocation, Witness, blank_width
from collate.model.inert import inert

if TYPE_CHECKING:
    from collate.model.annotations import AttachedNote, EditorDecision
    from collate.results import ExportInput

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

# Characters of a quoted passage that name it in its heading.
PASSAGE_OPENING = 8
# A score's readings, listed apart under this heading.
NOTATION = frozenset({ReadingClass.NOTATION})
SCORES = "樂譜異同"

# How a note is introduced, by who speaks (the notes stage gives the name as printed).
_NOTE_LABELS = {"秦蕙田": "蕙田案", "蕙田": "蕙田案", "四庫館臣": "案", "四库馆臣": "案"}
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


def _part(reading: WitnessReading, start: int, end: int | None = None) -> str:
    """The witness's own characters of keys ``[start, end)`` of its reading.

    By tokens, whose keys are one a character; a derived reading (no tokens) by its text.
    """
    if reading.tokens:
        return "".join(t.t for t in reading.tokens[start:end])
    return reading.text[start:end]


@dataclass(frozen=True, slots=True)
class _Clause:
    """What some witnesses have, in words: ``{names}{before}{並}{after}``.

    ``before``/``after`` hold the only characters printed of the witnesses, so witnesses with
    equal clauses print the same glyphs and may share one. ``lemma`` says the lemma must be
    shown first (a reading replacing it). A passage a witness has at another place says where
    (``注疏本在其頁062-4a行6``): ``at`` is that place, and ``tail`` follows the places.
    """

    before: str
    after: str
    lemma: bool
    tail: str = ""
    moved: bool = False
    # Where each witness has a moved passage is its own: witnesses differing only there share the clause.
    at: SourceLocation | None = field(default=None, compare=False)


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
        # Labels may come from file names: a control character in one (a newline) is shown as its
        # escape, never let split an entry.
        self.labels = {w.siglum: inert(w.label, keep="") for w in collation.witnesses}
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

    def clause(self, result: LayerResult, locus: Locus, reading: Reading, own: WitnessReading) -> _Clause:
        """The words for what one witness (``own``, of ``reading``) has, in its own characters."""
        lemma, text = locus.lemma.text, own.text
        lf, rf = _keys(locus.lemma, locus.lemma.norm), _keys(own, reading.norm)
        if reading.cls is ReadingClass.TRANSPOSITION:
            if rf == lf or len(lemma) > LONG:
                # A passage the witness has at another place: where it stands is the reading
                # (quoted by its ends, a long one would read the same as the lemma).
                differs = "" if rf == lf else "，文有異同"
                tail = f"{differs}（次第不同）"
                return _Clause("", f"有此{quote(lemma)}", False, tail=tail, moved=True, at=own.location)
            return _Clause("", f"作{quote(text)}（倒文）", True)
        if reading.cls is ReadingClass.LOAN:
            return _Clause("", f"作{quote(text)}（通假）", True)
        if reading.cause == Cause.LOOKALIKE and len(lemma) == len(text):
            # A graphic confusion (己/已, 曰/日): which side erred is the editor's to say.
            return _Clause("", f"作{quote(text)}（形近）", True)
        if not text:
            return _Clause("", f"無{chars(lemma)}", False)
        if not lemma:
            before, after = self.anchor(result, locus)
            if before:
                return _Clause(f"「{before}」下", f"有{chars(text)}", False)
            if after:
                return _Clause(f"「{after}」上", f"有{chars(text)}", False)
            return _Clause("", f"有{chars(text)}", False)
        if len(rf) > len(lf) and rf.startswith(lf):
            return _Clause(f"「{lemma}」下", f"有{chars(_part(own, len(lf)))}", False)
        if len(rf) > len(lf) and rf.endswith(lf):
            return _Clause(f"「{lemma}」上", f"有{chars(_part(own, 0, len(rf) - len(lf)))}", False)
        if len(lf) > len(rf) and (lf.startswith(rf) or lf.endswith(rf)):
            missing = _part(locus.lemma, len(rf)) if lf.startswith(rf) else _part(locus.lemma, 0, len(lf) - len(rf))
            return _Clause("", f"無{chars(missing)}", False)
        return _Clause("", f"作{quote(text)}", True)

    def describe(self, result: LayerResult, locus: Locus, reading: Reading) -> list[tuple[str, bool]]:
        """What the reading's witnesses have: one clause for each set that prints the same characters.

        The reading groups witnesses by their keys, so 賔對 and 賓對 are one reading; but each
        witness's glyphs are its own, so they share a clause (and 並) only where the words,
        glyphs and all, are the same. Each name carries the witness's printed place.
        """
        witnesses = sorted(reading.witnesses, key=lambda w: self.order.get(w.siglum, len(self.order)))
        groups: dict[_Clause, list[tuple[WitnessReading, _Clause]]] = {}
        for own in witnesses:
            clause = self.clause(result, locus, reading, own)
            groups.setdefault(clause, []).append((own, clause))
        out = []
        for group in groups.values():
            first = group[0][1]
            both = "並" if len(group) > 1 else ""
            if first.moved:
                # The place is in the words (在其頁…): the names need none.
                names = "、".join(self.label_of(own) for own, _ in group)
                places = "、".join(f"{self.label_of(own)}在其{place(c.at)}" for own, c in group)
                out.append((f"{names}{both}{first.after}，{places}{first.tail}", first.lemma))
                continue
            names = "、".join(self.label_of(own) + printed_place(own.location) for own, _ in group)
            out.append((f"{names}{first.before}{both}{first.after}{first.tail}", first.lemma))
        return out

    def label_of(self, reading: WitnessReading) -> str:
        """The witness's Chinese siglum (its label), else its siglum."""
        return self.labels.get(reading.siglum, reading.siglum)

    def label(self, note: AttachedNote) -> str:
        return _NOTE_LABELS.get(note.resp, f"{note.resp}曰" if note.resp else "案")

    def note(self, note: AttachedNote) -> str:
        """The note in full, once, in its own characters; later entries it also judges say 「蕙田案見上」."""
        label = self.label(note)
        text = note.text.strip()
        return f"{label}：{text}" + ("" if text.endswith(tuple(_CLOSING)) else "。")

    def entry(self, result: LayerResult, locus: Locus, classes: frozenset[ReadingClass] = SUBSTANTIVE) -> Entry | None:
        # Its variants only: where the base is not extant (beyond a fragmentary base, a passage a
        # quoting base skips) the witnesses' text is no addition, and not an entry.
        readings = [r for r in locus.variants() if r.cls in classes]
        if not readings:
            return None
        parts = [part for r in readings for part in self.describe(result, locus, r)]
        where = place(locus.lemma.location)
        layer = "" if locus.layer is Layer.JING else f"〔{locus.layer.chinese}〕"
        head = f"{layer}{quote(locus.lemma.text)}，" if any(needs for _, needs in parts) else layer
        words = "，".join(text for text, _ in parts) + "。"
        sources = [r.source for r in readings if r.derived and r.source]
        if sources and not locus.notes:
            words = words[:-1] + "".join(f"（據{plain(s)}）" for s in dict.fromkeys(sources)) + "。"
        words += self.decision(locus)
        loc = locus.lemma.location
        return Entry(loc.line if loc else 1 << 30, loc.column if loc else 0, f"{where}　{head}{words}", locus.notes)

    def lacunae(self) -> list[Entry]:
        """An entry for each stretch of the base on pages a witness's print has lost (缺頁), at its start.

        The base's place needs the base witness as read; without it (a collation alone) none is
        written. Where the witness as read says which pages it lost (its lacuna mark), so does
        the entry.
        """
        base = self.witnesses.get(self.collation.base)
        if base is None:
            return []
        out = []
        for result in self.collation.layers:
            layer = "" if result.layer is Layer.JING else f"〔{result.layer.chinese}〕"
            for j, siglum in enumerate(result.alignment.sigla[1:], 1):
                for a, b in result.alignment.extent(siglum).lacunae:
                    tokens = result.alignment.base.within(a, b)
                    if not tokens:
                        continue
                    loc = base.locate(tokens[0].start)
                    marks = self.lost(result, j, a, b)
                    labels = [label for label, _ in marks]
                    said = [p for label in labels if (p := lost_pages(label))]
                    pages = f"（{'；'.join(said)}）" if said else ""
                    what = lacuna_words(labels, "".join(t.t for t in tokens))
                    # A glyph lost inside a line: the witness's own page and line, as for a reading.
                    own = self.witnesses.get(siglum)
                    inline = own is not None and marks and all(blank_width(label) is not None for label in labels)
                    where = printed_place(own.locate(marks[0][1])) if inline and own is not None else ""
                    text = f"{layer}{self.labels.get(siglum, siglum)}{where}{what}"
                    out.append(Entry(loc.line, loc.column, f"{place(loc)}　{text}{pages}。", ()))
        return out

    def lost(self, result: LayerResult, j: int, start: int, end: int) -> list[tuple[str, int]]:
        """The labels and offsets of witness ``j``'s lacuna marks where it has no text in columns [start, end)."""
        witness = self.witnesses.get(result.alignment.sigla[j])
        if witness is None:
            return []
        own = result.alignment.index(j)
        before, after = own.before(start), own.after(end)
        lo = before[0].end if before else 0
        hi = after[0].start if after else len(witness.text)
        return [(m.label, m.offset) for m in witness.marks if m.kind is MarkKind.LACUNA and lo <= m.offset <= hi]

    def decision(self, locus: Locus) -> str:
        """The editor's decision in the words of a 校勘記: 今從…改作…, 今仍底本, 存疑."""
        d = locus.decision
        if d is None:
            return ""
        adopted = locus.editor_lemma()
        if adopted is not None:
            who = self.labels.get(d.siglum or "", d.siglum or "")
            # The chosen witness's own characters: the reading may group other glyphs (賔/賓).
            chosen = next((w for w in adopted.witnesses if w.siglum == d.siglum), None)
            lemma, text = locus.lemma.text, chosen.text if chosen is not None else adopted.text
            if not text:
                words = f"今從{who}刪{chars(lemma)}。"
            elif not lemma:
                words = f"今從{who}補{chars(text)}。"
            else:
                words = f"今從{who}改作{quote(text)}。"
        elif d.doubtful:
            words = "存疑。"
        else:
            words = "今仍底本。"
        return words + _comment(d)

    def entries(self) -> list[str]:
        """The entry lines in base order; a note judging several places is quoted at the first.

        A score's signs read otherwise (○□ of the 投壺 drum scores) are no reading of the words:
        their entries follow the others, under a heading of their own.
        """
        found = [e for r in self.collation.layers for locus in r.loci if (e := self.entry(r, locus)) is not None]
        found += self.lacunae()
        scores = [
            e for r in self.collation.layers for locus in r.loci if (e := self.entry(r, locus, NOTATION)) is not None
        ]
        lines = self.lines(found, self.passages())
        if scores:
            lines += [f"{SCORES}（{count(len(scores))}條）", *self.lines(scores)]
        return lines

    def passages(self) -> list[Entry]:
        """A heading per passage a compilation base quotes (《禮記·射義》「射者仁之道也」), at its start.

        A compilation's 校勘記 is read passage by passage, as an editor heads each: the work and
        chapter, then the passage's first words. A base that quotes no titled work has none.
        """
        from collate.align.holdings import articles, opening_words
        from collate.compilation import work_title

        base = self.witnesses.get(self.collation.base)
        if base is None:
            return []
        out = []
        for a in articles(base):
            opening = opening_words(base, a, PASSAGE_OPENING, (Layer.JING,))
            loc = base.locate(a.start)
            text = inert(f"《{work_title(a.title)}》" + (f"「{opening}」" if opening else ""), keep="")
            out.append(Entry(loc.line, loc.column, text))
        return out

    def lines(self, found: list[Entry], passages: Sequence[Entry] = ()) -> list[str]:
        """Entries as lines in base order; a note judging several places is quoted at the first.

        ``passages``: headings (:meth:`passages`), each written before the first entry of its passage.
        """
        quoted: set[str] = set()
        lines = []
        heads = sorted(passages, key=lambda e: (e.line, e.column))
        h = 0
        for e in sorted(found, key=lambda e: (e.line, e.column)):
            # The passage the entry is in: the last heading at or before it, written once.
            at = None
            while h < len(heads) and (heads[h].line, heads[h].column) <= (e.line, e.column):
                at, h = heads[h], h + 1
            if at is not None:
                lines.append(at.text)
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
        listed = f"只錄實質異文（異文、脫文、衍文、倒文）及通假，樂譜之異另列於後（{SCORES}）"
        lines.append(f"凡{count}條。{listed}；異體字、避諱字、數字化占位符見 TEI 本。")
        lines.extend(self.habits())
        return lines

    def habits(self) -> list[str]:
        """One 通例 line per print habit the collation shows, as an editor says it once: 凡「讓」皆作「譲」."""
        lines = []
        for h in self.collation.habits:
            if not h.applied:
                continue
            label = self.labels.get(h.siglum, h.siglum)
            # With exceptions a print "mostly" writes so (多作), and the exceptions are counted.
            how, rest = ("多作", f"；{count(h.agrees)}處仍作「{h.base}」") if h.agrees else ("皆作", "")
            lines.append(f"通例：{label}凡「{h.base}」{how}「{h.written}」（{count(h.places)}見{rest}），下不出校。")
        return lines


def _comment(decision: EditorDecision) -> str:
    """The editor's reasons after the decision, under the name the decisions file records.

    That name is the one the project declares (``[review] editor``), which ``collate review``
    records with each decision; a decision recorded with no name gives the reasons alone.
    """
    if not decision.comment:
        return ""
    who = "、".join(decision.resp)
    return f"（{who}：{decision.comment}）" if who else f"（{decision.comment}）"


def build_jiaokanji(collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> str:
    """The 校勘記 of a collation as text: a header, a blank line, one entry a line.

    With ``witnesses`` (as read, by siglum), the pages a witness's print has lost are noted too.
    """
    writer = _Writer(collation, witnesses)
    entries = writer.entries()
    listed = sum(1 for e in entries if not e.startswith((SCORES, "《")))
    return "\n".join([*writer.header(listed), "", *entries]) + "\n"


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
