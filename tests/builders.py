"""Builders the tests share: texts, witnesses, token streams, small collations and projects,
and the few checks more than one test module makes of what the exporters write.

Each builds its object the one way the tests that use it expect; a test that needs a
different shape (another normalization, another alignment) keeps a builder of its own.

- texts: :func:`seed_chars`;
- witnesses: :func:`plain_witness`, :func:`layered`, :func:`sparse_witness`;
- tokens: :func:`tokens_from_string` (no normalization), and by the test normalizer
  :func:`normalize`: :func:`tokens_of` (a whole one-layer witness), :func:`layer_tokens`
  (one layer's text spans); :func:`witness_set` (five edited streams of seed 000);
- the real normalizer: :func:`normalizer` (per configuration), :func:`norm` and :func:`key`
  (the default rules), :func:`text_tokens` (a string tokenized by it);
- alignments and collations: :func:`align_rows` (rows aligned by hand), :func:`difflib_align`
  and :func:`collate` (aligned here with difflib); :func:`summary` (a locus as the cases file
  writes it);
- projects: :func:`run_default_project`, :func:`copy_default_project`;
- TEI: :data:`DD_SHAO` (the note's claim on 哨), :func:`small_tei_collation`, :func:`input_for`,
  :func:`tei_of` (written and parsed again), :func:`xp`, :func:`assert_valid`, :func:`assert_lossless`;
- JSON: :func:`decoded_tokens` (the tokens read back from the document alone);
- HTML: :func:`html_collation` and its page (:func:`page_of`, :func:`parse`, :func:`has_class`,
  :func:`text_of`, :func:`locus_by_lemma`);
- review: :func:`collate_rows`, :func:`review_session` (deciding at :data:`CLOCK`), :func:`lemmas`.
"""

from __future__ import annotations

import bisect
import difflib
import json
import random
import re
import shutil
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import lxml.html
import opencc
from conftest import REPO, SEED_000
from lxml import etree

from collate.align.alignment import Extent, LayerAlignment, Transposition
from collate.apparatus import Collation, Locus, RuleInfo, WitnessInfo, build_layer
from collate.exporters.html import build_html
from collate.exporters.tei import NS, build_tei, tei_bytes, witness_text_from_tei
from collate.model import Change, ChangeClass, Layer, Mark, Span, SparseReading, Token, Witness
from collate.model.annotations import AttachedNote, ClaimKind, NoteClaim
from collate.normalize import Normalizer, build_normalizer
from collate.normalize.tokenize import tokenize
from collate.pipeline import collate_project
from collate.project import Project, load_project
from collate.results import ExportInput, RunResult, WitnessBibl
from collate.review.session import ReviewSession
from collate.validate import load_schema, rule_problems, shipped_schema

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
    return Witness("DD", "大戴禮", "dd.toml", text, "readings", readings=tuple(readings), sparse=True)


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


def _edited(text: str, rng: random.Random, rate: float) -> str:
    """``text`` with about ``rate`` of its characters replaced, dropped or followed by another."""
    out = []
    for c in text:
        r = rng.random()
        if r < rate / 3:
            out.append(chr(0x4E00 + rng.randrange(20000)))
        elif r < 2 * rate / 3:
            continue
        elif r < rate:
            out += [c, chr(0x4E00 + rng.randrange(20000))]
        else:
            out.append(c)
    return "".join(out)


def witness_set(seed: int) -> dict[str, list[Token]]:
    """Five token streams of seed 000's first 2,500 characters: the base SK; A edited; B and D
    fragments (its start, its end); C with a passage moved. The same for a seed, in any process."""
    rng = random.Random(seed)
    base = seed_chars()[:2500]
    texts = {
        "SK": base,
        "A": _edited(base, rng, 0.05),
        "B": _edited(base[:900], rng, 0.08),
        "C": _edited(base[:600] + base[700:1800] + base[600:700] + base[1800:], rng, 0.03),
        "D": _edited(base[1500:], rng, 0.1),
    }
    return {s: tokens_from_string(s, t) for s, t in texts.items()}


# --- the real normalizer: built once per configuration ---------------------------------------------------


