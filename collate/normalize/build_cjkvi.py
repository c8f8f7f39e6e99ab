"""Rebuild the dictionary tables from CJKVI: ``python -m collate.normalize.build_cjkvi DIR``.

DIR is a checkout of ``cjkvi/cjkvi-variants`` (the 漢字データベース project's variant data).
Writes, into ``collate/data/`` (or ``--out DIR``):

- ``cjkvi_variants.tsv`` — graphic variants (異體字) the dictionaries scholars use agree on:
  漢語大字典 (``hydzd/variant``), 教育部異體字字典 (``twedu/variant``), 第一批異體字整理表
  (``dypytz/variant``, without the pairs later revoked) and Unicode's source separations
  (``ucs-scs/variant``: one character encoded twice because a source standard had both);
- ``cjkvi_loans.tsv`` — 漢語大字典's 通假 pairs (``hydcd/borrowed``): a different word written for
  another. They never fold; :meth:`collate.normalize.Normalizer.relation` names them ``loan``.
- ``cjkvi_related.tsv`` — every pair any of the tables relates, however weakly (the Japanese and
  family-register tables, the CJKVI project's own, and the dictionaries' everyday pairs that
  ``cjkvi_variants.tsv`` leaves out), with the relations that say so, and the look-alikes
  (``cjkvi/non-cognate``: same shape, different characters). They never fold either: where a
  witness reads one where another reads the other, the apparatus classes the pair by them
  (a print form, orthographic; a look-alike, substantive with the cause 形近), and a print's
  habit found in the collation may rest on them (:mod:`collate.apparatus.habits`).

The dictionaries are big and chain distinct words: 叚 is a variant of 假 and of 段, 已 of 以, 巳
of 已, 太 of 泰 and 泰 of 太, 土 of 社 and of 士, 王 of 玉, 景 of 影. Taken as a graph, they make
one class of half the common characters. So a pair is shipped only when (in this order):

1. it is one ideograph to another, and OpenCC does not already give them one key (a pair the
   script rule explains, 閑/闲, is the script rule's: it would only rename the cause). Two
   characters simplification merged (脩/修, both 修; ``script_mergers.tsv``) are not the script
   rule's: it keeps them apart, so a dictionary's word on them is kept;
2. neither is a simplified form (those are the script rule's too) and the pair is not a 通假
   pair of the loan table (罷/疲: 漢語大字典 lists it among both);
3. the variant is not an everyday character (Big5 level 1 or GB2312 level 1). This is the
   filter that matters. A print form (偝, 竒, 夲, 靣) is rare by nature; an everyday character
   the dictionaries list as a variant is a word of its own in most texts: 王 of 玉, 景 of 影
   (both everyday), 主 of 炷 (the wick: folding 主 would rename every 主人). Only a curated entry
   can fold an everyday character;
4. the variant has one standard: where the sources name several (叚: 假 by three sources, 段 by
   one), the one most sources name wins, and a tie leaves the variant out;
5. a variant that Big5 encodes (篚, 臑, 酢, 絜: words of the 禮 texts that 漢語大字典 lists as
   variants of 匪, 蠕, 醋, 潔 in one sense, often as 古今字) is shipped marked ``confirm``: it
   attaches only where ``curated_variants.tsv`` (rule ``confirm``) or the project says so, and
   then with the dictionary as its source (偝 → 背, 漢語大字典);
6. no chain: no character is both a variant and a standard of shipped pairs (it would carry its
   own variants into another class); it keeps the role more sources support (夲 is 本's variant
   for three sources, the standard of 𠦍 𠦂 夵 for two: 夲 → 本 stays, they go).

At run time the pairs only *attach* a variant to one class (see
:func:`collate.normalize.variants.build_classes`): they never merge two classes of the Unihan or
curated tables, and the never-fold list removes any of them. The output is sorted and carries the
SHA-256 of each input file, so a rebuild from the same files is byte-identical (with the same
OpenCC: steps 1 and 2 ask it).
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from collections import defaultdict
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

from collate.model.chars import is_everyday
from collate.normalize.script import convert, convert_all, is_simplified_form, merged_forms, opencc_version
from collate.normalize.tables import (
    CJKVI_LOANS,
    CJKVI_RELATED,
    CJKVI_VARIANTS,
    RELATION_LABELS,
    data_path,
    read_script_mergers,
)
from collate.normalize.variants import preference

# Graphic sources: file, the relations taken from it, and whether its pairs have a direction
# (standard first). Source separations are symmetric: the more common member is the standard.
GRAPHIC_SOURCES = (
    ("hydzd-variants.txt", "hydzd/variant", True),
    ("twedu-variants.txt", "twedu/variant", True),
    ("dypytz-variants.txt", "dypytz/variant", True),
    ("ucs-scs.txt", "ucs-scs/variant", False),
)
LOAN_SOURCE = ("hydzd-borrowed.txt", "hydcd/borrowed")
# Every relation of a pair of ideographs that says they are one character in some usage, however
# weak, and the look-alikes; file -> relations. Not here: the simplified and revoked relations
# (the script rule's; pairs restored as words of their own), the loans (their own table), the
# numeric, radical and non-CJK tables (numbers, components, symbols), and the Zhuang characters.
RELATED_SOURCES = (
    ("hydzd-variants.txt", ("hydzd/variant",)),
    ("twedu-variants.txt", ("twedu/variant",)),
    ("dypytz-variants.txt", ("dypytz/variant",)),
    ("ucs-scs.txt", ("ucs-scs/variant",)),
    ("cjkvi-variants.txt", ("cjkvi/variant",)),
    ("duplicate-chars.txt", ("cjkvi/duplicate",)),
    ("joyo-variants.txt", ("joyo/variant",)),
    ("jinmei-variants.txt", ("jinmei1/variant", "jinmei2/variant")),
    ("hyogai-variants.txt", ("hyogai/variant",)),
    ("jisx0212-variants.txt", ("jisx0212/variant",)),
    ("jisx0213-variants.txt", ("jisx0213/variant",)),
    ("koseki-variants.txt", ("koseki/variant",)),
    ("non-cognates.txt", ("cjkvi/non-cognate",)),
)
OLD_STYLE = ("jp-old-style.txt", "jp/old-style")

# Left out on purpose: ``hydzd/simplified`` and ``cjkvi-simplified`` (the script rule's),
# ``dypytz/variant/1956…1997`` (pairs the state revoked: the characters were restored as words of
# their own), ``cjkvi-variants`` (関連字: related, not the same), ``non-cognates`` (same shape,
# different characters), ``jp-old-style`` and the JIS/koseki tables (Japanese usage: 弁 for 辨, 辯,
# 瓣; 芸 for 藝), ``radical-variants`` and ``non-cjk`` (components and look-alike non-ideographs).

_IDEOGRAPHS = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF))


def is_ideograph(char: str) -> bool:
    """A CJK unified or compatibility ideograph, in any plane."""
    return len(char) == 1 and any(lo <= ord(char) <= hi for lo, hi in _IDEOGRAPHS)


def in_big5(char: str) -> bool:
    """Whether Big5 encodes ``char`` (13,053 characters a traditional-script standard keeps apart)."""
    try:
        char.encode("big5")
    except UnicodeEncodeError:
        return False
    return True


def one_key(a: str, b: str) -> bool:
    """Whether the script rule gives ``a`` and ``b`` one key: OpenCC folds both into one form, and
    they are not two of the characters simplification merged into it (後 and 后, both 后)."""
    form = convert("t2s", a)
    if form != convert("t2s", b):
        return False
    candidates = _merged().get(form, frozenset())
    return not (a in candidates and b in candidates)


@cache
def _merged() -> dict[str, frozenset[str]]:
    return merged_forms("t2s", read_script_mergers())


def read_relations(path: Path, relation: str) -> list[tuple[str, str, list[str]]]:
    """``(first, third, rest)`` of every ``first,relation,third[,rest]`` line of a CJKVI file."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        fields = line.split(",")
        if len(fields) >= 3 and fields[1] == relation:
            rows.append((fields[0], fields[2], fields[3:]))
    return rows


