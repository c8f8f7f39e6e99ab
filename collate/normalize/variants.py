"""Variant graphs (異體字): characters grouped into classes, each mapped to one representative.

Mappings (from Unihan, the curated table and the project) are edges of a graph; a connected
component is a variant class. Every member maps to the class's canonical member, chosen
deterministically (:func:`preference`): a project's or the curated table's named standard
first, then a traditional over a simplified form, then the more common character (Big5
level 1, GB2312, Big5, URO, Ext A, the rest), then the lower code point.

When the script rule is on, a member's simplified form that differs from the canonical
member's joins the class, so that a simplified witness meets the class wherever OpenCC sends
it (岡, 崗 → 冈, 岗: 岗 maps to 岡 too).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Collection, Iterable
from functools import lru_cache

from collate.model import ChangeClass
from collate.normalize.script import convert_all, is_simplified_form
from collate.normalize.tables import UNIHAN, VariantPair

# The source of a compatibility ideograph's mapping in the Unihan table (variants.tsv).
COMPATIBILITY = "Unicode compatibility ideograph"

# Variation selectors ask for a glyph of the character before them: same character.
_VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


def is_variation_selector(char: str) -> bool:
    """True for a standardized or ideographic variation selector."""
    cp = ord(char)
    return any(lo <= cp <= hi for lo, hi in _VARIATION_SELECTORS)


@lru_cache(maxsize=65536)
def commonness(char: str) -> int:
    """How common ``char`` is, by the character sets that hold it (0 is most common)."""
    try:
        big5 = char.encode("big5")
    except UnicodeEncodeError:
        big5 = b""
    # Big5 lead bytes A4–C6 are its level 1, the 5,401 frequent traditional characters.
    if len(big5) == 2 and 0xA4 <= big5[0] <= 0xC6:
        return 0
    try:
        char.encode("gb2312")
        return 1
    except UnicodeEncodeError:
        pass
    if big5:
        return 2
    cp = ord(char)
    if 0x4E00 <= cp <= 0x9FFF:
        return 3
    if 0x3400 <= cp <= 0x4DBF:
        return 4
    return 5


def preference(char: str) -> tuple[bool, int, int]:
    """Sort key of a class member: the smallest is the canonical representative."""
    return is_simplified_form(char), commonness(char), ord(char)


def build_classes(
    pairs: Iterable[VariantPair],
    image: Callable[[str], str] | None = None,
    image_source: str = "script",
    *,
    attached: Iterable[VariantPair] = (),
    never: Collection[frozenset[str]] = frozenset(),
) -> dict[str, tuple[str, str]]:
    """Each member of a class (except the canonical one) → (canonical, sources on the way).

    With ``image`` (the script rule), a member whose simplified form differs from the
    canonical member's brings that form into the class (崗 brings 岗 to 岡, whose form is
    冈), unless the form already belongs to a class: classes are never merged through the
    script, which would turn a difference of script into one of variant.

    ``attached`` pairs (the dictionaries') are not edges: each attaches its variant, as a leaf,
    to the class of its standard (or starts a class with it), and only if the variant belongs
    to no class yet. So a dictionary pair never merges two classes, and never chains: 叚 → 假
    cannot bring 段 along. ``never`` pairs (the never-fold list, loans) are no edge, attach
    nothing, and if other edges still put both in one class, the member that is not canonical
    leaves it (both, if neither is).
    """
    edges, standard = _graph(pairs, never)
    for config in ("t2s", "s2t"):
        convert_all(config, edges)  # what preference() asks OpenCC, asked at once
    mapping, images = _classes(edges, standard, image, image_source)
    canonical_of = {m: c for m, (c, _) in mapping.items()}
    _attach(attached, edges, mapping, canonical_of, image, never)
    for form, canonical, source in images:
        if form not in edges and form not in mapping:
            mapping[form] = (canonical, source)
            canonical_of[form] = canonical
    for pair in never:
        a, b = sorted(pair)
        ca, cb = canonical_of.get(a, a), canonical_of.get(b, b)
        if ca == cb:
            for member in (a, b):
                mapping.pop(member, None)
    return mapping


_Edges = dict[str, dict[str, list[str]]]


def _graph(pairs: Iterable[VariantPair], never: Collection[frozenset[str]]) -> tuple[_Edges, dict[str, int]]:
    """The pairs as edges (each with the sources that give it), and the standards the
    hand-made tables name (by their priority)."""
    edges: _Edges = {}
    standard: dict[str, int] = {}

    def link(a: str, b: str, source: str) -> None:
        for x, y in ((a, b), (b, a)):
            sources = edges.setdefault(x, {}).setdefault(y, [])
            if source not in sources:
                sources.append(source)

    for p in pairs:
        if p.variant == p.standard or frozenset((p.variant, p.standard)) in never:
            continue
        link(p.variant, p.standard, p.source)
        if p.priority < UNIHAN:
            # A table made by hand names its standard on purpose; Unihan's pairs have no direction.
            standard[p.standard] = min(standard.get(p.standard, UNIHAN), p.priority)
    return edges, standard


def _classes(
    edges: _Edges, standard: dict[str, int], image: Callable[[str], str] | None, image_source: str
) -> tuple[dict[str, tuple[str, str]], list[tuple[str, str, str]]]:
    """Each member of a connected component → (canonical, sources on the way); and the
    members' script forms that differ from the canonical member's, to join the class."""
    mapping: dict[str, tuple[str, str]] = {}
    images: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for node in sorted(edges):
        if node in seen:
            continue
        members = _component(node, edges)
        seen.update(members)
        canonical = min(members, key=lambda c: (standard.get(c, UNIHAN), preference(c)))
        target = image(canonical) if image else canonical
        for member, via in sorted(_paths(canonical, edges).items()):
            if member != canonical:
                mapping[member] = (canonical, "; ".join(via))
            form = image(member) if image else member
            if form != target and len(form) == 1:
                images.append((form, canonical, "; ".join([*via, f"{image_source} of {member}"])))
    return mapping, images


def _attach(
    attached: Iterable[VariantPair],
    edges: _Edges,
    mapping: dict[str, tuple[str, str]],
    canonical_of: dict[str, str],
    image: Callable[[str], str] | None,
    never: Collection[frozenset[str]],
) -> None:
    """Each dictionary pair's variant, as a leaf, added to ``mapping`` under its standard's class."""
    # A class of one character and its compatibility ideographs (莭 and U+F9xx, which Unicode
    # says are the same character) is that character alone: a dictionary may attach it.
    twins = {
        node: {m for m in _component(node, edges) if m != node}
        for node in edges
        if node not in mapping and all(all(s == COMPATIBILITY for s in ss) for ss in edges[node].values())
    }
    for p in sorted(attached, key=lambda p: (p.standard, p.variant)):
        if p.variant == p.standard or p.variant in mapping or (p.variant in edges and p.variant not in twins):
            continue
        target, path = mapping.get(p.standard, (p.standard, ""))
        if frozenset((p.variant, p.standard)) in never or frozenset((p.variant, target)) in never:
            continue
        if image and image(p.variant) != p.variant:
            # The script rule has its own view of this character (OpenCC sends 嚮 to 向, where a
            # dictionary lists it under 晌): the dictionary pair would fight it, so it stays out.
            continue
        mapping[p.variant] = (target, "; ".join(s for s in (p.source, path) if s))
        canonical_of[p.variant] = target
        for twin in twins.get(p.variant, ()):
            mapping[twin] = (target, "; ".join(s for s in (COMPATIBILITY, p.source, path) if s))
            canonical_of[twin] = target


def _component(start: str, edges: dict[str, dict[str, list[str]]]) -> set[str]:
    members = {start}
    todo = [start]
    while todo:
        for y in edges[todo.pop()]:
            if y not in members:
                members.add(y)
                todo.append(y)
    return members


def _paths(root: str, edges: dict[str, dict[str, list[str]]]) -> dict[str, list[str]]:
    """The sources along a shortest path from each member to ``root`` (deterministic)."""
    via: dict[str, list[str]] = {root: []}
    todo = deque([root])
    while todo:
        x = todo.popleft()
        for y in sorted(edges[x]):
            if y not in via:
                via[y] = via[x] + [s for s in edges[x][y] if s not in via[x]]
                todo.append(y)
    return via


class VariantRule:
    """Maps every member of a variant class to the class's canonical member."""

    cls = ChangeClass.ORTHOGRAPHIC

    def __init__(
        self,
        name: str,
        pairs: Iterable[VariantPair],
        *,
        description: str,
        source: str,
        image: Callable[[str], str] | None = None,
        image_source: str = "script",
        attached: Iterable[VariantPair] = (),
        never: Collection[frozenset[str]] = frozenset(),
    ) -> None:
        self.name = name
        self.description = description
        self.source = source
        self.table = build_classes(pairs, image, image_source, attached=attached, never=never)
        # Only the graphic rule drops variation selectors: they never change the word.
        self.drops_selectors = name == "variant-graph"

    @classmethod
    def of_table(cls, name: str, table: dict[str, tuple[str, str]], *, description: str, source: str) -> VariantRule:
        """The rule with classes already built (by :func:`build_classes`, kept on disk)."""
        rule = cls.__new__(cls)
        rule.name, rule.description, rule.source, rule.table = name, description, source, table
        rule.drops_selectors = name == "variant-graph"
        return rule

    def apply(self, char: str) -> tuple[str, str] | None:
        """The canonical member of ``char``'s class and the sources, or None."""
        if self.drops_selectors and is_variation_selector(char):
            return "", "Unicode variation selector (a glyph of the same character)"
        return self.table.get(char)

    @property
    def size(self) -> int:
        """How many characters the rule maps."""
        return len(self.table)
