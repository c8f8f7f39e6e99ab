"""Builders the tests share: texts, witnesses, token streams, small collations and projects.

Each builds its object the one way the tests that use it expect; a test that needs a
different shape (another normalization, another alignment) keeps a builder of its own.

- texts: :func:`seed_chars`;
- witnesses: :func:`plain_witness`, :func:`layered`, :func:`sparse_witness`;
- tokens: :func:`tokens_from_string` (no normalization), and by the test normalizer
  :func:`normalize`: :func:`tokens_of` (a whole one-layer witness), :func:`layer_tokens`
  (one layer's text spans);
- alignments and collations: :func:`align_rows` (rows aligned by hand), :func:`difflib_align`
  and :func:`collate` (aligned here with difflib);
- projects: :func:`run_default_project`, :func:`copy_default_project`.
"""

from __future__ import annotations

import difflib
import json
import re
import shutil
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import opencc
from conftest import REPO, SEED_000

from collate.alignment import Extent, LayerAlignment, Transposition
from collate.apparatus import Collation, RuleInfo, WitnessInfo, build_layer
from collate.model import Change, ChangeClass, Layer, Mark, Span, SparseReading, Token, Witness
from collate.pipeline import RunResult, collate_project
from collate.project import load_project

# --- texts -----------------------------------------------------------------------------------------------

CJK = re.compile(r"[\u3400-\u9fff]")


@cache
def seed_chars() -> str:
    """The CJK characters of seed 000 (五禮通考, simplified), in order."""
    return "".join(CJK.findall(SEED_000.read_text(encoding="utf-8")))


# --- witnesses -------------------------------------------------------------------------------------------

Part = tuple[Any, ...]  # (layer or None for layout, text[, role])


def plain_witness(siglum: str, text: str, *, lines: int = 1) -> Witness:
    """A one-layer (經) witness whose text is split into ``lines`` lines, a page mark at the start."""
    size = -(-len(text) // lines) if text else 1
    raw = "\n".join(text[i : i + size] for i in range(0, len(text), size))
    return Witness(
        siglum=siglum,
        label=siglum,
        path=f"{siglum}.txt",
        text=raw,
        layout="plain",
        spans=(Span(0, len(raw), Layer.JING),),
        marks=(Mark(0, "page", "1a"),),
    )


def layered(siglum: str, parts: Sequence[Part], *, label: str = "", page: str = "1a") -> Witness:
    """A witness from parts: (layer, text) or (layer, text, role); ``None`` for layout.

    A new unit starts whenever the layer changes. A page mark opens the file, and a line
    mark follows every newline.
    """
    text, spans, unit, last = "", [], 0, None
    for part in parts:
        layer, chunk = part[0], part[1]
        role = part[2] if len(part) > 2 else "text"
        start = len(text)
        text += chunk
        if layer is None:
            spans.append(Span(start, len(text), Layer.MARKUP, 0, "layout"))
            continue
        if layer is not last:
            unit, last = unit + 1, layer
        label_of = "蕙田案" if layer is Layer.NOTE else None
        spans.append(Span(start, len(text), layer, unit, role, label_of))
    marks = [Mark(0, "page", page), Mark(0, "line", "1")]
    marks += [Mark(i + 1, "line", str(n)) for n, i in enumerate((i for i, c in enumerate(text) if c == "\n"), 2)]
    return Witness(siglum, label or siglum, f"{siglum}.txt", text, "plain", spans=tuple(spans), marks=tuple(marks))


def sparse_witness(*entries: tuple[str, str, str, str]) -> Witness:
    """DD, a readings file with one entry a line: (at, base, reading, position)."""
    text = "\n".join(f"{at}|{base}|{reading}|{position}" for at, base, reading, position in entries)
    readings, offset = [], 0
    for line, (at, base, reading, position) in zip(text.split("\n"), entries, strict=True):
        readings.append(SparseReading(offset, offset + len(line), at, base, reading, position, Layer.JING, "蕙田案"))
        offset += len(line) + 1
    return Witness("DD", "大戴禮", "dd.toml", text, "readings", readings=tuple(readings))


# --- tokens ----------------------------------------------------------------------------------------------

PLACEHOLDERS = "□?■〓"


def tokens_from_string(
    siglum: str, text: str, layer: Layer = Layer.JING, fold: Callable[[str], str] | None = None
) -> list[Token]:
    """One token per character, its key the character (or ``fold`` of it); placeholder glyphs
    are marked as the normalizer marks them."""
    out = []
    for i, c in enumerate(text):
        changes = (Change("placeholder", c, c, ChangeClass.PLACEHOLDER),) if c in PLACEHOLDERS else ()
        out.append(Token(siglum, layer, i, i, i + 1, c, fold(c) if fold else c, changes=changes))
    return out


# The test normalizer's small tables (placeholder, uncertain, variant, semantic, taboo).
NORMALIZE_TABLE: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "apparatus_cases.json").read_text(encoding="utf-8")
)["normalize"]