@cache
def normalizer(config: str = "{}", artifacts: str = "") -> Normalizer:
    """The normalizer for a ``[normalize]`` table given as JSON text, SK's declared ``artifacts`` (one
    string, space-separated); cached per configuration, since building one reads the tables."""
    witness_artifacts = {"SK": artifacts.split()} if artifacts else {}
    return build_normalizer(json.loads(config), witness_artifacts)


def norm(semantic: bool = False) -> Normalizer:
    """The default normalizer, with the semantic-variant rule or without."""
    return normalizer('{"semantic": true}' if semantic else "{}")


def key(char: str, semantic: bool = False) -> str:
    """``char``'s comparison key by :func:`norm`."""
    return norm(semantic).normalize(char)[0]


def text_tokens(text: str, normalizer: Normalizer, siglum: str = "SK", layer: Layer = Layer.JING) -> tuple[Token, ...]:
    """``text`` as a one-layer witness ``siglum``, tokenized by ``normalizer``."""
    witness = Witness(siglum, siglum, "case.txt", text, "plain", spans=(Span(0, len(text), layer),))
    return tokenize(witness, layer, normalizer)


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
    ext = tuple(Extent(s, extents[s][0], extents[s][1]) for s in sigla if extents and s in extents)
    return LayerAlignment(Layer.JING, sigla, columns, ext, transpositions), witnesses


def rows_collation(rows: dict[str, str], normalizer: Normalizer, title: str = "射義") -> Collation:
    """A one-layer collation of aligned strings (``align_rows``), its apparatus built, the first row the base."""
    alignment, witnesses = align_rows(rows)
    result = build_layer(alignment, witnesses, normalizer)
    infos = tuple(WitnessInfo(s, f"{s}本", f"{s}.txt", "plain") for s in rows)
    return Collation(title, "sheyi", next(iter(rows)), infos, (result,))


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


def summary(locus: Locus) -> list[Any]:
    """A locus as the apparatus cases file (data/apparatus_cases.json) writes it:
    [lemma, class, [[sigla, text, class, cause] for each reading]]."""
    return [
        locus.lemma.text,
        locus.cls.value,
        [[list(r.sigla), r.text, r.cls.value, r.cause] for r in locus.readings],
    ]


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


# --- TEI: written, parsed again and checked as a reader of the file sees it ------------------------------

XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


def input_for(collation: Collation, witnesses: Mapping[str, Witness]) -> ExportInput:
    """What the TEI exporter is handed: the witnesses as read, each described as a project file does."""
    bibl = {w.siglum: WitnessBibl(f"{w.label}〈投壺〉", "A note.") for w in collation.witnesses}
    return ExportInput(collation, witnesses, bibl)


def tei_of(collation: Collation, witnesses: dict[str, Witness]) -> Any:
    """Build, serialize and parse again: tests look at what a reader of the file sees."""
    data = tei_bytes(build_tei(input_for(collation, witnesses)))
    return etree.ElementTree(etree.fromstring(data))


def xp(tree: Any, path: str) -> list[Any]:
    """``path`` evaluated on ``tree`` with the ``tei:`` prefix bound."""
    found: list[Any] = tree.xpath(path, namespaces=NS)
    return found


def assert_lossless(tree: Any, collation: Collation, witnesses: dict[str, Witness]) -> None:
    """Every witness's text of every collated layer reads back out of ``tree`` as the witness has it."""
    for result in collation.layers:
        for siglum in result.alignment.sigla:
            got = witness_text_from_tei(tree, siglum, result.layer)
            expected = "".join(t.t for t in layer_tokens(witnesses[siglum], result.layer))
            assert got == expected, (siglum, result.layer)


def assert_valid(tree: Any, schema: Any) -> None:
    """Valid against ``schema`` (tei_all), the TEI subset collate ships, and the apparatus rules."""
    for rng in (schema, load_schema(shipped_schema())):
        assert rng.validate(tree), [f"{e.line}: {e.message}" for e in rng.error_log][:5]
    problems, _ = rule_problems(tree)
    assert problems == []


# 蕙田案's claim on 哨, as the TEI and HTML collations' note carries it: 今本大戴礼乃作峭.
DD_SHAO = NoteClaim(ClaimKind.READS, "今本大戴礼", ("DD",), "哨", "峭", resp="秦蕙田")

