"""One scan of a WYG 注疏 text: 注 opened by its word, small-print runs by their labels, brackets."""

from __future__ import annotations

from pathlib import Path

from readers_support import markup_in_text, synthetic

from collate.model import Layer


def test_a_mislabelled_run_is_read_by_its_opener(tmp_path: Path) -> None:
    w = synthetic("經文注注文注(釋曰疏文)經又\n", tmp_path, "zhushu-wyg")
    assert w.layer_text(Layer.SHU) == "疏文"
    assert [d.code for d in w.diagnostics if d.code == "label"] == ["label"]


def test_the_other_form_of_the_shu_label(tmp_path: Path) -> None:
    w = synthetic("經文注鄭文䟽(釋曰疏文)經又\n", tmp_path, "zhushu-wyg")
    assert w.layer_text(Layer.SHU) == "疏文"
    assert w.layer_text(Layer.ZHU) == "鄭文" and w.layer_text(Layer.JING) == "經文經又"
    assert not [d for d in w.diagnostics if d.code == "label"]


def test_unbalanced_brackets_are_reported(tmp_path: Path) -> None:
    w = synthetic("經文注注文疏(正義曰疏文\n經)文\n", tmp_path, "zhushu-wyg")
    assert any(d.code == "unbalanced" for d in w.diagnostics)
    assert not markup_in_text(w, "()")
