"""The whole pipeline on real witnesses: the default project, and one with the full 大戴禮記."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import opencc
import pytest
from builders import run_default_project
from conftest import GAIJI, MANDOKU, REPO, need_shared

from collate.apparatus import Collation, Locus, ReadingClass
from collate.exporters.json import dumps
from collate.model import Layer
from collate.pipeline import collate_project
from collate.project import Project, load_project, project_from_mapping
from collate.results import RunResult

T2S = opencc.OpenCC("t2s")


@pytest.fixture(scope="module")
def default_run() -> RunResult:
    return run_default_project()


@pytest.fixture(scope="module")
def full_dadai_run() -> RunResult:
    need_shared(MANDOKU)
    data = {
        "title": "投壺 with the full 大戴禮記",
        "name": "touhu-dadai",
        "base": "SK",
        "work": "投壺",
        "gaiji_table": str(GAIJI),
        "witness": [
            {"siglum": "SK", "path": "seeds/000_2cc6d19ca27bf473.txt"},
            {"siglum": "ZS", "path": "seeds/001_97a493e45035c1ac.txt"},
            {"siglum": "DD", "path": str(MANDOKU), "layout": "mandoku", "layers": ["jing"]},
        ],
    }
    return collate_project(project_from_mapping(data, root=REPO))


def loci(collation: Collation, layer: Layer) -> list[Locus]:
    result = collation.layer(layer)
    assert result is not None, f"{layer} was not collated"
    return list(result.loci)


def find(collation: Collation, layer: Layer, lemma: str, context: str = "") -> Locus:
    """The locus whose lemma is ``lemma`` (simplified), preceded in the base by ``context``."""
    for x in loci(collation, layer):
        if x.lemma.text != lemma:
            continue
        result = collation.layer(layer)
        assert result is not None
        base = [c[0] for c in result.alignment.columns if c[0] is not None]
        before = "".join(t.t for t in base[max(0, x.base_start - len(context)) : x.base_start])
        if before.endswith(context):
            return x
    raise AssertionError(f"no locus {context}[{lemma}] in {layer.value}")


def test_decisions_are_applied_only_when_given(default_run: RunResult) -> None:
    # The pipeline opens no decisions file: a run given none has no report, and no locus is decided.
    assert default_run.decisions is None
    assert all(x.decision is None for x in default_run.collation.loci())


def test_gu_is_an_sk_addition_so_zs_omits_it(default_run: RunResult) -> None:
    x = find(default_run.collation, Layer.JING, "固", "不足辞也敢")
    reading = x.reading_of("ZS")
    assert reading is not None and reading.cls is ReadingClass.OMISSION


@pytest.mark.parametrize(("context", "lemma", "zs"), [("射人", "奉", "案"), ("既脱屦升", "坐", "堂")])
def test_zhu_substantive_readings(default_run: RunResult, context: str, lemma: str, zs: str) -> None:
    x = find(default_run.collation, Layer.ZHU, lemma, context)
    reading = x.reading_of("ZS")
    assert reading is not None
    assert reading.cls is ReadingClass.SUBSTANTIVE
    assert reading.text == zs


def test_dd_reads_qiao_for_shao_from_the_readings_file(default_run: RunResult) -> None:
    x = find(default_run.collation, Layer.JING, "哨", "某有枉矢")
    reading = x.reading_of("DD")
    assert reading is not None and reading.text == "峭"
    assert reading.cls is ReadingClass.SUBSTANTIVE
    assert reading.derived


def test_dd_reads_qiao_for_shao_from_the_full_text(full_dadai_run: RunResult) -> None:
    x = find(full_dadai_run.collation, Layer.JING, "哨", "某有枉矢")
    reading = x.reading_of("DD")
    assert reading is not None and reading.text == "峭"
    assert reading.cls is ReadingClass.SUBSTANTIVE
    assert not reading.derived


@pytest.mark.parametrize("run_name", ["default_run", "full_dadai_run"])
def test_graphic_and_script_variants_are_never_substantive(run_name: str, request: pytest.FixtureRequest) -> None:
    run: RunResult = request.getfixturevalue(run_name)
    pairs = {("宾", "賓"), ("宾", "賔"), ("算", "筭")}
    seen = set()
    for x in run.collation.loci():
        for r in x.readings:
            for w in r.witnesses:
                if len(x.lemma.text) == 1 and len(w.text) == 1 and (x.lemma.text, w.text) in pairs:
                    seen.add((x.lemma.text, w.text))
                    assert r.cls is ReadingClass.ORTHOGRAPHIC, (x.id, x.lemma.text, w.text, r.cls)
    assert ("算", "筭") in seen


def test_nothing_past_the_end_of_zs_is_a_zs_omission(default_run: RunResult) -> None:
    for result in default_run.collation.layers:
        extent = result.alignment.extent("ZS")
        for x in result.loci:
            r = x.reading_of("ZS")
            if r is not None and r.cls is ReadingClass.OMISSION:
                assert extent.covers(x.col_start), (result.layer, x.id)
        # ZS covers only the first part of 投壺: SK's 經 goes on well past it.
        if result.layer is Layer.JING:
            assert extent.last is not None and extent.last < len(result.alignment.columns) // 2
            past = [x for x in result.loci if x.col_start > extent.last]
            assert past and all((zs := x.reading_of("ZS")) is None or zs.cls is ReadingClass.NOT_EXTANT
                                for x in past)


def test_dd_readings_file_is_silent_outside_its_entries(default_run: RunResult) -> None:
    omissions = [
        x for x in default_run.collation.loci()
        if (r := x.reading_of("DD")) is not None and r.cls is ReadingClass.OMISSION
    ]
    # The readings file reports exactly one lack: 一馬從二馬.
    assert [T2S.convert(x.lemma.text) for x in omissions] == ["一马从二马"]


def test_quoted_works_after_touhu_are_not_collated(full_dadai_run: RunResult) -> None:
    result = full_dadai_run.collation.layer(Layer.JING)
    assert result is not None
    base_text = "".join(c[0].t for c in result.alignment.columns if c[0] is not None)
    assert "投壶之礼" in base_text
    assert "晋侯" not in base_text  # 左傳 昭公十二年, quoted after 投壺
    assert "侍投则拥矢" not in base_text  # 少儀


def reordered(project: Project) -> Project:
    first, *rest = project.witnesses
    return replace(project, witnesses=(first, *reversed(rest)))


def test_results_do_not_depend_on_witness_order_and_are_deterministic(default_run: RunResult) -> None:
    project = load_project(REPO / "collate.toml")
    again = collate_project(project)
    swapped = collate_project(reordered(project))
    assert dumps(again.collation) == dumps(default_run.collation)
    a, b = again.collation, swapped.collation
    assert [x.id for x in a.loci()] == [x.id for x in b.loci()]
    for x, y in zip(a.loci(), b.loci(), strict=True):
        assert {r.norm: sorted(r.sigla) for r in x.readings} == {r.norm: sorted(r.sigla) for r in y.readings}


def test_every_collated_layer_has_the_base_text_in_order(default_run: RunResult, repo: Path) -> None:
    for result in default_run.collation.layers:
        tokens = default_run.tokens["SK"][result.layer]
        base = tuple(c[0] for c in result.alignment.columns if c[0] is not None)
        assert base == tokens
