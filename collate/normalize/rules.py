"""The folding rules built from the tables: what each rule is and where its pairs come from, and
the rules that map characters (taboo, variant graphs, script) built once per configuration, the
variant classes kept on disk (:mod:`collate.normalize.cache`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Protocol

import collate.normalize.cache as classes_cache
from collate.model import ChangeClass
from collate.normalize.config import NormalizeConfig
from collate.normalize.placeholder import ArtifactRule, PlaceholderRule
from collate.normalize.script import ScriptRule, merged_forms
from collate.normalize.tables import (
    CJKVI,
    CJKVI_LOANS,
    CJKVI_VARIANTS,
    SCRIPT_MERGERS,
    SEMANTIC_VARIANTS,
    UNIHAN,
    VARIANTS,
    NeverFold,
    VariantPair,
    data_path,
    read_built_variants,
    read_cjkvi_loans,
    read_cjkvi_variants,
    read_script_mergers,
    read_taboo,
)
from collate.normalize.taboo import TabooRule
from collate.normalize.variants import VariantRule

DESCRIPTIONS = {
    "placeholder": PlaceholderRule.description,
    "artifact": ArtifactRule.description,
    "taboo": TabooRule.description,
    "variant-graph": "graphic variants (異體字) compare equal: Unihan kZVariant and graphic "
    "kSemanticVariant pairs, the dictionaries' (漢語大字典, 教育部異體字字典, 第一批異體字整理表), "
    "the curated table, the project's own; never a never-fold pair or a loan (通假)",
    "semantic-variant": "characters that stand for each other without being one character (荅/答, 巳/已): "
    "Unihan kSemanticVariant and the curated table",
    "script": ScriptRule.description,
}

# The same rules as a Chinese edition's header states them (the publication form speaks Chinese).
DESCRIPTIONS_CHINESE = {
    "placeholder": "數字化之佔位符（漢字間之?、□■〓●、U+FFFD、私用區字、未解之實體）不與任何字相合，亦不為異文",
    "artifact": "某本電子文本以他字代所闕之字者（各本所聲明），視為存疑",
    "taboo": "避諱字與其本字同",
    "variant-graph": "異體字同：Unihan 之 kZVariant 及字形之 kSemanticVariant，《漢語大字典》《教育部異體字字典》"
    "《第一批異體字整理表》，所訂之表，本項目之表；不可合併之字及通假不在此列",
    "semantic-variant": "互用而非一字者（荅與答、巳與已）同：Unihan 之 kSemanticVariant 及所訂之表",
    "script": "簡繁字同（OpenCC，逐字）；簡化所併之不同繁體字（後與后、脩與修）仍各為一字",
}

SOURCES = {
    "placeholder": PlaceholderRule.source,
    "artifact": "project file: each witness's `artifacts`",
    "taboo": "collate/data/taboo.tsv (陳垣《史諱舉例》)",
    "variant-graph": "Unihan 15.0 (collate/data/variants.tsv); CJKVI (collate/data/cjkvi_variants.tsv); "
    "collate/data/curated_variants.tsv",
    "semantic-variant": "Unihan 15.0 (collate/data/semantic_variants.tsv); collate/data/curated_variants.tsv",
    "script": "OpenCC; collate/data/script_mergers.tsv (OpenCC's STCharacters)",
}


class FoldRule(Protocol):
    """A rule that maps one character to another (taboo, variant graphs, script)."""

    name: str
    cls: ChangeClass
    description: str
    source: str

    def apply(self, char: str) -> tuple[str, str] | None:
        """(after, source) if the rule changes ``char``, else None."""
        ...


@lru_cache(maxsize=8)
def fold_rules(
    config: NormalizeConfig, curated: tuple[VariantPair, ...], never: tuple[NeverFold, ...]
) -> Mapping[str, FoldRule]:
    """The enabled rules that map characters, built from the shipped and the project's tables.

    Built once per configuration (the classes of some 20,000 dictionary pairs take a while):
    the rules are read-only, so normalizers of one configuration share them.
    """
    rules: dict[str, FoldRule] = {}
    mine = config.variants
    script = None
    if "script" in config.rules:
        supplement = {p.variant: p.standard for p in (*mine, *curated) if p.rule == "script"}
        # Every form OpenCC lists with several candidates, until the variant classes say which
        # candidates are one character after all (below).
        merged = merged_forms(config.script, read_script_mergers())
        script = rules["script"] = ScriptRule(config.script, supplement, merged)
    # With the script rule on, the other rules also catch the simplified forms of what they map.
    image = script.image if script else None
    image_source = f"{script.source} form" if script else ""
    if "taboo" in config.rules:
        rules["taboo"] = TabooRule(read_taboo(), config.taboo_eras, image)
    wanted = [name for name in ("variant-graph", "semantic-variant") if name in config.rules]
    if wanted:
        rules.update(_cached_variant_rules(config, curated, never, wanted, image, image_source))
    if script is not None:
        rules["script"] = script.keeping(*_distinct(script.mergers, [r for n, r in rules.items() if n in wanted]))
    return rules


def _cached_variant_rules(
    config: NormalizeConfig,
    curated: tuple[VariantPair, ...],
    never: tuple[NeverFold, ...],
    wanted: Sequence[str],
    image: Callable[[str], str] | None,
    image_source: str,
) -> Mapping[str, VariantRule]:
    """The variant rules, from the classes kept on disk if they are there, else built and kept."""
    import opencc

    tables = (VARIANTS, SEMANTIC_VARIANTS, CJKVI_VARIANTS, CJKVI_LOANS, SCRIPT_MERGERS)
    settings = repr((config, curated, never, getattr(opencc, "__version__", "")))
    key = classes_cache.digest((data_path(t) for t in tables), settings)
    cached = classes_cache.load(key)
    if cached is not None and all(name in cached for name in wanted):
        return {
            name: VariantRule.of_table(name, cached[name][1], description=DESCRIPTIONS[name], source=cached[name][0])
            for name in wanted
        }
    built = _variant_rules(config, curated, never, image, image_source)
    classes_cache.store(key, {name: (rule.source, rule.table) for name, rule in built.items()})
    return built


def _distinct(
    mergers: Mapping[str, frozenset[str]], variants: Iterable[FoldRule]
) -> tuple[dict[str, frozenset[str]], dict[str, frozenset[str]]]:
    """The merged forms whose candidates are distinct characters for the variant rules; and for
    each, the representatives of the candidates' classes the script rule keeps apart from it.

    Candidates one class holds (鑑 and 鑒, both 鉴) are one character written two ways: the script
    rule folds them as OpenCC does. Candidates of two classes or more (後, 后) stay apart, each by
    its class's representative, except the form's own class (the variant rules may make 里's
    compatibility ideograph the representative of 里's class: it is still 里).
    """
    rules = list(variants)

    def canonical(char: str) -> str:
        for rule in rules:
            result = rule.apply(char)
            char = result[0] if result is not None and result[0] else char
        return char

    kept: dict[str, frozenset[str]] = {}
    apart: dict[str, frozenset[str]] = {}
    for form, candidates in mergers.items():
        classes = {canonical(c) for c in candidates}
        if len(classes) >= 2:
            kept[form] = candidates
            apart[form] = frozenset(classes - {canonical(form)})
    return kept, apart


def _variant_rules(
    config: NormalizeConfig,
    curated: tuple[VariantPair, ...],
    never: tuple[NeverFold, ...],
    image: Callable[[str], str] | None,
    image_source: str,
) -> dict[str, VariantRule]:
    """The variant rules, their classes built from the dictionaries and the project's pairs."""
    rules: dict[str, VariantRule] = {}
    mine = config.variants
    graphic = [p for p in (*mine, *curated) if p.rule == "variant-graph"]
    graphic += read_built_variants(VARIANTS)
    kept_apart = _kept_apart(config, curated, never)
    if "variant-graph" in config.rules:
        confirmed = {(p.variant, p.standard) for p in (*mine, *curated) if p.rule == "confirm"}
        dictionaries = [
            p for p in read_cjkvi_variants() if p.rule == "variant-graph" or (p.variant, p.standard) in confirmed
        ]
        loans = {frozenset((p.variant, p.standard)) for p in (*mine, *curated, *read_cjkvi_loans()) if p.rule == "loan"}
        # A loan is another word: the graphic rule never folds it, whatever a table says, but a
        # pair the editors (curated) or the project name as graphic wins over the loan table.
        chosen = {frozenset((p.variant, p.standard)) for p in graphic if p.priority < UNIHAN}
        rules["variant-graph"] = VariantRule(
            "variant-graph",
            graphic,
            description=DESCRIPTIONS["variant-graph"],
            source=_variant_source([*graphic, *dictionaries], "variants.tsv, cjkvi_variants.tsv"),
            image=image,
            image_source=image_source,
            attached=dictionaries,
            never=kept_apart | (loans - chosen),
        )
    if "semantic-variant" in config.rules:
        semantic = [p for p in (*mine, *curated) if p.rule == "semantic-variant"]
        semantic += read_built_variants(SEMANTIC_VARIANTS)
        # Its classes include the graphic ones, so a graphic class's representative leads on
        # to the semantic class's.
        rules["semantic-variant"] = VariantRule(
            "semantic-variant",
            [*semantic, *graphic],
            description=DESCRIPTIONS["semantic-variant"],
            source=_variant_source(semantic, "semantic_variants.tsv"),
            image=image,
            image_source=image_source,
            never=kept_apart,
        )
    return rules


def _kept_apart(
    config: NormalizeConfig, curated: tuple[VariantPair, ...], never: tuple[NeverFold, ...]
) -> frozenset[frozenset[str]]:
    """The never-fold pairs, but for those the project itself names as variants."""
    mine = {frozenset((p.variant, p.standard)) for p in config.variants if p.rule != "loan"}
    own = {p.key for p in config.never_fold}
    return frozenset(p.key for p in never if p.key in own or p.key not in mine)


def _variant_source(pairs: Iterable[VariantPair], table: str) -> str:
    counts: dict[str, int] = {}
    for p in pairs:
        kind = "Unihan 15.0" if p.source.startswith(("Unihan", "Unicode")) else p.source
        kind = "CJKVI" if p.priority == CJKVI else kind
        counts[kind] = counts.get(kind, 0) + 1
    listed = "; ".join(f"{kind} ({n} pairs)" for kind, n in counts.items())
    return f"{listed}; see collate/data/{table}"
