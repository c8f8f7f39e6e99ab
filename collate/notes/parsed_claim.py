"""A claim as the note's words make it (:class:`ParsedClaim`), before its place is found in the base.

Every pass of the claim grammar (:mod:`collate.notes.claims`) makes these;
:mod:`collate.notes.resolve` finds their places.
"""

from __future__ import annotations

from dataclasses import dataclass

from collate.model import Layer
from collate.notes.records import ClaimKind, Place


@dataclass(frozen=True, slots=True)
class ParsedClaim:
    """One claim as the grammar reads it, before its place is found in the base.

    ``witness`` is the name as written ('' for an emendation of the base itself),
    ``canonical`` the name it stands for. ``phrase`` is the base phrase that locates
    ``place`` ('' when the place is the note's own position or its passage); ``gloss`` the
    words of an authority the note cites instead of quoting (王肃云枉不直哨不正).
    ``base``/``reading`` are as stated ('' when the note leaves them to the place).
    ``start``/``end`` bound the clause in the note's text. ``layer`` is the layer the clause
    itself names (疏内却兼言天子), None when it names none.
    """

    witness: str
    canonical: str
    kind: ClaimKind
    place: Place
    phrase: str
    base: str
    reading: str
    start: int
    end: int
    resp: str | None = None
    via: str | None = None
    count: int | None = None
    gloss: str = ""
    inherited: bool = False
    agrees: bool = False
    layer: Layer | None = None
