"""The decisions file: round trip, anchoring, re-application after edits, orphans, atomic saves."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import opencc
import pytest
from builders import plain_witness
from hypothesis import given, settings
from hypothesis import strategies as st

from collate.alignment import LayerAlignment
from collate.apparatus import Collation, ReadingClass, WitnessInfo, build_layer
from collate.errors import ExportError, ProjectError
from collate.model import Change, ChangeClass, Layer, Token, Witness
from collate.review import apply_decisions, decision_counts, load_decisions
from collate.review.decisions import Anchor, Decision, dumps_decisions, parse_decisions
from collate.review.records import DecisionAction
from collate.review.session import ReviewSession

T2S = opencc.OpenCC("t2s")
VARIANTS = {"筭": "算"}  # a variant graph: orthographic, as the normalizer's tables have it
CLOCK = "2024-05-01T10:00:00+08:00"


def tokens(w: Witness) -> list[Token]:
    out = []
    for i, ch in enumerate(w.text):
        n = VARIANTS.get(ch, T2S.convert(ch))
        changes = (Change("variant-graph", ch, n, ChangeClass.ORTHOGRAPHIC),) if ch in VARIANTS else ()
        out.append(Token(w.siglum, Layer.JING, i, i, i + 1, ch, n, changes=changes))
    return out


def collate(rows: dict[str, str]) -> Collation:
    """A one-layer collation from aligned rows ('-' is an empty cell), base first."""
    sigla = tuple(rows)
    ws = {s: plain_witness(s, rows[s].replace("-", "")) for s in sigla}
    streams = {s: iter(tokens(ws[s])) for s in sigla}
    width = len(rows[sigla[0]])
    columns = tuple(tuple(None if rows[s][i] == "-" else next(streams[s]) for s in sigla) for i in range(width))
    result = build_layer(LayerAlignment(Layer.JING, sigla, columns), ws)
    infos = tuple(WitnessInfo(s, s, f"{s}.txt", "plain") for s in sigla)
    return Collation("投壺", "touhu", sigla[0], infos, (result,))


# Three places read 哨/峭 (two with the same ten characters around them), two read 算/筭.
BASE = "主人请曰某有枉矢哨壶请以乐宾主人曰枉矢哨壶不足辞也敢辞主人曰枉矢哨壶不足辞也敢固设中执八算兴执算而立"
WIT = "主人请曰某有枉矢峭壶请以乐宾主人曰枉矢峭壶不足辞也敢辞主人曰枉矢峭壶不足辞也敢固设中执八筭兴执筭而立"


@pytest.fixture
def collation() -> Collation:
    return collate({"SK": BASE, "ZS": WIT})


def session(collation: Collation, path: Path, editor: str = "editor") -> ReviewSession:
    return ReviewSession(collation, path, editor, clock=lambda: CLOCK)


def lemmas(c: Collation) -> list[tuple[str, str, int]]:
    return [(x.lemma.text, x.readings[0].text, x.base_start) for x in c.loci()]


def test_the_fixture_has_the_expected_loci(collation: Collation) -> None:
    assert lemmas(collation) == [
        ("哨", "峭", 8),
        ("哨", "峭", 19),
        ("哨", "峭", 32),
        ("算", "筭", 44),
        ("算", "筭", 47),
    ]


def test_decisions_file_round_trips(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "decisions.toml")
    first, second, *_ = s.loci
    s.decide(first, DecisionAction.ADOPT, reading=first.readings[0], siglum="ZS", comment='峭 "is" \\ right\nsee note')
    s.decide(second, DecisionAction.RECLASSIFY, reading=second.readings[0], cls=ReadingClass.SCRIBAL_ERROR)
    s.decide(second, DecisionAction.DOUBT, comment="存疑")
    loaded = load_decisions(tmp_path / "decisions.toml")
    assert loaded == s.decisions
    assert [d.action for d in loaded] == [DecisionAction.ADOPT, DecisionAction.RECLASSIFY, DecisionAction.DOUBT]
    assert loaded[0].comment == '峭 "is" \\ right\nsee note'
    assert loaded[0].anchor == Anchor(
        Layer.JING, "哨", ("峭",), "主人请曰某有枉矢", "壶请以乐宾主人曰枉矢", 8, "jing-00008"
    )
    assert loaded[1].cls is ReadingClass.SCRIBAL_ERROR and loaded[1].editor == "editor" and loaded[1].when == CLOCK


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=["Cs"]), max_size=30))
def test_any_comment_survives_the_file(comment: str) -> None:
    anchor = Anchor(Layer.ZHU, "算", ("算",), "八", "兴", 3)
    d = Decision("abc", DecisionAction.DOUBT, anchor, "e", CLOCK, comment=comment)
    assert parse_decisions(dumps_decisions([d])) == (d,)


def test_a_new_decision_appends_and_changes_nothing_above(collation: Collation, tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    s = session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    before = path.read_text(encoding="utf-8")
    s.decide(s.loci[1], DecisionAction.KEEP)
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before) and after.count("\n[[decision]]\n") == 2


def test_adopt_puts_the_editors_lemma_on_the_locus(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "d.toml", editor="王")
    s.decide(s.loci[0], DecisionAction.ADOPT, reading=s.loci[0].readings[0], siglum="ZS", comment="大戴同")
    applied, report = apply_decisions(collation, s.decisions)
    locus = next(applied.loci())
    assert locus.decision is not None
    assert (locus.decision.lemma, locus.decision.siglum, locus.decision.resp) == ("峭", "ZS", ("王",))
    assert locus.decision.comment == "大戴同"
    adopted = locus.editor_lemma()
    assert adopted is not None and adopted.sigla == ("ZS",)
    assert locus.lemma.text == "哨"  # the base's reading stays the lemma of record
    assert report.decided == ("jing-00008",) and len(report.undecided) == 4
    assert next(collation.loci()).decision is None  # the input is not changed


def test_reclassify_changes_the_class_and_the_locus_class(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "d.toml")
    target = s.loci[3]
    assert target.cls is ReadingClass.ORTHOGRAPHIC
    s.decide(target, DecisionAction.RECLASSIFY, reading=target.readings[0], cls=ReadingClass.SUBSTANTIVE)
    locus = s.collation.locus(target.id)
    assert locus is not None and locus.cls is ReadingClass.SUBSTANTIVE
    assert locus.readings[0].cls is ReadingClass.SUBSTANTIVE
    assert locus.decision is not None and locus.decision.reclassified == ("算",)


def test_a_later_lemma_resolves_doubt_but_doubt_after_a_lemma_stands(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "d.toml")
    one, two = s.loci[0], s.loci[1]
    s.decide(one, DecisionAction.DOUBT, comment="unsure")
    s.decide(one, DecisionAction.KEEP)
    s.decide(two, DecisionAction.ADOPT, reading=two.readings[0], siglum="ZS")
    s.decide(two, DecisionAction.DOUBT, comment="tentative")
    first, second = s.collation.locus(one.id), s.collation.locus(two.id)
    assert first is not None and first.decision is not None and not first.decision.doubtful
    assert second is not None and second.decision is not None and second.decision.doubtful
    assert second.decision.lemma == "峭" and second.decision.comment == "tentative"


def test_batch_decides_every_locus_with_the_same_pair(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "d.toml")
    made = s.decide(s.loci[3], DecisionAction.KEEP, batch=True)
    assert len(made) == 2 and made[0].batch is not None and made[0].batch == made[1].batch
    assert [x.decision is not None for x in s.loci] == [False, False, False, True, True]


def test_decisions_follow_the_text_when_the_base_moves(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "d.toml")
    # The second and third 枉矢哨壶 share their ten characters of context: only position tells them apart.
    s.decide(s.loci[1], DecisionAction.KEEP)
    s.decide(s.loci[2], DecisionAction.ADOPT, reading=s.loci[2].readings[0], siglum="ZS")
    s.decide(s.loci[4], DecisionAction.DOUBT, comment="执筭")
    # Twelve characters inserted at the start of both texts: every offset moves.
    moved = collate({"SK": "投壶之礼主人奉矢司射奉中" + BASE, "ZS": "投壶之礼主人奉矢司射奉中" + WIT})
    applied, report = apply_decisions(moved, s.decisions)
    assert not report.orphans
    assert [(p.locus, p.moved) for p in report.placed] == [
        ("jing-00031", True),
        ("jing-00044", True),
        ("jing-00059", True),
    ]
    third = applied.locus("jing-00044")
    assert third is not None and third.decision is not None and third.decision.siglum == "ZS"


def test_a_decision_that_no_longer_fits_is_an_orphan_and_stays_in_the_file(
    collation: Collation, tmp_path: Path
) -> None:
    path = tmp_path / "d.toml"
    s = session(collation, path)
    s.decide(s.loci[0], DecisionAction.ADOPT, reading=s.loci[0].readings[0], siglum="ZS")
    s.decide(s.loci[3], DecisionAction.KEEP)
    # The witness is corrected at the first place: 哨 there, so that locus is gone.
    corrected = collate({"SK": BASE, "ZS": WIT.replace("峭", "哨", 1)})
    later = session(corrected, path)
    assert [d.action for d in later.report.orphans] == [DecisionAction.ADOPT]
    assert decision_counts(later.report).orphaned == 1
    later.decide(later.loci[0], DecisionAction.KEEP)
    kept = load_decisions(path)
    assert {d.id for d in s.decisions} <= {d.id for d in kept} and len(kept) == 3


def test_adopting_needs_the_reading_still_there(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "d.toml")
    s.decide(s.loci[3], DecisionAction.ADOPT, reading=s.loci[3].readings[0], siglum="ZS")
    # The witness now reads 算 like the base at the first 算 and 筭 only at the second: the
    # adoption must not jump to the other place that still has 筭.
    other = collate({"SK": BASE, "ZS": WIT.replace("八筭", "八算")})
    _, report = apply_decisions(other, s.decisions)
    assert len(report.orphans) == 1 and not report.placed


def test_counts(collation: Collation, tmp_path: Path) -> None:
    s = session(collation, tmp_path / "d.toml")
    s.decide(s.loci[0], DecisionAction.KEEP)
    s.decide(s.loci[3], DecisionAction.KEEP, batch=True)
    counts = decision_counts(s.report)
    assert (counts.decided, counts.undecided, counts.orphaned, counts.moved) == (3, 2, 0, 0)


def test_a_malformed_file_names_the_decision(tmp_path: Path) -> None:
    path = tmp_path / "d.toml"
    path.write_text(
        'version = 1\n\n[[decision]]\nid = "a"\naction = "burn"\n[decision.anchor]\nlayer = "jing"\noffset = 1\n',
        encoding="utf-8",
    )
    with pytest.raises(ProjectError, match="burn") as err:
        load_decisions(path)
    assert err.value.where == f"{path}:3"
    path.write_text("version = 1\n[[decision]\n", encoding="utf-8")
    with pytest.raises(ProjectError, match="not valid TOML") as err:
        load_decisions(path)
    assert err.value.where is not None and err.value.where.startswith(f"{path}:2")


def test_a_failed_save_leaves_the_file_and_the_session_as_they_were(
    collation: Collation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "decisions.toml"
    s = session(collation, path)
    s.decide(s.loci[0], DecisionAction.KEEP)
    good = path.read_bytes()

    def crash(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(ExportError, match="No space left"):
        s.decide(s.loci[1], DecisionAction.KEEP)
    assert path.read_bytes() == good
    assert [p.name for p in tmp_path.iterdir()] == ["decisions.toml"]  # no temporary file left behind
    assert len(s.decisions) == 1 and s.loci[1].decision is None


WRITER = """
import sys
from pathlib import Path
from typing import Any
from collate.model import Layer
from collate.review.records import DecisionAction
from collate.review.decisions import Anchor, Decision, save_decisions

