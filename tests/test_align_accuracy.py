"""How well the engine aligns: against plain CollateX, and against edits made on purpose.

Agreement with plain CollateX is measured on aligned pairs: for every witness, each base
token's partner (the witness token in its column, or none) and each witness token's partner
(the base token in its column, or none); the agreement is the share of all these partners
that are the same in both alignments.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import opencc
import pytest
from builders import CJK, seed_chars, tokens_from_string
from conftest import SEED_000, SEED_001
from rapidfuzz.distance import Indel

from collate.align.alignment import LayerAlignment
from collate.align.collatex_adapter import collatex_columns
from collate.align.engine import align_layer
from collate.align.pairwise import AlignOptions
from collate.model import Layer


@dataclass
class Edited:
    """A witness made from a base text, and the edits that made it."""

    text: str = ""
    substitutions: list[tuple[int, int]] = field(default_factory=list)  # (base, witness) positions
    insertions: list[int] = field(default_factory=list)  # witness positions
    deletions: list[int] = field(default_factory=list)  # base positions
    moves: list[tuple[int, int]] = field(default_factory=list)  # base [start, end)


def synthesize(base: str, rate: float, seed: int, moves: bool = True, margin: int = 10) -> Edited:
    """Edit about ``rate`` of the base's positions: 40% substitutions, 25% insertions, 25%
    deletions, 10% moves of 8-16 characters by three to six times their length.

    Edits keep one untouched character between them, stay ``margin`` characters away from
    the ends (where an edit and a witness beginning later cannot be told apart), and are never
    ambiguous: a new character differs from its neighbours and a deleted one from its
    neighbours, so that each edit has one right place in an alignment.
    """
    rng = random.Random(seed)
    n = len(base)
    pool = sorted(set(base))
    busy = bytearray(n)
    substitute: dict[int, str] = {}
    insert: dict[int, str] = {}
    delete: set[int] = set()
    arrive: dict[int, list[tuple[int, int]]] = {}
    moved: list[tuple[int, int]] = []

    def free(lo: int, hi: int) -> bool:
        return lo >= margin and hi <= n - margin and 1 not in busy[lo:hi]

    def pick(avoid: set[str]) -> str:
        while True:
            c = pool[rng.randrange(len(pool))]
            if c not in avoid:
                return c

    made = tries = 0
    target = max(1, round(n * rate))
    while made < target and tries < target * 50:
        tries += 1
        kind = rng.choices("sidm", [40, 25, 25, 10 if moves else 0])[0]
        p = rng.randrange(n)
        if kind == "m":
            length = rng.randint(8, 16)
            dest = p + length + rng.randint(3 * length, 6 * length)
            if not free(p - 1, p + length + 1) or not free(dest - 1, dest + 1):
                continue
            busy[p - 1 : p + length + 1] = b"\x01" * (length + 2)
            busy[dest - 1 : dest + 1] = b"\x01\x01"
            arrive.setdefault(dest, []).append((p, p + length))
            moved.append((p, p + length))
        elif not free(p - 1, p + 2):
            continue
        elif kind == "s":
            substitute[p] = pick({base[p - 1], base[p], base[p + 1]})
        elif kind == "i":
            insert[p] = pick({base[p - 1], base[p]})
        elif base[p] in (base[p - 1], base[p + 1]):
            continue
        else:
            delete.add(p)
        if kind != "m":
            busy[p] = 1
        made += 1
    in_move = bytearray(n)
    for s, e in moved:
        in_move[s:e] = b"\x01" * (e - s)
    out: list[str] = []
    ed = Edited(moves=sorted(moved))
    for p in range(n):
        for s, e in arrive.get(p, []):
            out.extend(base[s:e])
        if p in insert:
            ed.insertions.append(len(out))
            out.append(insert[p])
        if in_move[p]:
            continue
        if p in delete:
            ed.deletions.append(p)
        elif p in substitute:
            ed.substitutions.append((p, len(out)))
            out.append(substitute[p])
        else:
            out.append(base[p])
    ed.text = "".join(out)
    return ed


def recovered(al: LayerAlignment, ed: Edited) -> tuple[int, int, list[str]]:
    """How many edits the alignment shows as the right kind, of how many; what it missed."""
    col_of_base = {col[0].index: c for c, col in enumerate(al.columns) if col[0] is not None}
    col_of_wit = {col[1].index: c for c, col in enumerate(al.columns) if col[1] is not None}
    extent = al.extent(al.sigla[1])
    missed: list[str] = []
    for b, w in ed.substitutions:
        base_tok, cell = al.columns[col_of_base[b]][:2]
        if base_tok is None or cell is None or cell.index != w or cell.n == base_tok.n:
            missed.append(f"substitution at {b}")
    missed += [f"insertion at {w}" for w in ed.insertions if al.columns[col_of_wit[w]][0] is not None]
    for b in ed.deletions:
        c = col_of_base[b]
        if al.columns[c][1] is not None or not extent.covers(c):
            missed.append(f"deletion at {b}")
    for s, e in ed.moves:
        if not any(
            t.base_start <= s + 2 and t.base_end >= e - 2 and t.base_end - t.base_start <= 2 * (e - s)
            for t in al.transpositions
        ):
            missed.append(f"move of {s}-{e}")
    total = len(ed.substitutions) + len(ed.insertions) + len(ed.deletions) + len(ed.moves)
    return total - len(missed), total, missed


@pytest.mark.parametrize("rate", [0.01, 0.05, 0.10])
def test_synthetic_edits_come_back_as_their_kind(rate: float) -> None:
    base = seed_chars()[:3000]
    found = total = 0
    for seed in range(2):
        ed = synthesize(base, rate, seed)
        al = align_layer(
            Layer.JING, {"SK": tokens_from_string("SK", base), "X": tokens_from_string("X", ed.text)}, "SK"
        )
        got, of, missed = recovered(al, ed)
        assert ed.moves and of >= round(3000 * rate)
        found, total = found + got, total + of
    assert found / total >= 0.98, missed


def test_fragment_extent_ends_with_it_and_has_no_false_omissions() -> None:
    base = seed_chars()[:3000]
    ed = synthesize(base[:1000], 0.03, 7, moves=False)
    al = align_layer(Layer.JING, {"SK": tokens_from_string("SK", base), "X": tokens_from_string("X", ed.text)}, "SK")
    col_of_base = {col[0].index: c for c, col in enumerate(al.columns) if col[0] is not None}
    ext = al.extent("X")
    assert ext.last is not None and (ext.first, ext.last) == (0, col_of_base[999])
    omitted = [b.index for b, w in (col[:2] for col in al.columns[: ext.last + 1]) if b and not w]
    assert omitted == sorted(ed.deletions)
    assert all(col[1] is None for col in al.columns[ext.last + 1 :])


Partners = dict[int | None, int | None]


def partners(columns: Sequence[Sequence[int | None]], witnesses: int) -> list[tuple[Partners, Partners]]:
    """For each witness: base position → its position, and its position → base position."""
    out: list[tuple[Partners, Partners]] = []
    for w in range(1, witnesses):
        to_w: Partners = {col[0]: col[w] for col in columns if col[0] is not None}
        to_base: Partners = {col[w]: col[0] for col in columns if col[w] is not None}
        out.append((to_w, to_base))
    return out


def agreement(texts: Sequence[str], options: AlignOptions | None = None) -> float:
    """Share of aligned pairs the engine has as plain CollateX has them (module docstring)."""
    plain = collatex_columns([list(t) for t in texts])
    sigla = [f"W{i}" for i in range(len(texts))]
    al = align_layer(
        Layer.JING, {s: tokens_from_string(s, t) for s, t in zip(sigla, texts, strict=True)}, "W0", options=options
    )
    ours = [[None if tok is None else tok.index for tok in col] for col in al.columns]
    same = total = 0
    for theirs, mine in zip(partners(plain, len(texts)), partners(ours, len(texts)), strict=True):
        for want, got in zip(theirs, mine, strict=True):
            same += sum(want[k] == got.get(k, -1) for k in want)
            total += len(want)
    return same / total


@pytest.mark.parametrize(("witnesses", "size", "start"), [(2, 800, 100), (3, 500, 1200), (4, 400, 2500)])
def test_agrees_with_plain_collatex_on_small_inputs(witnesses: int, size: int, start: int) -> None:
    base = seed_chars()[start : start + size]
    texts = [base] + [synthesize(base, 0.05, 10 * start + w, moves=False).text for w in range(1, witnesses)]
    # Default options: with more than ``direct`` tokens the engine anchors first.
    assert agreement(texts) >= 0.99


def jing_000() -> str:
    """The 經 of seed 000, roughly: unindented lines without their small print."""
    lines = SEED_000.read_text(encoding="utf-8").split("\n")[5:]
    text = "".join(re.sub(r"\([^)]*\)", "", ln) for ln in lines if ln and ln[0] not in "\u3000(")
    return "".join(CJK.findall(text))


def jing_001() -> str:
    """The 經 of seed 001 (first part of 投壺 only), roughly, in simplified characters."""
    text = re.sub(r"_\{[^}]*\}", "", SEED_001.read_text(encoding="utf-8"))
    kept = [ln for ln in text.split("\n") if ln and not ln.startswith(("文疏", "註疏", "正義", "『", "投壺第"))]
    return str(opencc.OpenCC("t2s").convert("".join(CJK.findall("".join(kept)))))


def test_seed_jing_fragment_aligns_better_than_plain_collatex() -> None:
    """001 is a fragment with 疏 passages left in by the rough extraction. Plain CollateX,
    which scores a variant like a gap, scatters the shared text into variants; anchors keep
    it together. Count the columns where both have the same character."""
    base, frag = jing_000(), jing_001()
    plain = collatex_columns([list(base), list(frag)])
    plain_same = sum(1 for x, y in plain if x is not None and y is not None and base[x] == frag[y])
    al = align_layer(Layer.JING, {"SK": tokens_from_string("SK", base), "ZS": tokens_from_string("ZS", frag)}, "SK")
    ours_same = sum(1 for col in al.columns if col[0] and col[1] and col[0].n == col[1].n)
    # The longest common subsequence bounds what any alignment can have in agreement.
    lcs = (len(base) + len(frag) - Indel.distance(base, frag)) // 2
    assert plain_same < ours_same
    assert ours_same >= 0.95 * lcs
    # The fragment's extent ends where its text ends in the base (at 揖宾就筵 … 执八算兴).
    ext = al.extent("ZS")
    assert ext.last is not None
    last = al.columns[ext.last][0]
    assert last is not None and base[last.index - 3 : last.index + 1] == "执八算兴"