@cache
def t2s(text: str) -> str:
    """``text`` in simplified characters (OpenCC t2s), as the test normalizer folds script."""
    return str(opencc.OpenCC("t2s").convert(text))


def normalize(siglum: str, index: int, char: str) -> tuple[str, tuple[Change, ...]]:
    """A stand-in for the normalizer: script by t2s, plus the small tables of the apparatus cases file.

    As the normalizer does, it records every change (a script change too), and a declared
    artifact keeps its key, marked uncertain.
    """
    table = NORMALIZE_TABLE
    if char in table["placeholder"]:
        return f"\0{siglum}{index}", (Change("placeholder", char, "", ChangeClass.PLACEHOLDER),)
    if table["uncertain"].get(siglum) == char:
        return t2s(char), (Change("artifact", char, char, ChangeClass.UNCERTAIN),)
    if char in table["variant"]:
        n = table["variant"][char]
        return n, (Change("variant-graph", char, n, ChangeClass.ORTHOGRAPHIC),)
    if char in table["semantic"]:
        n = table["semantic"][char]
        return n, (Change("semantic-variant", char, n, ChangeClass.ORTHOGRAPHIC),)
    if char in table["taboo"]:
        n = table["taboo"][char]
        return n, (Change("taboo", char, n, ChangeClass.TABOO),)
    n = t2s(char)
    return n, ((Change("script", char, n, ChangeClass.ORTHOGRAPHIC),) if n != char else ())


def tokens_of(witness: Witness) -> list[Token]:
    """A one-layer witness's 經 tokens, one a character but line ends, by :func:`normalize`."""
    out: list[Token] = []
    for offset, char in enumerate(witness.text):
        if char == "\n":
            continue
        n, changes = normalize(witness.siglum, len(out), char)
        out.append(Token(witness.siglum, Layer.JING, len(out), offset, offset + 1, char, n, changes=changes))
    return out


def layer_tokens(witness: Witness, layer: Layer) -> list[Token]:
    """One token a character of the layer's text spans, by :func:`normalize`."""
    out: list[Token] = []
    for span in witness.spans:
        if span.layer is not layer or span.role != "text":
            continue
        for offset in range(span.start, span.end):
            n, changes = normalize(witness.siglum, len(out), witness.text[offset])
            t = witness.text[offset]
            out.append(Token(witness.siglum, layer, len(out), offset, offset + 1, t, n, span.unit, changes))
    return out


# --- alignments and collations ---------------------------------------------------------------------------


def align_rows(
    rows: dict[str, str],
    extents: dict[str, list[int]] | None = None,
    *,
    lines: int = 1,
    transpositions: tuple[Transposition, ...] = (),
) -> tuple[LayerAlignment, dict[str, Witness]]:
    """An alignment from aligned strings ('-' an empty cell), and the witnesses behind it."""
    sigla = tuple(rows)
    assert len({len(row) for row in rows.values()}) == 1, "aligned rows must have one length"
    witnesses = {s: plain_witness(s, rows[s].replace("-", ""), lines=lines) for s in sigla}
    streams = {s: iter(tokens_of(witnesses[s])) for s in sigla}
    width = len(next(iter(rows.values())))
    columns = tuple(tuple(None if rows[s][i] == "-" else next(streams[s]) for s in sigla) for i in range(width))
    ext = tuple(Extent(s, *extents[s]) for s in sigla if extents and s in extents)
    return LayerAlignment(Layer.JING, sigla, columns, ext, transpositions), witnesses


