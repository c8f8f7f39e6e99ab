"""The claim grammar: what a note says about witnesses, read off its words.

A note is read on its folded text (simplified, variants merged) in four passes, each a
regular pattern over the lexicon's words:

1. *Witness clauses*: ``[lead] WITNESS [adverbs] [于 PLACE] VERB reading``. The lead is
   the note's words before the witness: the base phrase concerned (``事``,
   ``遂以奇算告曰…``) or a place (``比投不释下``, ``此节之首``). The reading runs to the
   next witness, a word that opens a comment (案, 盖 …) or ``据``; ``N字``/``一X字``
   endings give its length. ``此一句``/``此六字`` refer back to the phrase or the last reading.
2. *Continuations* without a witness name: ``又此二句之下有云…``, ``末又曰…`` speak
   of the last witness named.
3. *Emendations*: ``X字当为Y字之讹`` (the note's author, or the edition cited with 云).
4. *Sources*: ``据宋本改正`` says that edition reads as the base at the last claim's place.

Quotation frames (``其曰…者``) and glosses (``释文音权``) are read over, not as claims.
The result is offset-free (:class:`ParsedClaim`); :mod:`collate.notes.resolve` finds
the places in the base.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from collate.notes.fold import fold
from collate.notes.lexicon import (
    ADVERBS,
    COMMENT_OPENERS,
    DEFAULT_LEXICON,
    EMEND_VERBS,
    GLOSS_VERBS,
    PLACE_WORDS,
    SOURCE_VERBS,
    VERBS,
    Lexicon,
)
from collate.notes.records import ClaimKind, Place

AUTHORITIES = ("郑注", "郑", "注", "疏", "贾疏", "孔疏", "王肃", "陆德明")
_NUMERALS = "一二三四五六七八九十百"
_COUNT = re.compile(f"^(?P<text>.*?)(?P<n>[{_NUMERALS}]+)字$")
_ONE_CHAR = re.compile(r"^一(?P<text>.)字$")
_BACK_REFERENCE = re.compile(f"此(?:(?P<sentence>一?句)|(?P<n>[{_NUMERALS}]+)字)")
_CHAR_OF = re.compile(r"^(?P<context>.+)之(?P<char>.)$")
_FRAME = re.compile(r"其曰.+?者")
_JOINERS = ("及", "与", "暨", "、")
_LEAD_NOISE = "又于而故亦"


@dataclass(frozen=True, slots=True)
class ParsedClaim:
    """One claim as the grammar reads it, before its place is found in the base.

    ``witness`` is the name as written ('' for an emendation of the base itself),
    ``canonical`` the name it stands for. ``phrase`` is the base phrase that locates
    ``place`` ('' when the place is the note's own position or its passage); ``gloss`` the
    words of an authority the note cites instead of quoting (王肃云枉不直哨不正).
    ``base``/``reading`` are as stated ('' when the note leaves them to the place).
    ``start``/``end`` bound the clause in the note's text.
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


@dataclass(frozen=True, slots=True)
class _Mention:
    start: int
    end: int
    name: str
    canonical: str


def parse_note(text: str, lexicon: Lexicon = DEFAULT_LEXICON) -> tuple[ParsedClaim, ...]:
    """The claims a note's words make, in the order the note makes them."""
    folded = fold(text)
    masked = _mask_frames(folded)
    mentions = _mentions(masked, lexicon)
    found: list[ParsedClaim] = []
    consumed: list[tuple[int, int]] = []
    lead_from = 0
    pending = ""  # the lead of a witness named without a claim (拳 of 拳释文音权唐石经亦作拳)
    i = 0
    while i < len(mentions):
        group = [mentions[i]]
        while i + 1 < len(mentions) and _joined(masked, group[-1], mentions[i + 1]):
            i += 1
            group.append(mentions[i])
        i += 1
        if group[0].start > 0 and masked[group[0].start - 1] == "据":
            source = _SOURCE.match(masked, group[0].start - 1)
            lead_from = max(lead_from, source.end() if source else group[-1].end)
            continue
        nxt = mentions[i].start if i < len(mentions) else len(masked)
        clause = _witness_clause(masked, group, lead_from, nxt, found, pending)
        if clause is None:
            pending = pending or masked[lead_from : group[0].start]
            lead_from = max(lead_from, _after_gloss(masked, group[-1].end))
            continue
        claims, end = clause
        found.extend(claims)
        consumed.append((group[0].start, end))
        lead_from, pending = end, ""
    found.extend(_continuations(masked, consumed, found, mentions))
    found.sort(key=lambda c: c.start)
    found = _with_sources(masked, found, lexicon)
    found.extend(_emendations(masked, found, mentions))
    found.extend(_superfluous_in_base(masked, found))
    found.sort(key=lambda c: (c.start, c.kind is ClaimKind.EMEND))
    return tuple(_in_original_script(c, folded, text) for c in found)


def _in_original_script(claim: ParsedClaim, folded: str, original: str) -> ParsedClaim:
    """The claim's words as the note writes them (parsing ran on the folded text)."""

    def restore(words: str) -> str:
        if not words:
            return words
        places = [m.start() for m in re.finditer(re.escape(words), folded)]
        if not places:
            return words
        at = min(places, key=lambda p: abs(p - claim.start))
        return original[at : at + len(words)]

    return replace(
        claim,
        witness=restore(claim.witness),
        phrase=restore(claim.phrase),
        base=restore(claim.base),
        reading=restore(claim.reading),
        gloss=restore(claim.gloss),
    )


def _mask_frames(text: str) -> str:
    """Blank out quotation frames (其曰…者): the words quoted there are no claims."""
    return _FRAME.sub(lambda m: "　" * len(m.group(0)), text)


def _mentions(text: str, lexicon: Lexicon) -> list[_Mention]:
    found = []
    for m in lexicon.witness_regex().finditer(text):
        pattern = next((k for k, v in m.groupdict().items() if v is not None and k.startswith("p")), None)
        if pattern is not None:
            template = lexicon.patterns[int(pattern[1:])][1]
            groups = [g for g in m.groups() if g is not None and g != m.group(pattern)]
            canonical = template.format(*groups) if "{0}" in template and groups else template
        else:
            canonical = lexicon.canonical(m.group(0))
        found.append(_Mention(m.start(), m.end(), m.group(0), canonical))
    return found


def _joined(text: str, a: _Mention, b: _Mention) -> bool:
    between = text[a.end : b.start]
    return between == "" or between in _JOINERS


def _after_gloss(text: str, pos: int) -> int:
    """After a witness named without a claim: skip its gloss (释文音权) if it has one."""
    for verb in GLOSS_VERBS:
        if text.startswith(verb, pos):
            return min(len(text), pos + len(verb) + 1)
    return pos


def _skip_adverbs(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in ADVERBS:
        pos += 1
    return pos


def _place_at(text: str, pos: int) -> tuple[str, str] | None:
    """A place word starting at ``pos`` (after an optional 于): (word, place value)."""
    start = pos + 1 if text.startswith("于", pos) else pos
    for word in sorted(PLACE_WORDS, key=len, reverse=True):
        if text.startswith(word, start):
            return word, PLACE_WORDS[word]
    return None


def _verb_at(text: str, pos: int) -> str | None:
    for verb in sorted(VERBS, key=len, reverse=True):
        if text.startswith(verb, pos):
            return verb
    return None


def _witness_clause(
    text: str, group: list[_Mention], lead_from: int, next_mention: int, earlier: list[ParsedClaim], pending: str
) -> tuple[list[ParsedClaim], int] | None:
    pos = _skip_adverbs(text, group[-1].end)
    place_word = _place_at(text, pos)
    if place_word:
        pos = text.index(place_word[0], pos) + len(place_word[0])
        pos = _skip_adverbs(text, pos)
    verb = _verb_at(text, pos)
    if verb is None:
        return None
    kind = VERBS[verb]
    body = pos + len(verb)
    stop = _reading_end(text, body, next_mention)
    if verb == "云" and any(v in text[body : body + 8] for v in EMEND_VERBS):
        return None  # an edition's opinion (通解云拳当作奉): read as an emendation
    lead = text[lead_from : group[0].start]
    if not lead.strip(_LEAD_NOISE + "　") and pending:
        lead = pending
    place, phrase, gloss, via = _read_lead(lead)
    if place_word:
        place, phrase = Place(place_word[1]), ""
    reading, count, refers, end = _read_reading(text, body, stop)
    inherited = False
    if not lead.strip(_LEAD_NOISE + "　") and earlier and not place_word:
        # 大戴礼亦无此一句: same place as the claim before it.
        prev = earlier[-1]
        place, phrase, gloss, inherited = prev.place, prev.phrase, prev.gloss, True
    base = phrase if place is Place.AT and kind is ClaimKind.READS else ""
    if refers == "sentence":
        reading = phrase
    elif refers == "previous" and earlier:
        reading = earlier[-1].reading or earlier[-1].base
    if kind is ClaimKind.LACKS:
        base, reading = reading, ""
    claims = [
        ParsedClaim(
            witness=m.name,
            canonical=m.canonical,
            kind=kind,
            place=place,
            phrase=phrase,
            base=base,
            reading=reading,
            start=group[0].start if n == 0 else m.start,
            end=end,
            via=via,
            count=count,
            gloss=gloss,
            inherited=inherited,
        )
        for n, m in enumerate(group)
    ]
    return claims, end


def _read_lead(lead: str) -> tuple[Place, str, str, str | None]:
    """The place a lead names, its phrase, a cited gloss, and the authority relayed (疏云)."""
    lead = lead.strip("　")
    if len(lead) > 1:
        lead = lead.lstrip(_LEAD_NOISE).rstrip("于")
    via = None
    for auth in sorted(AUTHORITIES, key=len, reverse=True):
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


def _reading_end(text: str, start: int, next_mention: int) -> int:
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
    implicit = _IMPLICIT.search(text, start, stop)
    if implicit and implicit.start() > start:
        stop = implicit.start()
    return stop


def _read_reading(text: str, start: int, stop: int) -> tuple[str, int | None, str | None, int]:
    """The reading in ``text[start:stop]``, its stated length, a back reference, and where it ends."""
    raw = text[start:stop]
    back = _BACK_REFERENCE.match(raw)
    if back:
        n = back.group("n")
        return "", _number(n) if n else None, "sentence" if back.group("sentence") else "previous", start + back.end()
    zi = raw.find("字")
    if 0 < zi <= 24:
        # 多一算字 / 有则经兽侯是也六字 / 脱也字: the reading ends at 字.
        words = raw[: zi + 1]
        one = _ONE_CHAR.match(words)
        if one:
            return one.group("text"), 1, None, start + zi + 1
        counted = _COUNT.match(words)
        if counted and counted.group("text"):
            return counted.group("text"), _number(counted.group("n")), None, start + zi + 1
        return words[:-1], None, None, start + zi + 1
    return raw.strip("　"), None, None, stop


def _number(numeral: str) -> int:
    digits = {c: i for i, c in enumerate("一二三四五六七八九", 1)}
    total, current = 0, 0
    for c in numeral:
        if c in digits:
            current = digits[c]
        elif c == "十":
            total += (current or 1) * 10
            current = 0
        elif c == "百":
            total += (current or 1) * 100
            current = 0
    return total + current


_IMPLICIT = re.compile(
    "(?:又|亦)?(?P<place>" + "|".join(sorted(map(re.escape, PLACE_WORDS), key=len, reverse=True)) + ")"
    "(?:又|亦)?(?P<verb>有云|有曰|又曰|曰|有|多|无|脱|作)"
)


def _continuations(
    text: str, consumed: list[tuple[int, int]], found: list[ParsedClaim], mentions: list[_Mention]
) -> list[ParsedClaim]:
    """Clauses that name a place and a verb but no witness: they speak of the last one named."""
    out: list[ParsedClaim] = []
    for m in _IMPLICIT.finditer(text):
        if any(a <= m.start() < b for a, b in consumed):
            continue
        before = [c for c in found if c.end <= m.start() and c.kind is not ClaimKind.EMEND]
        if not before:
            continue
        prev = before[-1]
        verb = m.group("verb")
        kind = ClaimKind.ADDS if verb in ("曰", "又曰") else VERBS[verb]
        nxt = next((x.start for x in mentions if x.start >= m.end()), len(text))
        stop = _reading_end(text, m.end(), nxt)
        reading, count, _refers, end = _read_reading(text, m.end(), stop)
        base = ""
        if kind is ClaimKind.LACKS:
            base, reading = reading, ""
        out.append(
            ParsedClaim(
                witness=prev.witness,
                canonical=prev.canonical,
                kind=kind,
                place=Place(PLACE_WORDS[m.group("place")]),
                phrase="",
                base=base,
                reading=reading,
                start=m.start(),
                end=end,
                count=count,
            )
        )
    return out


_SOURCE = re.compile("据(?P<rest>.{1,12}?)(?P<verb>" + "|".join(SOURCE_VERBS) + ")")


def _with_sources(text: str, found: list[ParsedClaim], lexicon: Lexicon) -> list[ParsedClaim]:
    """Add, after each claim a 据W改正 follows, W's agreement with the base there."""
    out = list(found)
    regex = lexicon.witness_regex()
    for m in _SOURCE.finditer(text):
        named = regex.fullmatch(m.group("rest"))
        if named is None:
            continue
        before = [c for c in found if c.end <= m.start() and c.kind is not ClaimKind.EMEND]
        if not before:
            continue
        prev = before[-1]
        name = named.group(0)
        canonical = _mentions(name, lexicon)[0].canonical
        agrees = False
        if prev.kind in (ClaimKind.ADDS, ClaimKind.SUPERFLUOUS):
            kind, base, reading = ClaimKind.LACKS, prev.reading, ""
        else:
            stated = prev.base or prev.phrase
            kind, base, reading = ClaimKind.READS, stated, stated
        agrees = True
        out.append(
            replace(
                prev,
                witness=name,
                canonical=canonical,
                kind=kind,
                base=base,
                reading=reading,
                start=m.start(),
                end=m.end(),
                via=None,
                count=None,
                inherited=True,
                agrees=agrees,
            )
        )
    return out


_EMEND = re.compile(
    "(?P<old>[^　])字?(?P<verb>" + "|".join(EMEND_VERBS) + ")(?P<new>[^　字之也]{1,4}?)(?:字|之讹|之误|也|$)"
)


def _emendations(text: str, found: list[ParsedClaim], mentions: list[_Mention]) -> list[ParsedClaim]:
    """X当为Y: X should be Y — in the last reported reading that has X, else in the base."""
    out = []
    for m in _EMEND.finditer(text):
        old, new = m.group("old"), m.group("new")
        cited = [x for x in mentions if x.end <= m.start() and text.startswith("云", x.end)]
        resp = cited[-1].canonical if cited and m.start() - cited[-1].end <= 4 else None
        target = next(
            (
                c
                for c in reversed(found)
                if c.end <= m.start() and c.kind is ClaimKind.READS and old in c.reading and old not in c.base
            ),
            None,
        )
        base_claim = next((c for c in reversed(found) if c.end <= m.start()), None)
        out.append(
            ParsedClaim(
                witness=target.witness if target else "",
                canonical=target.canonical if target else "",
                kind=ClaimKind.EMEND,
                place=base_claim.place if base_claim else Place.AT,
                phrase=base_claim.phrase if base_claim else "",
                base=old,
                reading=new,
                start=m.start(),
                end=m.end(),
                resp=resp,
                gloss=base_claim.gloss if base_claim else "",
            )
        )
    return out


_BASE_SUPERFLUOUS = re.compile("(?<![^　])衍一?(?P<char>[^　])字")


def _superfluous_in_base(text: str, found: list[ParsedClaim]) -> list[ParsedClaim]:
    """衍一无字 standing alone (after a quotation frame): a character of the base is superfluous."""
    out = []
    for m in _BASE_SUPERFLUOUS.finditer(text):
        if any(c.start <= m.start() < c.end for c in found):
            continue
        char = m.group("char")
        out.append(
            ParsedClaim(
                witness="",
                canonical="",
                kind=ClaimKind.SUPERFLUOUS,
                place=Place.AT,
                phrase=char,
                base=char,
                reading=char,
                start=m.start(),
                end=m.end(),
            )
        )
    return out
