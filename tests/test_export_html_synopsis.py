"""The synoptic view: the witnesses interlinear, one alignment column a column."""

from __future__ import annotations

import pytest
from builders import has_class, html_collation, locus_by_lemma, page_of

from collate.apparatus import Collation
from collate.model import Witness


@pytest.fixture(scope="module")
def built() -> tuple[Collation, Witness, dict[str, Witness]]:
    """A two-layer collation of SK and ZS, with DD's reading 峭 for 哨 and a note attached."""
    return html_collation()


def test_synoptic_view(built: tuple[Collation, Witness, dict[str, Witness]]) -> None:
    collation, _, _ = built
    view = page_of(built).get_element_by_id("view-syn")
    columns = view.xpath(f".//span[{has_class('sc')} and not({has_class('key')})]")
    assert len(columns) == 24 + 5
    first = columns[0].xpath("./i")
    assert [i.text for i in first] == ["主", "主"]
    mei = next(c for c in columns if [i.text for i in c.xpath("./i")][:2] == ["旨", "美"])
    assert mei.get("data-locus") == locus_by_lemma(collation, "旨").id
    assert mei.xpath("./i")[1].get("class") == "d"
    # ZS is not extant over 嘉肴: shaded cells, no characters.
    last = columns[23].xpath("./i")
    assert last[0].text == "肴" and last[1].get("class") == "ne"
    # DD's reading is noted under the column of 哨.
    shao = view.xpath(".//*[@data-locus=$id]", id=locus_by_lemma(collation, "哨").id)[0]
    assert shao.xpath(f"./i[{has_class('sparse')}]")[0].text == "峭"