def graphic_candidates(root: Path) -> dict[str, dict[str, set[str]]]:
    """variant → standard → the relations that say so (one ideograph to another)."""
    found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for name, relation, directed in GRAPHIC_SOURCES:
        for first, third, _ in read_relations(root / name, relation):
            if first == third or not (is_ideograph(first) and is_ideograph(third)):
                continue
            standard, variant = first, third
            if not directed and preference(variant) < preference(standard):
                standard, variant = variant, standard
            found[variant][standard].add(relation)
    return found


def loan_pairs(root: Path) -> list[tuple[str, str, str]]:
    """(借字, 本字, page) of the 通假 table, each unordered pair once, in file order."""
    name, relation = LOAN_SOURCE
    seen: set[frozenset[str]] = set()
    pairs = []
    for original, loan, rest in read_relations(root / name, relation):
        key = frozenset((loan, original))
        if loan == original or key in seen or not (is_ideograph(loan) and is_ideograph(original)):
            continue
        seen.add(key)
        pairs.append((loan, original, rest[0] if rest else ""))
    return pairs


def select(
    candidates: dict[str, dict[str, set[str]]], loans: Iterable[frozenset[str]]
) -> tuple[list[tuple[str, str, str, str]], dict[str, int]]:
    """The shipped ``(variant, standard, relations, confirm)`` and how many pairs each step left out."""
    loan_keys = set(loans)
    convert_all("t2s", {c for v, ss in candidates.items() for c in (v, *ss)})
    convert_all("s2t", {c for v, ss in candidates.items() for c in (v, *ss)})
    dropped = dict.fromkeys(("script", "simplified or loan", "everyday", "ambiguous", "chain"), 0)
    chosen: dict[str, tuple[str, set[str]]] = {}
    for variant in sorted(candidates):
        kept: dict[str, set[str]] = {}
        for standard, relations in sorted(candidates[variant].items()):
            if one_key(variant, standard):
                dropped["script"] += 1
            elif (
                is_simplified_form(variant)
                or is_simplified_form(standard)
                or frozenset((variant, standard)) in loan_keys
            ):
                dropped["simplified or loan"] += 1
            elif is_everyday(variant):
                dropped["everyday"] += 1
            else:
                kept[standard] = relations
        if not kept:
            continue
        ranked = sorted(kept.items(), key=lambda kv: (-len(kv[1]), kv[0]))
        if len(ranked) > 1 and len(ranked[0][1]) == len(ranked[1][1]):
            dropped["ambiguous"] += len(ranked)
            continue
        dropped["ambiguous"] += len(ranked) - 1
        chosen[variant] = ranked[0]
    # A character both a variant and a standard would chain: keep the role more sources
    # support (夲 is 本 for three sources, the standard of 𠦍 𠦂 夵 for two: 夲 → 本 stays and
    # they go), the standard's on a tie.
    support: dict[str, int] = defaultdict(int)
    for standard, relations in chosen.values():
        support[standard] = max(support[standard], len(relations))
    as_variant = {v for v in chosen if v in support and len(chosen[v][1]) > support[v]}
    rows = []
    for variant, (standard, relations) in sorted(chosen.items(), key=lambda kv: (kv[1][0], kv[0])):
        if (variant in support and variant not in as_variant) or standard in as_variant:
            dropped["chain"] += 1
            continue
        relation = ",".join(r for _, r, _ in GRAPHIC_SOURCES if r in relations)
        rows.append((variant, standard, relation, "confirm" if in_big5(variant) else ""))
    return rows, dropped


