"""Normalization: each token gets a comparison key ``n`` and the list of changes that made it.

Rules are named, ordered and switchable (``[normalize]`` in the project file). A token's
original character ``t`` is never touched; ``n`` is what the apparatus compares (the aligner
matches ``n`` made a search key, :meth:`Normalizer.loosen`: 於 and 于 align), and ``changes``
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
- ``script`` — traditional and simplified compare equal (OpenCC); distinct traditional
  characters that simplification merged (後/后, 脩/修) keep their own keys.

:meth:`Normalizer.relation` relates two keys that stay different: a one-to-many script pair
(著/着), a merged form a simplified witness writes for a traditional character (后 for 後) or a
loan (通假, 罷/疲); see :mod:`collate.normalize.relations`. Searching (a note's quotation, a
readings file's place, a work's title) is done on :meth:`Normalizer.fold`, which merges again
what simplification merged: a phrase is found in either script.

The rules that map characters are built from the tables in :mod:`collate.normalize.rules`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from collate.model import Change, ChangeClass, ReadingClass, RuleInfo
from collate.model.notation import NOTATION_SIGNS
from collate.normalize.config import DEFAULT_RULES, RULE_NAMES, NormalizeConfig, parse_section
from collate.normalize.explain import compare, explain, reading_class, rule_counts
from collate.normalize.placeholder import KEY_MARK, ArtifactRule, PlaceholderRule, is_placeholder_char
from collate.normalize.regularizations import ScopedPair
from collate.normalize.relations import Relations
from collate.normalize.rules import DESCRIPTIONS, SOURCES, fold_rules
from collate.normalize.script import ScriptRule
from collate.normalize.tables import read_cjkvi_loans, read_curated_variants, read_never_fold, read_script_pairs
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

# Where a gaiji glyph (an entity's, or a rare glyph written as itself) is keyed as the everyday
# character its table gives.
_EVERYDAY = "Kanripo gaiji table: the everyday character of the glyph"

# Passes over the folding rules. One is usually enough; a second catches a character that
# OpenCC sends into a variant class it was not in, so that every path ends on the same key.
_PASSES = 3


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
        # The scoped regularizations make no classes: left out, an editor's new rule for one witness
        # finds the classes already built (and kept on disk) for the rest of the configuration.
        self._rules = fold_rules(replace(self.config, scoped=()), curated, never)
        # Scoped regularizations by their variant; the graphic rule's switch is theirs too.
        self._scoped: dict[str, tuple[ScopedPair, ...]] = {}
        if "variant-graph" in rules:
            for pair in self.config.scoped:
                self._scoped[pair.variant] = (*self._scoped.get(pair.variant, ()), pair)
        self._folds = tuple(self._rules[name] for name in rules if name in self._rules)
        self._cache: dict[str, tuple[str, tuple[Change, ...]]] = {}
        script = self._rules.get("script")
        self._script = script if isinstance(script, ScriptRule) else None
        self._loose: dict[str, str] = {}
        related = (*self.config.variants, *curated)
        self._relations = Relations(
            lambda char: self._fold(char)[0],
            [*(p for p in related if p.rule == "script-pair"), *read_script_pairs()] if "script" in rules else [],
            [*(p for p in related if p.rule == "loan"), *read_cjkvi_loans()],
            never,
            self._script,
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
        self,
        t: str,
        *,
        witness: str = "",
        start: int = 0,
        placeholder: bool = False,
        notation: bool = False,
        layer: str = "",
    ) -> tuple[str, tuple[Change, ...]]:
        """The comparison key of a token's text ``t`` and the changes that made it.

        ``witness`` and ``start`` (the raw offset) make a placeholder's key unique and
        select the witness's artifacts; ``placeholder`` says the tokenizer found one by
        its context (a ``?`` between CJK characters, an unresolved entity). ``notation``
        says the token stands in a run of notation (the drum scores of 投壺, ○□○○□):
        there its signs are text, never lost glyphs, and 囗/□ and ○/〇 are one sign each.
        ``witness`` and ``layer`` (its value, ``jing``) select the project's regularizations
        that hold in some witnesses or layers only.
        """
        if notation and t in NOTATION_SIGNS:
            # Every sign of a score says so (its change), the same sign written alike included:
            # the apparatus lists a score's readings apart (``ReadingClass.NOTATION``).
            sign = NOTATION_SIGNS[t]
            return sign, (Change("notation", t, sign, ChangeClass.NOTATION, _NOTATION),)
        # A character a scoped regularization may hold for is never answered from the cache: the
        # cache is one for every witness and layer.
        scoped = self._scoped.get(t) if self._scoped and not placeholder else None
        if len(t) == 1 and not placeholder and scoped is None:
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
        pair = next((p for p in scoped if p.holds(witness, layer)), None) if scoped else None
        if pair is not None:
            # Read as the standard, and so keyed as it is: the editor's rule first, then the
            # standard's own folds (its script form …), as a variant class's member is.
            n, folded = self._fold(pair.standard)
            change = Change("variant-graph", t, pair.standard, ChangeClass.ORTHOGRAPHIC, pair.source)
            return n, ((mark, change, *folded) if mark else (change, *folded))
        parts = [self._fold(c) for c in t]
        n = "".join(p[0] for p in parts)
        changes = tuple(c for p in parts for c in p[1])
        return n, ((mark, *changes) if mark else changes)

    def as_everyday(self, t: str, everyday: str) -> tuple[str, tuple[Change, ...]] | None:
        """The key and changes of a glyph ``t`` read as ``everyday``, the character its gaiji table
        gives as its everyday form (𤓰, everyday 瓜): a graphic variant on the table's word; None
        where the graphic rule is off or ``everyday`` keys as ``t`` already."""
        if "variant-graph" not in self.config.rules:
            return None
        key, folded = self._fold(everyday)
        if key == self._fold(t)[0]:
            return None
        return key, (Change("variant-graph", t, everyday, ChangeClass.ORTHOGRAPHIC, _EVERYDAY), *folded)

    def key(self, text: str) -> str:
        """The comparison key of a string, character by character (placeholders become U+FFFC).

        What :meth:`normalize` gives each of its characters: 後 and 后 are two keys.
        """
        out = []
        for char in text:
            if self._placeholder is not None and is_placeholder_char(char):
                out.append(KEY_MARK)
            else:
                out.append(self._fold(char)[0])
        return "".join(out)

    def fold(self, text: str) -> str:
        """The search key of a string: its comparison key with simplification's mergers merged again.

        For finding a phrase in a text of either script (a readings file's ``at``, a note's
        quotation, a work's title): 然後 and 然后 are one phrase here, though 後 and 后 are two
        readings in the apparatus. A token's key becomes a search key with :meth:`loosen`.
        """
        return self.loosen(self.key(text))

    def loosen(self, keys: str) -> str:
        """Comparison keys made search keys: a key simplification merged (後) as its merged form (后)."""
        if self._script is None:
            return keys
        out = []
        for k in keys:
            hit = self._loose.get(k)
            if hit is None:
                hit = self._loose[k] = self._script.declined(k) or k
            out.append(hit)
        return "".join(out)

    def merged_keys(self, key: str) -> tuple[str, ...]:
        """The comparison keys one search key stands for: 后 → 后 後 (simplification merged them)."""
        candidates = self._script.mergers.get(key, ()) if self._script is not None else ()
        return tuple(dict.fromkeys((key, *sorted(self._fold(c)[0] for c in candidates))))

    def relation(self, a: str, b: str, *, simplified: tuple[bool, bool] = (False, False)) -> Change | None:
        """The one Change that relates two single characters whose keys differ, or None.

        ``Change("script", a, b, ORTHOGRAPHIC, source)`` for a one-to-many script pair (著/着,
        閒/間) and for a merged form written in a simplified text against a character it stands
        for (后 against 後); ``Change("loan", a, b, LOAN, "漢語大字典 通假")`` for a loan (通假);
        None for anything else, a never-fold pair (己/已) included, and for characters with one
        key. ``simplified`` says whether ``a`` and ``b`` stand in simplified texts: a 后 of a
        traditional text is 后, not 後. Cached per pair.
        """
        return self._relations.relation(a, b, simplified)

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
            source = SOURCES[name]
            if enabled and name in self._rules:
                source = self._rules[name].source
            elif enabled and name == "artifact" and self._artifact is not None:
                source = self._artifact.source
            infos.append(RuleInfo(name, DESCRIPTIONS[name], enabled, source))
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
