"""Script folding: compare traditional and simplified witnesses in one script (OpenCC).

Only the comparison key changes; the token keeps its original character. The conversion is
character by character, never by phrase: one character is one token, and a phrase-based
conversion would make a token's key depend on its neighbours.

Simplification merged distinct traditional characters into one form (後 and 后 are both 后, 脩
and 修 both 修, 髮 and 發 both 发). Folding them would make two traditional witnesses that read 後
and 后 agree, so the rule never folds a character into such a form: each traditional candidate
keeps its own key, and the merged form (a simplified witness's 后) is its own key too. Whether
that 后 stands for the 後 another witness reads is a question of the witness's script
(:func:`is_simplified_text`), which :meth:`collate.normalize.Normalizer.relation` answers.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from functools import cache, lru_cache

import collate.normalize.cache as forms_cache
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
    # The distinct characters first (a set is built in C): a text of 20,000 has a thousand or two.
    todo = sorted(c for c in set(chars) if (config, c) not in _converted and c != "\n")
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


# A text is simplified when more of its characters are simplified forms than traditional ones.
_SAMPLE = 20000
# What is not a CJK unified ideograph (U+4E00-U+9FFF): left out of the sample.
_NOT_CJK = re.compile("[^\u4e00-\u9fff]+")


@lru_cache(maxsize=64)
def is_simplified_text(text: str) -> bool:
    """Whether ``text`` is written in simplified characters (by OpenCC's conversions, both ways).

    Counts, over its first 20,000 CJK characters, those OpenCC would simplify (a traditional
    form) and those it would turn back (a simplified form): a simplified e-text has hundreds of
    the second for a handful of the first, a traditional print the reverse (its 于 and 后 count
    as simplified forms, so a short text of a few such characters is a close call: the
    traditional reading wins a tie).
    """
    traditional, simplified = script_counts(text)
    return simplified > traditional


def script_counts(text: str) -> tuple[int, int]:
    """Of ``text``'s first 20,000 CJK characters, those OpenCC would simplify (traditional forms)
    and those it would turn back (simplified forms), each occurrence counted."""
    sample = _NOT_CJK.sub("", text)[:_SAMPLE]
    # Each distinct character asked once, its occurrences counted in C: a text repeats its characters.
    counts = Counter(sample)
    convert_all("t2s", counts)
    traditional = sum(n for c, n in counts.items() if convert("t2s", c) != c)
    forms = sampled_simplified_forms()
    simplified = sum(n for c, n in counts.items() if c in forms)
    return traditional, simplified


# Every character the sample may hold (U+4E00-U+9FFF), in order.
_SAMPLED = "".join(map(chr, range(0x4E00, 0xA000)))


@cache
def sampled_simplified_forms() -> frozenset[str]:
    """The characters of U+4E00-U+9FFF (all a sample of :func:`script_counts` holds) that OpenCC's
    ``s2t`` changes: ``c in`` it is ``convert("s2t", c) != c``.

    Asked of OpenCC once per OpenCC version and kept on disk (:mod:`collate.normalize.cache`):
    loading ``s2t`` (its phrase table of some 50,000 entries too) takes a twentieth of a second,
    and a run whose variant classes are kept there asks ``s2t`` nothing else.
    """
    import opencc

    key = forms_cache.digest((), f"s2t {_SAMPLED[0]}-{_SAMPLED[-1]} {getattr(opencc, '__version__', '')}")
    forms = forms_cache.load_forms(key)
    if forms is None:
        convert_all("s2t", _SAMPLED)
        forms = frozenset(c for c in _SAMPLED if convert("s2t", c) != c)
        forms_cache.store_forms(key, forms)
    return forms


def merged_forms(config: str, table: Mapping[str, Collection[str]]) -> dict[str, frozenset[str]]:
    """Each simplified form that merges several traditional characters → those characters.

    ``table`` is OpenCC's own list of candidates (``script_mergers.tsv``: 后 → 後 后); a candidate
    counts where ``config`` folds it into the form (OpenCC's two directions differ slightly), and
    a form counts where two candidates or more do.
    """
    convert_all(config, {c for candidates in table.values() for c in candidates})
    found = {}
    for form, candidates in table.items():
        mine = frozenset(c for c in candidates if convert(config, c) == form)
        if len(mine) >= 2:
            found[form] = mine
    return found


class ScriptRule:
    """Folds each character to simplified with OpenCC, after the curated supplement, except
    into a form that simplification merged from distinct characters (``mergers``)."""

    name = "script"
    cls = ChangeClass.ORTHOGRAPHIC
    description = (
        "traditional and simplified characters compare equal (OpenCC, character by character); "
        "distinct traditional characters that simplification merged (後/后, 脩/修) keep their own keys"
    )

    def __init__(
        self,
        config: str = "t2s",
        supplement: Mapping[str, str] | None = None,
        mergers: Mapping[str, frozenset[str]] | None = None,
        apart: Mapping[str, frozenset[str]] | None = None,
    ) -> None:
        if config not in SCRIPTS:
            raise ProjectError(f"unknown script conversion {config!r}", hint="use one of " + ", ".join(SCRIPTS))
        self.config = config
        # Simplified forms OpenCC does not produce (馀, where OpenCC gives 余 for 餘) are first
        # sent to their traditional form, so both witnesses meet on OpenCC's output.
        self.supplement = dict(supplement or {})
        # Merged form → the distinct traditional characters it stands for (后 → 後 后).
        self.mergers = dict(mergers or {})
        # Merged form → the characters kept apart from it: each candidate but the form itself
        # (後 for 后), or where the variant rules run first, the representative of each
        # candidate's class but the form's own (裡 for 裏 and 裡; not 里's compatibility
        # ideograph, which is 里). A character OpenCC folds into the form that is none of them (録,
        # a print form of 錄 no table names) folds as before: the form stands for it in any script.
        self.apart = dict(apart) if apart is not None else {f: c - {f} for f, c in self.mergers.items()}
        self.source = f"OpenCC {opencc_version()} {config}"

    def keeping(self, mergers: Mapping[str, frozenset[str]], apart: Mapping[str, frozenset[str]]) -> ScriptRule:
        """The same rule with only ``mergers`` kept, ``apart`` kept apart from each (see :attr:`apart`)."""
        return ScriptRule(self.config, self.supplement, mergers, apart)

    def apply(self, char: str) -> tuple[str, str] | None:
        """The simplified form of ``char`` and the source, or None if OpenCC leaves it.

        None too where OpenCC would send ``char`` into a merged form (後 into 后): two
        traditional witnesses reading 後 and 后 read two characters. A simplified form the
        supplement names still goes to its traditional form (馀 → 餘: it stands for 餘 alone).
        """
        start = self.supplement.get(char, char)
        after = convert(self.config, start)
        if after != start and start in self.apart.get(after, ()):
            return (start, f"curated {char}→{start}") if start != char else None
        if after == char:
            return None
        if start != char:
            return after, f"curated {char}→{start}; {self.source}"
        return after, self.source

    def declined(self, char: str) -> str | None:
        """The merged form the rule does not fold ``char`` into (后 for 後), or None."""
        after = convert(self.config, char)
        return after if after != char and char in self.apart.get(after, ()) else None

    def image(self, char: str) -> str:
        """What the rule makes of ``char`` (``char`` itself if nothing)."""
        result = self.apply(char)
        return char if result is None else result[0]
