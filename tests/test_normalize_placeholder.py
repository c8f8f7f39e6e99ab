"""Placeholders (? □ ■ 〓, PUA): a key of their own per witness and offset, matching nothing."""

from __future__ import annotations

from builders import normalizer
from conftest import SEED_002

from collate.model import ChangeClass
from collate.normalize.placeholder import KEY_MARK
from collate.normalize.tokenize import tokenize
from collate.readers import read_witness


def test_seed_002_question_marks_are_unique_placeholders() -> None:
    witness = read_witness(SEED_002, siglum="YL", layout="yili-inline")
    tokens = [t for layer in witness.layers() if layer.is_text for t in tokenize(witness, layer, normalizer())]
    marks = [t for t in tokens if t.t == "?"]
    assert len(marks) == witness.text.count("?") == 29
    assert all(t.is_placeholder for t in marks)
    assert len({t.n for t in marks}) == 29


def test_placeholder_keys_are_unique_per_witness_and_offset() -> None:
    norm = normalizer()
    a = norm.normalize("□", witness="SK", start=3)[0]
    b = norm.normalize("□", witness="SK", start=4)[0]
    c = norm.normalize("□", witness="ZS", start=3)[0]
    assert len({a, b, c}) == 3
    assert all(k.startswith(KEY_MARK) for k in (a, b, c))
    assert norm.normalize("若", witness="SK", start=0, placeholder=True)[1][0].cls is ChangeClass.PLACEHOLDER
