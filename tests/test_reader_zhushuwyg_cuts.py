"""Where a 注 ends that the print does not end: cut where this text's own words point."""

from __future__ import annotations

from pathlib import Path

from readers_support import synthetic

from collate.model import Layer

# An unmarked 注/經 boundary, cut where the print's own words point (禮記 聘義, 射義).
QUOTED_BY_SHU = (
    "温潤而澤仁也注色柔似仁也音義(濡音/儒)縝密以栗知也注縝緻也音義(縝音/軫)"
    "圭璋特達徳也注特達謂以朝聘也音義(朝直/遥反)"
    "天下莫不貴者道也注道者人無不由之詩云言念君子温其如玉故君子貴之也注言我也貴玉者以其似君子也"
    "疏(正義曰天下莫不貴者道也道者通也詩云言念君子温其如玉此詩秦風之篇也注正義曰言我也)\n"
)
QUOTED_BY_NEXT_ZHU = (
    "揖讓而升所以致尊讓也注此揖讓主謂賓也音義(讓如/字)疏(正義曰此一經明讓)\n"
    "不怨勝己者反求諸己而已矣注諸猶於也孔子曰君子無所爭必也射乎揖讓而升下而飲其爭也君子"
    "注必也射乎言君子至於射則有爭也音義(爭爭鬭/之爭)\n"
)


def test_the_shu_quoting_the_jing_keeps_it_jing(tmp_path: Path) -> None:
    w = synthetic(QUOTED_BY_SHU, tmp_path, "zhushu-wyg")
    assert "詩云言念君子温其如玉故君子貴之也" in w.layer_text(Layer.JING)
    assert "道者人無" in w.layer_text(Layer.ZHU)
    assert [d.code for d in w.diagnostics].count("estimated-boundary") == 1


def test_the_next_zhu_quoting_the_jing_bounds_the_cut(tmp_path: Path) -> None:
    w = synthetic(QUOTED_BY_NEXT_ZHU, tmp_path, "zhushu-wyg")
    # 注必也射乎言… glosses 必也射乎: the 經 has resumed by then.
    assert "必也射乎揖讓而升下而飲其爭也君子" in w.layer_text(Layer.JING)
    assert w.layer_text(Layer.ZHU).startswith("此揖讓主謂賓也諸猶於也")
    assert "射乎揖讓" not in w.layer_text(Layer.ZHU)
