"""The collation as a TEI P5 critical apparatus: parallel segmentation, inline.

The body follows the base witness's spans in file order: 經 in ``<seg type="jing">``,
small-print layers in ``<note place="inline" type="commentary" subtype="zhu|shu|…">``,
editorial notes (蕙田案, 【案】) at their place in ``<note type="editorial">``, headings in
``<head>``/``<trailer>``. Every column of every collated layer is written exactly once, so
each witness's text can be read back out of the tree (:func:`witness_text_from_tei`):
shared text, plus that witness's ``<lem>``/``<rdg>`` in each ``<app>``, skipping what lies
between its ``witEnd``/``lacunaStart`` and ``witStart``/``lacunaEnd``.

Apparatus entries (``<app>``) come from the collation's loci. Two more kinds exist only so
that the file is lossless, and are typed so viewers can hide them: ``type="script"`` where
a witness differs from the base only by script (宾/賓: not a variant, but the witness's own
characters are kept), and ``type="extent"`` where a milestone must sit inside a reading.
The tree is built with :class:`lxml.builder.ElementMaker` and serialized once.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lxml import etree
from lxml.builder import ElementMaker

from collate.apparatus import AttachedNote, Collation, LayerResult, Locus, Reading, ReadingClass
from collate.errors import ExportError, ProjectError
from collate.exporters import write_atomic
from collate.model import ChangeClass, Layer, Mark, SourceLocation, Span, Token, Witness
from collate.project import Project

if TYPE_CHECKING:
    from collate.pipeline import RunResult

TEI_NS = "http://www.tei-c.org/ns/1.0"
XML_NS = "http://www.w3.org/XML/1998/namespace"
XML_ID = f"{{{XML_NS}}}id"
XML_LANG = f"{{{XML_NS}}}lang"
NS = {"tei": TEI_NS}

E = ElementMaker(namespace=TEI_NS, nsmap={None: TEI_NS})
Item = str | Any  # text or an lxml element (lxml ships no type stubs)

# Where a witness starts or stops being extant; only allowed inside <lem>/<rdg>.
MILESTONES = ("witStart", "witEnd", "lacunaStart", "lacunaEnd")
_RESUMES = ("witStart", "lacunaEnd")

# Apparatus entry types that are not variants (see the module docstring).
SCRIPT = "script"
EXTENT = "extent"

# Characters the tokens' before/after hold that are layout, not punctuation of the text.
_LAYOUT = frozenset("()（）/{}_[]【】<>|")

_LAYER_DESC = {
    Layer.JING: "經 the classic's main text",
    Layer.ZHU: "注 鄭玄's commentary",
    Layer.SHU: "疏 正義 subcommentary",
    Layer.SHIWEN: "釋文 陸德明's glosses on readings and pronunciations",
    Layer.COMMENTARY: "later commentators quoted by the base text (方氏愨曰 …)",
    Layer.NOTE: "editorial notes: 蕙田案, the Siku editors' 【案】",
}

# Who speaks in editorial notes, by any name the readers and the notes stage give.
_PEOPLE: dict[str, tuple[str, str, str, bool]] = {
    # name -> (xml:id, Chinese name, English name, is a group)
    "秦蕙田": ("QinHuitian", "秦蕙田", "Qin Huitian", False),
    "蕙田": ("QinHuitian", "秦蕙田", "Qin Huitian", False),
    "蕙田案": ("QinHuitian", "秦蕙田", "Qin Huitian", False),
    "QinHuitian": ("QinHuitian", "秦蕙田", "Qin Huitian", False),
    "四庫館臣": ("SikuEditors", "四庫館臣", "the Siku editors", True),
    "四库馆臣": ("SikuEditors", "四庫館臣", "the Siku editors", True),
    "案": ("SikuEditors", "四庫館臣", "the Siku editors", True),
    "SikuEditors": ("SikuEditors", "四庫館臣", "the Siku editors", True),
}
# How each person's notes are introduced in print (for the 校勘記 too).
NOTE_LABELS = {"QinHuitian": "蕙田案", "SikuEditors": "案"}


# --- characters -----------------------------------------------------------------------


def xml_char(char: str) -> bool:
    """True if XML 1.0 allows ``char`` (no C0 controls but tab/LF/CR, no surrogates, no U+FFFE/F)."""
    cp = ord(char)
    return cp in (0x9, 0xA, 0xD) or 0x20 <= cp <= 0xD7FF or 0xE000 <= cp <= 0xFFFD or 0x10000 <= cp <= 0x10FFFF


def is_pua(char: str) -> bool:
    """A Private Use Area code point: a glyph outside Unicode, declared in ``charDecl``."""
    cp = ord(char)
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD


def control_gap(char: str) -> Any:
    """A character XML cannot hold, as ``<gap reason="control-character">`` naming its code point.

    A gap rather than a ``<g>``: ``<g>`` would have to contain the character (or a mapping
    holding it), which is exactly what XML forbids. The ``desc`` keeps it recoverable.
    """
    return E.gap(E.desc(f"U+{ord(char):04X}"), reason="control-character", quantity="1", unit="char")


def safe_attr(text: str) -> str:
    """An attribute value: characters XML cannot hold become U+FFFD (labels only, never text)."""
    return "".join(c if xml_char(c) else "\ufffd" for c in text)


def _ncname(text: str) -> str:
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", text)
    return name if name[:1].isalpha() or name[:1] == "_" else f"_{name}"


@cache
def _opencc(config: str) -> Any:
    import opencc

    return opencc.OpenCC(config)


def script_of(text: str) -> str:
    """``Hans`` or ``Hant``: which script ``text`` is mostly in (by OpenCC's conversions)."""
    sample = "".join(c for c in text if "\u4e00" <= c <= "\u9fff")[:20000]
    t2s, s2t = _opencc("t2s").convert(sample), _opencc("s2t").convert(sample)
    traditional = sum(a != b for a, b in zip(sample, t2s, strict=False))
    simplified = sum(a != b for a, b in zip(sample, s2t, strict=False))
    return "Hans" if simplified > traditional else "Hant"


# --- the base witness's blocks ----------------------------------------------------------


@dataclass(slots=True)
class _Block:
    """One unit of the base in file order: consecutive spans of one (layer, unit)."""

    layer: Layer
    unit: int
    start: int
    end: int
    spans: list[Span] = field(default_factory=list)
    id: str = ""
    index: int = 0


def _blocks(base: Witness) -> list[_Block]:
    blocks: list[_Block] = []
    for span in base.spans:
        if span.layer in (Layer.MARKUP, Layer.BOILERPLATE) or span.role in ("marker", "layout"):
            continue  # layout and printed layer markers are not text (the note's subtype says 注/疏)
        last = blocks[-1] if blocks else None
        if last is not None and (last.layer, last.unit) == (span.layer, span.unit):
            last.spans.append(span)
            last.end = span.end
        else:
            blocks.append(_Block(span.layer, span.unit, span.start, span.end, [span]))
    counters: dict[Layer, int] = {}
    for i, block in enumerate(blocks):
        block.index = i
        counters[block.layer] = counters.get(block.layer, 0) + 1
        block.id = f"{block.layer.value}.{counters[block.layer]}"
    return blocks


# --- one collated layer -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Move:
    """A passage a witness has elsewhere (a transposition): its tokens, written at its own place.

    The alignment puts them at the base's place (``base_start``); the writer leaves an empty
    reading there and writes them before column ``column``, where the witness's order has them.
    """

    siglum: str
    tokens: tuple[Token, ...]
    column: int
    base_start: int
    id: str


@dataclass(slots=True)
class _Piece:
    """Part of a layer's columns written in one block: plain columns, a locus (part), a point entry."""

    start: int
    end: int
    locus: Locus | None = None
    first: bool = True
    point: bool = False
    part: int = 0
    move: _Move | None = None
    plain: bool = False


class _Layer:
    """A collated layer with the indexes the writer needs: extents, loci by column, owners."""

    def __init__(self, result: LayerResult) -> None:
        self.result = result
        self.layer = result.layer
        self.columns = result.alignment.columns
        self.sigla = result.alignment.sigla
        self.n = len(self.columns)
        self.index = {s: j for j, s in enumerate(self.sigla)}
        self.extents: dict[str, tuple[int, int]] = {}
        for s in self.sigla:
            e = next((x for x in result.extents if x.siglum == s), None) or result.alignment.extent(s)
            if e.first is not None and e.last is not None:
                self.extents[s] = (e.first, e.last)
        self.pieces: dict[int, list[_Piece]] = {}
        self.orphans: list[_Piece] = []
        self.moves = self._moves()
        self.moved = {s: frozenset(t.index for m in self.moves if m.siglum == s for t in m.tokens) for s in self.sigla}
        # Moves whose own place falls inside a locus join the witness's reading there.
        self.inside: dict[str, list[_Move]] = {}
        # Locus id -> the ids of the entries holding passages moved out of it (linked by @exclude).
        self.excludes: dict[str, list[str]] = {}
        self.origins: dict[str, str] = {}

    def _moves(self) -> list[_Move]:
        columns_of: dict[str, dict[int, int]] = {s: {} for s in self.sigla}
        for c, col in enumerate(self.columns):
            for s, tok in zip(self.sigla, col, strict=True):
                if tok is not None:
                    columns_of[s][tok.index] = c
        moves = []
        for k, t in enumerate(self.result.alignment.transpositions, 1):
            if t.siglum not in self.index or t.siglum == self.sigla[0]:
                continue
            j = self.index[t.siglum]
            tokens = sorted(
                (tok for col in self.columns if (tok := col[j]) is not None and t.wit_start <= tok.index < t.wit_end),
                key=lambda tok: tok.index,
            )
            if not tokens:
                continue
            own = columns_of[t.siglum]
            before, after = own.get(t.wit_start - 1), own.get(t.wit_end)
            column = before + 1 if before is not None else (after if after is not None else 0)
            moves.append(_Move(t.siglum, tuple(tokens), column, t.base_start, f"{self.layer.value}-moved-{k}"))
        return moves

    @property
    def readers(self) -> tuple[str, ...]:
        """The aligned witnesses other than the base."""
        return self.sigla[1:]

    def extant(self, siglum: str, column: int) -> bool:
        e = self.extents.get(siglum)
        return e is not None and e[0] <= column <= e[1]

    def token(self, siglum: str, column: int) -> Token | None:
        return self.columns[column][self.index[siglum]]

    def starts_at(self, siglum: str, column: int) -> bool:
        """The witness begins here, after the layer's start: a ``witStart``."""
        e = self.extents.get(siglum)
        return e is not None and e[0] == column > 0

    def ends_at(self, siglum: str, column: int) -> bool:
        """The witness stops here, before the layer's end: a ``witEnd``."""
        e = self.extents.get(siglum)
        return e is not None and e[1] == column < self.n - 1

    def plan(self, block_of: Any) -> None:
        """Assign every column to a base block and cut it into pieces (loci split at block edges)."""
        owner: list[int | None] = [block_of(col[0].start) if col[0] is not None else None for col in self.columns]
        locus_at: list[Locus | None] = [None] * self.n
        points: list[Locus] = []
        for locus in self.result.loci:
            if locus.col_start == locus.col_end:
                points.append(locus)
                continue
            cols = range(locus.col_start, locus.col_end)
            for c in cols:
                locus_at[c] = locus
            # Text the base lacks goes with the base text of its own locus first.
            known = [owner[c] for c in cols if owner[c] is not None]
            seen = known[0] if known else None
            for c in cols:
                if owner[c] is None:
                    owner[c] = seen
                else:
                    seen = owner[c]
        filled = _fill(owner)
        # Entries at a point between columns (a reported addition, a passage moved to the
        # witness's own place) come first: the runs of columns are cut where they stand.
        pieces: list[tuple[tuple[int, int], int, _Piece]] = []
        for locus in points:
            p = locus.col_start
            after = any(
                pl.base_start == pl.base_end == locus.base_start and pl.entry.position == "after"
                for pl in self.result.placements
            )
            where = p - 1 if (after and p > 0) or p >= self.n else p
            home = filled[where] if 0 <= where < self.n else -1
            pieces.append(((p, 0), home, _Piece(p, p, locus, True, point=True)))
        base_col = {tok.index: c for c, col in enumerate(self.columns) if (tok := col[0]) is not None}
        for move in self.moves:
            p = move.column
            host = locus_at[p] if 0 < p < self.n and locus_at[p - 1] is locus_at[p] else None
            if host is not None:
                self.inside.setdefault(host.id, []).append(move)
            else:
                home = filled[p - 1] if p > 0 else (filled[0] if self.n else -1)
                pieces.append(((p, 0), home, _Piece(p, p, None, True, point=True, move=move)))
            origin = locus_at[base_col[move.base_start]] if move.base_start in base_col else None
            if origin is not None:
                self.excludes.setdefault(origin.id, []).append(move.id)
                self.origins[move.id] = origin.id
        cuts = {key[0] for key, _, _ in pieces}

        def run_key(c: int) -> tuple[int, int | None]:
            return filled[c], id(locus_at[c]) if locus_at[c] is not None else None

        parts: dict[str, int] = {}
        c = 0
        while c < self.n:
            end = c + 1
            while end < self.n and run_key(end) == run_key(c) and end not in cuts:
                end += 1
            here = locus_at[c]
            part = 0
            if here is not None:
                part = parts.get(here.id, 0)
                parts[here.id] = part + 1
            pieces.append(((c, 1), filled[c], _Piece(c, end, here, part == 0, part=part)))
            c = end
        for _, home, piece in sorted(pieces, key=lambda x: x[0]):
            if home < 0:
                self.orphans.append(piece)
            else:
                self.pieces.setdefault(home, []).append(piece)


def _fill(owner: Sequence[int | None]) -> list[int]:
    """Columns without a base token take the block before them (else after; else -1: orphans)."""
    out: list[int] = []
    last: int | None = None
    for o in owner:
        last = o if o is not None else last
        out.append(last if last is not None else -1)
    first = next((o for o in owner if o is not None), -1)
    return [first if o == -1 else o for o in out]


# --- the builder ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Event:
    """Something of the base at an offset, written between tokens: a milestone or a label."""

    offset: int
    order: int
    item: Any


@dataclass(slots=True)
class _Member:
    """A witness's part in one apparatus entry: its tokens there and how they pair with the base."""

    siglum: str
    columns: list[int]
    tokens: list[Token]
    moved: bool = False
    paired: bool = True


class _Builder:
    def __init__(self, collation: Collation, witnesses: Mapping[str, Witness], project: Project) -> None:
        if collation.base not in witnesses:
            raise ExportError(f"the base witness {collation.base} was not given to the TEI writer")
        self.collation = collation
        self.project = project
        self.witnesses = witnesses
        self.base = witnesses[collation.base]
        self.order = {w.siglum: i for i, w in enumerate(collation.witnesses)}
        self.glyphs: set[str] = set()
        self.people: dict[str, tuple[str, str, str, bool]] = {}
        self.sources: dict[str, str] = {}
        self.rule_ids = {r.name: f"rule.{_ncname(r.name)}" for r in collation.rules if r.enabled}
        self.script = script_of(self.base.text)
        self.blocks = _blocks(self.base)
        self.block_starts = [b.start for b in self.blocks]
        self.layers: dict[Layer, _Layer] = {}
        for result in collation.layers:
            if result.alignment.sigla[:1] == (collation.base,):
                lay = _Layer(result)
                lay.plan(self.block_of)
                self.layers[result.layer] = lay
        self.base_marks = sorted(self.base.marks, key=lambda m: m.offset)
        self.wit_marks = self._place_witness_marks()
        self.note_blocks = self._note_blocks()
        self.last_of: dict[Layer, str] = {}

    # -- lookups

    def block_of(self, offset: int) -> int | None:
        i = bisect.bisect_right(self.block_starts, offset) - 1
        return i if i >= 0 and offset < self.blocks[i].end else None

    def wits(self, sigla: Iterable[str]) -> str:
        ordered = sorted(set(sigla), key=lambda s: (self.order.get(s, len(self.order)), s))
        return " ".join(f"#{s}" for s in ordered)

    def person(self, name: str | None) -> str | None:
        """The ``#id`` for who speaks, registering the person for ``standOff``."""
        if not name:
            return None
        key = name.lstrip("#")
        known = _PEOPLE.get(key)
        if known is None:
            pid = _ncname(key) if key.isascii() else f"resp.{len(self.people) + 1}"
            known = (pid, key, key, False)
        self.people[known[0]] = known
        return f"#{known[0]}"

    def source(self, text: str) -> str:
        """The ``#id`` of a ``<bibl>`` in ``standOff`` naming where a derived reading comes from."""
        if text not in self.sources:
            self.sources[text] = f"src.{len(self.sources) + 1}"
        return f"#{self.sources[text]}"

    def offset_of(self, location: SourceLocation | None) -> int | None:
        if location is None:
            return None
        starts = self.base._line_starts
        if not 1 <= location.line <= len(starts):
            return None
        return starts[location.line - 1] + location.column - 1

    def _note_blocks(self) -> dict[str, str]:
        """Attached note id -> the id of the base's editorial-note block it stands in."""
        out: dict[str, str] = {}
        for locus in self.collation.loci():
            for note in locus.notes:
                offset = self.offset_of(note.location)
                i = self.block_of(offset) if offset is not None else None
                if i is not None and self.blocks[i].layer is Layer.NOTE:
                    out[note.id] = self.blocks[i].id
        return out

    def _place_witness_marks(self) -> dict[tuple[Layer, int, str], list[Mark]]:
        """Each non-base witness's page/line marks at the column of its next collated token.

        A mark followed by text of the witness that is not collated (a layer the base lacks)
        has no place in the base's order and is left out.
        """
        from collate.tokenize import is_token_char

        placed: dict[tuple[Layer, int, str], list[Mark]] = {}
        for siglum, w in self.witnesses.items():
            if siglum == self.collation.base or not w.marks:
                continue
            found: list[tuple[int, Layer, int]] = []
            for lay in self.layers.values():
                if siglum not in lay.index:
                    continue
                j = lay.index[siglum]
                found.extend(
                    (tok.start, lay.layer, c)
                    for c, col in enumerate(lay.columns)
                    if (tok := col[j]) is not None and tok.index not in lay.moved[siglum]
                )
            found.sort(key=lambda x: x[0])
            starts = [f[0] for f in found]
            text_spans = [s for s in w.spans if s.layer.is_text and s.role == "text"]
            for mark in w.marks:
                k = bisect.bisect_left(starts, mark.offset)
                if k == len(found):
                    continue
                start, layer, column = found[k]
                between = (
                    w.text[max(s.start, mark.offset) : min(s.end, start)]
                    for s in text_spans
                    if s.start < start and mark.offset < s.end
                )
                if any(is_token_char(ch) for chunk in between for ch in chunk):
                    continue
                placed.setdefault((layer, column, siglum), []).append(mark)
        return placed

    # -- small elements

    def milestone(self, mark: Mark, siglum: str) -> Any:
        label = safe_attr(mark.label)
        if mark.kind == "page":
            return E.pb(edRef=f"#{siglum}", n=label)
        if mark.kind == "line":
            return E.lb(edRef=f"#{siglum}", n=label)
        return E.milestone(unit="external", edRef=f"#{siglum}", n=label)

    def text(self, text: str) -> list[Item]:
        """Characters as TEI: PUA glyphs as ``<g>``, characters XML forbids as ``<gap>``."""
        out: list[Item] = []
        for ch in text:
            if not xml_char(ch):
                out.append(control_gap(ch))
            elif is_pua(ch):
                self.glyphs.add(ch)
                out.append(E.g(ch, ref=f"#pua-{ord(ch):04X}"))
            elif out and isinstance(out[-1], str):
                out[-1] += ch
            else:
                out.append(ch)
        return out

    def chars(self, tok: Token) -> list[Item]:
        """A token's original characters; a placeholder or an artifact inside ``<unclear>``."""
        items = self.text(tok.t)
        classes = {c.cls for c in tok.changes}
        if ChangeClass.PLACEHOLDER in classes and not all(is_pua(ch) for ch in tok.t):
            return [E.unclear(*items, reason="placeholder")]
        if ChangeClass.UNCERTAIN in classes:
            return [E.unclear(*items, reason="substitution")]
        return items

    def punct(self, text: str) -> list[Item]:
        kept = [ch for ch in text if unicodedata.category(ch)[0] == "P" and ch not in _LAYOUT and xml_char(ch)]
        return [E.pc(ch) for ch in kept]

    def base_token(self, tok: Token) -> list[Item]:
        """A base token with the punctuation printed around it (only the base's is kept)."""
        return [*self.punct(tok.before), *self.chars(tok), *self.punct(tok.after)]

    # -- the document

    def build(self) -> Any:
        body = self.body()
        header = self.header()
        children = [header]
        stand_off = self.stand_off()
        if stand_off is not None:
            children.append(stand_off)
        children.append(E.text(body))
        lang = f"lzh-{self.script}"
        tei = E.TEI(*children, {XML_LANG: lang})
        etree.indent(header, level=1)
        if stand_off is not None:
            etree.indent(stand_off, level=1)
        return etree.ElementTree(tei)

    def header(self) -> Any:
        c = self.collation
        witnesses = [self.witness_element(w.siglum) for w in c.witnesses]
        file_desc = E.fileDesc(
            E.titleStmt(
                E.title(*self.text(c.title)),
                E.title("critical apparatus", {XML_LANG: "en"}, type="sub"),
            ),
            E.publicationStmt(E.p("Generated by collate from the project file.", {XML_LANG: "en"})),
            E.sourceDesc(E.listWit(*witnesses)),
        )
        encoding = E.encodingDesc(
            self.editorial_decl(),
            E.classDecl(
                E.taxonomy(
                    *(
                        E.category(E.catDesc(desc, {XML_LANG: "en"}), {XML_ID: layer.value})
                        for layer, desc in _LAYER_DESC.items()
                    ),
                    {XML_ID: "layers"},
                )
            ),
        )
        if self.glyphs:
            encoding.append(E.charDecl(*(self.glyph(ch) for ch in sorted(self.glyphs))))
        encoding.append(E.variantEncoding(method="parallel-segmentation", location="internal"))
        languages = [E.language("文言", ident=f"lzh-{self.script}")]
        other = "Hant" if self.script == "Hans" else "Hans"
        languages.append(E.language("文言（其他校本）", ident=f"lzh-{other}"))
        languages.append(E.language("English", ident="en"))
        return E.teiHeader(file_desc, encoding, E.profileDesc(E.langUsage(*languages)))

    def glyph(self, ch: str) -> Any:
        return E.glyph(
            E.localProp(name="name", value=f"private use glyph U+{ord(ch):04X}"),
            E.mapping(ch, type="PUA"),
            {XML_ID: f"pua-{ord(ch):04X}"},
        )

    def witness_element(self, siglum: str) -> Any:
        info = self.collation.witness(siglum)
        try:
            cfg = self.project.witness(siglum)
        except ProjectError:  # an ad-hoc collation may name witnesses the project lacks
            cfg = None
        label = info.label if info else siglum
        children: list[Item] = [E.abbr(*self.text(label), type="siglum")]
        if cfg is not None and cfg.bibl:
            children.append(E.bibl(*self.text(cfg.bibl)))
        if cfg is not None and cfg.notes:
            lang = {XML_LANG: "en"} if cfg.notes.isascii() else {}
            children.append(E.note(*self.text(cfg.notes), lang))
        if info is not None:
            what = "readings reported at given places (a sparse witness)" if info.sparse else f"layout {info.layout}"
            children.append(E.note(*self.text(f"File {info.path}; {what}."), {XML_LANG: "en"}, type="source"))
        # @ana lists the layers this witness carries in the collation: outside them it has no text.
        layers = [lay.layer.value for lay in self.layers.values() if siglum in lay.extents]
        attrs: dict[str, str] = {XML_ID: siglum}
        if layers:
            attrs["ana"] = " ".join(f"#{x}" for x in layers)
        return E.witness(*children, attrs)

    def editorial_decl(self) -> Any:
        rules = [r for r in self.collation.rules if r.enabled]
        off = [r.name for r in self.collation.rules if not r.enabled]
        normalization = [
            E.p(
                "Readings are compared on a normalized form and printed in each witness's original characters. "
                "Simplified/traditional differences and punctuation are not variants; where a witness differs "
                'from the base only by script, its characters are kept in an app of type="script" (not a '
                "variant: viewers may hide it). Rules in force:",
                {XML_LANG: "en"},
            )
        ]
        normalization.extend(
            E.p(*self.text(f"{r.name}: {r.description}"), {XML_ID: self.rule_ids[r.name], XML_LANG: "en"})
            for r in rules
        )
        if off:
            normalization.append(E.p("Not in force: " + ", ".join(off) + ".", {XML_LANG: "en"}))
        collated = ", ".join(f"{lay.layer.chinese} ({lay.layer.value})" for lay in self.layers.values())
        return E.editorialDecl(
            E.normalization(*normalization),
            E.segmentation(
                E.p(
                    "One character is one token. Each layer is collated with the same layer only; layers "
                    f"collated: {collated or 'none'}. Other layers appear as text of the base.",
                    {XML_LANG: "en"},
                )
            ),
            E.interpretation(
                E.p(
                    "Reading types (@type): substantive, transposition, omission (an empty rdg: the witness "
                    "lacks the text where it is extant), addition, scribal_error, placeholder (a digitization "
                    "placeholder or artifact, never a substantive reading), orthographic (variant graphs; "
                    '@cause="taboo" for taboo forms). Text a witness does not contain is marked with '
                    "witStart/witEnd, never as an omission. Readings reported in editorial notes of a sparse "
                    "witness carry @source. Printed layer markers (注, 疏) are note/@subtype, not text.",
                    {XML_LANG: "en"},
                )
            ),
        )

    def stand_off(self) -> Any | None:
        lists: list[Item] = []
        people = [p for p in self.people.values() if not p[3]]
        groups = [p for p in self.people.values() if p[3]]
        if people:
            lists.append(
                E.listPerson(
                    *(
                        E.person(E.persName(zh), E.persName(en, {XML_LANG: "en"}), {XML_ID: pid})
                        for pid, zh, en, _ in people
                    )
                )
            )
        if groups:
            lists.append(
                E.listOrg(
                    *(E.org(E.orgName(zh), E.orgName(en, {XML_LANG: "en"}), {XML_ID: pid}) for pid, zh, en, _ in groups)
                )
            )
        if self.sources:
            lists.append(E.listBibl(*(E.bibl(*self.text(t), {XML_ID: i}) for t, i in self.sources.items())))
        return E.standOff(*lists) if lists else None

    # -- body

    def body(self) -> Any:
        body = E.body()
        div: Any = None
        p: Any = None
        phase = "top"
        marks = self.base_marks
        k = 0

        def container() -> Any:
            return p if p is not None else div

        def new_div() -> None:
            nonlocal div, p, phase
            div = E.div(type="section")
            body.append(div)
            p, phase = None, "top"

        new_div()
        for block in self.blocks:
            while k < len(marks) and marks[k].offset <= block.start:
                self.append(container(), self.milestone(marks[k], self.collation.base))
                k += 1
            inner: list[Mark] = []
            while k < len(marks) and marks[k].offset < block.end:
                inner.append(marks[k])
                k += 1
            element = self.block(block, inner)
            if block.layer is Layer.HEADING:
                if _is_trailer(block, self.base.text):
                    element.tag = f"{{{TEI_NS}}}trailer"
                    if phase == "bottom":
                        new_div()
                        phase = "body"
                    div.append(element)
                    p, phase = None, "bottom"
                    continue
                if phase != "top":
                    new_div()
                div.append(element)
                continue
            if phase == "bottom":
                new_div()
            if p is None:
                p = E.p()
                div.append(p)
                phase = "body"
            self.append(p, element)
        while k < len(marks):
            self.append(container(), self.milestone(marks[k], self.collation.base))
            k += 1
        orphans = [(lay, piece) for lay in self.layers.values() for piece in lay.orphans]
        if orphans:
            # Columns of a layer the base does not have at all: kept, at the end, so nothing is lost.
            tail = E.div(type="unplaced")
            for lay, piece in orphans:
                note = E.note(
                    *self.pieces(lay, [piece], [], 0),
                    place="inline",
                    type="commentary",
                    subtype=lay.layer.value,
                    ana=f"#{lay.layer.value}",
                )
                tail.append(E.p(note))
            body.append(tail)
        return body

    @staticmethod
    def append(parent: Any, element: Any) -> None:
        # A newline after each block keeps the file readable; whitespace between blocks is no text.
        element.tail = "\n"
        parent.append(element)

    def block(self, block: _Block, marks: list[Mark]) -> Any:
        """The element for one base block: its text (collated or not) with the base's marks inside."""
        events = [_Event(m.offset, 0, self.milestone(m, self.collation.base)) for m in marks]
        events.extend(
            _Event(s.start, 1, E.label(*self.text(self.base.text[s.start : s.end]), type="attribution"))
            for s in block.spans
            if s.role == "attribution"
        )
        events.sort(key=lambda e: (e.offset, e.order))
        lay = self.layers.get(block.layer)
        if lay is not None and block.index in lay.pieces:
            content = self.pieces(lay, lay.pieces[block.index], events, block.start)
            return self.wrap(block, content)
        element = self.wrap(block, self.plain_text(block, events))
        if block.layer.is_text:
            # Text of the base that was not collated (a layer left out, a passage of another work).
            element.set("source", f"#{self.collation.base}")
        return element

    def wrap(self, block: _Block, content: list[Item]) -> Any:
        layer = block.layer
        attrs: dict[str, str] = {XML_ID: block.id}
        if layer is Layer.JING:
            self.last_of[layer] = block.id
            return E.seg(*content, attrs, type="jing", ana="#jing")
        if layer is Layer.HEADING:
            return E.head(*content, attrs)
        if layer is Layer.NOTE:
            label = next((s.label for s in block.spans if s.label), None)
            resp = self.person(
                label or ("案" if self.base.text[block.start : block.start + 2] in ("案", "【案") else None)
            )
            if resp:
                attrs["resp"] = resp
            apps = sorted(
                {
                    f"#app.{locus.id}"
                    for locus in self.collation.loci()
                    for n in locus.notes
                    if self.note_blocks.get(n.id) == block.id
                }
            )
            if apps:
                attrs["target"] = " ".join(apps)
            return E.note(*content, attrs, type="editorial", subtype="an", ana="#note")
        glossed = self.last_of.get(Layer.ZHU if layer is Layer.SHU else Layer.JING)
        if layer is Layer.ZHU:
            self.last_of[layer] = block.id
        if glossed:
            attrs["target"] = f"#{glossed}"
        value = layer.value if layer.is_text else "other"
        return E.note(*content, attrs, place="inline", type="commentary", subtype=value, ana=f"#{value}")

    def plain_text(self, block: _Block, events: list[_Event]) -> list[Item]:
        """A block that is not collated: the base's text spans, with marks and labels at their offsets."""
        out: list[_Event] = list(events)
        for span in block.spans:
            if span.role == "text":
                out.extend(_Event(span.start + i, 2, ch) for i, ch in enumerate(self.base.text[span.start : span.end]))
        out.sort(key=lambda e: (e.offset, e.order))
        items: list[Item] = []
        for e in out:
            items.extend(self.text(e.item) if isinstance(e.item, str) else [e.item])
        return items

    def pieces(self, lay: _Layer, pieces: list[_Piece], events: list[_Event], cursor: int) -> list[Item]:
        """A collated block: plain columns as text, loci and script/extent differences as ``<app>``.

        ``cursor`` is the block's start: text the base lacks sits at the offset of the base
        text before it.
        """
        items: list[Item] = []
        ev = 0
        for piece in pieces:
            for unit in self.units(lay, piece):
                start, end = unit.start, unit.end
                bases = [tok for c in range(start, end) if (tok := lay.columns[c][0]) is not None]
                s = bases[0].start if bases else cursor
                e = bases[-1].end if bases else cursor
                while ev < len(events) and events[ev].offset <= s:
                    items.append(events[ev].item)
                    ev += 1
                inner: list[_Event] = []
                while ev < len(events) and events[ev].offset < e:
                    inner.append(events[ev])
                    ev += 1
                if unit.plain:
                    items.extend(self.witness_marks(lay, start, lay.readers))
                    items.extend(self.base_token(bases[0]))
                elif unit.move is not None:
                    items.append(self.moved_app(lay, unit.move))
                else:
                    items.append(self.app(lay, unit, inner))
                cursor = e
        items.extend(e.item for e in events[ev:])
        return items

    def plain(self, lay: _Layer, c: int) -> bool:
        """Every extant witness has the base's very character here, and none starts or stops."""
        base = lay.columns[c][0]
        if base is None:
            return False
        for w in lay.readers:
            if lay.starts_at(w, c) or lay.ends_at(w, c):
                return False
            if lay.extant(w, c):
                tok = lay.token(w, c)
                if tok is None or tok.t != base.t or tok.index in lay.moved[w]:
                    return False
        return True

    def units(self, lay: _Layer, piece: _Piece) -> Iterable[_Piece]:
        """The entries of a piece: plain columns one by one, runs of other columns outside loci as one."""
        if piece.locus is not None or piece.move is not None:
            yield piece
            return
        c = piece.start
        while c < piece.end:
            if self.plain(lay, c):
                yield _Piece(c, c + 1, plain=True)
                c += 1
                continue
            end = c + 1
            while end < piece.end and not self.plain(lay, end):
                end += 1
            yield _Piece(c, end)
            c = end

    def witness_marks(self, lay: _Layer, c: int, sigla: Iterable[str]) -> list[Item]:
        return [self.milestone(m, s) for s in sigla for m in self.wit_marks.get((lay.layer, c, s), [])]

    # -- apparatus entries

    def members(
        self, lay: _Layer, start: int, end: int, locus: Locus | None, point: bool
    ) -> tuple[list[_Member], dict[int, list[_Member]], list[_Member]]:
        """Who goes in the lemma, in which reading (by index in the locus), or in a script reading."""
        lem: list[_Member] = []
        readings: dict[int, list[_Member]] = {}
        fallback: list[_Member] = []
        for w in lay.readers:
            j = lay.index[w]
            cols = [c for c in range(start, end) if lay.extant(w, c)]
            held = [t for c in cols if (t := lay.columns[c][j]) is not None]
            here = [t for t in held if t.index not in lay.moved[w]]
            arriving = [t for m in lay.inside.get(locus.id, []) if m.siglum == w for t in m.tokens] if locus else []
            toks = sorted(here + arriving, key=lambda t: t.index)
            member = _Member(w, cols, toks, moved=len(here) != len(held) or bool(arriving))
            if point:
                if locus is not None and w in locus.lemma_witnesses:
                    lem.append(member)
                continue
            if not cols:
                continue
            role: int | None = None  # None: the lemma; else the reading's index
            if locus is not None and w not in locus.lemma_witnesses:
                reading = locus.reading_of(w)
                if reading is not None and reading.cls is not ReadingClass.NOT_EXTANT:
                    role = locus.readings.index(reading)
            member.paired = not member.moved and all(
                (lay.columns[c][0] is None) == (lay.columns[c][j] is None) for c in cols
            )
            own = "".join(t.t for t in toks)
            base = "".join(t.t for c in cols if (t := lay.columns[c][0]) is not None)
            if role is not None and not (own == base and member.paired):
                readings.setdefault(role, []).append(member)
            elif own == base or (locus is not None and member.paired):
                # In a locus, a lemma witness that differs by script only keeps its place in the
                # lemma (its forms nested there); outside loci its forms make the entry itself.
                lem.append(member)
            else:
                fallback.append(member)
        return lem, readings, fallback

    def app(self, lay: _Layer, unit: _Piece, inner: list[_Event]) -> Any:
        start, end, locus, first, point, part = unit.start, unit.end, unit.locus, unit.first, unit.point, unit.part
        lem_members, by_reading, fallback = self.members(lay, start, end, locus, point)
        base = self.collation.base
        sparse_agreeing = [s for s in (locus.lemma_witnesses if locus and first else ()) if s not in lay.index]
        lem = E.lem(
            *self.lemma_content(lay, start, end, lem_members, inner),
            wit=self.wits([base, *(m.siglum for m in lem_members), *sparse_agreeing]),
        )
        children: list[Item] = [lem]
        suffix = f".p{part + 1}" if part else ""
        app_attrs: dict[str, str] = {}
        ids: dict[int, list[str]] = {}
        if locus is not None:
            app_attrs[XML_ID] = f"app.{locus.id}{suffix}"
            app_attrs["type"] = locus.cls.value
            counter = [0]

            def next_id() -> str:
                counter[0] += 1
                return f"rdg.{locus.id}{suffix}.{counter[0]}"

            cluster: list[Any] = []
            for k, reading in enumerate(locus.readings):
                if reading.cls is ReadingClass.NOT_EXTANT:
                    continue
                if reading.derived:
                    if first:
                        children.extend(self.derived(reading, next_id(), ids.setdefault(k, [])))
                    continue
                members = by_reading.get(k, [])
                if not members:
                    continue
                rdgs = [self.rdg(lay, group, next_id(), ids.setdefault(k, [])) for group in self.groups(lay, members)]
                if reading.cls is ReadingClass.ORTHOGRAPHIC:
                    for rdg in rdgs:
                        self.classify(rdg, reading)
                    cluster.extend(rdgs)
                elif len(rdgs) == 1:
                    self.classify(rdgs[0], reading)
                    children.append(rdgs[0])
                else:
                    group = E.rdgGrp(*rdgs)
                    self.classify(group, reading)
                    children.append(group)
            if len(cluster) > 1:
                # Orthographic sub-variation: one group, each reading keeping its own cause.
                children.append(E.rdgGrp(*cluster, type=ReadingClass.ORTHOGRAPHIC.value))
            else:
                children.extend(cluster)
        else:
            differs = any(
                (t := lay.columns[c][0]) is not None
                and any((o := lay.token(m.siglum, c)) is not None and o.t != t.t for m in lem_members)
                for c in range(start, end)
            )
            if any(m.moved for m in fallback):
                app_attrs["type"] = ReadingClass.TRANSPOSITION.value
            else:
                app_attrs["type"] = SCRIPT if differs or fallback else EXTENT
        for group in self.groups(lay, fallback):
            rdg = self.rdg(lay, group, None, [])
            rdg.set("type", ReadingClass.TRANSPOSITION.value if group[0].moved else SCRIPT)
            children.append(rdg)
        if locus is not None and first and locus.id in lay.excludes:
            app_attrs["exclude"] = " ".join(f"#app.{x}" for x in lay.excludes[locus.id])
        if locus is not None and first:
            children.extend(self.note(n, locus, ids) for n in locus.notes)
        return E.app(*children, app_attrs)

    def moved_app(self, lay: _Layer, move: _Move) -> Any:
        """A passage a witness has here, in its own order, that the base has elsewhere.

        The entry at the base's place gives the witness an empty reading of type
        ``transposition``; the two entries exclude each other (``@exclude``), as the
        Guidelines encode variation in order.
        """
        p = min(move.column, lay.n - 1)
        others = [w for w in lay.readers if w != move.siglum and lay.extant(w, p)]
        kind = ReadingClass.TRANSPOSITION.value
        rdg = E.rdg(
            *(item for tok in move.tokens for item in self.chars(tok)),
            {XML_ID: f"rdg.{move.id}"},
            wit=f"#{move.siglum}",
            type=kind,
        )
        attrs = {XML_ID: f"app.{move.id}", "type": kind}
        if move.id in lay.origins:
            attrs["exclude"] = f"#app.{lay.origins[move.id]}"
        return E.app(E.lem(wit=self.wits([self.collation.base, *others])), rdg, attrs)

    def classify(self, element: Any, reading: Reading) -> None:
        element.set("type", reading.cls.value)
        if reading.cause:
            element.set("cause", reading.cause)
        rules = [self.rule_ids[r] for r in reading.rules if r in self.rule_ids]
        if rules:
            element.set("ana", " ".join(f"#{r}" for r in rules))

    def lemma_content(
        self, lay: _Layer, start: int, end: int, members: list[_Member], inner: list[_Event]
    ) -> list[Item]:
        """The base's text over the columns, with the lemma witnesses' milestones, marks and script forms."""
        items: list[Item] = []
        ev = 0
        paired = [m for m in members if m.paired]
        for c in range(start, end):
            starting = [m.siglum for m in members if lay.starts_at(m.siglum, c)]
            if starting:
                items.append(E.witStart(wit=self.wits(starting)))
            base = lay.columns[c][0]
            if base is not None:
                while ev < len(inner) and inner[ev].offset <= base.start:
                    items.append(inner[ev].item)
                    ev += 1
            items.extend(self.witness_marks(lay, c, [m.siglum for m in members if c in m.columns]))
            if base is not None:
                forms: dict[str, tuple[Token, list[str]]] = {}
                for m in paired:
                    other = lay.token(m.siglum, c) if c in m.columns else None
                    if other is not None and other.t != base.t:
                        forms.setdefault(other.t, (other, []))[1].append(m.siglum)
                if forms:
                    differ = {s for _, sigla in forms.values() for s in sigla}
                    same = [m.siglum for m in members if c in m.columns and m.siglum not in differ]
                    nested = E.app(
                        E.lem(*self.base_token(base), wit=self.wits([self.collation.base, *same])),
                        *(E.rdg(*self.chars(tok), wit=self.wits(sigla), type=SCRIPT) for tok, sigla in forms.values()),
                        type=SCRIPT,
                    )
                    items.append(nested)
                else:
                    items.extend(self.base_token(base))
            ending = [m.siglum for m in members if lay.ends_at(m.siglum, c)]
            if ending:
                items.append(E.witEnd(wit=self.wits(ending)))
        items.extend(e.item for e in inner[ev:])
        return items

    def groups(self, lay: _Layer, members: list[_Member]) -> list[list[_Member]]:
        """Witnesses of one reading with the very same characters and extent edges share a ``<rdg>``."""
        keyed: dict[tuple[Any, ...], list[_Member]] = {}
        for m in members:
            starts = bool(m.columns) and lay.starts_at(m.siglum, m.columns[0])
            ends = bool(m.columns) and lay.ends_at(m.siglum, m.columns[-1])
            keyed.setdefault((tuple(t.t for t in m.tokens), starts, ends), []).append(m)
        return list(keyed.values())

    def rdg(self, lay: _Layer, group: list[_Member], rdg_id: str | None, ids: list[str]) -> Any:
        """One reading: the first member's characters (all members have the same), their marks."""
        head = group[0]
        items: list[Item] = []
        sigla = [m.siglum for m in group]
        if head.columns and lay.starts_at(head.siglum, head.columns[0]):
            items.append(E.witStart(wit=self.wits(sigla)))
        col_of = {id(t): c for m in group for c in m.columns if (t := lay.token(m.siglum, c)) is not None}
        for i, tok in enumerate(head.tokens):
            for m in group:
                other = m.tokens[i]
                c = col_of.get(id(other))
                if c is not None:
                    items.extend(
                        self.milestone(mark, m.siglum) for mark in self.wit_marks.get((lay.layer, c, m.siglum), [])
                    )
            items.extend(self.chars(tok))
        if head.columns and lay.ends_at(head.siglum, head.columns[-1]):
            items.append(E.witEnd(wit=self.wits(sigla)))
        attrs: dict[str, str] = {"wit": self.wits(sigla)}
        if rdg_id:
            attrs[XML_ID] = rdg_id
            ids.append(rdg_id)
        return E.rdg(*items, attrs)

    def derived(self, reading: Reading, rdg_id: str, ids: list[str]) -> list[Any]:
        """A reading reported by a sparse witness (a readings file, a note's claim), with its source."""
        ids.append(rdg_id)
        rdg = E.rdg(*self.text(reading.text), {XML_ID: rdg_id}, wit=self.wits(reading.sigla))
        self.classify(rdg, reading)
        out = [rdg]
        if reading.source:
            rdg.set("source", self.source(reading.source))
        where = reading.witnesses[0].location if reading.witnesses else None
        detail = f"Reported by {reading.source}" if reading.source else "Reported reading"
        if where is not None:
            detail += f" ({where.path}:{where.line})"
        out.append(
            E.witDetail(
                *self.text(detail + "."),
                {XML_LANG: "en"},
                wit=self.wits(reading.sigla),
                target=f"#{rdg_id}",
                type="derived",
            )
        )
        return out

    def note(self, note: AttachedNote, locus: Locus, ids: dict[int, list[str]]) -> Any:
        """An editorial note judging this entry; it also stays at its own place (``@corresp``)."""
        attrs: dict[str, str] = {"type": "editorial", "subtype": "an"}
        resp = self.person(note.resp)
        if resp:
            attrs["resp"] = resp
        if note.id in self.note_blocks:
            attrs["corresp"] = f"#{self.note_blocks[note.id]}"
        targets = [
            i
            for k, reading in enumerate(locus.readings)
            if any(re.search(rf"\b{re.escape(s)}\b", claim) for s in reading.sigla for claim in note.claims)
            for i in ids.get(k, [])
        ]
        if targets:
            attrs["target"] = " ".join(f"#{i}" for i in targets)
        return E.note(*self.text(note.text), attrs)


def _is_trailer(block: _Block, text: str) -> bool:
    """A section-closing line (右投壺: "the above is 投壺"), which ends a division."""
    words = "".join(text[s.start : s.end] for s in block.spans).strip()
    return any(s.label in ("trailer", "closing") for s in block.spans) or bool(re.fullmatch(r"右\S{1,12}", words))


# --- public API ------------------------------------------------------------------------------


def build_tei(collation: Collation, witnesses: Mapping[str, Witness], project: Project) -> Any:
    """The collation as a TEI P5 document (an lxml ``ElementTree``).

    ``witnesses`` are the witnesses as read (the base's spans give the order of 經/注/疏
    and its marks the pages); ``project`` gives each witness's bibliographic data.
    """
    return _Builder(collation, witnesses, project).build()


def tei_bytes(tree: Any) -> bytes:
    """The document serialized once: UTF-8 with an XML declaration and the schema's address."""
    pi = etree.ProcessingInstruction(
        "xml-model",
        'href="https://www.tei-c.org/release/xml/tei/custom/schema/relaxng/tei_all.rng" '
        'type="application/xml" schematypens="http://relaxng.org/ns/structure/1.0"',
    )
    root = tree.getroot()
    if root.getprevious() is None:
        root.addprevious(pi)
    data: bytes = etree.tostring(tree, xml_declaration=True, encoding="UTF-8")
    return data + b"\n"


def write_tei(
    collation: Collation, witnesses: Mapping[str, Witness], project: Project, out: Path | None = None
) -> Path:
    """Write ``<out>/<name>.tei.xml`` atomically (default ``out``: ``output/`` beside the project)."""
    folder = out if out is not None else project.root / "output"
    path = folder / f"{collation.name}{TeiExporter.suffix}"
    write_atomic(path, tei_bytes(build_tei(collation, witnesses, project)))
    return path


# --- reading a witness back --------------------------------------------------------------------


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _has(element: Any, attr: str, pointer: str) -> bool:
    return pointer in (element.get(attr) or "").split()


def _choose(app: Any, pointer: str) -> Any | None:
    """The ``lem`` or ``rdg`` of ``app`` (inside ``rdgGrp``s too) that lists the witness."""
    for child in app:
        name = _local(child.tag)
        if name in ("lem", "rdg") and _has(child, "wit", pointer):
            return child
        if name == "rdgGrp":
            found = _choose(child, pointer)
            if found is not None:
                return found
    return None


@dataclass(slots=True)
class _State:
    pointer: str
    extant: bool
    out: list[str] = field(default_factory=list)

    def add(self, text: str | None) -> None:
        if text and self.extant:
            self.out.append(text)


# Elements whose content is not the witness's text (apparatus notes, punctuation, labels, breaks).
_SKIP = frozenset({"note", "witDetail", "pc", "label", "pb", "lb", "milestone", "wit", "desc"})


def _walk(element: Any, state: _State) -> None:
    state.add(element.text)
    for child in element:
        name = _local(child.tag)
        if name == "app":
            chosen = _choose(child, state.pointer)
            if chosen is not None:
                _walk(chosen, state)
        elif name in MILESTONES:
            if _has(child, "wit", state.pointer):
                state.extant = name in _RESUMES
        elif name == "gap":
            if child.get("reason") == "control-character":
                code = child.findtext(f"{{{TEI_NS}}}desc") or ""
                if code.startswith("U+"):
                    state.add(chr(int(code[2:], 16)))
        elif name and name not in _SKIP:
            _walk(child, state)
        state.add(child.tail)


def witness_text_from_tei(tree: Any, siglum: str, layer: Layer) -> str:
    """One witness's text of one layer, read back out of a TEI document this module wrote.

    The shared text plus the witness's own ``lem``/``rdg`` in each ``app`` (nested entries
    too), skipping what lies outside its extent (after ``witEnd``/``lacunaStart``, before
    ``witStart``/``lacunaEnd``). Punctuation (``pc``), labels, breaks and notes are not text.
    Empty if the witness does not carry the layer (its ``<witness>``'s ``@ana``).
    """
    root = tree.getroot() if hasattr(tree, "getroot") else tree
    witness = root.xpath("//tei:listWit//tei:witness[@xml:id=$s]", namespaces=NS, s=siglum)
    if not witness or not _has(witness[0], "ana", f"#{layer.value}"):
        return ""
    pointer = f"#{siglum}"
    blocks = root.xpath(
        "//tei:text//*[(self::tei:seg or self::tei:note) and contains(concat(' ', @ana, ' '), $a)]",
        namespaces=NS,
        a=f" #{layer.value} ",
    )
    first = next(
        (
            _local(m.tag)
            for block in blocks
            for m in block.iter(*(f"{{{TEI_NS}}}{x}" for x in MILESTONES))
            if _has(m, "wit", pointer)
        ),
        None,
    )
    state = _State(pointer, extant=first not in _RESUMES)
    for block in blocks:
        if block.get("source") is None:  # text of the base only: not collated
            _walk(block, state)
    return "".join(state.out)


# --- the registry's handle -----------------------------------------------------------------------


class TeiExporter:
    """The registry's handle on this format: needs the witnesses as read, so it writes a run."""

    name = "tei"
    suffix = ".tei.xml"
    description = "TEI P5 critical apparatus (parallel segmentation, inline), valid against tei_all"

    def write(self, run: RunResult, path: Path) -> None:
        """Write the TEI of a run to ``path`` atomically."""
        tree = build_tei(run.collation, run.read.by_siglum(), run.read.project)
        write_atomic(path, tei_bytes(tree))


EXPORTER = TeiExporter()

__all__ = [
    "EXPORTER",
    "MILESTONES",
    "NS",
    "TEI_NS",
    "build_tei",
    "script_of",
    "tei_bytes",
    "witness_text_from_tei",
    "write_tei",
]
