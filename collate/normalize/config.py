"""The ``[normalize]`` table of the project file: which rules, in which order, with which tables.

```toml
[normalize]
rules = ["placeholder", "artifact", "taboo", "variant-graph", "script"]   # the default
semantic = false            # true adds "semantic-variant" after "variant-graph"
script = "t2s"              # OpenCC conversion of the script rule (t2s, tw2s, hk2s)
taboo_eras = ["qing"]       # taboo tables that apply (qing, qing-late, tang)
variants = { "髙" = "高" }   # the project's own graphic variants (variant → standard)
variant_tables = ["variants.tsv"]   # more, as tables (variant, standard, rule, note), or
                                    # regularization tables (.toml: a rule may hold in some witnesses or layers)
never_fold = ["己已巳", "大太"]      # groups that never fold, added to never_fold.tsv
loans = { "罷" = "疲" }             # the project's own 通假 pairs (loan → original)
```
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from collate.errors import ProjectError
from collate.normalize.regularizations import ScopedPair, as_pairs, is_regularization_table, read_regularizations
from collate.normalize.script import SCRIPTS
from collate.normalize.tables import PROJECT, NeverFold, VariantPair, read_curated_variants, read_taboo

RULE_NAMES = ("placeholder", "artifact", "taboo", "variant-graph", "semantic-variant", "script")
DEFAULT_RULES = ("placeholder", "artifact", "taboo", "variant-graph", "script")
_KEYS = ("rules", "semantic", "script", "taboo_eras", "variants", "variant_tables", "never_fold", "loans")


@dataclass(frozen=True, slots=True)
class NormalizeConfig:
    """The normalizer's settings, checked."""

    rules: tuple[str, ...] = DEFAULT_RULES
    script: str = "t2s"
    taboo_eras: tuple[str, ...] = ("qing",)
    variants: tuple[VariantPair, ...] = ()
    never_fold: tuple[NeverFold, ...] = ()
    # The regularizations that hold in some witnesses or layers only: applied token by token, never
    # in the variant classes (a class is one for every witness).
    scoped: tuple[ScopedPair, ...] = ()


def parse_section(section: Mapping[str, Any], root: Path | None = None, where: str = "project") -> NormalizeConfig:
    """Check a ``[normalize]`` table; every problem is a :class:`ProjectError` naming the key."""
    here = f"{where} [normalize]"
    for key in section:
        if key not in _KEYS:
            raise ProjectError(f"unknown key `{key}`", where=here, hint="known keys: " + ", ".join(_KEYS))
    rules = _names(section.get("rules", list(DEFAULT_RULES)), "rules", here)
    for name in rules:
        if name not in RULE_NAMES:
            raise ProjectError(f"unknown rule {name!r}", where=here, hint="known rules: " + ", ".join(RULE_NAMES))
    if len(set(rules)) != len(rules):
        raise ProjectError("a rule is listed twice in `rules`", where=here)
    semantic = section.get("semantic")
    if semantic is not None and not isinstance(semantic, bool):
        raise ProjectError("`semantic` must be true or false", where=here)
    if semantic is False and "semantic-variant" in rules:
        raise ProjectError(
            "`semantic = false` but `rules` lists semantic-variant", where=here, hint="drop one of the two"
        )
    if semantic and "semantic-variant" not in rules:
        at = rules.index("variant-graph") + 1 if "variant-graph" in rules else _before_script(rules)
        rules = (*rules[:at], "semantic-variant", *rules[at:])
    script = section.get("script", "t2s")
    if script not in SCRIPTS:
        raise ProjectError(f"unknown script conversion {script!r}", where=here, hint="use one of " + ", ".join(SCRIPTS))
    eras = _names(section.get("taboo_eras", ["qing"]), "taboo_eras", here)
    known = sorted({f.era for f in read_taboo()})
    for era in eras:
        if era not in known:
            raise ProjectError(f"unknown taboo era {era!r}", where=here, hint="known eras: " + ", ".join(known))
    variants, scoped = _project_variants(section, root or Path.cwd(), here)
    never = never_fold_of(section, here)
    kept_apart = {p.key for p in never}
    # A regularization of some witnesses or layers is a graphic variant there.
    folding = [(p.variant, p.standard, p.source) for p in variants if p.rule in ("variant-graph", "semantic-variant")]
    for variant, standard, source in (*folding, *((p.variant, p.standard, p.source) for p in scoped)):
        if frozenset((variant, standard)) in kept_apart:
            raise ProjectError(
                f"{variant}/{standard} is both a variant ({source}) and in `never_fold`",
                where=here,
                hint="drop one of the two",
            )
    return NormalizeConfig(rules, script, eras, variants, never, scoped)


def _before_script(rules: tuple[str, ...]) -> int:
    return rules.index("script") if "script" in rules else len(rules)


def _names(value: object, key: str, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProjectError(f"`{key}` must be a list of strings", where=where)
    return tuple(value)


def never_fold_of(section: Mapping[str, Any], where: str) -> tuple[NeverFold, ...]:
    """The pairs a project's ``[normalize] never_fold`` groups keep apart (``"己已巳"``: three pairs)."""
    pairs: list[NeverFold] = []
    for group in _names(section.get("never_fold", []), "never_fold", where):
        if len(group) < 2 or len(set(group)) != len(group):
            raise ProjectError(
                f"`never_fold`: {group!r} is not a group of two or more different characters",
                where=where,
                hint='write the characters kept apart together, e.g. "己已巳"',
            )
        pairs.extend(
            NeverFold(a, b, "project file", "project file") for i, a in enumerate(group) for b in group[i + 1 :]
        )
    return tuple(pairs)


def _project_variants(
    section: Mapping[str, Any], root: Path, where: str
) -> tuple[tuple[VariantPair, ...], tuple[ScopedPair, ...]]:
    pairs: list[VariantPair] = []
    scoped: list[ScopedPair] = []
    inline = section.get("variants", {})
    if not isinstance(inline, dict):
        raise ProjectError("`variants` must be a table of variant = standard", where=where)
    for variant, standard in inline.items():
        if not isinstance(standard, str) or len(variant) != 1 or len(standard) != 1:
            raise ProjectError(
                f"`variants`: {variant!r} = {standard!r} is not one character to one character", where=where
            )
        pairs.append(VariantPair(variant, standard, "project file", "variant-graph", PROJECT))
    loans = section.get("loans", {})
    if not isinstance(loans, dict):
        raise ProjectError("`loans` must be a table of loan = original", where=where)
    for loan, original in loans.items():
        if not isinstance(original, str) or len(loan) != 1 or len(original) != 1 or loan == original:
            raise ProjectError(f"`loans`: {loan!r} = {original!r} is not one character to another", where=where)
        pairs.append(VariantPair(loan, original, "project file", "loan", PROJECT))
    for name in _names(section.get("variant_tables", []), "variant_tables", where):
        path = Path(name)
        path = path if path.is_absolute() else root / path
        if is_regularization_table(name):
            everywhere, some = as_pairs(read_regularizations(path), f"project table {name}")
            pairs.extend(everywhere)
            scoped.extend(some)
        else:
            pairs.extend(read_curated_variants(path, priority=PROJECT, source=f"project table {name}"))
    return tuple(pairs), tuple(scoped)
