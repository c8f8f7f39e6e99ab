"""The classifier: a witness's reading against the lemma, by the normalizer's changes and relations."""

from __future__ import annotations

from dataclasses import replace

from builders import align_rows, normalizer, plain_witness, summary, t2s

from collate.align.alignment import LayerAlignment
from collate.apparatus import CAUSE_TABOO, build_layer
from collate.apparatus.columns import simplified_sigla
from collate.model import Change, ChangeClass, Layer, Witness
from collate.normalize.tokenize import tokenize


def test_orthographic_reading_names_its_rules() -> None:
    alignment, witnesses = align_rows({"SK": "郑元注宾", "ZS": "鄭玄注賔"})
    taboo, variant = build_layer(alignment, witnesses).loci
    assert (taboo.readings[0].cause, taboo.readings[0].rules) == (CAUSE_TABOO, ("taboo",))
    assert variant.readings[0].rules == ("variant-graph",)


def test_the_normalizers_script_rule_counts_as_script() -> None:
    # 馀/餘: OpenCC gives 余 for 餘, so only the normalizer's curated script rule folds them.
    alignment, witnesses = align_rows({"SK": "其馀", "ZS": "其餘"})
    zs = alignment.columns[1][1]
    assert zs is not None and t2s("馀") != t2s("餘")
    script = (Change("script", "餘", "馀", ChangeClass.ORTHOGRAPHIC),)
    columns = (alignment.columns[0], (alignment.columns[1][0], replace(zs, n="馀", changes=script)))
    result = build_layer(replace(alignment, columns=columns), witnesses)
    assert result.loci == () and result.script_differences == 1


def test_the_normalizer_relates_characters_whose_keys_differ() -> None:
    # 罷/疲 is a 通假 pair (a loan, noted); 着/著 one character in two scripts (no variant);
    # 已/己 a reading a collator must see (never related): a look-alike, its cause 形近.
    alignment, witnesses = align_rows({"SK": "主罷人着之已也", "ZS": "主疲人著之己也"})
    loci = build_layer(alignment, witnesses).loci
    assert [summary(x) for x in loci] == [
        ["罷", "loan", [[["ZS"], "疲", "loan", "loan"]]],
        ["已", "substantive", [[["ZS"], "己", "substantive", "look-alike"]]],
    ]
    assert loci[0].readings[0].rules == ("loan",)
    assert build_layer(alignment, witnesses).script_differences == 1


def test_a_simplified_witness_s_merged_form_agrees_two_traditional_characters_differ() -> None:
    # 后 and 于 of a simplified text stand for 後 and 於 or for 后 and 于: the script, never listed;
    # a traditional print's 后 for 後 is a print form (orthographic), its 于 for 於 a reading.
    alignment, witnesses = normalized_rows(
        {"ZS": "然後射於禮樂之義也", "SK": "然后射于礼乐之义也", "TLS": "然后射于禮樂之義也"}
    )
    result = build_layer(alignment, witnesses, normalizer())
    assert [summary(x) for x in result.loci] == [
        ["後", "orthographic", [[["TLS"], "后", "orthographic", "variant"]]],
        ["於", "substantive", [[["TLS"], "于", "substantive", None]]],
    ]
    assert result.loci[0].readings[0].rules == ("print-form",)
    assert all("SK" in x.lemma_witnesses for x in result.loci)
    assert result.script_differences == 3  # 礼 乐 义: columns where only SK differs, by script alone


def normalized_rows(rows: dict[str, str]) -> tuple[LayerAlignment, dict[str, Witness]]:
    """Rows of one length aligned character for character, tokenized by the default normalizer."""
    witnesses = {s: plain_witness(s, text) for s, text in rows.items()}
    streams = [tokenize(w, Layer.JING, normalizer()) for w in witnesses.values()]
    columns = tuple(zip(*streams, strict=True))
    return LayerAlignment(Layer.JING, tuple(rows), columns), witnesses


def test_the_simplified_witnesses_are_told_by_their_whole_text() -> None:
    alignment, witnesses = align_rows({"ZS": "然後射禮樂之義", "SK": "然后射礼乐之义"})
    assert simplified_sigla(alignment, witnesses) == {"SK"}
    # A witness not read (no text at hand) is judged on its characters in the layer.
    assert simplified_sigla(alignment, {"ZS": witnesses["ZS"]}) == {"SK"}
