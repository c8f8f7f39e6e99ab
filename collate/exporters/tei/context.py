"""What every part of the document needs: the collation, the base's blocks, the collated layers.

A :class:`Context` is made once per document. It answers lookups (which block holds an
offset, how to point at witnesses, who speaks), builds the small elements all parts share
(text with its glyphs, tokens, page and line breaks), and collects what the header and the
``standOff`` must declare while the body is written (glyphs, people, sources).
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from collate.errors import ExportError
from collate.exporters.tei.markup import (
    GETA,
    XML_ID,
    E,
    Item,
    control_gap,
    is_pua,
    name_part,
    ncname,
    safe_attr,
    script_of,
    xml_char,
)
from collate.exporters.tei.plan import CollatedLayer, base_blocks
from collate.model import ChangeClass, Layer, Mark, MarkKind, Role, SourceLocation, Span, Substitution, Token
from collate.model.facsimile import page_url
from collate.model.people import EDITORS, named

if TYPE_CHECKING:
    from collate.normalize import Normalizer
    from collate.results import ExportInput

# Characters the tokens' before/after hold that are layout, not punctuation of the text.
_LAYOUT = frozenset("()（）/{}_[]【】<>|")

# How each speaker's notes are introduced in print, by their id (collate.model.people).
NOTE_LABELS = {p.id: p.label for p in EDITORS}


@dataclass(frozen=True, slots=True)
class Event:
    """Something of the base at an offset, written between tokens: a milestone or a label."""

    offset: int
    order: int
    item: Any


class Context:
    """One document's shared state: the collation, the base's blocks, the collated layers, registers."""

    def __init__(self, data: ExportInput, regularize: bool = False) -> None:
        collation = data.collation
        self.regularize = regularize
        if collation.base not in data.witnesses:
            raise ExportError(f"the base witness {collation.base} was not given to the TEI writer")
        self.collation = collation
        self.bibl = data.bibl
        self.witnesses = data.witnesses
        self.layer_sizes = data.layer_sizes
        self.base = data.witnesses[collation.base]
        self.order = {w.siglum: i for i, w in enumerate(collation.witnesses)}
        # Filled while the body is written; the header and the standOff declare them.
        self.glyphs: set[str] = set()
        # The gaiji entities written (``<g ref="#KR1249">``), by code: the header declares each.
        self.gaiji: dict[str, Substitution] = {}
        self._entities: dict[str, dict[int, Substitution]] = {}
        # The full page ids given as xml:id so far: one id, one page.
        self.page_ids: set[str] = set()
        self.people: dict[str, tuple[str, str, str, bool]] = {}
        self.sources: dict[str, str] = {}
        # The editors whose decisions the apparatus shows: name -> xml:id (``ed-<name>``).
        self.editors: dict[str, str] = {}
        self.rule_ids = {r.name: f"rule.{ncname(r.name)}" for r in collation.rules if r.enabled}
        self.script = script_of(self.base.text)
        self.blocks = base_blocks(self.base)
        self.block_starts = [b.start for b in self.blocks]
        self.layers: dict[Layer, CollatedLayer] = {}
        for result in collation.layers:
            if result.alignment.sigla[:1] == (collation.base,):
                lay = CollatedLayer(result)
                lay.plan(self.block_of)
                self.layers[result.layer] = lay
        self.base_marks = sorted(self.base.marks, key=lambda m: m.offset)
        self.wit_marks = self._place_witness_marks()
        self.note_blocks = self._note_blocks()
        # Per note block, the apps of the loci its notes are attached to (its @target).
        self.block_apps: dict[str, set[str]] = {}
        for locus in self.collation.loci():
            for n in locus.notes:
                block = self.note_blocks.get(n.id)
                if block is not None:
                    self.block_apps.setdefault(block, set()).add(f"#app.{locus.id}")
        # The id of the last 經 (and 注) block written: what the next 注 (or 疏) glosses.
        self.last_of: dict[Layer, str] = {}
        self._tokens: dict[tuple[str, Layer], tuple[tuple[Token, ...], list[int]]] = {}

    # -- lookups

    def block_of(self, offset: int) -> int | None:
        """The index of the base block holding ``offset``, if any."""
        i = bisect.bisect_right(self.block_starts, offset) - 1
        return i if i >= 0 and offset < self.blocks[i].end else None

    def wits(self, sigla: Iterable[str]) -> str:
        """A ``@wit`` value: pointers to the witnesses, in the collation's order."""
        ordered = sorted(set(sigla), key=lambda s: (self.order.get(s, len(self.order)), s))
        return " ".join(f"#{s}" for s in ordered)

    def person(self, name: str | None) -> str | None:
        """The ``#id`` for who speaks, registering the person for ``standOff``."""
        if not name:
            return None
        key = name.lstrip("#")
        # A name met before keeps its id (a witness's notes name the same speaker again and again).
        speaker = named(key)
        known = (
            (speaker.id, speaker.name, speaker.english, speaker.group)
            if speaker
            else next((p for p in self.people.values() if p[1] == key), None)
        )
        if known is None:
            pid = ncname(key) if key.isascii() else f"resp.{len(self.people) + 1}"
            known = (pid, key, key, False)
        self.people[known[0]] = known
        return f"#{known[0]}"

    def editor_resp(self, names: Iterable[str]) -> str | None:
        """The ``@resp`` pointing at the editors ``names`` (``#ed-…``), declaring each for the header."""
        pointers = []
        for name in names:
            if name not in self.editors:
                stem = f"ed-{name_part(name)}"
                # Names that differ only in what an id cannot hold (王 一 / 王_一) stay apart.
                taken = {*self.editors.values(), *self.order}
                pid, n = stem, 1
                while pid in taken:
                    n += 1
                    pid = f"{stem}-{n}"
                self.editors[name] = pid
            pointers.append(f"#{self.editors[name]}")
        return " ".join(pointers) or None

    def source(self, text: str) -> str:
        """The ``#id`` of a ``<bibl>`` in ``standOff`` naming where a derived reading comes from."""
        if text not in self.sources:
            self.sources[text] = f"src.{len(self.sources) + 1}"
        return f"#{self.sources[text]}"

    def offset_of(self, location: SourceLocation | None) -> int | None:
        """The base text's offset of a line:column in the base file."""
        if location is None:
            return None
        starts = self.base.line_starts
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
            text_spans = [s for s in w.spans if s.layer.is_text and s.role is Role.TEXT]
            # Spans partition the file, so their ends are sorted: each mark looks only at the
            # spans between it and the token it would stand before.
            ends = [s.end for s in text_spans]
            for mark in w.marks:
                k = bisect.bisect_left(starts, mark.offset)
                if k == len(found):
                    continue
                start, layer, column = found[k]
                if _text_between(w.text, text_spans, ends, mark.offset, start):
                    continue
                placed.setdefault((layer, column, siglum), []).append(mark)
        return placed

    def tokens_in(self, siglum: str, layer: Layer, start: int, end: int) -> tuple[Token, ...]:
        """A witness's tokens of one layer that start in ``[start, end)``, collated or not.

        For the text the collation does not carry, which the run did not tokenize (headings,
        commentary, notes, a passage of another work): each layer is tokenized once and
        indexed by offset, so a block's tokens are found without a scan.
        """
        key = (siglum, layer)
        if key not in self._tokens:
            from collate.normalize.tokenize import tokenize

            tokens = tokenize(self.witnesses[siglum], layer, _placeholders_only())
            self._tokens[key] = (tokens, [t.start for t in tokens])
        tokens, starts = self._tokens[key]
        return tokens[bisect.bisect_left(starts, start) : bisect.bisect_left(starts, end)]

    def note_resp(self, text: str, spans: Iterable[Span], start: int) -> str | None:
        """The ``@resp`` of an editorial note: who speaks (蕙田案), else the part of the book it is (考證)."""
        label = next((s.speaker or s.passage for s in spans if s.speaker or s.passage), None)
        return self.person(label or ("案" if text[start : start + 2] in ("案", "【案") else None))

    # -- small elements

    def milestone(self, mark: Mark, siglum: str) -> Any:
        """A witness's page (``pb``), line (``lb``) or other break, pointing at the witness.

        ``@edRef`` points at the witness; ``@ed`` names it too, because that is what viewers
        read: the Versioning Machine shows a page break only in the column of its ``@ed``. But
        not on the base's pages: they are the pages of the document itself, its reference
        system, and viewers that page through a document (EVT) take its pages from the ``<pb>``
        with no ``@ed`` — the other witnesses' pages are theirs alone. The Versioning Machine
        draws the base's page breaks across every column, where the texts are aligned.
        """
        label = safe_attr(mark.label)
        if mark.kind is MarkKind.PAGE:
            own = {} if siglum == self.collation.base else {"ed": siglum}
            page = E.pb({"edRef": f"#{siglum}", **own, "n": label})
            if mark.ref and (ident := ncname(safe_attr(mark.ref))) not in self.page_ids:
                # The page's full id, as the file names it (KR1d0053_WYG_062-1a): a page of the
                # document can be pointed at, and found again in its edition.
                self.page_ids.add(ident)
                page.set(XML_ID, ident)
            bibl = self.bibl.get(siglum)
            if bibl is not None and bibl.facs:
                page.set("facs", safe_attr(page_url(bibl.facs, mark.label, mark.ref)))
            return page
        if mark.kind is MarkKind.LINE:
            return E.lb(edRef=f"#{siglum}", ed=siglum, n=label)
        return E.milestone(unit="external", edRef=f"#{siglum}", ed=siglum, n=label)

    def text(self, text: str) -> list[Item]:
        """Characters as TEI: PUA glyphs as ``<g>``, characters XML forbids as ``<gap>``."""
        if _plain_chars(text):
            return [text]  # the common case, one check per string met (cached)
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
        """A token's original characters; a placeholder or an artifact inside ``<unclear>``.

        A gaiji entity of the file (``&KR1249;``) is a ``<g>`` pointing at its declaration in
        the header, holding the character it was resolved to, or 〓 (the printer's mark for a
        glyph that cannot be set) inside ``<unclear>`` where it was not.
        """
        entity = self._entity(tok)
        if entity is not None:
            self.gaiji.setdefault(entity.code, entity)
            glyph = E.g(entity.replacement or GETA, ref=f"#{ncname(entity.code)}")
            return [E.unclear(glyph, reason="placeholder")] if entity.replacement is None else [glyph]
        items = self.text(tok.t)
        if self.regularize and tok.witness == self.collation.base:
            regular = regular_form(tok)
            if regular != tok.t:
                # The base's variant form (異體, 避諱) and the form a regularized edition prints.
                return [E.choice(E.orig(*items), E.reg(*self.text(regular)))]
        classes = {c.cls for c in tok.changes}
        if ChangeClass.PLACEHOLDER in classes and not all(is_pua(ch) for ch in tok.t):
            return [E.unclear(*items, reason="placeholder")]
        if ChangeClass.UNCERTAIN in classes:
            return [E.unclear(*items, reason="substitution")]
        return items

    def _entity(self, tok: Token) -> Substitution | None:
        """The named entity a token stands on, if it is one (indexed by offset once per witness)."""
        subs = self._entities.get(tok.witness)
        if subs is None:
            witness = self.witnesses.get(tok.witness)
            found = witness.substitutions if witness is not None else ()
            subs = self._entities[tok.witness] = {s.start: s for s in found if s.code}
        entity = subs.get(tok.start) if subs else None
        return entity if entity is not None and entity.end == tok.end else None

    def punct(self, text: str) -> list[Item]:
        """The punctuation in ``text`` as ``<pc>`` (brackets and marks of layout are not kept)."""
        return [E.pc(ch) for ch in _kept_punct(text)] if text else []

    def base_token(self, tok: Token) -> list[Item]:
        """A base token with the punctuation printed around it (only the base's is kept)."""
        return [*self.punct(tok.before), *self.chars(tok), *self.punct(tok.after)]

    def witness_marks(self, lay: CollatedLayer, c: int, sigla: Iterable[str]) -> list[Item]:
        """The page and line breaks of the witnesses ``sigla`` that fall before column ``c``."""
        return [self.milestone(m, s) for s in sigla for m in self.wit_marks.get((lay.layer, c, s), [])]

    def commentary(self, layer: Layer, spans: Iterable[Span], content: list[Item], attrs: dict[str, str]) -> Any:
        """A block of commentary (注, 疏, 釋文, a later commentator) as running text of its layer.

        A ``<seg>``, not a ``<note>``: in the witnesses it is text, collated like 經, and a viewer
        with a column per witness shows a note as a pop-up with every witness's readings in it.
        ``@n`` is the layer as editors name it (注, 疏), ``@resp`` who speaks where the print names
        them (方氏愨曰); the publication form makes it a ``<note place="inline">`` again.
        """
        value = layer.value if layer.is_text else "other"
        speaker = next((s.speaker for s in spans if s.speaker), None) if layer is Layer.COMMENTARY else None
        name = speaker.removesuffix("曰") if speaker else None
        resp = self.person(name) if name else None
        if resp:
            attrs = {**attrs, "resp": resp}
        return E.seg(*content, attrs, type="commentary", subtype=value, ana=f"#{value}", n=layer.chinese)