TEI_SK: list[Part] = [
    (Layer.HEADING, "礼记投壶"),
    (None, "\n"),
    (Layer.JING, "投壶之礼主人奉矢"),
    (None, "("),
    (Layer.ZHU, "矢所以投者也射人奉之"),
    (None, ")\n"),
    (Layer.JING, "主人请曰某有枉矢哨壶请以乐宾"),
    (None, "\n　　"),
    (Layer.NOTE, "蕙田案", "attribution"),
    (Layer.NOTE, "今本大戴礼乃作峭谬甚"),
]
TEI_ZS: list[Part] = [
    (Layer.JING, "投壺之禮主人奉矢"),
    (None, "_{"),
    (Layer.ZHU, "矢所以投者也射人案之"),
    (None, "}"),
    (Layer.JING, "主人請曰某有枉矢哨壺請樂賓"),
]


def small_tei_collation() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS with a 注 variant (奉/案), a 經 omission (以), script differences; DD's 峭
    with 蕙田案's note on it."""
    sk, zs = layered("SK", TEI_SK, label="四庫本"), layered("ZS", TEI_ZS, label="注疏本")
    dd = sparse_witness(("某有枉矢哨壶", "哨", "峭", ""))
    collation, witnesses = collate([sk, zs], sparse=[dd])
    note_at = sk.text.index("今本")
    note = AttachedNote("SK-n1", "秦蕙田", "今本大戴礼乃作峭谬甚", sk.locate(note_at), (DD_SHAO,))
    jing = collation.layer(Layer.JING)
    assert jing is not None
    loci = tuple(x.with_notes((note,)) if x.lemma.text == "哨" else x for x in jing.loci)
    return collation.with_layer(jing.with_loci(loci)), witnesses


# --- JSON: read back from the document alone -------------------------------------------------------------


def decoded_tokens(doc: dict[str, Any]) -> list[tuple[str, str, int, int, int, str, str, int, int]]:
    """Every token of the tables, from the JSON alone: (siglum, layer, index, start, end, t, n, line, column)."""
    paths = {w["siglum"]: w for w in doc["witnesses"]}
    out = []
    for layer in doc["layers"]:
        table = layer["alignment"]
        for siglum, row in zip(table["witnesses"], table["table"], strict=True):
            starts = paths[siglum]["lines"]
            expected = 0
            for cell in row:
                for tok in cell or []:
                    index = tok.get("index", expected)
                    expected = index + 1
                    start = tok["start"]
                    line = bisect.bisect_right(starts, start)
                    column = start - starts[line - 1] + 1
                    # Every token has ``n``, as in CollateX's output: a missing one is a KeyError, never ``t``.
                    end = tok.get("end", start + 1)
                    out.append((siglum, layer["layer"], index, start, end, tok["t"], tok["n"], line, column))
    return out


# --- HTML: a page of a small collation, parsed -----------------------------------------------------------

# The base: a heading, a 經 passage under its run-in title with a 注 run inside it, a page
# break, a later commentator in small print and a 蕙田案 note.
HTML_SK: list[tuple[Layer, str, str, str | None, int]] = [
    (Layer.HEADING, "text", "钦定四库全书", None, 1),
    (Layer.MARKUP, "layout", "\n", None, 0),
    (Layer.HEADING, "text", "礼记投壶", "礼记投壶", 2),
    (Layer.JING, "text", "主人请曰某有枉矢哨壶请以乐宾", "礼记投壶", 3),
    (Layer.MARKUP, "layout", "(", None, 0),
    (Layer.MARKUP, "marker", "注", "注", 4),
    (Layer.ZHU, "text", "枉哨不正貌", "礼记投壶", 4),
    (Layer.MARKUP, "layout", ")\n\n", None, 0),
    (Layer.JING, "text", "宾曰子有旨酒执算嘉肴", "礼记投壶", 5),
    (Layer.MARKUP, "layout", "\n\u3000(", None, 0),
    (Layer.COMMENTARY, "attribution", "方氏悫曰", "方氏悫曰", 6),
    (Layer.COMMENTARY, "text", "矢以直为善", "方氏悫曰", 6),
    (Layer.MARKUP, "layout", ")\n\u3000\u3000\u3000\u3000", None, 0),
    (Layer.NOTE, "attribution", "蕙田案", "蕙田案", 7),
    (Layer.NOTE, "text", "今本大戴礼乃作峭谬甚", "蕙田案", 7),
]
HTML_ZS: list[tuple[Layer, str]] = [
    (Layer.JING, "主人請曰有枉矢哨壺請以樂賓"),
    (Layer.ZHU, "枉哨不正也"),
    (Layer.JING, "賓曰子有美酒執筭"),
]
# Aligned by hand ('-': no token). ZS lacks 某, reads 美 for 旨 and 筭 for 算, and ends
# before 嘉肴 (a fragment: not extant there). 請/请, 壺/壶, 賓/宾 differ by script only.
HTML_ROWS = {
    Layer.JING: {
        "SK": "主人请曰某有枉矢哨壶请以乐宾宾曰子有旨酒执算嘉肴",
        "ZS": "主人請曰-有枉矢哨壺請以樂賓賓曰子有美酒執筭--",
    },
    Layer.ZHU: {"SK": "枉哨不正貌", "ZS": "枉哨不正也"},
}
HTML_EXTENTS = {Layer.JING: {"ZS": (0, 21)}}


