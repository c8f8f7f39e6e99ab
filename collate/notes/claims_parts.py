"""The parts of a claim clause, read off a note's folded text: no claims, only words and offsets.

:mod:`collate.notes.claims` builds claims from these: the witness names a note mentions
(:func:`find_mentions`), the lead before a name (:func:`read_lead`: the place or base phrase it
concerns), the adverbs, place word and verb after it, and the reading the verb introduces
(:func:`reading_end`, :func:`read_reading`: where it stops, how long the note says it is).
The words themselves are the lexicon's (:mod:`collate.notes.lexicon`); the numerals of a count
(:mod:`collate.model.numerals`) and the names of the authorities a note relays
(:func:`collate.model.people.cited_names`) the model's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from collate.model.numerals import NUMERAL, number
from collate.model.people import cited_names
from collate.notes.lexicon import ADVERBS, COMMENT_OPENERS, EMEND_VERBS, GLOSS_VERBS, PLACE_WORDS, VERBS, Lexicon
from collate.notes.records import Place

# The names a lead relays an authority by (疏云, 郑注云, 陆德明曰), longest first.
AUTHORITIES = tuple(sorted(cited_names(), key=len, reverse=True))
_COUNT = re.compile(f"^(?P<text>.*?)(?P<n>{NUMERAL}+)字$")
_ONE_CHAR = re.compile(r"^一(?P<text>.)字$")
_BACK_REFERENCE = re.compile(f"此(?:(?P<sentence>一?句)|(?P<n>{NUMERAL}+)字)")
_CHAR_OF = re.compile(r"^(?P<context>.+)之(?P<char>.)$")
_FRAME = re.compile(r"其曰.+?者")
_JOINERS = ("及", "与", "暨", "、")
LEAD_NOISE = "又于而故亦"
# A place and a verb with no witness named (又此二句之下有云…, 末又曰…): a continuation, or where a reading stops.
IMPLICIT = re.compile(
    "(?:又|亦)?(?P<place>" + "|".join(sorted(map(re.escape, PLACE_WORDS), key=len, reverse=True)) + ")"
    "(?:又|亦)?(?P<verb>有云|有曰|又曰|曰|有|多|无|脱|作)"
)


# A place named between the witness and its verb: 就席上有升字, 樂正上有干字, 授主人下當有.
INNER_PLACE = re.compile("(?P<phrase>[^　]{1,8}?)(?P<side>字?上|字?下)(?P<verb>有|多|无|脱)")
_SOURCE_JOINERS = (*_JOINERS, "并")


@dataclass(frozen=True, slots=True)
class Mention:
    """A witness name at ``text[start:end]``: ``name`` as written, ``canonical`` the name it stands for."""

    start: int
    end: int
    name: str
    canonical: str


def in_original_script(words: str, folded: str, original: str, near: int) -> str:
    """``words`` (found in the folded text) as the note writes them: the occurrence nearest ``near``."""
    if not words:
        return words
    places = [m.start() for m in re.finditer(re.escape(words), folded)]
    if not places:
        return words
    at = min(places, key=lambda p: abs(p - near))
    return original[at : at + len(words)]


def mask_frames(text: str) -> str:
    """Blank out quotation frames (其曰…者): the words quoted there are no claims."""
    return _FRAME.sub(lambda m: "　" * len(m.group(0)), text)


def find_mentions(text: str, lexicon: Lexicon) -> list[Mention]:
    """The witness names ``text`` mentions, in order, each with the name it stands for."""
    found = []
    for m in lexicon.witness_regex().finditer(text):
        pattern = next((k for k, v in m.groupdict().items() if v is not None and k.startswith("p")), None)
        if pattern is not None:
            template = lexicon.patterns[int(pattern[1:])][1]
            groups = [g for g in m.groups() if g is not None and g != m.group(pattern)]
            canonical = template.format(*groups) if "{0}" in template and groups else template
        else:
            canonical = lexicon.canonical(m.group(0))
        found.append(Mention(m.start(), m.end(), m.group(0), canonical))
    return found


def joined(text: str, a: Mention, b: Mention) -> bool:
    """Whether ``b`` follows ``a`` as one group of witnesses (大戴礼及宋本): nothing or a joiner between."""
    between = text[a.end : b.start]
    return between == "" or between in _JOINERS


def after_gloss(text: str, pos: int) -> int:
    """After a witness named without a claim: skip its gloss (释文音权) if it has one."""
    for verb in GLOSS_VERBS:
        if text.startswith(verb, pos):
            return min(len(text), pos + len(verb) + 1)
    return pos


def skip_adverbs(text: str, pos: int) -> int:
    """The first offset from ``pos`` on that is not an adverb (亦, 并 …)."""
    while pos < len(text) and text[pos] in ADVERBS:
        pos += 1
    return pos


def place_at(text: str, pos: int) -> tuple[str, str] | None:
    """A place word starting at ``pos`` (after an optional 于): (word, place value)."""
    start = pos + 1 if text.startswith("于", pos) else pos
    for word in sorted(PLACE_WORDS, key=len, reverse=True):
        if text.startswith(word, start):
            return word, PLACE_WORDS[word]
    return None


def verb_at(text: str, pos: int) -> str | None:
    """The claim verb (作, 无, 有 …) starting at ``pos``, the longest if several."""
    for verb in sorted(VERBS, key=len, reverse=True):
        if text.startswith(verb, pos):
            return verb
    return None


def read_lead(lead: str) -> tuple[Place, str, str, str | None]:
    """The place a lead names, its phrase, a cited gloss, and the authority relayed (疏云)."""
    lead = lead.strip("　")
    if len(lead) > 1:
        lead = lead.lstrip(LEAD_NOISE).rstrip("于")
    via = None
    for auth in AUTHORITIES:
        if lead.startswith(auth + "云") or lead.startswith(auth + "曰"):
            return Place.AT, "", lead[len(auth) + 1 :], None
        if lead.endswith(auth + "云"):
            via, lead = auth, lead[: -len(auth) - 1]
            break
    for word, value in sorted(PLACE_WORDS.items(), key=lambda kv: len(kv[0]), reverse=True):
        if lead.endswith(word) and (len(word) > 1 or lead == word):
            return Place(value), "", "", via
    if lead.endswith("以下"):
        return Place.AFTER, _strip_zi(lead[:-2]), "", via
    if lead.endswith("上") and len(lead) > 1:
        return Place.BEFORE, _strip_zi(lead[:-1]), "", via
    if lead.endswith("下") and len(lead) > 1:
        return Place.AFTER, _strip_zi(lead[:-1]), "", via
    if lead.endswith("字") and len(lead) > 1:
        return Place.AT, lead[-2], "", via
    m = _CHAR_OF.match(lead)
    if m and m.group("char") in m.group("context"):
        return Place.AT, m.group("char"), "", via
    return Place.AT, lead, "", via


def _strip_zi(phrase: str) -> str:
    return phrase[:-1] if phrase.endswith("字") and len(phrase) > 1 else phrase


def reading_end(text: str, start: int, next_mention: int) -> int:
    """Where the reading from ``start`` stops: after a back reference (此一句), else at the next witness,
    a blank, a word that opens a comment, the character an emendation names, or a continuation.
    """
    back = _BACK_REFERENCE.match(text, start)
    if back:
        return back.end()
    stop = next_mention
    blank = text.find("　", start, stop)
    if blank > start:
        stop = blank
    for word in COMMENT_OPENERS:
        at = text.find(word, start, stop)
        if at > start:
            stop = at
    for verb in EMEND_VERBS:
        at = text.find(verb, start, stop)
        if at > start:
            stop = max(start, at - 1)
    implicit = IMPLICIT.search(text, start, stop)
    if implicit and implicit.start() > start:
        stop = implicit.start()
    return stop


def read_reading(text: str, start: int, stop: int) -> tuple[str, int | None, str | None, int]:
    """The reading in ``text[start:stop]``, its stated length, a back reference, and where it ends."""
    raw = text[start:stop]
    back = _BACK_REFERENCE.match(raw)
    if back:
        n = back.group("n")
        return "", _count(n) if n else None, "sentence" if back.group("sentence") else "previous", start + back.end()
    zi = raw.find("字")
    if 0 < zi <= 24:
        # 多一算字 / 有则经兽侯是也六字 / 脱也字: the reading ends at 字.
        words = raw[: zi + 1]
        one = _ONE_CHAR.match(words)
        if one:
            return one.group("text"), 1, None, start + zi + 1
        counted = _COUNT.match(words)
        n = _count(counted.group("n")) if counted and counted.group("text") else None
        if counted and n is not None:
            return counted.group("text"), n, None, start + zi + 1
        return words[:-1], None, None, start + zi + 1
    return raw.strip("　"), None, None, stop


def _count(numeral: str) -> int | None:
    """The count a note states (六, 十三), or None where its numeral is none (十十)."""
    try:
        return number(numeral)
    except ValueError:
        return None


def source_names(words: str, lexicon: Lexicon) -> list[Mention]:
    """The editions a 据/依 names (石經及朱子本楊本敖本): only names and joiners, else none."""
    names = find_mentions(words, lexicon)
    rest, at = [], 0
    for m in names:
        rest.append(words[at : m.start])
        at = m.end
    rest.append(words[at:])
    return names if names and all(r in ("", *_SOURCE_JOINERS) for r in rest) else []
