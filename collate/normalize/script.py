"""Script folding: compare traditional and simplified witnesses in one script (OpenCC).

Only the comparison key changes; the token keeps its original character. The conversion is
character by character, never by phrase: one character is one token, and a phrase-based
conversion would make a token's key depend on its neighbours.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

from collate.errors import ProjectError
from collate.model import ChangeClass

# OpenCC configurations that end in simplified characters, the script we compare in.
SCRIPTS = ("t2s", "tw2s", "hk2s")


@cache
def _converter(config: str) -> object:
    import opencc

    return opencc.OpenCC(config)


_converted: dict[tuple[str, str], str] = {}


def convert(config: str, char: str) -> str:
    """``char`` converted by the OpenCC configuration ``config``."""
    key = (config, char)
    hit = _converted.get(key)
    if hit is None:
        hit = _converted[key] = _converter(config).convert(char)  # type: ignore[attr-defined]
    return hit


def convert_all(config: str, chars: Iterable[str]) -> None:
    """Convert many characters in one call to OpenCC (much faster than one call each)."""
    todo = sorted({c for c in chars if (config, c) not in _converted and c != "\n"})
    if not todo:
        return
    # One character a line: OpenCC never matches a phrase across a line end, so each
    # character is converted on its own, as :func:`convert` would.
    out = _converter(config).convert("\n".join(todo)).split("\n")  # type: ignore[attr-defined]
    if len(out) == len(todo):
        _converted.update(((config, c), o) for c, o in zip(todo, out, strict=True))


def opencc_version() -> str:
    """The installed OpenCC version, for the record of what the rule did."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("opencc")
    except PackageNotFoundError:
        return "unknown"


@lru_cache(maxsize=65536)
def is_simplified_form(char: str) -> bool:
    """True for a simplified form such as 并 or 户 (OpenCC would turn it back into 並, 戶).

    A variant class is better represented by a traditional member: then the variant rule
    explains the graphic variant and the script rule the simplification, each for itself.
    """
    return convert("t2s", char) == char and convert("s2t", char) != char


class ScriptRule:
    """Folds each character to simplified with OpenCC, after the curated supplement."""

    name = "script"
    cls = ChangeClass.ORTHOGRAPHIC
    description = "traditional and simplified characters compare equal (OpenCC, character by character)"

    def __init__(self, config: str = "t2s", supplement: Mapping[str, str] | None = None) -> None:
        if config not in SCRIPTS:
            raise ProjectError(f"unknown script conversion {config!r}", hint="use one of " + ", ".join(SCRIPTS))
        self.config = config
        # Simplified forms OpenCC does not produce (馀, where OpenCC gives 余 for 餘) are first
        # sent to their traditional form, so both witnesses meet on OpenCC's output.
        self.supplement = dict(supplement or {})
        self.source = f"OpenCC {opencc_version()} {config}"

    def apply(self, char: str) -> tuple[str, str] | None:
        """The simplified form of ``char`` and the source, or None if OpenCC leaves it."""
        start = self.supplement.get(char, char)
        after = convert(self.config, start)
        if after == char:
            return None
        if start != char:
            return after, f"curated {char}→{start}; {self.source}"
        return after, self.source

    def image(self, char: str) -> str:
        """What the rule makes of ``char`` (``char`` itself if nothing)."""
        result = self.apply(char)
        return char if result is None else result[0]
