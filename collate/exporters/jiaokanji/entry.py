"""One entry of the 校勘記: what the witnesses have at a locus, each in its own characters, and the decision.

``頁2b行5　「哨」，大戴禮作「峭」。`` — the base's printed page and line, the lemma in 「」 where a
reading replaces it, then a clause for each set of witnesses that prints the same characters
(作 reads, 無…字 lacks, 「X」下有…字 has after X), then the editor's decision in a 校勘記's words
(今從…改作…, 今仍底本, 存疑). The notes the entry quotes are added when the 校勘記 is written
(:mod:`collate.exporters.jiaokanji`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from collate.apparatus import Collation, Locus, Reading, ReadingClass, WitnessReading
from collate.exporters.jiaokanji.place import Places
from collate.exporters.jiaokanji.words import LONG, chars, plain, printed_place, quote
from collate.model import Cause, Layer, SourceLocation
from collate.model.citation import JIAOKANJI
from collate.model.inert import inert

if TYPE_CHECKING:
    from collate.model.annotations import AttachedNote, EditorDecision

# A placeholder's key stands for a glyph the e-text lacks: one unknown character.
_UNKNOWN = "\ufffc"


@dataclass(frozen=True, slots=True)
class Entry:
    """One line of the 校勘記 before its notes, and where it sorts (the base's file position)."""

    line: int
    column: int
    text: str
    notes: tuple[AttachedNote, ...] = ()


@dataclass(frozen=True, slots=True)
class Sigla:
    """The witnesses as the 校勘記 names them: by their labels (Chinese sigla), in the collation's order."""

    labels: Mapping[str, str]
    order: Mapping[str, int]

    @classmethod
    def of(cls, collation: Collation) -> Sigla:
        """The names of the collation's witnesses."""
        # Labels may come from file names: a control character in one (a newline) is shown as its
        # escape, never let split an entry.
        return cls(
            {w.siglum: inert(w.label, keep="") for w in collation.witnesses},
            {w.siglum: i for i, w in enumerate(collation.witnesses)},
        )

    def label(self, siglum: str) -> str:
        """The witness's Chinese siglum (its label), else its siglum."""
        return self.labels.get(siglum, siglum)


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


# More differences than this inside a moved passage: it is worded otherwise, and said so only.
MAX_INNER = 4


def _inner(own: WitnessReading) -> str:
    """The differences inside a passage a witness has at another place, worded as the entries are
    (「澤」作「繹」、無「也」字、「射者」下有「所」字), after a colon; "" where they are many.

    The passage's words are collated though they stand elsewhere in the witness: an editor needs
    its variants, not only that it differs (those of substance: :attr:`WitnessReading.inner`).
    """
    said = []
    for base, mine, before in own.inner:
        if base and mine:
            said.append(f"{quote(base)}作{quote(mine)}")
        elif base:
            said.append(f"無{chars(base)}")
        else:
            said.append(f"「{before}」下有{chars(mine)}" if before else f"有{chars(mine)}")
    return "：" + "、".join(said) if len(said) <= MAX_INNER else ""


@dataclass(frozen=True, slots=True)
class _Clause:
    """What some witnesses have, in words: ``{names}{before}{並}{after}``.

    ``before``/``after`` hold the only characters printed of the witnesses, so witnesses with
    equal clauses print the same glyphs and may share one. ``lemma`` says the lemma must be
    shown first (a reading replacing it). A passage a witness has at another place says where
    (``注疏本在其頁062-4a行6``): ``at`` is that place, and ``tail`` follows the places. ``part``
    is where the base words the clause quotes to be found stand (無「固」字: the 固), if it quotes any.
    """

    before: str
    after: str
    lemma: bool
    tail: str = ""
    moved: bool = False
    # Where each witness has a moved passage is its own: witnesses differing only there share the clause.
    at: SourceLocation | None = field(default=None, compare=False)
    part: tuple[int, int] | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Said:
    """One clause in words; whether the lemma must be shown before it; the base words it quotes to be found."""

    text: str
    lemma: bool
    part: tuple[int, int] | None = None


def _clause(locus: Locus, reading: Reading, own: WitnessReading, places: Places, within: bool) -> _Clause:
    """The words for what one witness (``own``, of ``reading``) has, in its own characters.

    ``within``: the 出文 quotes the lemma with its neighbours, so a reading replacing it names
    the characters it replaces (纂圖本「曰」作「日」), as 無「曰」字 and 「曰」下有 always do.
    """
    lemma, text = locus.lemma.text, own.text
    lf, rf = _keys(locus.lemma, locus.lemma.norm), _keys(own, reading.norm)
    named, whole = (quote(lemma) if within else ""), (locus.base_start, locus.base_end)
    if reading.cls is ReadingClass.TRANSPOSITION:
        if rf == lf or len(lemma) > LONG:
            # A passage the witness has at another place: where it stands is the reading
            # (quoted by its ends, a long one would read the same as the lemma).
            differs = "，文有異同" + _inner(own) if own.inner else ""
            tail = f"{differs}（次第不同）"
            return _Clause("", f"有此{quote(lemma)}", False, tail=tail, moved=True, at=own.location, part=whole)
        return _Clause(named, f"作{quote(text)}（{ReadingClass.TRANSPOSITION.chinese}）", True)
    if reading.cls is ReadingClass.LOAN:
        return _Clause(named, f"作{quote(text)}（{ReadingClass.LOAN.chinese}）", True)
    if reading.cause == Cause.LOOKALIKE and len(lemma) == len(text):
        # A graphic confusion (己/已, 曰/日): which side erred is the editor's to say.
        return _Clause(named, f"作{quote(text)}（形近）", True)
    if not text:
        return _Clause("", f"無{chars(lemma)}", False, part=whole)
    if not lemma:
        before, after = places.anchor(locus.base_start)
        if before:
            return _Clause(f"「{before}」下", f"有{chars(text)}", False)
        if after:
            return _Clause(f"「{after}」上", f"有{chars(text)}", False)
        return _Clause("", f"有{chars(text)}", False)
    if len(rf) > len(lf) and rf.startswith(lf):
        return _Clause(f"「{lemma}」下", f"有{chars(_part(own, len(lf)))}", False, part=whole)
    if len(rf) > len(lf) and rf.endswith(lf):
        return _Clause(f"「{lemma}」上", f"有{chars(_part(own, 0, len(rf) - len(lf)))}", False, part=whole)
    if len(lf) > len(rf) and (lf.startswith(rf) or lf.endswith(rf)):
        # Only part of the lemma is lacking: that part is what the reader looks for.
        cut = len(rf) if lf.startswith(rf) else len(lf) - len(rf)
        missing = _part(locus.lemma, cut) if lf.startswith(rf) else _part(locus.lemma, 0, cut)
        s, e = whole
        part = (s + cut, e) if lf.startswith(rf) else (s, s + cut)
        return _Clause("", f"無{chars(missing)}", False, part=part)
    return _Clause(named, f"作{quote(text)}", True)


def describe(sigla: Sigla, locus: Locus, reading: Reading, places: Places, within: bool = False) -> list[Said]:
    """What the reading's witnesses have: one clause for each set that prints the same characters.

    The reading groups witnesses by their keys, so 賔對 and 賓對 are one reading; but each
    witness's glyphs are its own, so they share a clause (and 並) only where the words,
    glyphs and all, are the same. Each name carries the witness's printed place. With each
    clause, whether the lemma must be shown before it. ``within``: the 出文 quotes the lemma
    with its neighbours (:func:`_clause`).
    """
    witnesses = sorted(reading.witnesses, key=lambda w: sigla.order.get(w.siglum, len(sigla.order)))
    groups: dict[_Clause, list[tuple[WitnessReading, _Clause]]] = {}
    for own in witnesses:
        clause = _clause(locus, reading, own, places, within)
        groups.setdefault(clause, []).append((own, clause))
    out = []
    for group in groups.values():
        first = group[0][1]
        both = "並" if len(group) > 1 else ""
        if first.moved:
            # The place is in the words (在其頁…): the names need none.
            names = "、".join(sigla.label(own.siglum) for own, _ in group)
            where = "、".join(f"{sigla.label(own.siglum)}在其{JIAOKANJI.cite(c.at)}" for own, c in group)
            out.append(Said(f"{names}{both}{first.after}，{where}{first.tail}", first.lemma, first.part))
            continue
        names = "、".join(sigla.label(own.siglum) + printed_place(own.location) for own, _ in group)
        out.append(Said(f"{names}{first.before}{both}{first.after}{first.tail}", first.lemma, first.part))
    return out


def decision_words(sigla: Sigla, locus: Locus, within: bool = False) -> str:
    """The editor's decision in the words of a 校勘記: 今從…改作…, 今仍底本, 存疑.

    ``within``: the 出文 quotes the lemma with its neighbours, so the change names what it
    replaces (今從…改「曰」作「日」).
    """
    d = locus.decision
    if d is None:
        return ""
    adopted = locus.editor_lemma()
    if adopted is not None:
        who = sigla.label(d.siglum or "")
        # The chosen witness's own characters: the reading may group other glyphs (賔/賓).
        chosen = next((w for w in adopted.witnesses if w.siglum == d.siglum), None)
        lemma, text = locus.lemma.text, chosen.text if chosen is not None else adopted.text
        if not text:
            words = f"今從{who}刪{chars(lemma)}。"
        elif not lemma:
            words = f"今從{who}補{chars(text)}。"
        else:
            words = f"今從{who}改{quote(lemma) if within else ''}作{quote(text)}。"
    elif d.doubtful:
        words = "存疑。"
    else:
        words = "今仍底本。"
    return words + _comment(d)


def _comment(decision: EditorDecision) -> str:
    """The editor's reasons after the decision, under the name the decisions file records.

    That name is the one the project declares (``[review] editor``), which ``collate review``
    records with each decision; where the project declares no one, the review records no name (never
    the login name), and a decision recorded with no name gives the reasons alone.
    """
    if not decision.comment:
        return ""
    who = "、".join(decision.resp)
    return f"（{who}：{decision.comment}）" if who else f"（{decision.comment}）"


def locus_entry(sigla: Sigla, locus: Locus, classes: frozenset[ReadingClass], places: Places) -> Entry | None:
    """The entry for ``locus`` if it has variants of ``classes``, else None.

    ``places``: the base's layer of the locus by printed line, where the 出文 is made unique.
    """
    # Its variants only: where the base is not extant (beyond a fragmentary base, a passage a
    # quoting base skips) the witnesses' text is no addition, and not an entry.
    readings = [r for r in locus.variants() if r.cls in classes]
    if not readings:
        return None
    # The 出文 is the lemma where it occurs once on its line. Where it does not, the entry quotes
    # a phrase, as 阮元's 校勘記 does (it heads an entry with words of the text, then says which
    # character of them a print reads otherwise: 某本X作Y): the fewest neighbours that make it
    # unique (「曰旄」), and each clause names the characters it is about within it (纂圖本「曰」作
    # 「日」), as 無「X」字 and 「X」下有 here already do. 「九十曰旄」之「曰」 would say the same at
    # more length, in words that are not a 校勘記's.
    span = places.phrase(locus.base_start, locus.base_end)
    within = span != (locus.base_start, locus.base_end)
    said = [x for r in readings for x in describe(sigla, locus, r, places, within)]
    # An entry that shows no lemma is found by the words its clauses quote (無「固」字): where
    # those occur again on the line, it is headed by the 出文 too, if that is unique there (a
    # lemma running on past its line is not).
    found = all(places.unique(*x.part) for x in said if x.part is not None)
    shown = any(x.lemma for x in said) or (not found and places.unique(*span))
    layer = "" if locus.layer is Layer.JING else f"〔{locus.layer.chinese}〕"
    head = f"{layer}{quote(places.text(*span) if within else locus.lemma.text)}，" if shown else layer
    words = "，".join(x.text for x in said) + "。"
    sources = [r.source for r in readings if r.derived and r.source]
    if sources and not locus.notes:
        words = words[:-1] + "".join(f"（據{plain(s)}）" for s in dict.fromkeys(sources)) + "。"
    words += decision_words(sigla, locus, within)
    where = JIAOKANJI.cite(locus.lemma.location)
    loc = locus.lemma.location
    return Entry(loc.line if loc else 1 << 30, loc.column if loc else 0, f"{where}　{head}{words}", locus.notes)