def regular_form(tok: Token) -> str:
    """A token's characters with its variant graphs regularized (筭 → 算, 爲 → 為), all else as printed.

    Only the orthographic folds of variant graphs (the variant tables, the project's own): not
    the script rule (礼 is not regularized to 禮), and not a taboo form, whose fold goes to the
    substitute (𤣥 and 玄 both to 元): restoring the avoided character (回改) is the editor's call.
    """
    text = tok.t
    for change in tok.changes:
        if change.cls is ChangeClass.ORTHOGRAPHIC and change.rule != "script" and change.before in text:
            text = text.replace(change.before, change.after)
    return text


@lru_cache(maxsize=1 << 16)
def _plain_chars(text: str) -> bool:
    """``text`` is written as it is: no PUA glyph, nothing XML forbids (cached: tokens repeat)."""
    return all(xml_char(ch) and not is_pua(ch) for ch in text)


@lru_cache(maxsize=1 << 16)
def _kept_punct(text: str) -> str:
    """The punctuation of ``text`` a ``<pc>`` keeps, in order (cached: the same gaps recur)."""
    return "".join(ch for ch in text if unicodedata.category(ch)[0] == "P" and ch not in _LAYOUT and xml_char(ch))


@cache
def _placeholders_only() -> Normalizer:
    """The normalizer for tokenizing text that is not compared: placeholders only.

    Only a token's characters and whether it is a placeholder are written (``<unclear>``), so
    no variant table and no OpenCC converter needs to be loaded for it.
    """
    from collate.normalize import Normalizer
    from collate.normalize.config import NormalizeConfig

    return Normalizer(NormalizeConfig(rules=("placeholder",)))


def _text_between(text: str, spans: list[Span], ends: list[int], start: int, end: int) -> bool:
    """Whether a token character of ``spans`` (sorted, with their ``ends``) lies in ``text[start:end]``."""
    from collate.normalize.tokenize import is_token_char

    i = bisect.bisect_right(ends, start)
    while i < len(spans) and spans[i].start < end:
        span = spans[i]
        if any(is_token_char(ch) for ch in text[max(span.start, start) : min(span.end, end)]):
            return True
        i += 1
    return False