def base_witness(parts: list[tuple[Layer, str, str, str | None, int]] = HTML_SK) -> Witness:
    """The base witness from its parts, with a page mark at the start and one at the blank line."""
    text, spans, offset = "", [], 0
    for layer, role, words, label, unit in parts:
        spans.append(Span(offset, offset + len(words), layer, unit, role, label))
        text += words
        offset += len(words)
    second = text.index("宾曰")
    marks = (Mark(0, "page", "1a"), Mark(0, "line", "1"), Mark(second, "page", "1b"), Mark(second, "line", "1"))
    return Witness("SK", "四庫本", "sk.txt", text, "siku-wltk", spans=tuple(spans), marks=marks)


def zs_witness() -> Witness:
    """ZS: 經 and 注 one span each part, no printed pages."""
    text, spans = "", []
    for layer, words in HTML_ZS:
        spans.append(Span(len(text), len(text) + len(words), layer))
        text += words
    return Witness("ZS", "注疏本", "zs.txt", text, "zhushu", spans=tuple(spans))


def aligned(layer: Layer, rows: dict[str, str], streams: dict[str, tuple[Token, ...]]) -> LayerAlignment:
    """Columns from aligned strings: each character takes the witness's next token."""
    its = {s: iter(streams[s]) for s in rows}
    width = len(rows["SK"])
    columns = []
    for i in range(width):
        col: list[Token | None] = []
        for s, row in rows.items():
            tok = None if row[i] == "-" else next(its[s])
            assert tok is None or tok.t == row[i], (s, i, tok)
            col.append(tok)
        columns.append(tuple(col))
    extents = tuple(Extent(s, a, b) for s, (a, b) in HTML_EXTENTS.get(layer, {}).items())
    return LayerAlignment(layer, tuple(rows), tuple(columns), extents)


def parse(html: str) -> Any:
    """An HTML page parsed by lxml."""
    return lxml.html.document_fromstring(html)


def has_class(name: str) -> str:
    """An XPath condition: the element's ``class`` holds ``name``."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def text_of(element: Any) -> str:
    """An element's text without the page-break labels and insertion carets drawn into it."""
    out = [element.text or ""]
    for child in element:
        if not set(child.get("class", "").split()) & {"pb", "ins"}:
            out.append(text_of(child))
        out.append(child.tail or "")
    return "".join(out)


def page_of(built: tuple[Collation, Witness, dict[str, Witness]], **kwargs: Any) -> Any:
    """The page of :func:`html_collation`'s ``built`` (with ``build_html``'s ``kwargs``), parsed."""
    collation, sk, witnesses = built
    return parse(build_html(collation, sk, witnesses=witnesses, **kwargs))


def locus_by_lemma(collation: Collation, lemma: str) -> Locus:
    """The first locus whose lemma reads ``lemma``."""
    return next(x for x in collation.loci() if x.lemma.text == lemma)


