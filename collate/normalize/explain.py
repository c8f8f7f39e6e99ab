"""From normalization changes to apparatus classes: why two readings count as the same, or not.

Two tokens whose keys ``n`` differ are a substantive variant (unless one is a placeholder or
an artifact). Two tokens with equal keys and different characters are the same reading
written differently; the union of their changes says how, and :func:`reading_class` turns
that into a class and a cause (:class:`~collate.model.Cause`):

=====================  ===============  ===========
changes                class            cause
=====================  ===============  ===========
placeholder            placeholder      None
artifact (uncertain)   placeholder      ARTIFACT
taboo                  orthographic     TABOO
semantic-variant       orthographic     SEMANTIC
variant-graph          orthographic     VARIANT
script only            orthographic     SCRIPT
none                   substantive      None
=====================  ===============  ===========

The first row that applies wins. SCRIPT marks a difference of script alone (賓/宾), which
an edition declares once in its header rather than in the apparatus. A declared
substitution artifact (防 for a rare character in some 四庫 e-texts) is uncertain: its key
is left as it is, but a reading that differs because of it is classed with the placeholders
(cause ARTIFACT), recorded and never counted as substantive (TEI: ``type="artifact"`` with
a ``witDetail``). The classes are the apparatus's own :class:`~collate.apparatus.ReadingClass`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from collate.model import Cause, Change, ChangeClass, ReadingClass, Token

# Orthographic causes by the rule that explains the difference, most telling first: the cause
# of a difference is the first that applies.
_CAUSES = (
    ("taboo", Cause.TABOO),
    ("semantic-variant", Cause.SEMANTIC),
    ("variant-graph", Cause.VARIANT),
    ("script", Cause.SCRIPT),
)


def reading_class(changes: Iterable[Change]) -> tuple[ReadingClass, Cause | None]:
    """The class and cause that the changes explaining two equal keys amount to."""
    changes = tuple(changes)
    classes = {c.cls for c in changes}
    if ChangeClass.PLACEHOLDER in classes:
        return ReadingClass.PLACEHOLDER, None
    if ChangeClass.UNCERTAIN in classes:
        return ReadingClass.PLACEHOLDER, Cause.ARTIFACT
    rules = {c.rule for c in changes}
    if ChangeClass.TABOO in classes:
        return ReadingClass.ORTHOGRAPHIC, Cause.TABOO
    for rule, cause in _CAUSES:
        if rule in rules:
            return ReadingClass.ORTHOGRAPHIC, cause
    if changes:
        return ReadingClass.ORTHOGRAPHIC, None
    return ReadingClass.SUBSTANTIVE, None


def explain(a: Token, b: Token) -> tuple[Change, ...]:
    """Why two tokens with equal keys are the same reading: the union of their changes.

    Raises ValueError if their keys differ (then nothing makes them the same).
    """
    if a.n != b.n:
        raise ValueError(f"{a.t!r} and {b.t!r} have different keys ({a.n!r}, {b.n!r})")
    return a.changes + tuple(c for c in b.changes if c not in a.changes)


def compare(a: Token, b: Token) -> tuple[ReadingClass, Cause | None] | None:
    """The class of ``b``'s reading against ``a``'s; None if they read the same character.

    Two unresolved entities of the same code (``&KR9999;`` in both) are one glyph, whatever it
    is: they agree. Any other placeholder (a lost glyph ``□``, a ``?``) says nothing of the
    character, so it is a placeholder difference, never agreement.
    """
    if a.is_placeholder or b.is_placeholder:
        if a.t == b.t and _is_entity(a.t):
            return None
        return ReadingClass.PLACEHOLDER, None
    uncertain = any(c.cls is ChangeClass.UNCERTAIN for c in (*a.changes, *b.changes))
    if a.n != b.n:
        return (ReadingClass.PLACEHOLDER, Cause.ARTIFACT) if uncertain else (ReadingClass.SUBSTANTIVE, None)
    if a.t == b.t:
        return None
    return reading_class(explain(a, b))


def _is_entity(text: str) -> bool:
    """An entity left as it is in the file (``&KR0002;``): the container could not resolve it."""
    return len(text) > 2 and text[0] == "&" and text[-1] == ";"


def rule_counts(tokens: Iterable[Token]) -> dict[str, int]:
    """How many tokens each rule changed (a token counts once per rule), for the run summary."""
    counts: Counter[str] = Counter()
    for token in tokens:
        counts.update({c.rule for c in token.changes})
    return dict(sorted(counts.items()))
