"""Which loci the review walks: filters by class, layer, witness, decision and note; a folded search."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, review_session

from collate.apparatus import ReadingClass
from collate.model import Layer
from collate.model.annotations import DecisionAction
from collate.review.context import Context
from collate.review.filters import LocusFilter, find_page, found
from collate.review.session import ReviewSession

# ZS lacks the third 也 (…不足辞敢固…), besides 峭 for 哨 thrice and 筭 for 算 twice.
OMITTING = REVIEW_WIT.replace("也敢固", "-敢固")


@pytest.fixture
def session(tmp_path: Path) -> ReviewSession:
    """A review of SK and ZS: 哨/峭 thrice, 也 omitted once, 算/筭 twice."""
    return review_session(collate_rows({"SK": REVIEW_BASE, "ZS": OMITTING}), tmp_path / "d.toml")


def lemmas(s: ReviewSession, view: LocusFilter) -> list[str]:
    """The base's text at each locus ``view`` lets through."""
    return [s.loci[k].lemma.text for k in s.matching(view)]


def test_no_filter_shows_every_locus_but_those_of_graphs_only(session: ReviewSession) -> None:
    """As `collate diff` folds them, the review leaves out the loci of graphs only (算/筭), and says how many."""
    assert not LocusFilter().active
    assert lemmas(session, LocusFilter()) == ["哨", "哨", "哨", "也"]
    assert session.hidden_graphs(LocusFilter()) == 2
    shown = LocusFilter(graphs=True)
    assert shown.active and session.hidden_graphs(shown) == 0
    assert session.matching(shown) == tuple(range(len(session.loci))) == tuple(range(6))
    # Narrowed to a layer without them, none are hidden; asked for a class, none either.
    assert session.hidden_graphs(LocusFilter(layers=frozenset({Layer.ZHU}))) == 0
    assert session.hidden_graphs(LocusFilter(classes=frozenset({ReadingClass.SUBSTANTIVE}))) == 0


def test_filters_by_class_layer_witness_decision_and_note(session: ReviewSession) -> None:
    assert lemmas(session, LocusFilter(classes=frozenset({ReadingClass.ORTHOGRAPHIC}))) == ["算", "算"]
    both = frozenset({ReadingClass.ORTHOGRAPHIC, ReadingClass.OMISSION})
    assert lemmas(session, LocusFilter(classes=both)) == ["也", "算", "算"]
    assert len(session.matching(LocusFilter(layers=frozenset({Layer.JING}), graphs=True))) == 6
    assert session.matching(LocusFilter(layers=frozenset({Layer.ZHU}))) == ()
    assert len(session.matching(LocusFilter(sigla=frozenset({"ZS"}), graphs=True))) == 6
    assert session.matching(LocusFilter(sigla=frozenset({"DD"}))) == ()
    session.decide(session.loci[0], DecisionAction.KEEP)
    assert session.matching(LocusFilter(undecided=True, graphs=True)) == (1, 2, 3, 4, 5)
    assert session.matching(LocusFilter(noted=True)) == ()  # no notes on these loci
    combined = LocusFilter(classes=frozenset({ReadingClass.SUBSTANTIVE}), undecided=True)
    assert lemmas(session, combined) == ["哨", "哨"] and combined.active


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("枉矢哨", ["哨", "哨", "哨"]),  # across the locus: every 哨 of 枉矢哨壶
        ("矢峭壺", ["哨", "哨", "哨"]),  # in the witness, and in the other script: folded
        ("执八筭", ["算"]),  # 筭 folds to 算: found in the base
        ("辞敢", ["也"]),  # ZS's text either side of its omission
        ("请以乐", []),  # near the first 哨, but not touching it
        ("哨", ["哨", "哨", "哨"]),
    ],
)
def test_a_search_finds_characters_of_any_witness_at_the_locus(
    session: ReviewSession, query: str, expected: list[str]
) -> None:
    assert lemmas(session, LocusFilter(search=query, graphs=True)) == expected


def test_a_search_touches_the_locus_text_or_its_point() -> None:
    here = Context("ZS", "某有枉矢", "峭", "壶请以乐")
    assert found("矢峭", here) and found("峭壶", here) and found("峭", here)
    assert not found("请以", here) and not found("有枉", here)
    point = Context("ZS", "不足辞", "", "敢固")
    assert found("辞敢", point) and found("辞", point) and found("敢", point) and not found("足", point)
    assert found("  ", point)  # an empty query finds everything


def test_a_page_is_found_among_the_loci(session: ReviewSession) -> None:
    assert find_page(session.loci, "1a") == 0 == session.find_page("1a")
    assert find_page(session.loci, "2b") is None and find_page(session.loci, "") is None
    assert find_page(session.loci, "1") == 0  # the first on or after page 1


def test_a_collation_without_loci_matches_nothing(tmp_path: Path) -> None:
    same = review_session(collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_BASE}), tmp_path / "d.toml")
    assert same.loci == () and same.matching(LocusFilter(search="哨")) == ()


def test_the_review_can_keep_to_the_readings_of_one_cause(tmp_path: Path) -> None:
    """`collate review --cause look-alike`: only the graphic confusions (己 read 已), not 爭/事."""
    collation = collate_rows({"SK": "君子反求諸己其爭也君子", "ZS": "君子反求諸已其事也君子"})
    everything = ReviewSession(collation, tmp_path / "a.toml", "王")
    assert [x.lemma.text for x in everything.loci] == ["己", "爭"]
    confusions = ReviewSession(collation, tmp_path / "b.toml", "王", causes=frozenset({"look-alike"}))
    assert [x.lemma.text for x in confusions.loci] == ["己"]
