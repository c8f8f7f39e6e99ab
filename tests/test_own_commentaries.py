"""A witness's small print that is not the base's 注 is its own commentary, kept and not collated."""

from __future__ import annotations

from builders import layered, norm

from collate.align.commentaries import own_commentaries
from collate.model import Layer, Witness

JING = "司弓矢掌六弓四弩八矢之灋辨其名物而掌其守藏與其出入"
ZHU = "法曲直長短之數名物弓弩矢箙之名物也守藏者藏于府也出入者出之以頒入之以受也鄭司農云六弓王弓弧弓夾弓庾弓唐弓大弓"
# 王昭禹's 詳解 on the same 經: another author's words, a phrase of 鄭 among them.
OWN = (
    "凡五兵之用逺則弓矢者射之近則矛者句之然後殳者擊之戈㦸者刺之"
    "鄭司農云六弓王弓弧弓名謂其名號物謂其色守之則有人藏之則有府"
)


def _edition(siglum: str, zhu: str) -> Witness:
    return layered(siglum, [(Layer.JING, JING), (Layer.ZHU, zhu)])


def test_an_edition_of_the_base_zhu_keeps_it_and_another_commentary_is_its_own() -> None:
    base, edition, xiangjie = _edition("ZS", ZHU), _edition("ZL", ZHU.replace("府", "库")), _edition("XJ", OWN)
    out = {w.siglum: w for w in own_commentaries((base, edition, xiangjie), "ZS", norm(), lambda w: False)}
    assert out["ZS"] is base and out["ZL"] is edition
    spans = out["XJ"].spans
    assert not [s for s in spans if s.layer is Layer.ZHU]
    assert out["XJ"].layer_text(Layer.COMMENTARY) == OWN and out["XJ"].layer_text(Layer.JING) == JING
    (said,) = out["XJ"].diagnostics
    assert said.code == "own-commentary" and "not collated" in said.message


def test_a_fragment_of_the_zhu_or_an_exempt_quoter_is_left_as_it_is() -> None:
    base = _edition("ZS", ZHU + OWN)  # the base's 注 twice as long: the fragment holds half of it
    fragment, quoter = _edition("ZL", ZHU), _edition("JS", OWN[:20] + ZHU[:30])
    out = own_commentaries((base, fragment, quoter), "ZS", norm(), lambda w: w.siglum == "JS")
    assert out == (base, fragment, quoter)


def test_too_few_words_to_tell_leave_the_witness_as_it_is() -> None:
    base, short = _edition("ZS", ZHU), _edition("XJ", OWN[:20])
    assert own_commentaries((base, short), "ZS", norm(), lambda w: False) == (base, short)