def html_collation() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached:
    the collation, the base witness and all three witnesses."""
    sk, zs = base_witness(), zs_witness()
    dd = sparse_witness(("枉矢哨壺", "哨", "峭", ""))
    normalizer = Normalizer()
    witnesses = {"SK": sk, "ZS": zs, "DD": dd}
    layers = []
    for layer, rows in HTML_ROWS.items():
        streams = {w.siglum: tokenize(w, layer, normalizer) for w in (sk, zs)}
        layers.append(build_layer(aligned(layer, rows, streams), witnesses))
    note_start = sk.text.index("今本")
    note = AttachedNote("SK-n1", "秦蕙田", "今本大戴礼乃作峭谬甚", sk.locate(note_start), (DD_SHAO,))
    jing = layers[0]
    layers[0] = jing.with_loci(tuple(x.with_notes((note,)) if x.lemma.text == "哨" else x for x in jing.loci))
    collation = Collation(
        title="禮記·投壺",
        name="touhu",
        base="SK",
        witnesses=(
            WitnessInfo("SK", "四庫本", "sk.txt", "siku-wltk"),
            WitnessInfo("ZS", "注疏本", "zs.txt", "zhushu"),
            WitnessInfo("DD", "大戴禮", "dd.toml", "readings", sparse=True),
        ),
        layers=tuple(layers),
    )
    return collation, sk, witnesses


# --- review: a one-layer collation of hand-aligned rows, and a session deciding on it --------------------

CLOCK = "2024-05-01T10:00:00+08:00"  # when every test decision is made
# Three places read 哨/峭 (two with the same ten characters around them), two read 算/筭.
REVIEW_BASE = "主人请曰某有枉矢哨壶请以乐宾主人曰枉矢哨壶不足辞也敢辞主人曰枉矢哨壶不足辞也敢固设中执八算兴执算而立"
REVIEW_WIT = "主人请曰某有枉矢峭壶请以乐宾主人曰枉矢峭壶不足辞也敢辞主人曰枉矢峭壶不足辞也敢固设中执八筭兴执筭而立"
_REVIEW_VARIANTS = {"筭": "算"}  # a variant graph: orthographic, as the normalizer's tables have it


def _review_tokens(w: Witness) -> list[Token]:
    out = []
    for i, ch in enumerate(w.text):
        n = _REVIEW_VARIANTS.get(ch, t2s(ch))
        changes = (Change("variant-graph", ch, n, ChangeClass.ORTHOGRAPHIC),) if ch in _REVIEW_VARIANTS else ()
        out.append(Token(w.siglum, Layer.JING, i, i, i + 1, ch, n, changes=changes))
    return out


def collate_rows(rows: dict[str, str]) -> Collation:
    """A one-layer collation from aligned rows ('-' is an empty cell), base first; keys by t2s and 筭→算."""
    sigla = tuple(rows)
    ws = {s: plain_witness(s, rows[s].replace("-", "")) for s in sigla}
    streams = {s: iter(_review_tokens(ws[s])) for s in sigla}
    width = len(rows[sigla[0]])
    columns = tuple(tuple(None if rows[s][i] == "-" else next(streams[s]) for s in sigla) for i in range(width))
    result = build_layer(LayerAlignment(Layer.JING, sigla, columns), ws)
    infos = tuple(WitnessInfo(s, s, f"{s}.txt", "plain") for s in sigla)
    return Collation("投壺", "touhu", sigla[0], infos, (result,))


def review_session(collation: Collation, path: Path, editor: str = "editor") -> ReviewSession:
    """A review of ``collation`` deciding into ``path``, every decision made at :data:`CLOCK`."""
    return ReviewSession(collation, path, editor, clock=lambda: CLOCK)


def lemmas(c: Collation) -> list[tuple[str, str, int]]:
    """(lemma, first reading, base start) of every locus."""
    return [(x.lemma.text, x.readings[0].text, x.base_start) for x in c.loci()]


def shared_project(root: Path, base: str, files: dict[str, tuple[str, str]], work: str | None = None) -> Project:
    """A project of real witness files in ``../shared/witnesses`` (skipped where they are missing).

    ``files`` maps each siglum to (file name, label); the Kanripo gaiji table is named, as a
    project of Kanripo files would; ``work``, the project's ``work``, if given.
    """
    from conftest import SHARED, need_shared

    from collate.project import project_from_mapping

    folder = SHARED / "witnesses"
    witnesses = [
        {"siglum": s, "label": label, "path": str(need_shared(folder / name))} for s, (name, label) in files.items()
    ]
    gaiji = str(need_shared(SHARED / "data" / "kanripo-KR-Gaiji-charlist.org.txt"))
    table: dict[str, object] = {"base": base, "gaiji_table": gaiji, "witness": witnesses}
    if work is not None:
        table["work"] = work
    return project_from_mapping(table, root=root)
