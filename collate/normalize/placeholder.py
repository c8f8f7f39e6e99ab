"""Digitization placeholders and declared substitution artifacts: what an e-text put for a glyph.

A placeholder (``?`` between CJK characters, □ ■ 〓 ●, U+FFFD, a Private Use Area code point,
an unresolved gaiji entity) says nothing about the edition's reading: its comparison key is
unique to the token, so it matches nothing and never makes a substantive variant. An artifact
(a common character an e-text substituted for rare ones, e.g. 防 in some 四庫 e-texts) stays
comparable but is marked uncertain.
"""

from __future__ import annotations

from collections.abc import Mapping

from collate.model import Change, ChangeClass
from collate.model.chars import is_private_use

# □ ■ 〓 ● always stand for a glyph the e-text lacks (● is how some e-texts mark a lost glyph;
# ○ is not: it is content); U+FFFD is what a decoder puts for bytes it could not read. The
# ASCII ``?`` is a placeholder only between CJK characters: the tokenizer decides that from the
# context and flags the token. ○ and 囗 are content (drum notation).
PLACEHOLDER_CHARS = frozenset("□■〓●\ufffd")

# The key of a placeholder starts with OBJECT REPLACEMENT CHARACTER, which no text token has.
KEY_MARK = "\ufffc"


def is_placeholder_char(char: str) -> bool:
    """True if ``char`` is a placeholder wherever it stands."""
    return char in PLACEHOLDER_CHARS or is_private_use(char) or 0xD800 <= ord(char) <= 0xDFFF


def placeholder_key(witness: str, start: int) -> str:
    """A comparison key that matches nothing: unique per witness and raw offset."""
    return f"{KEY_MARK}{witness}#{start}"


class PlaceholderRule:
    """Gives each placeholder token a key of its own."""

    name = "placeholder"
    cls = ChangeClass.PLACEHOLDER
    description = (
        "digitization placeholders (? between CJK characters, □ ■ 〓 ●, U+FFFD, Private Use Area, "
        "unresolved entities) match nothing and are never substantive"
    )
    source = "built in"

    def change(self, t: str, witness: str, start: int, flagged: bool) -> Change | None:
        """The change that makes ``t`` a placeholder, or None if it is a real character."""
        if not flagged and not any(is_placeholder_char(c) for c in t):
            return None
        return Change(self.name, t, placeholder_key(witness, start), self.cls, self._why(t, flagged))

    @staticmethod
    def _why(t: str, flagged: bool) -> str:
        if flagged:
            return "placeholder in context (? between CJK characters, or an unresolved entity)"
        if any(is_private_use(c) for c in t):
            return "Private Use Area code point"
        return "placeholder character"


class ArtifactRule:
    """Marks a witness's declared substitution artifacts uncertain, without changing the key."""

    name = "artifact"
    cls = ChangeClass.UNCERTAIN
    description = "characters a witness's e-text substitutes for lost glyphs (declared per witness) are uncertain"

    def __init__(self, artifacts: Mapping[str, frozenset[str]]) -> None:
        self.artifacts = {siglum: chars for siglum, chars in artifacts.items() if chars}

    @property
    def source(self) -> str:
        """The project file's declarations, witness by witness."""
        if not self.artifacts:
            return "project file: no witness declares artifacts"
        listed = "; ".join(f"{s}: {' '.join(sorted(c))}" for s, c in sorted(self.artifacts.items()))
        return f"project file: {listed}"

    def change(self, t: str, witness: str) -> Change | None:
        """The uncertainty mark for ``t`` in ``witness``, or None."""
        if t not in self.artifacts.get(witness, ()):
            return None
        return Change(self.name, t, t, self.cls, f"project file: artifact of {witness}")
