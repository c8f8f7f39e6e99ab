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
tokens' keys, as the normalizer made them. An entry's clauses and the editor's decision are
:mod:`collate.exporters.jiaokanji.entry`, the entries for lost pages
:mod:`collate.exporters.jiaokanji.lacunae`; the wording itself (quotations, lost pages) is
:mod:`collate.exporters.jiaokanji.words`; counts and places are written as :mod:`collate.model.numerals`
and :mod:`collate.model.citation` write them.

Every entry can be found on the line it cites: where its lemma occurs twice there, the 出文 quotes
the lemma's neighbours too (「曰旄」，纂圖本「曰」作「日」), an addition's anchor grows the same way
(:mod:`collate.exporters.jiaokanji.place`), and passages opening alike are headed by both ends
(:mod:`collate.exporters.jiaokanji.passages`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from collate.apparatus import Collation, ReadingClass
from collate.exporters.jiaokanji.entry import Entry, Sigla, locus_entry
from collate.exporters.jiaokanji.lacunae import lacuna_entries
from collate.exporters.jiaokanji.passages import passage_headings
from collate.exporters.jiaokanji.place import Places
from collate.files import write_atomic
from collate.model import Witness
from collate.model.chars import as_printed
from collate.model.numerals import chinese
from collate.model.people import named

if TYPE_CHECKING:
    from collate.model.annotations import AttachedNote
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

# A score's readings, listed apart under this heading.
NOTATION = frozenset({ReadingClass.NOTATION})
SCORES = "樂譜異同"

_STOPS = ("。", "！", "？")
_QUOTES = ("」", "』")


class _Writer:
    def __init__(self, collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> None:
        self.collation = collation
        self.witnesses = witnesses or {}
        self.sigla = Sigla.of(collation)
        # Each layer of the base by printed line, for 出文 that can be found there (built once per layer).
        base = self.witnesses.get(collation.base)
        self.places = {r.layer: Places(r.alignment.base.tokens, r.layer, base) for r in collation.layers}
        base_text = "".join(t.t for r in collation.layers for t in r.alignment.base.tokens)
        from collate.exporters.tei import script_of

        self.simplified = bool(base_text) and script_of(base_text) == "Hans"

    def label(self, note: AttachedNote) -> str:
        # As the print introduces its speaker (蕙田案); another speaker by name (方氏曰).
        speaker = named(note.resp)
        return speaker.label if speaker else (f"{note.resp}曰" if note.resp else "案")

    def note(self, note: AttachedNote) -> str:
        """The note in full, once, in its own characters; later entries it also judges say 「蕙田案見上」."""
        label = self.label(note)
        text = note.text.strip()
        # A sentence ends in its stop, or in a quotation that does (…也。」); a quoted word (一作「繁」) does not.
        ended = text.endswith(_STOPS) or (text.endswith(_QUOTES) and text[:-1].endswith(_STOPS))
        return f"{label}：{text}" + ("" if ended else "。")

    def entries(self) -> list[str]:
        """The entry lines in base order; a note judging several places is quoted at the first.

        A score's signs read otherwise (○□ of the 投壺 drum scores) are no reading of the words:
        their entries follow the others, under a heading of their own.
        """
        found = self.loci(SUBSTANTIVE)
        found += lacuna_entries(self.collation, self.witnesses, self.sigla, self.places)
        scores = self.loci(NOTATION)
        lines = self.lines(found, self.passages())
        if scores:
            lines += [f"{SCORES}（{chinese(len(scores))}條）", *self.lines(scores)]
        return lines

    def loci(self, classes: frozenset[ReadingClass]) -> list[Entry]:
        """The entries of the loci with variants of ``classes``, in the collation's order."""
        return [
            e
            for r in self.collation.layers
            for locus in r.loci
            if (e := locus_entry(self.sigla, locus, classes, self.places[r.layer])) is not None
        ]

    def passages(self) -> list[Entry]:
        """A heading per passage a compilation base quotes (:mod:`collate.exporters.jiaokanji.passages`)."""
        return passage_headings(self.witnesses.get(self.collation.base))

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
        base = self.sigla.label(c.base)
        listed = "、".join(f"{w.label}（{w.siglum}{'，據案語所引' if w.sparse else ''}）" for w in others)
        lines = [f"{c.title}　校勘記", f"底本：{base}（{c.base}）。校本：{listed or '無'}。"]
        if self.simplified:
            lines.append("底本為簡體字本：出文、案語照錄底本原字，不轉繁體；校本異文照錄原字。")
        listed = f"只錄實質異文（異文、脫文、衍文、倒文）及通假，樂譜之異另列於後（{SCORES}）"
        lines.append(f"凡{count}條。{listed}；異體字、避諱字、數字化占位符見 TEI 本及網頁本。")
        lines.extend(self.habits())
        return lines

    def habits(self) -> list[str]:
        """One 通例 line per print habit the collation shows, as an editor says it once: 凡「讓」皆作「譲」."""
        lines = []
        for h in self.collation.habits:
            if not h.applied:
                continue
            label = self.sigla.label(h.siglum)
            # With exceptions a print "mostly" writes so (多作), and the exceptions are counted.
            how, rest = ("多作", f"；{chinese(h.agrees)}處仍作「{h.base}」") if h.agrees else ("皆作", "")
            lines.append(f"通例：{label}凡「{h.base}」{how}「{h.written}」（{chinese(h.places)}見{rest}），下不出校。")
        return lines


def build_jiaokanji(collation: Collation, witnesses: Mapping[str, Witness] | None = None) -> str:
    """The 校勘記 of a collation as text: a header, a blank line, one entry a line.

    With ``witnesses`` (as read, by siglum), the pages a witness's print has lost are noted too.
    """
    writer = _Writer(collation, witnesses)
    entries = writer.entries()
    listed = sum(1 for e in entries if not e.startswith((SCORES, "《")))
    # An unresolved gaiji entity of a reading (&KR1249;) is printed as the printer's 〓.
    return as_printed("\n".join([*writer.header(listed), "", *entries]) + "\n")


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
