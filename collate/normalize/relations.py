"""Relations between two keys that stay different: one-to-many script pairs and loans (通假).

Folding makes two characters one key; a relation says how two *different* keys are related
without making them equal, so that alignment still sees two readings and the apparatus can
class them:

- ``script`` — a character with several conversions (著 is 着 or 著 in simplified; 閒 is 間 or
  閑): OpenCC gives one, so the other comes out as a different key. Unihan's one-to-many
  kTraditionalVariant/kSimplifiedVariant entries (``script_pairs.tsv``) and the curated
  ``script-pair`` lines say which. Orthographic, not an apparatus entry. And a form that
  simplification merged from distinct characters (后 for 後 and 后, ``script_mergers.tsv``),
  written in a simplified text, against a character it stands for: the simplified 后 is the 後
  or the 后 of a traditional text, whichever that text reads. Between two traditional texts a
  merger relates nothing by script (後 and 后 are two characters); a dictionary may still relate
  them (a print form, a loan) like any pair.
- ``loan`` — 漢語大字典's 通假 pairs (``cjkvi_loans.tsv``), the curated and the project's ``loan``
  lines: another word's character, which an editor notes (罷 for 疲, 說 for 悅).
- ``print-form`` — a pair any dictionary relates, however weakly (``cjkvi_related.tsv``: the
  dictionaries' everyday pairs the variant tables leave out, 亨/烹 孰/熟 絜/潔; the Japanese
  tables, 譲/讓): one character in two print forms, orthographic. Where a pair is a loan too,
  the loan wins, unless only 漢語大字典's 通假 table names it and a dictionary (漢語大字典, 教育部,
  第一批) names it a variant as well (廷/庭): a loan the curated table or the project names stays one.
- ``print-form`` too — a rare graph, one no common standard encodes (neither Big5 nor GB 2312: 掦,
  𥙿, 伹) and no table knows (a known one, 賔 or 爲, is keyed as its character's form and compared
  so), against a common character no table relates it to or calls its look-alike: the form a
  print cut for the character (揚, 裕, 但), which an e-text keeps as the nearest Unicode has; no
  other recension's word is written only in a graph the standards and the tables leave out.
- never-fold pairs (``never_fold.tsv``) relate to nothing: a collator must see them. Nor do
  look-alikes (CJKVI's non-cognates: 日/曰): :meth:`Relations.lookalike` names them, for the
  apparatus to give their readings the cause 形近.

Pairs are looked up on the characters as written and on their keys, so a simplified witness
meets a table written in traditional characters (说/悦 is 說/悅's loan).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from collate.model import Change, ChangeClass
from collate.model.chars import is_rare
from collate.normalize.script import ScriptRule
from collate.normalize.tables import (
    DICTIONARY_RELATIONS,
    LOOKALIKE,
    RELATION_LABELS,
    NeverFold,
    VariantPair,
    pair_key,
    read_related,
    relation_source,
)

# The source of the loans only 漢語大字典's 通假 table names (the curated table's and a project's differ).
DICTIONARY_LOANS = RELATION_LABELS["hydcd/borrowed"]
# What relates a rare graph (in neither Big5 nor GB 2312) to a common character no table relates it to.
RARE_GRAPH = "a rare graph (in neither Big5 nor GB 2312) against a common character: a print's cut form"


def _unknown_rare(rare: str, key: str, common: str) -> bool:
    """Whether ``rare`` is a rare graph no table knows (its key is itself: 掦, not 賔, which is 賓's
    form and so another word than 耦) set against ``common``, a character the standards encode."""
    return key == rare and is_rare(rare) and not is_rare(common)


class Relations:
    """Looks up the relation of two characters; built on first use (it needs their keys)."""

    def __init__(
        self,
        key: Callable[[str], str],
        script_pairs: Iterable[VariantPair],
        loans: Iterable[VariantPair],
        never: Iterable[NeverFold],
        rule: ScriptRule | None = None,
    ) -> None:
        self._key = key
        self._inputs = (tuple(script_pairs), tuple(loans), tuple(never))
        self._rule = rule
        self._script: dict[frozenset[str], str] | None = None
        self._loans: dict[frozenset[str], str] = {}
        self._never: set[frozenset[str]] = set()
        self._lookalikes: set[frozenset[str]] = set()
        self._cache: dict[tuple[str, str, bool, bool], Change | None] = {}

    def _build(self) -> dict[frozenset[str], str]:
        script_pairs, loans, never = self._inputs
        key = self._key
        for pair in never:
            self._never.update({pair.key, frozenset((key(pair.a), key(pair.b)))})
            if pair.lookalike:
                self._lookalikes.update({pair.key, frozenset((key(pair.a), key(pair.b)))})
        script: dict[frozenset[str], str] = {}
        for p in script_pairs:
            # As written, and one side as its key: 閒 against 间 (間's key) is the pair 閒/間.
            for x, y in ((p.variant, p.standard), (p.variant, key(p.standard)), (key(p.variant), p.standard)):
                script.setdefault(frozenset((x, y)), p.source)
        for p in loans:
            # Both sides as keys too: two simplified witnesses (说/悦) still read a loan.
            for x, y in ((p.variant, p.standard), (key(p.variant), key(p.standard))):
                self._loans.setdefault(frozenset((x, y)), p.source)
        self._script = script
        return script

    def relation(self, a: str, b: str, simplified: tuple[bool, bool] = (False, False)) -> Change | None:
        """The Change relating ``a`` to ``b`` (script or loan), or None; see the module docstring.

        ``simplified``: whether ``a`` and ``b`` stand in simplified texts.
        """
        at = (a, b, *simplified)
        if at not in self._cache:
            self._cache[at] = self._relation(a, b, simplified)
        return self._cache[at]

    def _relation(self, a: str, b: str, simplified: tuple[bool, bool]) -> Change | None:
        if len(a) != 1 or len(b) != 1 or a == b:
            return None
        script = self._script if self._script is not None else self._build()
        ka, kb = self._key(a), self._key(b)
        if ka == kb:
            return None  # the same key: nothing to relate, the changes say why
        if frozenset((a, b)) in self._never or frozenset((ka, kb)) in self._never:
            return None
        merged, change = self._merged(a, b, ka, kb, simplified)
        if change is not None:
            return change
        source = None if merged else script.get(frozenset((a, b)))
        if source is not None:
            return Change("script", a, b, ChangeClass.ORTHOGRAPHIC, source)
        related = read_related()
        # As written and by their keys, both: 皐/臯 is a weak pair as written, and 皐/皋 (臯's key) a
        # pair of the dictionaries' variant tables.
        found = [w for w in (related.get(pair_key(a, b)), related.get(pair_key(ka, kb))) if w]
        named = list(dict.fromkeys(r for w in found for r in w.split(",")))
        weak = ",".join(named)
        source = self._loans.get(frozenset((a, b))) or self._loans.get(frozenset((ka, kb)))
        # A loan the curated table or the project names is one (罷/疲); one only the dictionary's
        # 通假 table names yields to the dictionaries' own variant tables (廷/庭, a print form).
        dictionary = any(r in DICTIONARY_RELATIONS for r in named)
        if source is not None and (source != DICTIONARY_LOANS or not dictionary):
            return Change("loan", a, b, ChangeClass.LOAN, source)
        if dictionary:
            return Change("print-form", a, b, ChangeClass.ORTHOGRAPHIC, relation_source(weak or ""))
        if named and LOOKALIKE not in named:
            return Change("print-form", a, b, ChangeClass.ORTHOGRAPHIC, relation_source(weak or ""))
        if not named and (_unknown_rare(a, ka, b) or _unknown_rare(b, kb, a)):
            return Change("print-form", a, b, ChangeClass.ORTHOGRAPHIC, RARE_GRAPH)
        return None

    def _merged(self, a: str, b: str, ka: str, kb: str, simplified: tuple[bool, bool]) -> tuple[bool, Change | None]:
        """Whether simplification merged ``a`` and ``b``; and the script Change if one side is the
        merged form in a simplified text (or a form only simplified texts write, 发) and stands for
        the other."""
        rule = self._rule
        if rule is None:
            return False, None
        merged = False
        for kx, y, ky, simple in ((ka, b, kb, simplified[0]), (kb, a, ka, simplified[1])):
            candidates = rule.mergers.get(kx)
            # The other character is a candidate as written (錇, whose variant class 鉜 leads
            # elsewhere), or by its key (裏, whose class 裡 is kept apart from 里).
            if candidates is None or not (y in candidates or ky in candidates or rule.declined(ky) == kx):
                continue
            merged = True
            if simple or kx not in candidates:
                listed = " ".join(sorted(candidates))
                source = f"{rule.source}: {kx} stands for {listed}"
                return True, Change("script", a, b, ChangeClass.ORTHOGRAPHIC, source)
        # Two candidates of one merged form (髮 and 發, both 发): two characters, whatever the script.
        merged = merged or (rule.declined(ka) is not None and rule.declined(ka) == rule.declined(kb))
        return merged, None

    def never_folds(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are a pair a collator must see apart (``never_fold.tsv``, the project's)."""
        if self._script is None:
            self._build()
        return frozenset((a, b)) in self._never or frozenset((self._key(a), self._key(b))) in self._never

    def lookalike(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` are look-alikes (形近): a never-fold pair so marked, or CJKVI's non-cognates."""
        if self._script is None:
            self._build()
        ka, kb = self._key(a), self._key(b)
        if frozenset((a, b)) in self._lookalikes or frozenset((ka, kb)) in self._lookalikes:
            return True
        related = read_related()
        named = related.get(pair_key(a, b)) or related.get(pair_key(ka, kb)) or ""
        return LOOKALIKE in named.split(",")
