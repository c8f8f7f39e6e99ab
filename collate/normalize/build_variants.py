"""Rebuild the shipped variant tables from Unihan: ``python -m collate.normalize.build_variants PATH``.

PATH is ``Unihan_Variants.txt`` (Unicode Character Database). Writes, into ``collate/data/``
(or ``--out DIR``):

- ``variants.tsv`` — graphic variants, on by default: kZVariant pairs, kSemanticVariant pairs a
  dictionary marks as the same character (a ``:T`` or ``:Z`` type, or the Hong Kong glyph
  standard, kHKGlyph), and the CJK compatibility ideographs with their unified counterparts;
- ``semantic_variants.tsv`` — the other kSemanticVariant pairs, off by default: a dictionary says
  the characters can stand for each other, not that they are one character (荅/答);
- ``script_pairs.tsv`` — the one-to-many kSimplifiedVariant/kTraditionalVariant entries (著 has
  the simplified forms 着 and 著): OpenCC gives one conversion a character, so a witness with the
  other (着 against 著) would come out substantive. These never fold: they relate two keys
  (:meth:`collate.normalize.Normalizer.relation` names them ``script``).

Left out of the variant tables: kSimplifiedVariant/kTraditionalVariant (the script rule's),
kSpecializedSemanticVariant (equivalent in some senses only), kSpoofingVariant (look-alikes),
and the pairs of the taboo table (the taboo rule explains them).
Each line maps a member of a class to the class's canonical member (see
:func:`collate.normalize.variants.preference`), so the file reads as ``variant → standard``.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path

from collate.normalize.tables import (
    SCRIPT_PAIRS,
    SEMANTIC_VARIANTS,
    VARIANTS,
    VariantPair,
    data_path,
    read_taboo,
)
from collate.normalize.variants import build_classes

# kHKGlyph pairs that are two words in classical texts, whatever modern Hong Kong usage says.
_NOT_GRAPHIC = frozenset({frozenset("台臺")})

_COMPATIBILITY = ((0xF900, 0xFAFF), (0x2F800, 0x2FA1F))


def parse_unihan(text: str) -> tuple[list[tuple[str, str, str, str]], list[str]]:
    """Rows (char, field, other, dictionary tags) and the file's header comment lines."""
    rows: list[tuple[str, str, str, str]] = []
    header: list[str] = []
    for line in text.splitlines():
        if line.startswith("#"):
            if not rows:
                header.append(line)
            continue
        if not line.strip():
            continue
        code, field, values = line.split("\t")
        for value in values.split():
            other, _, tags = value.partition("<")
            rows.append((_char(code), field, _char(other), tags))
    return rows, header


def _char(code: str) -> str:
    return chr(int(code.removeprefix("U+"), 16))


def is_graphic(field: str, tags: str) -> bool:
    """Whether a Unihan relation says the two are one character written two ways."""
    if field == "kZVariant":
        return True
    return any(":" in tag or tag == "kHKGlyph" for tag in tags.split(",") if tag)


def classify(
    rows: Iterable[tuple[str, str, str, str]], excluded: set[frozenset[str]]
) -> tuple[list[VariantPair], list[VariantPair]]:
    """Graphic and semantic-only pairs, each unordered pair once with all its sources."""
    tags_of: dict[frozenset[str], dict[str, set[str]]] = {}
    graphic: set[frozenset[str]] = set()
    order: list[tuple[str, str]] = []
    for a, field, b, tags in rows:
        if field not in ("kZVariant", "kSemanticVariant") or a == b:
            continue
        key = frozenset((a, b))
        if key in excluded:
            continue
        if key not in tags_of:
            tags_of[key] = {}
            order.append((a, b))
        tags_of[key].setdefault(field, set()).update(t for t in tags.split(",") if t)
        if is_graphic(field, tags) and key not in _NOT_GRAPHIC:
            graphic.add(key)
    pairs_g: list[VariantPair] = []
    pairs_s: list[VariantPair] = []
    for a, b in order:
        key = frozenset((a, b))
        source = " + ".join(
            f"Unihan {field}" + (f" ({','.join(sorted(tags))})" if tags else "")
            for field, tags in sorted(tags_of[key].items(), reverse=True)
        )
        (pairs_g if key in graphic else pairs_s).append(VariantPair(a, b, source))
    return pairs_g, pairs_s