def difflib_align(layer: Layer, streams: dict[str, list[Token]], fragments: Iterable[str] = ()) -> LayerAlignment:
    """Align each witness with the base (the first stream) by difflib on normalized forms."""
    sigla = tuple(streams)
    base = streams[sigla[0]]
    at: dict[str, dict[int, Token]] = {}
    extra: dict[str, dict[int, list[Token]]] = {}
    for s in sigla[1:]:
        mine = streams[s]
        pairs: dict[int, Token] = {}
        gaps: dict[int, list[Token]] = {}
        matcher = difflib.SequenceMatcher(None, [t.n for t in base], [t.n for t in mine], autojunk=False)
        for _, i1, i2, j1, j2 in matcher.get_opcodes():
            k = min(i2 - i1, j2 - j1)
            for d in range(k):
                pairs[i1 + d] = mine[j1 + d]
            gaps.setdefault(i2, []).extend(mine[j1 + k : j2])
        at[s], extra[s] = pairs, gaps
    columns: list[tuple[Token | None, ...]] = []
    for i in range(len(base) + 1):
        for s in sigla[1:]:
            for tok in extra[s].get(i, []):
                columns.append(tuple(tok if x == s else None for x in sigla))
        if i < len(base):
            columns.append((base[i], *(at[s].get(i) for s in sigla[1:])))
    extents = []
    for j, s in enumerate(sigla):
        held = [c for c, col in enumerate(columns) if col[j] is not None]
        if s in fragments:
            extents.append(Extent(s, held[0], held[-1]) if held else Extent(s, None, None))
        else:
            extents.append(Extent(s, 0, len(columns) - 1))
    return LayerAlignment(layer, sigla, tuple(columns), tuple(extents))


def collate(
    witnesses: Sequence[Witness],
    *,
    sparse: Sequence[Witness] = (),
    fragments: Iterable[str] = (),
    layers: Sequence[Layer] = (Layer.JING, Layer.ZHU),
) -> tuple[Collation, dict[str, Witness]]:
    """A collation of ``witnesses`` (the first is the base), layer with layer, by :func:`difflib_align`."""
    by_siglum = {w.siglum: w for w in (*witnesses, *sparse)}
    results = []
    for layer in layers:
        streams = {w.siglum: layer_tokens(w, layer) for w in witnesses}
        streams = {s: t for s, t in streams.items() if t or s == witnesses[0].siglum}
        if not streams[witnesses[0].siglum]:
            continue
        results.append(build_layer(difflib_align(layer, streams, fragments), by_siglum))
    info = tuple(WitnessInfo(w.siglum, w.label, w.path, w.layout, sparse=w.sparse) for w in (*witnesses, *sparse))
    rules = (RuleInfo("script", "traditional and simplified compare equal"), RuleInfo("variant-graph", "異體字"))
    return Collation("禮記·投壺", "touhu", witnesses[0].siglum, info, tuple(results), rules), by_siglum


# --- projects --------------------------------------------------------------------------------------------


def run_default_project() -> RunResult:
    """The repository's default project (collate.toml beside the seeds), read and collated."""
    return collate_project(load_project(REPO / "collate.toml"))


def copy_default_project(folder: Path) -> Path:
    """A copy of the default project (project file, seeds, readings file) in ``folder``, to edit
    freely; the path of its project file."""
    shutil.copy(REPO / "collate.toml", folder / "collate.toml")
    shutil.copytree(REPO / "seeds", folder / "seeds")
    shutil.copytree(REPO / "witnesses", folder / "witnesses")
    return folder / "collate.toml"
