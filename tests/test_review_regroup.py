"""Loci cut anew by the editor: merged and split as decisions that persist and apply again after a rerun."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, review_session

from collate.apparatus import Collation, ReadingClass
from collate.decisions import apply_decisions, load_decisions
from collate.decisions.file import parse_decisions
from collate.decisions.regroup import Refusal, split_refusal
from collate.errors import ProjectError
from collate.model.annotations import DecisionAction
from collate.review.session import Refused

# ZS reads 峭瓶 for the first 哨壺 (one locus of two characters) and lacks the third 也.
CUT_WIT = REVIEW_WIT.replace("峭壶请", "峭瓶请").replace("也敢固", "-敢固")


@pytest.fixture
def collation() -> Collation:
    """SK and ZS: 哨壶/峭瓶, 哨/峭 twice, 也 omitted, 算/筭 twice."""
    return collate_rows({"SK": REVIEW_BASE, "ZS": CUT_WIT})


def shape(c: Collation) -> list[tuple[str, str, tuple[tuple[str, ReadingClass], ...]]]:
    """Each locus: its id, the base's text, the readings and their classes."""
    return [(x.id, x.lemma.text, tuple((r.text, r.cls) for r in x.readings)) for x in c.loci()]


def test_a_split_makes_two_loci_that_come_back_after_a_rerun(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    assert s.loci[0].lemma.text == "哨壶"
    s.split(s.loci[0], 1)
    assert shape(s.collation)[:2] == [
        ("jing-00008", "哨", (("峭", ReadingClass.SUBSTANTIVE),)),
        ("jing-00009", "壶", (("瓶", ReadingClass.SUBSTANTIVE),)),
    ]
    second = s.loci[1]
    s.decide(second, DecisionAction.ADOPT, reading=second.readings[0], siglum="ZS")
    text = path.read_text(encoding="utf-8")
    assert 'action = "split"\nat = 1\n' in text
    # A new run: the split is made again, and the decision on its second part finds it.
    again, report = apply_decisions(collate_rows({"SK": REVIEW_BASE, "ZS": CUT_WIT}), load_decisions(path))
    assert shape(again)[:2] == shape(s.collation)[:2] and not report.orphans
    adopted = again.locus("jing-00009")
    assert adopted is not None and adopted.decision is not None and adopted.decision.lemma == "瓶"


def test_a_merge_makes_one_locus_with_the_text_between(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    first = next(x for x in s.loci if x.id == "jing-00044")
    s.merge(first)
    merged = s.collation.locus("jing-00044")
    assert merged is not None and (merged.lemma.text, merged.readings[0].text) == ("算兴执算", "筭兴执筭")
    assert merged.readings[0].cls is ReadingClass.ORTHOGRAPHIC and s.collation.locus("jing-00047") is None
    # A substitution merged with an omission after it: the strongest class of the two.
    s.merge(next(x for x in s.loci if x.id == "jing-00032"))
    wider = s.collation.locus("jing-00032")
    assert wider is not None and (wider.lemma.text, wider.readings[0].text) == ("哨壶不足辞也", "峭壶不足辞")
    assert wider.readings[0].cls is ReadingClass.SUBSTANTIVE
    s.decide(wider, DecisionAction.KEEP)
    again, report = apply_decisions(collate_rows({"SK": REVIEW_BASE, "ZS": CUT_WIT}), load_decisions(path))
    assert shape(again) == shape(s.collation) and not report.orphans
    kept = again.locus("jing-00032")
    assert kept is not None and kept.decision is not None
    with_until = parse_decisions(path.read_text(encoding="utf-8"))[0]
    assert with_until.until is not None and with_until.until.lemma == "算"


def test_undoing_a_merge_gives_back_both_loci(collation: Collation, tmp_path: Path) -> None:
    s = review_session(collation, tmp_path / "d.toml")
    before = shape(s.collation)
    s.merge(s.loci[1])
    assert len(s.loci) == len(before) - 1
    s.undo()
    assert shape(s.collation) == before


def in_two_units(c: Collation, first: int) -> Collation:
    """The collation with the base's tokens from ``first`` on in a second unit (a 經 passage, then the next)."""
    result = c.layers[0]
    columns = tuple(
        tuple(t if t is None else replace(t, unit=int(t.index >= first)) for t in column)
        for column in result.alignment.columns
    )
    return c.with_layer(replace(result, alignment=replace(result.alignment, columns=columns)))


def test_loci_of_two_units_are_not_merged(collation: Collation, tmp_path: Path) -> None:
    s = review_session(in_two_units(collation, 30), tmp_path / "d.toml")
    with pytest.raises(Refused) as refused:
        s.merge(s.loci[1])  # jing-00019 and jing-00032 stand on either side of the unit's end
    assert refused.value.key == "refused_units"
    assert s.decisions == ()
    with pytest.raises(Refused, match="refused_no_next"):
        s.merge(s.loci[-1])


def test_a_split_needs_two_characters_and_the_witnesses_own_text(collation: Collation) -> None:
    one, two = next(collation.loci()), list(collation.loci())[1]
    assert split_refusal(one, 1) is None
    assert split_refusal(one, 2) is Refusal.SHORT and split_refusal(two, 1) is Refusal.SHORT
    reported = replace(one, readings=tuple(replace(r, derived=True) for r in one.readings))
    assert split_refusal(reported, 1) is Refusal.REPORTED


def test_a_merge_whose_second_locus_is_gone_is_an_orphan(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = review_session(collation, path)
    s.merge(next(x for x in s.loci if x.id == "jing-00044"))
    s.decide(s.loci[0], DecisionAction.KEEP)
    corrected = collate_rows({"SK": REVIEW_BASE, "ZS": CUT_WIT.replace("执筭而", "执算而")})
    again, report = apply_decisions(corrected, load_decisions(path))
    assert [d.action for d in report.orphans] == [DecisionAction.MERGE]
    assert again.locus("jing-00044") is not None and again.locus("jing-00047") is None
    assert [p.locus for p in report.placed] == ["jing-00008"]


def test_a_file_of_the_first_format_loads_and_a_merge_needs_its_second_locus(tmp_path: Path) -> None:
    anchor = '[decision.anchor]\nlayer = "jing"\noffset = 8\nlemma = "哨"\n'
    old = f'version = 1\n\n[[decision]]\nid = "a"\naction = "keep"\neditor = "王"\n{anchor}'
    (keep,) = parse_decisions(old)
    assert (keep.until, keep.at) == (None, None)
    with pytest.raises(ProjectError, match="`until` is missing"):
        parse_decisions(old.replace('"keep"', '"merge"'))
    with pytest.raises(ProjectError, match="`at` is missing"):
        parse_decisions(old.replace('"keep"', '"split"'))
    with pytest.raises(ProjectError, match="`at` must be a whole number from 1"):
        parse_decisions(old.replace('action = "keep"', 'action = "split"\nat = 0'))
