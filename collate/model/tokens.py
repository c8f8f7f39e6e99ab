"""Tokens, the normalization steps recorded on them, and the rules that make those steps."""

from __future__ import annotations

from dataclasses import dataclass

from collate.model.enums import ChangeClass, Layer


@dataclass(frozen=True, slots=True)
class Change:
    """One step of normalization: ``before`` became ``after`` by ``rule`` (with its source)."""

    rule: str
    before: str
    after: str
    cls: ChangeClass
    source: str = ""


@dataclass(frozen=True, slots=True)
class Token:
    """One character of one layer of one witness: a view into the witness's text.

    ``start``/``end`` are offsets in the raw text (an entity such as ``&KR0002;`` spans
    several raw characters but is one token); ``t`` is the original character (the
    resolved gaiji, if any) and ``n`` the normalized form the apparatus compares (aligned as
    its search key, which merges again what simplification merged).
    ``before``/``after`` hold punctuation and layout attached to the token, kept for
    display and export. ``changes`` record why ``n`` differs from ``t``.
    """

    witness: str
    layer: Layer
    index: int
    start: int
    end: int
    t: str
    n: str
    unit: int = 0
    changes: tuple[Change, ...] = ()
    before: str = ""
    after: str = ""

    @property
    def is_placeholder(self) -> bool:
        """A digitization placeholder: matches nothing."""
        return any(c.cls is ChangeClass.PLACEHOLDER for c in self.changes)


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """A normalization rule, whether it was in force for this collation, and where its data comes from."""

    name: str
    description: str
    enabled: bool = True
    source: str = ""
