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

from collate.model.annotations import ClaimKind, NoteClaim, Place, Verdict

BASE = "底本"

# A claim's verdict as a 校勘記 says it (keyed by value: the HTML's records carry the value).
VERDICT_LABELS: dict[str, str] = {
    Verdict.CONFIRMED.value: "證實",
    Verdict.PARTLY.value: "部分相合",
    Verdict.CONTRADICTED.value: "相反",
    Verdict.NOT_CHECKABLE.value: "無從核對",
}
VERDICT_TITLES: dict[str, str] = {
    Verdict.CONFIRMED.value: "所校之本正如案語所言",
    Verdict.PARTLY.value: "其處相合，文字小異",
    Verdict.CONTRADICTED.value: "所校之本與案語所言不合",
    Verdict.NOT_CHECKABLE.value: "無全文可核，或未得其處",
}

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


def chinese_evidence(
    claim: NoteClaim,
    checked: bool,
    witness: str,
    actual: str,
    where: str,
    *,
    placed: bool = True,
    sparse: str = "",
) -> str:
    """What the witness checked has there, or why the claim could not be checked, in Chinese.

    ``checked``: the claim was compared with ``witness`` (its name as printed, 「注疏本（ZS）」),
    which has ``actual`` there, at ``where`` (a cited place, or ''). Otherwise the reason is
    told from the claim's fields: an emendation, a claim not found in the base (``placed``
    false), one that names no edition, one of a witness the project lacks, or of one collated
    only as the readings a note reports (``sparse``: that witness's name as printed).
    """
    if checked and witness:
        read = f"實作{actual}" if actual else "此處無字"
        return f"{witness}{read}" + (f"（{where}）" if where else "")
    if claim.kind is ClaimKind.EMEND:
        return "校改之說，非記一本之異文"
    if not placed:
        return "底本中未得其處"
    if not claim.witness:
        return "未言何本，所論乃底本之文"
    if witness:
        return f"{witness}中未得其處，或無此層"
    if claim.siglum is None:
        return f"{claim.witness}非本項目所收之本"
    if sparse:
        return f"{sparse}只收案語所引異文，無全文可核"
    return f"本項目無{claim.witness}全文"


def _where(words: dict[Place, str], place: Place, phrase: str) -> str:
    """Where the claim is, relative to ``phrase`` (nothing where the phrase is missing or the place is AT)."""
    said = words.get(place, "")
    if "{}" in said:
        return said.format(phrase) if phrase else ""
    return said
