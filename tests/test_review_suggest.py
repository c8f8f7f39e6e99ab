"""Decisions the notes suggest: a 蕙田案's words of judgment, an emendation, a claim found true."""

from __future__ import annotations

from dataclasses import replace

import pytest
from builders import REVIEW_BASE, REVIEW_WIT, collate_rows, copy_default_project

from collate.model import Layer, SourceLocation
from collate.model.annotations import AttachedNote, DecisionAction, NoteVerdict, Verdict
from collate.notes.records import Claim, ClaimKind, Note, Place
from collate.pipeline import collate_project
from collate.project import load_project
from collate.review.session import ReviewSession, open_review
from collate.review.suggest import Ground, judgment, suggest


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> ReviewSession:
    """The default project under review: 蕙田案 on the readings of 大戴禮 it reports."""
    return open_review(collate_project(load_project(copy_default_project(tmp_path_factory.mktemp("project")))), "王")


# What 秦蕙田 says of 大戴禮's reading at each place (投壺, 五禮通考卷165), and what follows from it.
SUGGESTED = [
    ("jing-00024", DecisionAction.KEEP, Ground.REJECTED, "谬甚", None),  # 今本大戴礼乃作峭谬甚
    ("jing-00164", DecisionAction.ADOPT, Ground.PREFERRED, "较备", "奏投壺之令"),  # 多奏投壶之令一句文义较备
    ("jing-00172", DecisionAction.ADOPT, Ground.PREFERRED, "较明", "算"),  # 多一算字亦较明
    ("jing-00187", DecisionAction.KEEP, Ground.FULLER, "有之为备", None),  # 大戴礼亦无此一句…有之为备
    ("jing-00274", DecisionAction.KEEP, Ground.REJECTED, "不必", None),  # 有胜所不必言
    ("jing-00297", DecisionAction.KEEP, Ground.SAME, "其义则同", None),  # 所记有详略其义则同也
    ("jing-00327", DecisionAction.KEEP, Ground.REJECTED, "误", None),  # 当是今本大戴礼误也
    ("jing-00365", DecisionAction.KEEP, Ground.REJECTED, "不应", None),  # 似不应有复始之事误也
]


@pytest.mark.parametrize(("locus_id", "action", "ground", "word", "reading"), SUGGESTED)
def test_a_notes_judgment_suggests_a_decision(
    session: ReviewSession, locus_id: str, action: DecisionAction, ground: Ground, word: str, reading: str | None
) -> None:
    locus = session.collation.locus(locus_id)
    assert locus is not None
    found = session.suggestion(locus)
    assert found is not None and (found.action, found.ground) == (action, ground)
    assert word in found.words and found.resp == "秦蕙田"
    assert (found.reading.text if found.reading else None) == reading
    assert found.siglum == ("DD" if reading else None)


def test_a_note_that_only_reports_suggests_nothing(session: ReviewSession) -> None:
    # 又此二句之下有云降揖其阼阶及乐事皆与射同节十三字: a report, no judgment.
    locus = session.collation.locus("jing-00575")
    assert locus is not None and locus.notes and session.suggestion(locus) is None


@pytest.mark.parametrize(
    ("words", "ground"),
    [
        ("謬甚", Ground.REJECTED),
        ("當是今本大戴禮誤也", Ground.REJECTED),  # traditional characters fold as well
        ("文義較備", Ground.PREFERRED),
        ("但玩上下文義有之為備", Ground.FULLER),  # 有之為備 before the 備 of 較備
        ("其義則同也", Ground.SAME),
        ("此一段皆為協韻之文", None),
    ],
)
def test_words_of_judgment(words: str, ground: Ground | None) -> None:
    found = judgment(words)
    assert (found[1] if found else None) is ground


def hand_note(
    text: str, clause: str, verdict: Verdict, kind: ClaimKind = ClaimKind.READS
) -> tuple[AttachedNote, Claim]:
    """A 【案】 of ZS saying ZS reads 峭 for the first 哨, its clause, and how the check fared."""
    where = SourceLocation("ZS.txt", 1, 1)
    note = Note("ZS-n1", "ZS", 1, 0, len(text), "案", "四庫館臣", text, ((0, len(text)),), where)
    claim = Claim(note, "注疏本", "ZS", kind, "哨", "峭", Place.AT, "枉矢哨", 8, 9, "四庫館臣", clause, sigla=("ZS",))
    checked = NoteVerdict(claim.record(), "ZS", verdict, "checked")
    attached = AttachedNote(note.id, note.resp, text, where, (claim.record(),), (checked,), "ZS")
    return attached, claim


def test_a_confirmed_claim_suggests_its_reading_and_an_emendation_the_reading_it_makes() -> None:
    collation = collate_rows({"SK": REVIEW_BASE, "ZS": REVIEW_WIT})
    locus = next(collation.loci())
    assert Layer.JING is locus.layer
    note, claim = hand_note("注疏本作峭", "注疏本作峭", Verdict.CONFIRMED)
    found = suggest(locus.with_notes((note,)), lambda n: (claim,))
    assert found is not None and (found.action, found.ground, found.siglum) == (
        DecisionAction.ADOPT,
        Ground.CONFIRMED,
        "ZS",
    )
    unchecked, claim = hand_note("注疏本作峭", "注疏本作峭", Verdict.NOT_CHECKABLE)
    assert suggest(locus.with_notes((unchecked,)), lambda n: (claim,)) is None
    # 哨當作峭: the emended reading is a witness's; 峭當作哨: it is the base's.
    emend, claim = hand_note("哨當作峭", "哨當作峭", Verdict.NOT_CHECKABLE, ClaimKind.EMEND)
    found = suggest(locus.with_notes((emend,)), lambda n: (claim,))
    assert found is not None and (found.action, found.ground) == (DecisionAction.ADOPT, Ground.EMENDED)
    back = replace(claim, base="峭", reading="哨")
    emend = replace(emend, claims=(back.record(),))
    found = suggest(locus.with_notes((emend,)), lambda n: (back,))
    assert found is not None and (found.action, found.ground) == (DecisionAction.KEEP, Ground.EMENDED)


def test_accepting_a_suggestion_decides_with_the_notes_words(session: ReviewSession) -> None:
    locus = session.collation.locus("jing-00164")
    assert locus is not None
    made = session.accept(locus, "秦蕙田：文义较备")
    assert made is not None and made[0].action is DecisionAction.ADOPT and made[0].siglum == "DD"
    decided = session.collation.locus("jing-00164")
    assert decided is not None and decided.decision is not None and decided.decision.lemma == "奏投壺之令"
    session.undo()
    none = session.collation.locus("jing-00575")
    assert none is not None and session.accept(none, "") is None
