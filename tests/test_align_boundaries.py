"""Layer boundaries a print leaves unmarked, settled by the other witnesses (collate.align.boundaries).

Synthetic witnesses show each rule alone; the shared real files show them on the prints they are for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from builders import layered
from conftest import GAIJI, SHARED, need_shared

from collate.align.boundaries import settle_boundaries
from collate.model import Layer, MarkKind, Unsettled, Witness
from collate.normalize import Normalizer
from collate.readers import read_witness

J, Z = Layer.JING, Layer.ZHU
NORMALIZER = Normalizer()


def stretch(w: Witness, text: str, cut_after: str, before: Layer = Z, after: Layer = J) -> Witness:
    """``w`` with ``text`` (one span) made an unsettled stretch, the reader's cut after ``cut_after``."""
    start = w.text.index(text)
    end = start + len(text)
    cut = start + text.index(cut_after) + len(cut_after)
    spans = []
    for s in w.spans:
        if (s.start, s.end) != (start, end):
            spans.append(s)
            continue
        if cut > start:
            spans.append(s.over(start, cut))
        if cut < end:
            spans.append(replace(s.over(cut, end), layer=after, unit=99))
    u = Unsettled(start, end, cut, before, after, next(s.unit for s in w.spans if s.start == start), 99)
    return replace(w, spans=tuple(spans), unsettled=(*w.unsettled, u))


def layer_of(w: Witness, text: str) -> set[Layer]:
    """The layers the characters of ``text`` in ``w`` are read in."""
    start = w.text.index(text)
    return {s.layer for s in w.spans if s.start < start + len(text) and start < s.end and s.layer.is_text}


def codes(w: Witness) -> list[str]:
    return [d.code for d in w.diagnostics if "boundary" in d.code]


def test_the_others_jing_says_where_the_zhu_ends() -> None:
    # 注疏 prints: 注 …, then the 經 resumes unmarked; the reader guessed too early (after 盡).
    base = stretch(
        layered("ZS", [(J, "奠爵遂拜執爵興"), (Z, "卒盡主人阼階上答拜"), (J, "賓以虛爵降主人降")]),
        "卒盡主人阼階上答拜",
        "卒",
    )
    other = layered("ZZ", [(J, "奠爵遂拜執爵興"), (Z, "卒盡"), (J, "主人阼階上答拜賓以虛爵降主人降")])
    settled = {w.siglum: w for w in settle_boundaries([base, other], NORMALIZER)}["ZS"]
    assert layer_of(settled, "卒盡") == {Z}
    assert layer_of(settled, "主人阼階上答拜") == {J}
    assert codes(settled) == ["boundary-settled"] and settled.unsettled == ()


def test_a_zhu_ending_on_the_word_the_jing_resumes_with_is_kept_whole() -> None:
    # 注「將洗以酢主人」疏… 主人降: the 注's last words are the next 經's first; nothing resumes inside.
    base = stretch(
        layered("ZS", [(J, "賓以虛爵降"), (Z, "將洗以酢主人"), (Layer.SHU, "釋曰"), (J, "主人降從賓")]),
        "將洗以酢主人",
        "將洗以酢主人",
    )
    other = layered("ZZ", [(J, "賓以虛爵降"), (Z, "將洗以酢主人"), (J, "主人降從賓")])
    settled = settle_boundaries([base, other], NORMALIZER)[0]
    assert layer_of(settled, "將洗以酢主人") == {Z}


def test_a_word_ending_both_the_jing_before_and_the_zhu_stays_in_the_zhu() -> None:
    # …以輔主人也 注以僎輔主人以其仕在官也 仁義接…: the 也 that ends the 注 is the 注's.
    base = stretch(
        layered("ZS", [(J, "故坐於東北以輔主人也"), (Z, "以僎輔主人以其仕在官也仁義接賓主有事")]),
        "以僎輔主人以其仕在官也仁義接賓主有事",
        "以僎輔",
    )
    other = layered("ZT", [(J, "故坐於東北以輔主人也仁義接賓主有事")])
    settled = settle_boundaries([base, other], NORMALIZER)[0]
    assert layer_of(settled, "以僎輔主人以其仕在官也") == {Z}
    assert layer_of(settled, "仁義接賓主有事") == {J}


def test_a_print_writing_another_of_the_merged_characters_still_says_where_its_jing_resumes() -> None:
    # 於 and 于 are two readings of the apparatus, but one word where a stretch is laid beside
    # another print: matched on comparison keys, the other's 于東于西于北面 matches too thinly.
    base = stretch(
        layered("ZS", [(J, "奠爵遂拜執爵興"), (Z, "卒盡主人於東於西於北面"), (J, "賓以虛爵降主人降")]),
        "卒盡主人於東於西於北面",
        "卒",
    )
    other = layered("ZZ", [(J, "奠爵遂拜執爵興"), (Z, "卒盡"), (J, "主人于東于西于北面賓以虛爵降主人降")])
    settled = {w.siglum: w for w in settle_boundaries([base, other], NORMALIZER)}["ZS"]
    assert layer_of(settled, "卒盡") == {Z}
    assert layer_of(settled, "主人於東於西於北面") == {J}


def test_no_witness_saying_leaves_the_stretch_in_doubt() -> None:
    base = stretch(
        layered("ZS", [(J, "天子之射也"), (Z, "言射者所以觀德天下之大事也")]), "言射者所以觀德天下之大事也", "言射者"
    )
    other = layered("ZZ", [(J, "諸侯之射也必先行燕禮")])
    settled = settle_boundaries([base, other], NORMALIZER)[0]
    assert codes(settled) == ["boundary-estimated"]
    assert [(u.start, u.end) for u in settled.unsettled] == [(base.unsettled[0].start, base.unsettled[0].end)]


