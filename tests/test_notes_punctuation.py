"""Punctuation is an attribute of a token, never compared: not by the notes' checks either.

The 蕙田案 claims about 大戴禮 are checked against the Kanripo 大戴禮記 as it is, and against a
copy punctuated the way a modern (Wikisource-style) text is: the verdicts must be the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GAIJI, MANDOKU, SEED_000, need_shared

from collate.normalize.tokenize import is_ideograph
from collate.notes import NotesResult, Verdict, notes_for_witnesses
from collate.notes.lexicon import lexicon_from_section
from collate.readers import read_witness

_PAUSES = "，、；"


def punctuate(text: str) -> str:
    """``text`` with modern punctuation at sentence-like places (曰：「…」, 也。, 矣。, every ~7 characters).

    Only after an ideograph of the body: never inside Mandoku markup (``<pb:…>``, ``&KR…;``,
    ``#+`` header lines), small print in parentheses or a juan title (大戴禮記卷第十二).
    """
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith("#") or "卷第" in line:
            out.append(line)
            continue
        inside = ""  # the closing character of the markup we are in
        quoted = False
        run = 0
        for char in line:
            out.append(char)
            if inside:
                inside = "" if char == inside else inside
                continue
            if char in "<&(":
                inside = {"<": ">", "&": ";", "(": ")"}[char]
                continue
            if not is_ideograph(char):
                continue
            run += 1
            if char == "曰":
                out.append("：「" if not quoted else "：")
                quoted, run = True, 0
            elif char in "也矣":
                out.append("。」" if quoted else "。")
                quoted, run = False, 0
            elif run >= 7:
                out.append(_PAUSES[len(out) % len(_PAUSES)])
                run = 0
    return "".join(out)


def verdicts(result: NotesResult) -> list[tuple[str, Verdict, str, str]]:
    return [(c.claim.summary(), c.verdict, c.actual, c.evidence) for c in result.checks]


def _checked(dadai: Path) -> NotesResult:
    siku = read_witness(SEED_000, siglum="SK", layout="siku-wltk")
    full = read_witness(dadai, siglum="DDS", layout="mandoku", gaiji_table=GAIJI)
    return notes_for_witnesses([siku, full], lexicon_from_section({"lexicon": {"大戴礼": "DDS"}}))


@pytest.fixture(scope="module")
def punctuated_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    need_shared(MANDOKU)
    need_shared(GAIJI)
    path = tmp_path_factory.mktemp("dadai") / "dadai-punctuated.txt"
    path.write_text(punctuate(MANDOKU.read_text(encoding="utf-8")), encoding="utf-8")
    return path


def test_the_copy_is_punctuated_and_only_punctuated(punctuated_copy: Path) -> None:
    raw = MANDOKU.read_text(encoding="utf-8")
    copy = punctuated_copy.read_text(encoding="utf-8")
    assert sum(copy.count(p) for p in "，。、「」；：") > 100
    assert "".join(c for c in copy if c not in "，。、「」；：") == raw


def test_verdicts_do_not_depend_on_punctuation(punctuated_copy: Path) -> None:
    plain = _checked(MANDOKU)
    punctuated = _checked(punctuated_copy)
    assert len(plain.checks) == 14
    assert [c.verdict for c in plain.checks].count(Verdict.CONFIRMED) == 9
    assert verdicts(punctuated) == verdicts(plain)