def related_pairs(root: Path) -> list[tuple[str, str, str]]:
    """``(a, b, relations)`` for every unordered pair of ideographs a table relates, ``a < b``.

    Pairs one key already (the script rule's: 閑/闲) are left out; ``relations`` lists every
    relation that names the pair, in the order of :data:`RELATED_SOURCES`.
    """
    found: dict[tuple[str, str], list[str]] = defaultdict(list)

    def add(a: str, b: str, relation: str) -> None:
        if a != b and is_ideograph(a) and is_ideograph(b):
            pair = (min(a, b), max(a, b))
            if relation not in found[pair]:
                found[pair].append(relation)

    for name, relations in RELATED_SOURCES:
        for relation in relations:
            for first, third, _ in read_relations(root / name, relation):
                add(first, third, relation)
    # The Japanese old-style table is two columns, each with a variation selector after the character.
    name, relation = OLD_STYLE
    for line in (root / name).read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or "\t" not in line:
            continue
        left, right = line.split("\t")[:2]
        if left and right:
            add(left[0], right[0], relation)
    chars = {c for pair in found for c in pair}
    convert_all("t2s", chars)
    order = [r for _, rs in RELATED_SOURCES for r in rs] + [relation]
    return [(a, b, ",".join(sorted(rs, key=order.index))) for (a, b), rs in sorted(found.items()) if not one_key(a, b)]


def _digests(root: Path, names: Iterable[str]) -> list[str]:
    return [f"#   {name}  sha256 {hashlib.sha256((root / name).read_bytes()).hexdigest()}" for name in names]


