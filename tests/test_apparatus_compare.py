"""The classifier: a witness's reading against the lemma, by the normalizer's changes and relations."""

from __future__ import annotations

from dataclasses import replace

from builders import align_rows, summary, t2s

from collate.apparatus import CAUSE_TABOO, build_layer
from collate.model import Change, ChangeClass


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
