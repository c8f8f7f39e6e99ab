"""How a witness's reading compares with the lemma: one classifier for every reading the builder makes.

:func:`_classify` classes one token against another as the normalizer explains them, and
:func:`_compare` a run of tokens against the lemma's. A readings file's entry has no tokens,
only characters: :func:`_derived_class` classes it. Both ask :func:`_relate` what two
characters with different keys are, so a 通假 (罷/疲) or a one-to-many script pair (着/著)
gets the same answer in a collated text and in a readings file.

``simplified`` names the witnesses written in simplified characters
(:func:`collate.normalize.script.is_simplified_text`): where one of them writes a form that
simplification merged (后 for 後 and 后), it agrees with whichever of those characters a
traditional witness reads; between two traditional witnesses 後 and 后 are two readings.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from collate.model import Cause, ChangeClass, ReadingClass, Token

if TYPE_CHECKING:
    # A type only: the normalizer's package loads its tables, which most callers never need.
    from collate.normalize import Normalizer


def _is_placeholder(tok: Token) -> bool:
    """A placeholder or a declared artifact: its character says nothing about the edition."""
    return any(c.cls in (ChangeClass.PLACEHOLDER, ChangeClass.UNCERTAIN) for c in tok.changes)


_Verdict = tuple[ReadingClass, "Cause | None", tuple[str, ...]]


def _classify(a: Token, b: Token, normalizer: Normalizer, simplified: Collection[str] = ()) -> _Verdict | None:
    """``b``'s reading against ``a``'s, as the normalizer explains it; None if they agree.

    :func:`collate.normalize.explain.compare` classes the pair. A difference of script alone
    (賓/宾, ``Cause.SCRIPT``) agrees: it is declared once in the header, never listed. Two
    characters whose keys differ are substantive unless the normalizer relates them: a
    one-to-many script pair (着/著) agrees as a difference of script, a 通假 pair (罷/疲) is a
    loan, noted but never folded.
    """
    from collate.normalize.explain import compare, explain

    verdict = compare(a, b)
    if verdict is None:
        return None
    cls, cause = verdict
    if cls is ReadingClass.SUBSTANTIVE and len(a.t) == 1 and len(b.t) == 1:
        return _relate(a.t, b.t, normalizer, (a.witness in simplified, b.witness in simplified))
    if cls is ReadingClass.ORTHOGRAPHIC:
        if cause is Cause.SCRIPT:
            return None
        kept = (ChangeClass.ORTHOGRAPHIC, ChangeClass.TABOO)
        return cls, cause or Cause.VARIANT, tuple(sorted({c.rule for c in explain(a, b) if c.cls in kept}))
    return cls, cause, ()


def _relate(a: str, b: str, normalizer: Normalizer, simplified: tuple[bool, bool] = (False, False)) -> _Verdict | None:
    """Two different characters, as the normalizer relates them; None if they agree.

    A 通假 pair (罷/疲) is a loan, named by the normalizer's rule; a one-to-many script pair
    (着/著), or a merged form of a simplified text against a character it stands for (后/後),
    agrees, as one character written in two scripts; anything else is substantive (the
    normalizer relates only characters whose keys differ). ``simplified``: whether ``a`` and
    ``b`` stand in simplified texts.
    """
    change = normalizer.relation(a, b, simplified=simplified)
    if change is None:
        return ReadingClass.SUBSTANTIVE, Cause.LOOKALIKE if normalizer.lookalike(a, b) else None, ()
    if change.cls is ChangeClass.LOAN:
        return ReadingClass.LOAN, Cause.LOAN, (change.rule,)
    if change.rule == "print-form":
        # One character in two print forms (亨/烹, 譲/讓): a dictionary says so, however weakly.
        return ReadingClass.ORTHOGRAPHIC, Cause.VARIANT, (change.rule,)
    return None


def _agree(a: Token | None, b: Token | None, normalizer: Normalizer, simplified: Collection[str]) -> bool:
    if a is None or b is None:
        return a is b
    return _classify(a, b, normalizer, simplified) is None


def _is_notation(tok: Token) -> bool:
    """A sign of a score (the tokenizer found it in a run of notation)."""
    return any(c.cls is ChangeClass.NOTATION for c in tok.changes)


# What a score's signs read otherwise may be: a difference of words it is not, and it is listed apart.
_OF_WORDS = (ReadingClass.SUBSTANTIVE, ReadingClass.OMISSION, ReadingClass.ADDITION, ReadingClass.TRANSPOSITION)


def _compare(
    lemma: Sequence[Token], wit: Sequence[Token], normalizer: Normalizer, simplified: Collection[str] = ()
) -> _Verdict | None:
    """Classify a witness's tokens against the lemma's; None if they agree.

    Where both sides are signs of a score and nothing else (○□○○□ against ○○□○□, or some
    signs lacking), the reading is of the score, not of the words: ``NOTATION``.
    """
    verdict = _compare_tokens(lemma, wit, normalizer, simplified)
    if verdict is not None and verdict[0] in _OF_WORDS and all(_is_notation(t) for t in (*lemma, *wit)):
        return ReadingClass.NOTATION, None, ()
    return verdict


def _compare_tokens(
    lemma: Sequence[Token], wit: Sequence[Token], normalizer: Normalizer, simplified: Collection[str]
) -> _Verdict | None:
    if len(lemma) == len(wit) and all(_agree(a, b, normalizer, simplified) for a, b in zip(lemma, wit, strict=True)):
        return None
    if not wit:
        return ReadingClass.OMISSION, None, ()
    if not lemma:
        return ReadingClass.ADDITION, None, ()
    verdicts: list[_Verdict] = []
    matcher = SequenceMatcher(None, [t.n for t in lemma], [t.n for t in wit], autojunk=False)
    for _, i1, i2, j1, j2 in matcher.get_opcodes():
        left, right = lemma[i1:i2], wit[j1:j2]
        if len(left) == len(right):
            # Character against character: the normalizer says what each pair is.
            verdicts.extend(
                v for a, b in zip(left, right, strict=True) if (v := _classify(a, b, normalizer, simplified))
            )
        elif any(_is_placeholder(t) for t in (*left, *right)):
            artifact = bool(_placeholder_causes((*left, *right)))
            verdicts.append((ReadingClass.PLACEHOLDER, Cause.ARTIFACT if artifact else None, ()))
        else:
            verdicts.append((ReadingClass.SUBSTANTIVE, None, ()))
    if not verdicts:
        return None
    cls = max((v[0] for v in verdicts), key=lambda c: c.rank)
    causes = {v[1] for v in verdicts if v[0] is cls and v[1]}
    rules = tuple(sorted({r for v in verdicts if v[0] is cls for r in v[2]}))
    if cls is ReadingClass.ORTHOGRAPHIC:
        return cls, next(k for k in (Cause.TABOO, Cause.SEMANTIC, Cause.VARIANT) if k in causes), rules
    if cls is ReadingClass.PLACEHOLDER:
        return cls, (Cause.ARTIFACT if Cause.ARTIFACT in causes else None), ()
    if cls is ReadingClass.LOAN:
        return cls, Cause.LOAN, rules
    if cls is ReadingClass.SUBSTANTIVE and all(v[1] is Cause.LOOKALIKE for v in verdicts if v[0] is cls):
        return cls, Cause.LOOKALIKE, ()  # every different character a look-alike: 形近
    return cls, None, ()


def _placeholder_causes(tokens: Sequence[Token]) -> set[Cause]:
    if any(c.cls is ChangeClass.UNCERTAIN for t in tokens for c in t.changes):
        return {Cause.ARTIFACT}
    return set()


def _derived_class(
    base: str, reading: str, normalizer: Normalizer, simplified: tuple[bool, bool] = (False, False)
) -> set[ReadingClass]:
    """The class of a reported reading against the base's characters it replaces (empty: the same).

    A reported reading with the base's key agrees: it has no tokens, so no changes to say how
    it is written otherwise (the orthographic classes of :func:`_classify`). Otherwise each
    character that differs is related as in a collated text (:func:`_relate`); one unrelated
    pair, or another length, makes the reading substantive. ``simplified``: whether the base
    and the reading are written in simplified characters.
    """
    if normalizer.key(base) == normalizer.key(reading):
        return set()
    if len(base) == len(reading):
        verdicts = [_relate(a, b, normalizer, simplified) for a, b in zip(base, reading, strict=True) if a != b]
        classes = {v[0] for v in verdicts if v is not None}
        if verdicts and ReadingClass.SUBSTANTIVE not in classes:
            return classes  # {LOAN}, or empty: script pairs only
    return {ReadingClass.SUBSTANTIVE}
