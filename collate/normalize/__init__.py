"""Normalization: each token gets a comparison key ``n`` and the list of changes that made it.

Rules are named, ordered and switchable (``[normalize]`` in the project file). A token's
original character ``t`` is never touched; ``n`` is what alignment compares, and ``changes``
say why ``n`` differs from ``t``, so the apparatus can tell an orthographic variant from a
substantive one and say which table made two readings the same. No Unicode normalization
(NFC/NFKC) happens anywhere: NFC would turn a compatibility ideograph into another character
without a word, NFKC full-width punctuation into ASCII.

The rules (see ``docs/normalization.md``):

- ``placeholder`` — ? □ ■ 〓, PUA, unresolved entities: a unique key, never substantive;
- ``artifact`` — a witness's declared substitution characters: same key, marked uncertain;
- ``taboo`` — 避諱 forms (玄→元 …): orthographic, cause taboo;
- ``variant-graph`` — graphic variants (異體字) from Unihan, the dictionaries (CJKVI: 漢語大字典,
  教育部異體字字典 …) and the curated table; never the pairs of ``never_fold.tsv`` or a loan;
- ``semantic-variant`` — characters that stand for each other (荅/答): off by default;
- ``script`` — traditional and simplified compare equal (OpenCC).

:meth:`Normalizer.relation` relates two keys that stay different: a one-to-many script pair
(著/着) or a loan (通假, 罷/疲); see :mod:`collate.normalize.relations`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from collate.model import Change, ChangeClass, ReadingClass, RuleInfo
from collate.model.notation import NOTATION_SIGNS
from collate.normalize import cache as classes_cache
from collate.normalize.config import DEFAULT_RULES, RULE_NAMES, NormalizeConfig, parse_section
from collate.normalize.explain import compare, explain, reading_class, rule_counts
from collate.normalize.placeholder import KEY_MARK, ArtifactRule, PlaceholderRule, is_placeholder_char
from collate.normalize.relations import Relations
from collate.normalize.script import ScriptRule
from collate.normalize.tables import (
    CJKVI,
    CJKVI_LOANS,
    CJKVI_VARIANTS,
    SEMANTIC_VARIANTS,
    UNIHAN,
    VARIANTS,
    NeverFold,
    VariantPair,
    data_path,
    read_built_variants,
    read_cjkvi_loans,
    read_cjkvi_variants,
    read_curated_variants,
    read_never_fold,
    read_script_pairs,
    read_taboo,
)
from collate.normalize.taboo import TabooRule
from collate.normalize.variants import VariantRule


class _Artifacts(Protocol):
    """A witness as the project declares it, as far as the normalizer asks: its placeholder characters."""

    @property
    def siglum(self) -> str: ...

    @property
    def artifacts(self) -> tuple[str, ...]: ...


class ProjectSettings(Protocol):
    """What the normalizer reads of a project (:class:`collate.project.Project` is one).

    A protocol, so that the fold, which every stage and the project file's own checks consult,
    imports no project.
    """

    @property
    def sections(self) -> Mapping[str, Any]: ...

    @property
    def witnesses(self) -> Sequence[_Artifacts]: ...

    @property
    def root(self) -> Path: ...

    @property
    def source(self) -> Path | None: ...


# A drum score's signs (鼓 ○, 鼙 □, 半 a half beat), as the e-texts write them: one sign each.
_NOTATION = "drum notation: 〇 is the score's ○, □ and ◍ its 囗"

# Passes over the folding rules. One is usually enough; a second catches a character that
# OpenCC sends into a variant class it was not in, so that every path ends on the same key.
_PASSES = 3

_DESCRIPTIONS = {
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

_SOURCES = {
    "placeholder": PlaceholderRule.source,
    "artifact": "project file: each witness's `artifacts`",
    "taboo": "collate/data/taboo.tsv (陳垣《史諱舉例》)",
    "variant-graph": "Unihan 15.0 (collate/data/variants.tsv); CJKVI (collate/data/cjkvi_variants.tsv); "
    "collate/data/curated_variants.tsv",
    "semantic-variant": "Unihan 15.0 (collate/data/semantic_variants.tsv); collate/data/curated_variants.tsv",
    "script": "OpenCC",
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


class Normalizer:
    """Turns a token's text into its comparison key, explaining every change.

    Results per character are cached: normalizing is a dictionary lookup once a character
    has been seen.
    """

    def __init__(
        self, config: NormalizeConfig | None = None, artifacts: Mapping[str, Iterable[str]] | None = None
    ) -> None:
        self.config = config or NormalizeConfig()
        rules = self.config.rules
        self._placeholder = PlaceholderRule() if "placeholder" in rules else None
        artifact_sets = {siglum: frozenset(chars) for siglum, chars in (artifacts or {}).items()}
        self._artifact = ArtifactRule(artifact_sets) if "artifact" in rules else None
        curated = read_curated_variants()
        never = (*read_never_fold(), *self.config.never_fold)
        self._rules = _fold_rules(self.config, curated, never)
        self._folds = tuple(self._rules[name] for name in rules if name in self._rules)
        self._cache: dict[str, tuple[str, tuple[Change, ...]]] = {}
        related = (*self.config.variants, *curated)
        self._relations = Relations(
            lambda char: self._fold(char)[0],
            [*(p for p in related if p.rule == "script-pair"), *read_script_pairs()] if "script" in rules else [],
            [*(p for p in related if p.rule == "loan"), *read_cjkvi_loans()],
            never,
        )

    @classmethod
    def from_project(cls, project: ProjectSettings) -> Normalizer:
        """The normalizer a project's ``[normalize]`` table and witnesses' ``artifacts`` ask for."""
        return build_normalizer(
            project.sections.get("normalize", {}),
            {w.siglum: w.artifacts for w in project.witnesses},
            root=project.root,
            where=str(project.source or project.root),
        )

    @property
    def rules(self) -> tuple[str, ...]:
        """The enabled rules, in order."""
        return self.config.rules

    def normalize(
        self, t: str, *, witness: str = "", start: int = 0, placeholder: bool = False, notation: bool = False
    ) -> tuple[str, tuple[Change, ...]]:
        """The comparison key of a token's text ``t`` and the changes that made it.

        ``witness`` and ``start`` (the raw offset) make a placeholder's key unique and
        select the witness's artifacts; ``placeholder`` says the tokenizer found one by
        its context (a ``?`` between CJK characters, an unresolved entity). ``notation``
        says the token stands in a run of notation (the drum scores of 投壺, ○□○○□):
        there its signs are text, never lost glyphs, and 囗/□ and ○/〇 are one sign each.
        """
        if notation and t in NOTATION_SIGNS:
            # Every sign of a score says so (its change), the same sign written alike included:
            # the apparatus lists a score's readings apart (``ReadingClass.NOTATION``).
            sign = NOTATION_SIGNS[t]
            return sign, (Change("notation", t, sign, ChangeClass.NOTATION, _NOTATION),)
        if len(t) == 1 and not placeholder:
            # The cache never holds a placeholder character while the placeholder rule is on:
            # both paths into it test for placeholders first.
            hit = self._cache.get(t)
            if hit is not None and (self._artifact is None or t not in self._artifact.artifacts.get(witness, ())):
                return hit
        if self._placeholder is not None:
            change = self._placeholder.change(t, witness, start, placeholder)
            if change is not None:
                return change.after, (change,)
        mark = self._artifact.change(t, witness) if self._artifact is not None else None
        parts = [self._fold(c) for c in t]
        n = "".join(p[0] for p in parts)
        changes = tuple(c for p in parts for c in p[1])
        return n, ((mark, *changes) if mark else changes)

    def fold(self, text: str) -> str:
        """The comparison key of a string, character by character (placeholders become U+FFFC).

        For matching phrases (a readings file's ``at``) against tokens' keys.
        """
        out = []
        for char in text:
            if self._placeholder is not None and is_placeholder_char(char):
                out.append(KEY_MARK)
            else:
                out.append(self._fold(char)[0])
        return "".join(out)

    def relation(self, a: str, b: str) -> Change | None:
        """The one Change that relates two single characters whose keys differ, or None.

        ``Change("script", a, b, ORTHOGRAPHIC, source)`` for a one-to-many script pair (著/着,
        閒/間), ``Change("loan", a, b, LOAN, "漢語大字典 通假")`` for a loan (通假); None for
        anything else, a never-fold pair (己/已) included, and for characters with one key.
        Cached per pair.
        """
        return self._relations.relation(a, b)

    def lookalike(self, a: str, b: str) -> bool:
        """Whether two single characters are look-alikes (形近), whose confusion a collator must see."""
        return self._relations.lookalike(a, b)

    def never_folds(self, a: str, b: str) -> bool:
        """Whether two characters are kept apart whatever a dictionary says (the never-fold list)."""
        return self._relations.never_folds(a, b)

    def explain(self, a: str, b: str) -> tuple[Change, ...]:
        """Why the strings ``a`` and ``b`` are the same after normalization: their changes.

        Raises ValueError if they are not the same.
        """
        na, ca = self.normalize(a)
        nb, cb = self.normalize(b)
        if na != nb:
            raise ValueError(f"{a!r} and {b!r} normalize differently ({na!r}, {nb!r})")
        return ca + tuple(c for c in cb if c not in ca)

    def describe(self) -> tuple[RuleInfo, ...]:
        """Every rule: the enabled ones in order, then the others, with their sources."""
        infos = []
        for name in (*self.rules, *(r for r in RULE_NAMES if r not in self.rules)):
            enabled = name in self.rules
            source = _SOURCES[name]
            if enabled and name in self._rules:
                source = self._rules[name].source
            elif enabled and name == "artifact" and self._artifact is not None:
                source = self._artifact.source
            infos.append(RuleInfo(name, _DESCRIPTIONS[name], enabled, source))
        return tuple(infos)

    def table_sizes(self) -> dict[str, int]:
        """How many characters each enabled table rule maps."""
        sizes = {}
        for name, rule in self._rules.items():
            if isinstance(rule, VariantRule):
                sizes[name] = rule.size
            elif isinstance(rule, TabooRule):
                sizes[name] = len(rule.table)
        return sizes

    def _fold(self, char: str) -> tuple[str, tuple[Change, ...]]:
        hit = self._cache.get(char)
        if hit is None:
            hit = self._cache[char] = self._fold_uncached(char)
        return hit

    def _fold_uncached(self, char: str) -> tuple[str, tuple[Change, ...]]:
        current = char
        changes: list[Change] = []
        for _ in range(_PASSES):
            start = current
            step: list[Change] = []
            for rule in self._folds:
                if len(current) != 1:
                    break
                result = rule.apply(current)
                if result is None or result[0] == current:
                    continue
                step.append(Change(rule.name, current, result[0], rule.cls, result[1]))
                current = result[0]
            if current == start:
                # This pass came back where it started (宾→賓→宾): nothing to record.
                break
            changes.extend(step)
        if current == char:
            return char, ()
        return current, tuple(changes)


@lru_cache(maxsize=8)
def _fold_rules(
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
        script = rules["script"] = ScriptRule(config.script, supplement)
    # With the script rule on, the other rules also catch the simplified forms of what they map.
    image = script.image if script else None
    image_source = f"{script.source} form" if script else ""
    if "taboo" in config.rules:
        rules["taboo"] = TabooRule(read_taboo(), config.taboo_eras, image)
    wanted = [name for name in ("variant-graph", "semantic-variant") if name in config.rules]
    if not wanted:
        return rules
    import opencc

    tables = (VARIANTS, SEMANTIC_VARIANTS, CJKVI_VARIANTS, CJKVI_LOANS)
    settings = repr((config, curated, never, getattr(opencc, "__version__", "")))
    key = classes_cache.digest((data_path(t) for t in tables), settings)
    cached = classes_cache.load(key)
    if cached is not None and all(name in cached for name in wanted):
        for name in wanted:
            source, table = cached[name]
            rules[name] = VariantRule.of_table(name, table, description=_DESCRIPTIONS[name], source=source)
        return rules
    built = _variant_rules(config, curated, never, image, image_source)
    classes_cache.store(key, {name: (rule.source, rule.table) for name, rule in built.items()})
    return {**rules, **built}


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
            description=_DESCRIPTIONS["variant-graph"],
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
            description=_DESCRIPTIONS["semantic-variant"],
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


def build_normalizer(
    section: Mapping[str, Any],
    artifacts_by_siglum: Mapping[str, Iterable[str]],
    *,
    root: Path | None = None,
    where: str = "project",
) -> Normalizer:
    """A normalizer from a ``[normalize]`` table and the witnesses' declared artifacts."""
    return Normalizer(parse_section(section, root, where), artifacts_by_siglum)


__all__ = [
    "DEFAULT_RULES",
    "RULE_NAMES",
    "NormalizeConfig",
    "Normalizer",
    "ReadingClass",
    "RuleInfo",
    "build_normalizer",
    "compare",
    "explain",
    "reading_class",
    "rule_counts",
]