def script_pairs(rows: Iterable[tuple[str, str, str, str]]) -> list[tuple[str, str, str]]:
    """(char, other, field) for each entry that gives a character several conversions, once a pair."""
    values: dict[tuple[str, str], list[str]] = {}
    for char, field, other, _ in rows:
        if field in ("kSimplifiedVariant", "kTraditionalVariant"):
            values.setdefault((char, field), []).append(other)
    seen: set[frozenset[str]] = set()
    pairs = []
    for (char, field), others in sorted(values.items(), key=lambda kv: (ord(kv[0][0]), kv[0][1])):
        if len(set(others)) < 2:
            continue
        for other in sorted(set(others) - {char}, key=ord):
            key = frozenset((char, other))
            if key not in seen:
                seen.add(key)
                pairs.append((char, other, field))
    return pairs


def compatibility_pairs() -> list[VariantPair]:
    """Each CJK compatibility ideograph with the unified ideograph it decomposes to."""
    pairs = []
    for lo, hi in _COMPATIBILITY:
        for cp in range(lo, hi + 1):
            decomposition = unicodedata.decomposition(chr(cp))
            if decomposition and " " not in decomposition and not decomposition.startswith("<"):
                pairs.append(VariantPair(chr(cp), _char(decomposition), "Unicode compatibility ideograph"))
    return pairs


def table_lines(pairs: Sequence[VariantPair]) -> list[str]:
    """``variant  standard  source`` lines, one per class member, sorted by standard."""
    mapping = build_classes(pairs)
    rows = sorted(mapping.items(), key=lambda kv: (ord(kv[1][0]), ord(kv[0])))
    return [f"{member}\t{canonical}\t{source}" for member, (canonical, source) in rows]


def _header(title: str, unihan: list[str], lines: int, what: str) -> str:
    notice = [line for line in unihan if any(w in line for w in ("Unicode", "©", "terms", "Date"))]
    return "\n".join(
        [
            f"# {title}",
            f"# {what}",
            "# Derived from Unihan_Variants.txt of the Unicode Character Database by",
            "# `python -m collate.normalize.build_variants Unihan_Variants.txt` (do not edit by hand:",
            "# add mappings to curated_variants.tsv or to the project). Canonical members chosen as",
            f"# described in docs/normalization.md. {lines} mappings; Python unicodedata "
            f"{unicodedata.unidata_version} for compatibility ideographs.",
            "# Format: variant<TAB>standard<TAB>source.",
            "#",
            "# The Unihan data is distributed under the Unicode License; its notice follows.",
            *notice,
            "",
        ]
    )


def build(unihan_path: Path, out: Path) -> tuple[int, int]:
    """Write both tables into ``out``; returns their sizes (graphic, semantic)."""
    rows, header = parse_unihan(unihan_path.read_text(encoding="utf-8"))
    excluded = {frozenset((f.taboo, f.substitute)) for f in read_taboo()}
    graphic, semantic = classify(rows, excluded)
    graphic_lines = table_lines(compatibility_pairs() + graphic)
    semantic_lines = table_lines(semantic)
    out.mkdir(parents=True, exist_ok=True)
    (out / VARIANTS).write_text(
        _header(
            "Graphic variants (異體字): the default variant-graph rule.",
            header,
            len(graphic_lines),
            "kZVariant; kSemanticVariant typed :T/:Z or kHKGlyph; CJK compatibility ideographs.",
        )
        + "\n".join(graphic_lines)
        + "\n",
        encoding="utf-8",
    )
    (out / SEMANTIC_VARIANTS).write_text(
        _header(
            "Semantic variants: the semantic-variant rule, off by default.",
            header,
            len(semantic_lines),
            "kSemanticVariant pairs not marked graphic (untyped dictionary sources).",
        )
        + "\n".join(semantic_lines)
        + "\n",
        encoding="utf-8",
    )
    pairs = script_pairs(rows)
    (out / SCRIPT_PAIRS).write_text(
        _header(
            "One-to-many script pairs: never folded; Normalizer.relation() names them `script`.",
            header,
            len(pairs),
            "kSimplifiedVariant/kTraditionalVariant entries with two or more values, each pair once.",
        ).replace("variant<TAB>standard<TAB>source", "char<TAB>other<TAB>field")
        + "".join(f"{a}\t{b}\t{field}\n" for a, b, field in pairs),
        encoding="utf-8",
    )
    return len(graphic_lines), len(semantic_lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: rebuild the tables, exit 0 (2 if the Unihan file cannot be read)."""
    parser = argparse.ArgumentParser(prog="python -m collate.normalize.build_variants", description=__doc__)
    parser.add_argument("unihan", type=Path, help="path to Unihan_Variants.txt")
    parser.add_argument("--out", type=Path, default=data_path(VARIANTS).parent, help="folder for the tables")
    args = parser.parse_args(argv)
    if not args.unihan.is_file():
        parser.error(f"{args.unihan}: no such file")
    build(args.unihan, args.out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
