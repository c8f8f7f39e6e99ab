"""What the review shows around a locus: the base's unit only, and the 經 that a 注 or 疏 explains."""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, copy_default_project

from collate.apparatus import Collation, Locus
from collate.model import Witness
from collate.pipeline import collate_project
from collate.project import load_project
from collate.review.context import Units, witness_context
from collate.review.filters import LocusFilter
from collate.review.session import ReviewSession, open_review


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> ReviewSession:
    """The default project under review (its decisions file in a folder of its own)."""
    return open_review(collate_project(load_project(copy_default_project(tmp_path_factory.mktemp("project")))), "王")


def at(s: ReviewSession, locus_id: str) -> Locus:
    """The locus ``locus_id`` of the session."""
    found = s.collation.locus(locus_id)
    assert found is not None
    return found


def test_the_context_stops_where_the_base_unit_does(session: ReviewSession) -> None:
    # 主人请曰… begins a 經 passage: the 經 before it (…使人执壶) is another unit, and not shown.
    first = at(session, "jing-00024")
    sk, zs = session.context(first, "SK"), session.context(first, "ZS")
    assert (sk.before, sk.text) == ("主人请曰某有枉矢", "哨")
    assert zs.before == "主人請曰某有枉矢"  # the witness's own text, within the columns of the base's unit
    # Across units, as the alignment runs, the context would reach into the 經 before.
    layer = session.layer_of(first)
    assert witness_context(layer, first, "SK", 12).before == "使人执壶主人请曰某有枉矢"


def test_the_whole_unit_is_the_context_when_asked_for(session: ReviewSession) -> None:
    first = at(session, "jing-00024")
    whole = session.context(first, "SK", None)
    assert whole.before + whole.text + whole.after == "主人请曰某有枉矢哨壶请以乐宾宾曰子有旨酒嘉肴某既赐矣又重以乐敢辞"


def test_a_zhu_or_shu_locus_shows_the_jing_it_explains(session: ReviewSession) -> None:
    zhu = session.glossed(at(session, "zhu-00014"))
    assert zhu is not None and zhu.text == "投壶之礼主人奉矢司射奉中使人执壶"
    assert zhu.location is not None and zhu.location.page == "2a"
    shu = session.glossed(at(session, "shu-00286"))
    assert shu is not None and shu.text.startswith("主人请曰某有枉矢哨壶")
    assert session.glossed(at(session, "jing-00024")) is None  # 經 explains nothing


def test_units_are_runs_of_columns() -> None:
    collation = collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})
    assert Units.of(collation.layers[0]).bounds == {0: (0, len(REVIEW_BASE))}


def test_the_review_reads_a_layer_once_for_every_context_and_a_search(tmp_path: Path) -> None:
    from scan_support import growth

    def review(collation: Collation, witnesses: dict[str, Witness]) -> object:
        s = ReviewSession(collation, tmp_path / f"{len(collation.layers[0].loci)}.toml", "王", witnesses=witnesses)
        shown = [s.context(x, w) for x in s.loci for w in ("SK", "ZS")]
        return shown, s.matching(LocusFilter(search="之"))

    # The units and each witness's tokens are indexed once per layer, not read again per locus.
    assert growth(review) < 2.5
