"""How large a collation may be: refused at once, with the limit and how to raise it.

A run takes time and memory in proportion to the text it collates (about 3 GB for three
witnesses of a million characters each, every output written). A witness far larger than
intended, such as a whole book given where one chapter was meant, or a 5 MB e-text against
a base of one page, would run for many minutes and use many gigabytes before anyone learnt
why. Such witnesses are refused after reading, before anything is tokenized, so the error
arrives in a second and nothing has been written. A project raises its limits in
``[limits]``:

    [limits]
    characters = 5_000_000   # text characters a witness may have (default 2,000,000)
    ratio = 50               # a witness may be at most this many times the base (default 20)

The ratio is enforced only for witnesses of more than :data:`RATIO_FLOOR` characters, so
small fragments and small bases are never refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from collate.errors import InputError, ProjectError
from collate.model import Layer, Role, Witness

CHARACTERS = 2_000_000
RATIO = 20.0
RATIO_FLOOR = 200_000


@dataclass(frozen=True, slots=True)
class Limits:
    """The largest witness a run accepts: in characters, and as a multiple of the base."""

    characters: int = CHARACTERS
    ratio: float = RATIO


def limits_of(section: Mapping[str, Any] | None, where: str) -> Limits:
    """The project's ``[limits]`` table, checked."""
    if not section:
        return Limits()
    unknown = sorted(set(section) - {"characters", "ratio"})
    if unknown:
        raise ProjectError(
            f"unknown key in [limits]: {', '.join(unknown)}", where=where, hint="the keys are characters, ratio"
        )
    characters = section.get("characters", CHARACTERS)
    ratio = section.get("ratio", RATIO)
    if isinstance(characters, bool) or not isinstance(characters, int) or characters <= 0:
        raise ProjectError(
            f"[limits] characters must be a positive whole number, got {characters!r}",
            where=where,
            hint="e.g. characters = 5_000_000",
        )
    if isinstance(ratio, bool) or not isinstance(ratio, int | float) or ratio <= 0:
        raise ProjectError(
            f"[limits] ratio must be a positive number, got {ratio!r}", where=where, hint="e.g. ratio = 50"
        )
    return Limits(characters, float(ratio))


def text_characters(witness: Witness, layers: Iterable[Layer]) -> int:
    """How many characters of ``witness`` stand in the text of ``layers`` (markup and layout left out)."""
    wanted = set(layers)
    return sum(s.end - s.start for s in witness.spans if s.role is Role.TEXT and s.layer in wanted)


def check_sizes(witnesses: Iterable[Witness], base: str, layers: Iterable[Layer], limits: Limits) -> None:
    """Refuse a witness larger than ``limits`` allow, naming it, the limit and how to raise it."""
    layers = tuple(layers)
    full = [w for w in witnesses if not w.sparse]
    sizes = {w.siglum: text_characters(w, layers) for w in full}
    base_size = sizes.get(base, 0)
    for w in full:
        size = sizes[w.siglum]
        if size > limits.characters:
            raise InputError(
                f"witness {w.siglum} has {size:,} characters of text to collate, more than the limit of "
                f"{limits.characters:,}",
                where=w.path,
                hint="collate it a chapter at a time, or raise the limit in the project file: "
                f"[limits] characters = {_rounded_up(size)}",
            )
        if w.siglum != base and size > RATIO_FLOOR and size > limits.ratio * max(base_size, 1):
            times = size / max(base_size, 1)
            raise InputError(
                f"witness {w.siglum} has {size:,} characters of text to collate, {times:,.0f} times the base's "
                f"{base_size:,} (the limit is {limits.ratio:g} times)",
                where=w.path,
                hint="give only the part of it the base has (the same chapter), or raise the limit in the "
                f"project file: [limits] ratio = {int(times) + 1}",
            )


def _rounded_up(n: int) -> str:
    step = 10 ** max(0, len(str(n)) - 2)
    return f"{-(-n // step) * step:_}"
