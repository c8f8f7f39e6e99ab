"""Taboo forms (避諱): the chosen eras' taboo characters compare equal to what is written for them."""

from __future__ import annotations

import pytest

from collate.errors import ProjectError
from collate.normalize.tables import TabooForm, read_taboo
from collate.normalize.taboo import TabooRule

FORMS = (
    TabooForm("玄", "元", "qing", "玄燁"),
    TabooForm("燁", "煜", "qing", "玄燁"),
    TabooForm("世", "代", "tang", "李世民"),
)


def test_only_the_chosen_eras_are_avoided() -> None:
    qing = TabooRule(FORMS)
    assert qing.apply("玄") == ("元", "避諱 玄燁")
    assert qing.apply("世") is None  # a Tang taboo is no Qing one
    assert qing.apply("元") is None  # the substitute is what the key becomes, not a taboo itself
    both = TabooRule(FORMS, eras=("qing", "tang"))
    assert both.apply("世") == ("代", "避諱 李世民")
    assert TabooRule(FORMS, eras=()).apply("玄") is None


def test_a_simplified_witness_avoids_the_simplified_form_too() -> None:
    rule = TabooRule(FORMS, image=lambda c: {"燁": "烨"}.get(c, c))
    assert rule.apply("烨") == ("煜", "避諱 玄燁, simplified 烨")
    assert rule.apply("燁") == ("煜", "避諱 玄燁")


def test_an_unknown_era_is_a_project_error() -> None:
    with pytest.raises(ProjectError, match="unknown taboo era 'ming'") as error:
        TabooRule(FORMS, eras=("ming",))
    assert error.value.hint == "known eras: qing, tang"


def test_the_shipped_table_is_read_with_its_eras() -> None:
    rule = TabooRule(read_taboo())
    assert rule.apply("玄") == ("元", "避諱 聖祖 玄燁 (康熙)")
    assert rule.apply("琰") is None  # 嘉慶's name is avoided only in the later Qing era
    assert "qing" in rule.source and "史諱舉例" in rule.source


def test_the_missing_stroke_form_of_xuan_is_a_taboo_form_like_yuan() -> None:
    """四庫 prints write 𤣥 (玄 without its last stroke) where the 四部叢刊 has 玄: equal, as a taboo form."""
    from builders import norm

    n = norm()
    assert n.fold("𤣥") == n.fold("玄") == n.fold("元")
    _, changes = n.normalize("𤣥")
    assert changes and changes[0].rule == "taboo"
