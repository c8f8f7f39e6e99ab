"""A note's claim in words, from its fields: one function in English, one in Chinese.

Every view that shows a claim words it here: the English one-liner the JSON, the TEI, the notes
table and the review (``--lang en``) write (``大戴礼 (DD) reads 峭 for 哨``), and the Chinese the
HTML edition and the review (``--lang zh``) show (「大戴礼（DD）作峭，底本作哨」). Nothing reads
these words back: a consumer that needs a claim's witness, reading or place reads its fields.

``show`` writes each reading (the review cuts a long one short); a claim's kind and whether its
reading is the base's are decided on the readings themselves, never on what ``show`` makes of them.
"""

from __future__ import annotations

from collections.abc import Callable

from collate.model.annotations import ClaimKind, NoteClaim, Place

BASE = "底本"

_PLACE_ENGLISH = {
    Place.AFTER: " after {}",
    Place.BEFORE: " before {}",
    Place.SECTION_START: " at the start of the section",
    Place.SECTION_END: " at the end of the section",
    Place.CHAPTER_END: " at the end of the chapter",
}
_PLACE_CHINESE = {
    Place.AFTER: "「{}」下",
    Place.BEFORE: "「{}」上",
    Place.SECTION_START: "此節之首",
    Place.SECTION_END: "此節之末",
    Place.CHAPTER_END: "篇末",
}


def english(claim: NoteClaim, show: Callable[[str], str] = str) -> str:
    """The claim in one line of English: ``大戴礼 (DD) reads 峭 for 哨``, ``the shu lacks 天子``.

    A missing reading of a ``reads`` claim is written ∅ (``注疏本 (ZS) reads ∅ for 也``).
    """
    who = f"{claim.witness} ({claim.siglum})" if claim.siglum else claim.witness
    if not who and claim.kind is not ClaimKind.EMEND:
        # 疏内却兼言天子: the note speaks of a layer, not of an edition.
        who = f"the {claim.layer.value}"
    where = _where(_PLACE_ENGLISH, claim.place, claim.phrase)
    base, reading = show(claim.base), show(claim.reading)
    if claim.kind is ClaimKind.READS:
        if claim.reading == claim.base:
            return f"{who} reads {reading or '∅'} as the base{where}"
        return f"{who} reads {reading or '∅'} for {base or '∅'}{where}"
    if claim.kind is ClaimKind.ADDS:
        return f"{who} adds {reading}{where}"
    if claim.kind is ClaimKind.LACKS:
        return f"{who} lacks {base}{where}"
    if claim.kind is ClaimKind.SUPERFLUOUS:
        return f"{who or 'the base'}: {reading} is superfluous{where}"
    return f"{claim.resp} emends {base} to {reading} in {who or 'the base'}"


def chinese(claim: NoteClaim, show: Callable[[str], str] = str) -> str:
    """The claim in Chinese: 「大戴礼（DD）作峭，底本作哨」, 「疏無天子」, 「朱子謂底本賓當作實」."""
    if claim.witness:
        who = f"{claim.witness}（{claim.siglum}）" if claim.siglum else claim.witness
    elif claim.kind is not ClaimKind.EMEND:
        # No edition named: a layer of the base speaks (疏内却兼言天子), named as the edition page names it.
        who = claim.layer.edition_name
    else:
        who = ""
    where = _where(_PLACE_CHINESE, claim.place, claim.phrase)
    base, reading = show(claim.base), show(claim.reading)
    if claim.kind is ClaimKind.READS:
        if claim.reading == claim.base:
            return f"{who}{where}亦作{reading}，同{BASE}"
        if not claim.reading:
            return f"{who}{where}無{base}"
        return f"{who}{where}作{reading}，{BASE}作{base}" if claim.base else f"{who}{where}作{reading}"
    if claim.kind is ClaimKind.ADDS:
        return f"{who}{where}多{reading}"
    if claim.kind is ClaimKind.LACKS:
        return f"{who}{where}無{base}"
    if claim.kind is ClaimKind.SUPERFLUOUS:
        return f"{who or BASE}{where}{reading}字衍"
    return f"{claim.resp}謂{who or BASE}{base}當作{reading}"


def _where(words: dict[Place, str], place: Place, phrase: str) -> str:
    """Where the claim is, relative to ``phrase`` (nothing where the phrase is missing or the place is AT)."""
    said = words.get(place, "")
    if "{}" in said:
        return said.format(phrase) if phrase else ""
    return said
