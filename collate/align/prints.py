"""What each witness's print says of its own text, for its alignment to heed.

A print has lost pages and glyphs (its lacuna marks), words whose layer it leaves in doubt,
blocks of words (a 經 passage, a 注 run) that begin and end where they do, and rare glyphs its
gaiji table names an everyday character for. These are facts of the witness as read, gathered
once a run (:func:`print_facts`) and applied to each aligned layer (:func:`settle`): a gap at a
lacuna is no omission, a word in doubt no variant, a glyph the table reads as 瓜 no reading
where another witness writes 瓜.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from collate.align.alignment import LayerAlignment, with_doubts, with_everyday_forms, with_lacunae
from collate.align.slides import gaps_to_marks, placeholders_to_rare
from collate.model import Layer, MarkKind, Role, Witness, blank_width
from collate.normalize.tokenize import is_token_char

if TYPE_CHECKING:
    from collate.normalize import Normalizer


@dataclass(frozen=True, slots=True)
class PrintFacts:
    """Per witness (by siglum), what its print says of its text, in raw offsets.

    ``lacunae``: each lacuna mark and the width of its blank (None: lost pages); ``doubts``: the
    ranges of words whose layer no witness settles; ``texts``: its first and last words, any
    layer; ``blocks``: where each block of words begins; ``everyday``: each gaiji glyph (an
    entity's, or a rare glyph written as itself) and the everyday character its table gives.
    """

    lacunae: Mapping[str, Sequence[tuple[int, int | None]]]
    doubts: Mapping[str, Sequence[tuple[int, int]]]
    texts: Mapping[str, tuple[int, int]]
    blocks: Mapping[str, Sequence[int]]
    everyday: Mapping[str, Mapping[int, str]]


def print_facts(witnesses: Sequence[Witness], gaiji_table: Path | None) -> PrintFacts:
    """The facts of each of ``witnesses`` (full witnesses), with the project's gaiji table if it has one."""
    glyphs = _gaiji_glyphs(gaiji_table)
    return PrintFacts(
        lacunae={
            w.siglum: [(m.offset, blank_width(m.label)) for m in w.marks if m.kind is MarkKind.LACUNA]
            for w in witnesses
        },
        doubts={w.siglum: [(u.start, u.end) for u in w.unsettled] for w in witnesses},
        texts={w.siglum: _text_bounds(w) for w in witnesses},
        blocks={w.siglum: _block_starts(w) for w in witnesses},
        everyday={
            w.siglum: {**_glyphs_in(w, glyphs), **{s.start: e for s in w.substitutions if (e := s.everyday)}}
            for w in witnesses
        },
    )


def settle(aligned: LayerAlignment, facts: PrintFacts, normalizer: Normalizer) -> LayerAlignment:
    """An aligned layer with its witnesses' prints heeded: glyphs read as their everyday characters
    where another witness reads those, omissions slid to the lacuna marks, lost pages and words
    in doubt in the extents."""
    aligned = with_everyday_forms(aligned, facts.everyday, normalizer)
    aligned = gaps_to_marks(placeholders_to_rare(aligned), facts.lacunae)
    return with_doubts(with_lacunae(aligned, facts.lacunae, facts.texts, facts.blocks), facts.doubts)


def _lacunae(witness: Witness) -> list[tuple[int, int | None]]:
    """Each lacuna mark of the witness: its raw offset and the width of its blank (None: lost pages)."""
    return [(m.offset, blank_width(m.label)) for m in witness.marks if m.kind is MarkKind.LACUNA]


def _text_bounds(witness: Witness) -> tuple[int, int]:
    """The raw offsets of the first and last words of a witness, any layer (its headings too)."""
    words = [s for s in witness.spans if s.role is Role.TEXT and (s.layer.is_text or s.layer is Layer.HEADING)]
    return (words[0].start, words[-1].end) if words else (0, 0)


def _block_starts(witness: Witness) -> list[int]:
    """The raw offsets where the witness's blocks of words (a unit of a text layer) begin, in order."""
    seen: set[tuple[Layer, int]] = set()
    starts = []
    for s in witness.spans:
        if s.role is Role.TEXT and s.layer.is_text and (s.layer, s.unit) not in seen:
            if any(is_token_char(c) for c in witness.text[s.start : s.end]):
                seen.add((s.layer, s.unit))
                starts.append(s.start)
    return sorted(starts)


def _gaiji_glyphs(table: Path | None) -> Mapping[str, str]:
    """The rare glyphs a gaiji table gives an everyday character for (𤓰 → 瓜); none without one."""
    if table is None:
        return {}
    from collate.readers.gaiji import load_gaiji_glyphs

    return load_gaiji_glyphs(table)


def _glyphs_in(witness: Witness, glyphs: Mapping[str, str]) -> dict[int, str]:
    """The raw offset of each glyph of ``glyphs`` the witness writes as itself, with its everyday character."""
    if not glyphs:
        return {}
    # One pass of the regular-expression engine over the text, not a Python loop over its characters.
    found = re.finditer("[" + "".join(map(re.escape, sorted(glyphs))) + "]", witness.text)
    return {m.start(): glyphs[m.group()] for m in found}
