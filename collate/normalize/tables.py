"""The normalization tables: shipped ones in ``collate/data/`` and project ones in the same format.

Every table is tab-separated text, one mapping a line, ``#`` comments (the header names the
source). Reading a table never guesses: a malformed line is a :class:`ProjectError` naming
``file:line``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import collate.normalize.cache as related_cache
from collate.decode import check_regular_file
from collate.errors import ProjectError

VARIANTS = "variants.tsv"
SEMANTIC_VARIANTS = "semantic_variants.tsv"
CURATED_VARIANTS = "curated_variants.tsv"
TABOO = "taboo.tsv"
CJKVI_VARIANTS = "cjkvi_variants.tsv"
CJKVI_LOANS = "cjkvi_loans.tsv"
CJKVI_RELATED = "cjkvi_related.tsv"
SCRIPT_PAIRS = "script_pairs.tsv"
SCRIPT_MERGERS = "script_mergers.tsv"
NEVER_FOLD = "never_fold.tsv"

# Rules a mapping of the curated table (or a project's) can belong to. The first three fold;
# ``loan`` (通假) and ``script-pair`` (one word in some senses, split by simplification:
# 閒/間) only relate two keys (:meth:`collate.normalize.Normalizer.relation`), never fold;
# ``confirm`` lets a dictionary pair marked ``confirm`` in cjkvi_variants.tsv attach (偝 → 背).
VARIANT_RULES = ("variant-graph", "semantic-variant", "script", "loan", "script-pair", "confirm")

# Priorities of the tables a variant pair comes from (lower wins when classes merge).
# Dictionary pairs (CJKVI) never merge classes: they only attach a variant to one class.
PROJECT, CURATED, UNIHAN, CJKVI = 0, 1, 2, 3

# What each CJKVI relation is, as an editor would cite it (the Change's source).
RELATION_LABELS = {
    "hydzd/variant": "漢語大字典",
    "twedu/variant": "教育部異體字字典",
    "dypytz/variant": "第一批異體字整理表",
    "ucs-scs/variant": "UCS 原規格分離",
    "hydcd/borrowed": "漢語大字典 通假",
    "cjkvi/variant": "CJKVI 異體",
    "cjkvi/duplicate": "CJKVI 重複",
    "cjkvi/non-cognate": "CJKVI 形近",
    "joyo/variant": "常用漢字表",
    "jinmei1/variant": "人名用漢字",
    "jinmei2/variant": "人名用漢字",
    "hyogai/variant": "表外漢字字体表",
    "jisx0212/variant": "JIS X 0212",
    "jisx0213/variant": "JIS X 0213",
    "koseki/variant": "戸籍統一文字",
    "jp/old-style": "JIS 旧字体",
}
# The dictionaries' graphic relations: a pair they name is a print form even if it is a loan too.
DICTIONARY_RELATIONS = ("hydzd/variant", "twedu/variant", "dypytz/variant", "ucs-scs/variant")
LOOKALIKE = "cjkvi/non-cognate"


@dataclass(frozen=True, slots=True)
class VariantPair:
    """``variant`` and ``standard`` are the same character for ``rule``, on ``source``'s word.

    ``priority`` says whose ``standard`` wins when classes merge: 0 the project's own
    tables, 1 the curated table, 2 the tables built from Unihan.
    """

    variant: str
    standard: str
    source: str
    rule: str = "variant-graph"
    priority: int = UNIHAN


@dataclass(frozen=True, slots=True)
class NeverFold:
    """Two characters a collator must see apart, whatever a dictionary says, and why."""

    a: str
    b: str
    reason: str
    source: str = "never_fold.tsv"
    lookalike: bool = False  # a graphic confusion (形近): the reading's cause says so

    @property
    def key(self) -> frozenset[str]:
        """The unordered pair."""
        return frozenset((self.a, self.b))


@dataclass(frozen=True, slots=True)
class TabooForm:
    """A taboo character, what is written in its place, the era and the name avoided."""

    taboo: str
    substitute: str
    era: str
    name: str


def data_path(name: str) -> Path:
    """Where a shipped table lives."""
    return Path(str(resources.files("collate") / "data" / name))


def read_rows(path: Path, columns: int, shown: str | None = None) -> list[tuple[int, list[str]]]:
    """The data lines of a table as (line number, at least ``columns`` fields)."""
    where = shown or str(path)
    try:
        # A FIFO or a device would wait forever: refused before it is opened.
        check_regular_file(path, where, ProjectError, hint="give the path of a table (a text file)")
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise ProjectError("table not found", where=where) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectError(f"table cannot be read: {exc}", where=where) from None
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) < columns or not all(fields[:columns]):
            raise ProjectError(
                f"expected {columns} tab-separated fields, found {len(fields)}",
                where=f"{where}:{number}",
                hint="separate the columns with one tab",
            )
        rows.append((number, fields))
    return rows


@cache
def read_built_variants(name: str) -> tuple[VariantPair, ...]:
    """A table built from Unihan: ``variant  standard  source``."""
    rule = "semantic-variant" if name == SEMANTIC_VARIANTS else "variant-graph"
    return tuple(VariantPair(f[0], f[1], f[2], rule, UNIHAN) for _, f in read_rows(data_path(name), 3))


@cache
def read_cjkvi_variants() -> tuple[VariantPair, ...]:
    """The dictionaries' graphic pairs: ``variant  standard  relations [confirm]`` (see build_cjkvi).

    A pair marked ``confirm`` comes with the rule ``confirm``: it attaches only if confirmed.
    """
    return tuple(
        VariantPair(f[0], f[1], relation_source(f[2]), "confirm" if f[3:] == ["confirm"] else "variant-graph", CJKVI)
        for _, f in read_rows(data_path(CJKVI_VARIANTS), 3)
    )


@cache
def read_cjkvi_loans() -> tuple[VariantPair, ...]:
    """The dictionary's 通假 pairs: ``loan  original  relation  page``."""
    return tuple(
        VariantPair(f[0], f[1], RELATION_LABELS["hydcd/borrowed"], "loan", CJKVI)
        for _, f in read_rows(data_path(CJKVI_LOANS), 3)
    )