def test_a_stretch_the_print_ends_with_a_mark_is_its_layer_to_its_end_without_evidence() -> None:
    # A 纂圖互註 注 with no ○ after it, and no other 注 or 音義 to say otherwise: all 注, no doubt.
    base = stretch(layered("ZT", [(J, "射義"), (Z, "言別尊卑")]), "言別尊卑", "言別尊卑", before=Z, after=Layer.SHIWEN)
    settled = settle_boundaries([base, layered("WS", [(J, "射義")])], NORMALIZER)[0]
    assert layer_of(settled, "言別尊卑") == {Z} and settled.unsettled == () and codes(settled) == []


def test_yinyi_after_the_zhu_without_a_circle_is_found_by_the_others_zhu_and_yinyi() -> None:
    # (凝猶成也/凝魚矜反): 注 凝猶成也, then the 音義 with no ○; the 注疏本 labels its 音義.
    y = Layer.SHIWEN
    before = [(J, "天地温厚之氣始於東北"), (Z, "温猶和也言春夏之氣"), (y, "温於云反下同"), (J, "此天地之仁氣也")]
    after = [(J, "主人者尊賓故坐賓於西北"), (Z, "賓在西北尊之也"), (y, "坐才卧反又如字")]
    base = stretch(
        layered("ZT", [*before, (Z, "凝猶成也凝魚矜反"), *after]),
        "凝猶成也凝魚矜反",
        "凝猶成也凝魚矜反",
        before=Z,
        after=y,
    )
    zs = layered("ZS", [*before, (Z, "凝猶成也"), (y, "凝魚矜反"), *after])
    settled = settle_boundaries([zs, base], NORMALIZER)[1]
    assert layer_of(settled, "凝猶成也") == {Z}
    assert layer_of(settled, "凝魚矜反") == {y}


# --- real prints ---------------------------------------------------------------------------------


def _read(name: str, siglum: str) -> Witness:
    return read_witness(need_shared(SHARED / "witnesses" / name), siglum=siglum, gaiji_table=need_shared(GAIJI))


@pytest.fixture(scope="module")
def yanli() -> dict[str, Witness]:
    witnesses = [
        _read("yili-yanli-zhushu-kanripo-WYG.txt", "ZS"),
        _read("yili-yanli-zhengzhu-kanripo-SBCK.txt", "ZZ"),
        _read("yili-jishuo-yanli-kanripo-WYG.txt", "AO"),
    ]
    return {w.siglum: w for w in settle_boundaries(witnesses, NORMALIZER)}


@pytest.mark.shared
def test_yanli_the_zhu_ends_where_the_zhengzhu_print_resumes_the_jing(yanli: dict[str, Witness]) -> None:
    zs = yanli["ZS"]
    # 坐取觚注取觚將就瓦大酌膳¶執冪者舉冪…: the print alone cut inside 酌膳.
    assert layer_of(zs, "取觚將就瓦大酌膳") == {Z}
    start = zs.text.index("取觚將就瓦大酌膳")
    assert {s.layer for s in zs.spans if s.start >= start and zs.text[s.start : s.end].startswith("執冪者")} == {J}
    # 射人反命注告¶賓許賓出立: the 注 is 告賓許 (鄭注本: 射人反命(告賔/許)賔出立…).
    at = zs.text.index("射人反命注告")
    window = zs.text[at : at + 20]
    assert "賓許賓出" in window
    cut = at + window.index("賓出立")
    assert {s.layer for s in zs.spans if s.start < cut <= s.end and s.layer.is_text} <= {Z}
    assert any(s.layer is J and s.start == cut for s in zs.spans)


@pytest.mark.shared
def test_yanli_a_lost_leaf_of_the_other_print_says_nothing(yanli: dict[str, Witness]) -> None:
    # 今文無使某|致命曰寡君使某有不腆之酒以請: the 鄭注本 lost this leaf, and repeats the formula
    # later; only the print's own cut stands, never one taken from the repeat.
    zs = yanli["ZS"]
    assert layer_of(zs, "致命曰寡君使某有不腆之酒以請") == {J}
    zz = yanli["ZZ"]
    assert any(m.kind is MarkKind.LACUNA for m in zz.marks)


@pytest.mark.shared
def test_sheyi_the_zhu_on_qiu_zheng_zhu_ji_ends_before_kongzi_yue() -> None:
    witnesses = [
        _read("liji-sheyi-zhushu-kanripo-WYG.txt", "ZS"),
        _read("liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt", "ZT"),
        _read("liji-sheyi-kanripo-TLS.txt", "TLS"),
    ]
    zs = settle_boundaries(witnesses, NORMALIZER)[0]
    assert layer_of(zs, "諸猶於也") == {Z}
    assert layer_of(zs, "孔子曰君") == {J}
    assert any(d.code == "boundary-settled" for d in zs.diagnostics)


def test_settling_is_linear_in_the_number_of_stretches() -> None:
    from growth import assert_linear

    def make(n: int) -> Callable[[], object]:
        parts = []
        for k in range(n // 20):
            parts += [(J, f"經文第{k}句之言"), (Z, f"注言其{k}義也經續{k}")]
        base = layered("ZS", parts)
        stretches = tuple(
            Unsettled(s.start, s.end, s.end, Z, J, s.unit, 10_000 + s.unit) for s in base.spans if s.layer is Z
        )
        base = replace(base, unsettled=stretches)
        other = layered("ZZ", [(J, "".join(f"經文第{k}句之言經續{k}" for k in range(n // 20)))])
        return lambda: settle_boundaries([base, other], NORMALIZER)

    assert_linear(make, 400)