def _header(title: str, what: list[str], root: Path, names: Iterable[str], fmt: str) -> list[str]:
    return [
        f"# {title}",
        *(f"# {line}" for line in what),
        "# Derived from the CJKVI variant tables (github.com/cjkvi/cjkvi-variants) by",
        "# `python -m collate.normalize.build_cjkvi PATH/TO/cjkvi-variants` (do not edit by hand: add",
        "# pairs to curated_variants.tsv, never_fold.tsv or the project). Inputs:",
        *_digests(root, names),
        f"# OpenCC {opencc_version()} and script_mergers.tsv decided which pairs are the script rule's.",
        "# The data are compiled by the 漢字データベース project (kanji-database.sourceforge.net), whose",
        "# homepage puts its variant data under the MIT licence: Copyright (c) the CJKVI Database /",
        "# 漢字データベース project. Permission is hereby granted, free of charge, to any person obtaining",
        "# a copy of this data, to deal in it without restriction, provided this notice is kept;",
        '# it is provided "as is", without warranty of any kind.',
        f"# Format: {fmt}. Relations: " + "; ".join(f"{r} = {label}" for r, label in RELATION_LABELS.items()),
        "",
    ]


def build(root: Path, out: Path) -> tuple[int, int, dict[str, int]]:
    """Write both tables into ``out``; returns their sizes and what each filter left out."""
    loans = loan_pairs(root)
    candidates = graphic_candidates(root)
    rows, dropped = select(candidates, (frozenset((a, b)) for a, b, _ in loans))
    total = sum(len(s) for s in candidates.values())
    per_source = {r: sum(r in row[2].split(",") for row in rows) for _, r, _ in GRAPHIC_SOURCES}
    confirm = sum(1 for row in rows if row[3])
    summary = [
        f"{len(rows)} pairs of {total} candidates; left out: "
        + ", ".join(f"{n} {why}" for why, n in dropped.items())
        + " (see the build module's docstring).",
        "Pairs per relation: " + ", ".join(f"{r} {n}" for r, n in per_source.items()) + ".",
        f"{confirm} pairs marked `confirm` (the variant is a Big5 character) attach only where",
        "curated_variants.tsv (or the project) confirms them.",
    ]
    out.mkdir(parents=True, exist_ok=True)
    names = [name for name, _, _ in GRAPHIC_SOURCES] + [LOAN_SOURCE[0]]
    lines = _header(
        "Graphic variants (異體字) of the dictionaries: the variant-graph rule attaches them to classes.",
        summary,
        root,
        names,
        "variant<TAB>standard<TAB>relations (comma-separated, each a source that says so)<TAB>confirm",
    )
    lines += [f"{v}\t{s}\t{rel}\t{confirm}".rstrip("\t") for v, s, rel, confirm in rows]
    (out / CJKVI_VARIANTS).write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines = _header(
        "Loan characters (通假) of 漢語大字典: never folded; Normalizer.relation() names them `loan`.",
        [f"{len(loans)} pairs (each unordered pair once, in the file's order)."],
        root,
        [LOAN_SOURCE[0]],
        "loan (借字)<TAB>original (本字)<TAB>relation<TAB>page of the dictionary's table",
    )
    lines += [f"{loan}\t{original}\t{LOAN_SOURCE[1]}\t{page}" for loan, original, page in loans]
    (out / CJKVI_LOANS).write_text("\n".join(lines) + "\n", encoding="utf-8")
    related = related_pairs(root)
    lines = _header(
        "Pairs any table relates, however weakly, and the look-alikes: never folded.",
        [
            f"{len(related)} unordered pairs of ideographs. The apparatus classes a witness's reading of one",
            "for the other by them: a print form (orthographic) unless the only relation is cjkvi/non-cognate",
            "(a look-alike: substantive, cause 形近); a print's habit may rest on them.",
        ],
        root,
        [name for name, _ in RELATED_SOURCES] + [OLD_STYLE[0]],
        "a<TAB>b<TAB>relations (comma-separated), a before b in code point order",
    )
    lines += [f"{a}\t{b}\t{rel}" for a, b, rel in related]
    (out / CJKVI_RELATED).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(rows), len(loans), dropped


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: rebuild the tables, exit 0 (2 if the folder lacks a CJKVI file)."""
    parser = argparse.ArgumentParser(prog="python -m collate.normalize.build_cjkvi", description=__doc__)
    parser.add_argument("cjkvi", type=Path, help="folder of the cjkvi-variants files")
    parser.add_argument("--out", type=Path, default=data_path(CJKVI_VARIANTS).parent, help="folder for the tables")
    args = parser.parse_args(argv)
    for name in (
        [n for n, _, _ in GRAPHIC_SOURCES] + [LOAN_SOURCE[0]] + [n for n, _ in RELATED_SOURCES] + [OLD_STYLE[0]]
    ):
        if not (args.cjkvi / name).is_file():
            parser.error(f"{args.cjkvi / name}: no such file")
    build(args.cjkvi, args.out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