@cache
def read_script_pairs() -> tuple[VariantPair, ...]:
    """Unihan's one-to-many script pairs: ``char  other  field``."""
    return tuple(
        VariantPair(f[0], f[1], f"Unihan {f[2]}", "script-pair", UNIHAN)
        for _, f in read_rows(data_path(SCRIPT_PAIRS), 3)
    )


@cache
def read_script_mergers() -> dict[str, tuple[str, ...]]:
    """OpenCC's simplified characters with several traditional candidates: ``simplified  candidates``.

    Built by :mod:`collate.normalize.build_mergers` from OpenCC's own s2t dictionary; the
    candidates are space-separated, in OpenCC's order (后 → 後 后, 发 → 發 髮).
    """
    return {f[0]: tuple(f[1].split()) for _, f in read_rows(data_path(SCRIPT_MERGERS), 2)}


def read_never_fold(path: Path | None = None, *, source: str = "never_fold.tsv") -> tuple[NeverFold, ...]:
    """Pairs that never fold: ``char  char  reason``."""
    table = path or data_path(NEVER_FOLD)
    pairs = []
    for number, fields in read_rows(table, 3):
        _check_char(fields[0], table, number)
        _check_char(fields[1], table, number)
        if fields[0] == fields[1]:
            raise ProjectError("a character cannot be kept apart from itself", where=f"{table}:{number}")
        pairs.append(NeverFold(fields[0], fields[1], fields[2], source, fields[3:4] == ["形近"]))
    return tuple(pairs)


def pair_key(a: str, b: str) -> str:
    """The unordered pair ``a``, ``b`` as :func:`read_related` keys it: in order, a tab between (no field holds one)."""
    return f"{a}\t{b}" if a <= b else f"{b}\t{a}"


@cache
def read_related() -> dict[str, str]:
    """Every pair any dictionary relates, however weakly, and the look-alikes: ``a  b  relations``.

    By :func:`pair_key`. Read from the cache of the parsed table (:mod:`collate.normalize.cache`)
    where it holds this table's bytes: its 40,000 lines take a tenth of a second to read as text,
    on every run that asks how two characters are related.
    """
    path = data_path(CJKVI_RELATED)
    # The key's shape is in the name too: pairs keyed another way are never read back as these.
    key = related_cache.digest([path], f"related {pair_key('a', 'b')!r}")
    pairs = related_cache.load_related(key)
    if pairs is None:
        pairs = {pair_key(f[0], f[1]): f[2] for _, f in read_rows(path, 3)}
        related_cache.store_related(key, pairs)
    return pairs


def relation_source(relations: str) -> str:
    """``hydzd/variant,twedu/variant`` as the dictionaries' names: 漢語大字典; 教育部異體字字典."""
    return "; ".join(RELATION_LABELS.get(r, r) for r in relations.split(","))


def read_curated_variants(
    path: Path | None = None, *, priority: int = CURATED, source: str = "curated"
) -> tuple[VariantPair, ...]:
    """A hand-made table: ``variant  standard  rule  note`` (rule defaults to variant-graph)."""
    table = path or data_path(CURATED_VARIANTS)
    pairs = []
    for number, fields in read_rows(table, 2):
        rule = fields[2] if len(fields) > 2 and fields[2] else "variant-graph"
        if rule not in VARIANT_RULES:
            raise ProjectError(
                f"unknown rule {rule!r}", where=f"{table}:{number}", hint="use " + ", ".join(VARIANT_RULES)
            )
        _check_char(fields[0], table, number)
        _check_char(fields[1], table, number)
        pairs.append(VariantPair(fields[0], fields[1], source, rule, priority))
    return tuple(pairs)


def read_taboo(path: Path | None = None) -> tuple[TabooForm, ...]:
    """The taboo table: ``taboo  substitute  era  name  note``."""
    table = path or data_path(TABOO)
    forms = []
    for number, fields in read_rows(table, 4):
        _check_char(fields[0], table, number)
        _check_char(fields[1], table, number)
        forms.append(TabooForm(fields[0], fields[1], fields[2], fields[3]))
    return tuple(forms)


def _check_char(value: str, table: Path, number: int) -> None:
    # A mapping is character to character: the tokens it applies to are single characters.
    if len(value) != 1:
        raise ProjectError(
            f"{value!r} is not one character", where=f"{table}:{number}", hint="map single characters only"
        )