path = Path(sys.argv[1])
decisions = []
for k in range(100000):
    anchor = Anchor(Layer.JING, "算", ("算",), "执八" * 5, "兴请" * 5, k)
    decisions.append(Decision(f"d{k}", DecisionAction.KEEP, anchor, "e", "t", comment="筭" * 200))
    save_decisions(path, decisions[-400:])
    if k == 3:
        print("ready", flush=True)
"""


def test_killing_the_process_while_it_saves_never_leaves_half_a_file(tmp_path: Path) -> None:
    path = tmp_path / "decisions.toml"
    for delay in (0.05, 0.13, 0.31):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True)
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        decisions = load_decisions(path)  # parses: a complete file, old or new
        assert decisions and all(d.comment == "筭" * 200 for d in decisions)
        last = int(decisions[-1].id[1:])
        assert [d.id for d in decisions] == [f"d{k}" for k in range(max(0, last - 399), last + 1)]


def test_a_decision_whose_place_is_gone_does_not_move_to_a_place_that_reads_alike(
    collation: Collation, tmp_path: Path
) -> None:
    s = session(collation, tmp_path / "d.toml")
    s.decide(s.loci[1], DecisionAction.KEEP)  # the second 哨壶不足辞也敢; the third reads alike around it
    corrected = collate({"SK": BASE, "ZS": WIT.replace("峭壶不足辞也敢辞", "哨壶不足辞也敢辞")})
    assert [x.lemma.text for x in corrected.loci()].count("哨") == 2
    _, report = apply_decisions(corrected, s.decisions)
    assert len(report.orphans) == 1 and not report.placed


def test_the_review_reads_each_layer_in_linear_time_not_once_per_locus() -> None:
    from scan_support import growth

    from collate.review.session import witness_context

    def contexts(collation: Collation, witnesses: dict[str, Witness]) -> object:
        layer = collation.layers[0]
        return [witness_context(layer, x, s, 12, witnesses) for x in layer.loci for s in ("SK", "ZS")]

    # Each witness's tokens are indexed once per layer, not read again around every locus.
    assert growth(contexts) < 2.5


def test_placing_decisions_looks_only_at_loci_of_the_same_lemma(monkeypatch: pytest.MonkeyPatch) -> None:
    from scan_support import long_collation

    import collate.review.apply
    from collate.review.decisions import anchor_of, base_tokens

    collation, _ = long_collation()
    layer = collation.layers[0]
    words = [x for x in layer.loci if x.lemma.text]  # the substitutions: a lemma each
    tokens = base_tokens(layer)
    decisions = [Decision(f"d{k}", DecisionAction.DOUBT, anchor_of(x, tokens), "e", CLOCK) for k, x in enumerate(words)]
    real = collate.review.apply._context
    calls: list[object] = []

    def spy(*args: Any) -> Any:
        calls.append(args)
        return real(*args)

    monkeypatch.setattr(collate.review.apply, "_context", spy)
    _, report = apply_decisions(collation, decisions)
    assert len(report.placed) == len(words) == 40 and not report.orphans
    # Each decision is compared with the one locus of its lemma, not with all 80.
    assert len(calls) == len(words)
