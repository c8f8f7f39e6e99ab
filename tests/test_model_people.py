"""Who speaks: each note speaker by any name the readers, the notes and the TEI give them; whom notes cite."""

from __future__ import annotations

import pytest

from collate.model.people import (
    AUTHORITIES,
    EDITORS,
    LU_DEMING,
    QIN_HUITIAN,
    SIKU_EDITORS,
    cited_names,
    named,
    speakers,
)


@pytest.mark.parametrize("name", ["秦蕙田", "蕙田", "蕙田案", "QinHuitian"])
def test_qin_huitian_by_any_name(name: str) -> None:
    assert named(name) is QIN_HUITIAN


@pytest.mark.parametrize("name", ["四庫館臣", "四库馆臣", "案", "SikuEditors"])
def test_the_siku_editors_by_any_name(name: str) -> None:
    assert named(name) is SIKU_EDITORS


@pytest.mark.parametrize("name", ["方氏悫曰", "陆德明", "", "又案"])
def test_another_speaker_is_no_editor(name: str) -> None:
    assert named(name) is None


def test_a_notes_attribution_names_its_speaker() -> None:
    assert speakers() == {"蕙田案": "秦蕙田", "案": "四庫館臣"}


def test_each_speaker_as_the_tei_declares_them() -> None:
    assert [(p.id, p.name, p.english, p.group, p.label) for p in EDITORS] == [
        ("QinHuitian", "秦蕙田", "Qin Huitian", False, "蕙田案"),
        ("SikuEditors", "四庫館臣", "the Siku editors", True, "案"),
    ]


def test_lu_deming_opens_his_glosses_with_his_name() -> None:
    assert (LU_DEMING.name, LU_DEMING.label) == ("陸德明", "陸曰")


def test_the_authorities_a_note_relays_by_the_names_it_gives_them() -> None:
    # A note is read folded to the simplified script: 郑注云, 疏云, 陆德明曰.
    assert set(cited_names()) == {"郑注", "郑", "注", "疏", "贾疏", "孔疏", "王肃", "陆德明"}
    assert len(cited_names()) == len(set(cited_names()))


def test_no_authority_is_a_note_speaker() -> None:
    assert LU_DEMING in AUTHORITIES
    assert not any(named(name) for p in AUTHORITIES for name in (*p.names, *p.cited))
