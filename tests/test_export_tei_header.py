"""The ``teiHeader`` and the ``standOff``: witnesses, rules, the method, who speaks."""

from __future__ import annotations

import pytest
from builders import XML_ID, small_tei_collation, tei_of, xp

from collate.apparatus import Collation
from collate.exporters.tei import TEI_NS
from collate.model import Witness


@pytest.fixture
def small() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS with a 注 variant (奉/案), a 經 omission (以), script differences; DD's 峭."""
    return small_tei_collation()


def test_header_lists_witnesses_rules_and_the_method(small: tuple[Collation, dict[str, Witness]]) -> None:
    tree = tei_of(*small)
    witnesses = xp(tree, "//tei:sourceDesc/tei:listWit/tei:witness")
    assert [w.get(XML_ID) for w in witnesses] == ["SK", "ZS", "DD"]
    assert [w.findtext(f"{{{TEI_NS}}}abbr") for w in witnesses] == ["四庫本", "注疏本", "大戴禮"]
    assert witnesses[0].findtext(f"{{{TEI_NS}}}bibl") == "四庫本〈投壺〉"
    # @ana: the layers each witness carries; the sparse witness carries none.
    assert [w.get("ana") for w in witnesses] == ["#jing #zhu", "#jing #zhu", None]
    (encoding,) = xp(tree, "//tei:encodingDesc/tei:variantEncoding")
    assert (encoding.get("method"), encoding.get("location")) == ("parallel-segmentation", "internal")
    rules = xp(tree, "//tei:editorialDecl/tei:normalization/tei:p[@xml:id]")
    assert [r.get(XML_ID) for r in rules] == ["rule.script", "rule.variant-graph"]
    assert tree.getroot().get("{http://www.w3.org/XML/1998/namespace}lang") == "lzh-Hans"
