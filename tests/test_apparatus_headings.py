"""A heading one print sets apart and another runs into its 經 is no variant (儀禮's 記)."""

from __future__ import annotations

from pathlib import Path

from builders import collate, layered, shared_project, tei_of, xp

from collate.apparatus import Collation
from collate.model import Layer

# The 注疏本 sets 記 (the opening of the chapter's 記) on a line of its own; the 鄭注本 runs it in.
APART = layered(
    "ZS",
    [(Layer.JING, "臣敢拜賜命"), (None, "\n"), (Layer.HEADING, "記"), (None, "\n"), (Layer.JING, "燕朝服於寢")],
)
RUN_IN = layered("ZZ", [(Layer.JING, "臣敢拜賜命記燕朝服於寢")])


def readings(collation: Collation) -> list[tuple[str, str, str]]:
    """Every reading of the 經: (lemma, reading, sigla)."""
    return [
        (locus.lemma.text, r.witnesses[0].text, " ".join(r.sigla))
        for layer in collation.layers
        for locus in layer.loci
        for r in locus.variants()
    ]


def test_a_witness_running_in_the_base_s_heading_adds_nothing() -> None:
    collation, _ = collate([APART, RUN_IN], layers=(Layer.JING,))
    assert readings(collation) == []


def test_a_witness_setting_apart_what_the_base_runs_in_lacks_nothing() -> None:
    collation, _ = collate([RUN_IN, APART], layers=(Layer.JING,))
    assert readings(collation) == []


def test_other_words_at_the_heading_s_place_are_still_an_addition() -> None:
    added = layered("ZZ", [(Layer.JING, "臣敢拜賜命傳燕朝服於寢")])
    collation, _ = collate([APART, added], layers=(Layer.JING,))
    assert readings(collation) == [("", "傳", "ZZ")]


def test_the_heading_s_word_elsewhere_is_still_an_addition() -> None:
    # 記 added two characters on: not at the place where the base sets its heading.
    added = layered("ZZ", [(Layer.JING, "臣敢拜賜命燕朝記服於寢")])
    collation, _ = collate([APART, added], layers=(Layer.JING,))
    assert readings(collation) == [("", "記", "ZZ")]


def test_a_heading_with_a_lost_glyph_is_never_taken_for_the_characters_beside_it() -> None:
    # The heading 記□ (a glyph the e-text lost) is not the run-in 記 alone: an addition still.
    apart = layered(
        "ZS",
        [(Layer.JING, "臣敢拜賜命"), (None, "\n"), (Layer.HEADING, "記□"), (None, "\n"), (Layer.JING, "燕朝服於寢")],
    )
    collation, _ = collate([apart, RUN_IN], layers=(Layer.JING,))
    assert readings(collation) == [("", "記", "ZZ")]


def test_the_tei_keeps_the_run_in_heading_typed_as_layout() -> None:
    collation, witnesses = collate([APART, RUN_IN], layers=(Layer.JING,))
    tree = tei_of(collation, witnesses)
    apps = xp(tree, "//tei:app[tei:rdg[.='記']]")
    assert [a.get("type") for a in apps] == ["layout"]
    assert [r.get("type") for r in xp(apps[0], "tei:rdg")] == ["layout"]


def test_the_sbck_yanli_runs_in_the_ji_the_zhushu_sets_apart(tmp_path: Path) -> None:
    from collate.pipeline import collate_project

    files = {
        "ZS": ("yili-yanli-zhushu-kanripo-WYG.txt", "注疏本"),
        "SBCK": ("yili-yanli-zhengzhu-kanripo-SBCK.txt", "四部叢刊本"),
    }
    run = collate_project(shared_project(tmp_path, "ZS", files))
    jing = next(r for r in run.collation.layers if r.layer is Layer.JING)
    additions = [x for x in jing.loci if any(r.witnesses[0].text == "記" for r in x.variants())]
    assert additions == []
    assert jing.headings  # the place is kept, as layout
