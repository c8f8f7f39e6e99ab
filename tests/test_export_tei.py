"""The TEI writer as a whole: valid, lossless, written atomically, and the default project.

Small collations are built by hand from layered witnesses (經 and 注 units, headings, a
蕙田案 block) aligned with difflib (builders.collate); random ones by hypothesis; the default
project is collated once per module. The parts of the document each have their own tests
(test_export_tei_header, _body, _apparatus, _plan, _context, _markup, _readback, _decisions).
"""

from __future__ import annotations

import os
import pickle
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import (
    XML_ID,
    Part,
    assert_lossless,
    assert_valid,
    collate,
    input_for,
    layer_tokens,
    layered,
    run_default_project,
    small_tei_collation,
    tei_of,
    xp,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from collate.align.alignment import LayerAlignment, Transposition
from collate.apparatus import Collation, WitnessInfo, build_layer
from collate.errors import ExportError
from collate.exporters import get_exporter
from collate.exporters.tei import TEI_NS, build_tei, tei_bytes, witness_text_from_tei, write_tei
from collate.model import Layer, Witness
from collate.results import ExportInput, RunResult
from collate.validate import load_schema, rule_problems, shipped_schema

# --- small collations: valid, lossless, written ----------------------------------------------------------


@pytest.fixture
def small() -> tuple[Collation, dict[str, Witness]]:
    """SK (base) and ZS with a 注 variant (奉/案), a 經 omission (以), script differences; DD's 峭."""
    return small_tei_collation()


def test_small_collation_is_valid_and_lossless(small: tuple[Collation, dict[str, Witness]], tei_schema: Any) -> None:
    tree = tei_of(*small)
    assert_valid(tree, tei_schema)
    assert_lossless(tree, *small)
    assert witness_text_from_tei(tree, "DD", Layer.JING) == ""


def test_write_tei_is_atomic_and_named_after_the_project(
    small: tuple[Collation, dict[str, Witness]], tmp_path: Path
) -> None:
    collation, witnesses = small
    path = write_tei(input_for(collation, witnesses), tmp_path / "out")
    assert path == tmp_path / "out" / "touhu.tei.xml"
    assert os.listdir(tmp_path / "out") == ["touhu.tei.xml"]
    assert etree.parse(str(path)).getroot().tag == f"{{{TEI_NS}}}TEI"


def test_registry_handle_writes_its_input(small: tuple[Collation, dict[str, Witness]], tmp_path: Path) -> None:
    collation, witnesses = small
    exporter = get_exporter("tei")
    assert exporter.suffix == ".tei.xml"
    exporter.write(input_for(collation, witnesses), tmp_path / "x.tei.xml")
    assert etree.parse(str(tmp_path / "x.tei.xml")).getroot().tag == f"{{{TEI_NS}}}TEI"


def test_base_missing_from_the_witnesses_is_an_export_error(small: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = small
    with pytest.raises(ExportError, match="base witness SK"):
        build_tei(input_for(collation, {k: v for k, v in witnesses.items() if k != "SK"}))


# --- losslessness on random witnesses --------------------------------------------------------------------


ALPHABET = "主人请曰某有枉矢哨壶以乐宾算玄士则鹿中"
SCRIPT = {"请": "請", "壶": "壺", "乐": "樂", "宾": "賓", "则": "則"}
VARIANT = {"算": "筭", "宾": "賔", "玄": "元"}


@st.composite
def edited(draw: Any, base: str, *, may_end_early: bool) -> str:
    """A witness of ``base``: characters kept, in the other script, a variant, replaced, dropped, added."""
    out = []
    for ch in base:
        op = draw(st.sampled_from(["keep", "keep", "keep", "script", "variant", "replace", "drop", "add", "hole"]))
        if op == "script":
            out.append(SCRIPT.get(ch, ch))
        elif op == "variant":
            out.append(VARIANT.get(ch, ch))
        elif op == "replace":
            out.append(draw(st.sampled_from(ALPHABET)))
        elif op == "add":
            out.append(ch + draw(st.sampled_from(ALPHABET)))
        elif op == "hole":
            out.append("□")
        elif op == "keep":
            out.append(ch)
    text = "".join(out)
    if may_end_early and text and draw(st.booleans()):
        cut = draw(st.integers(1, len(text)))
        text = text[:cut] if draw(st.booleans()) else text[cut - 1 :]
    return text


@st.composite
def collations(draw: Any) -> tuple[Collation, dict[str, Witness]]:
    units = draw(st.lists(st.text(ALPHABET, min_size=1, max_size=7), min_size=2, max_size=5))
    base_parts: list[Part] = [(Layer.HEADING, "礼记投壶"), (None, "\n")]
    layers = [Layer.JING if i % 2 == 0 else Layer.ZHU for i in range(len(units))]
    for layer, text in zip(layers, units, strict=True):
        base_parts += [(layer, text), (None, "\n")]
    base = layered("SK", base_parts)
    others = []
    fragments = []
    for siglum in ("ZS", "WY")[: draw(st.integers(1, 2))]:
        parts: list[Part] = []
        fragment = draw(st.booleans())
        for layer in (Layer.JING, Layer.ZHU):
            own = "".join(u for u, x in zip(units, layers, strict=True) if x is layer)
            text = draw(edited(own, may_end_early=fragment))
            if text:
                parts += [(layer, text), (None, "\n")]
        if fragment:
            fragments.append(siglum)
        others.append(layered(siglum, parts or [(None, "\n")]))
    return collate([base, *others], fragments=fragments)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collations())
def test_every_witness_reads_back_from_the_tei(case: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = case
    tree = tei_of(collation, witnesses)
    assert_lossless(tree, collation, witnesses)
    problems, _ = rule_problems(tree)
    assert problems == []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collations())
def test_random_collations_are_schema_valid(tei_schema: Any, case: tuple[Collation, dict[str, Witness]]) -> None:
    # Valid against the shipped subset, hence (as it is a subset) against tei_all too.
    tree = tei_of(*case)
    subset = load_schema(shipped_schema())
    assert subset.validate(tree), [e.message for e in subset.error_log][:3]
    assert tei_schema.validate(tree), [e.message for e in tei_schema.error_log][:3]


@st.composite
def transposed(draw: Any) -> tuple[Collation, dict[str, Witness]]:
    """The base, and a witness with two neighbouring passages swapped, as the aligner reports it."""
    text = draw(st.text(ALPHABET, min_size=3, max_size=16))
    i = draw(st.integers(0, len(text) - 2))
    j = draw(st.integers(i + 1, len(text) - 1))
    k = draw(st.integers(j + 1, len(text)))
    head = draw(st.sampled_from([Layer.JING, Layer.ZHU]))
    sk = layered(
        "SK", [(head, text[:j]), (None, "("), (Layer.NOTE, "案", "attribution"), (None, ")"), (head, text[j:])]
    )
    wy = layered("WY", [(Layer.JING, text[:i] + text[j:k] + text[i:j] + text[k:])])
    base, own = layer_tokens(sk, head), layer_tokens(wy, Layer.JING)
    own = [replace(t, layer=head) for t in own]
    # Base tokens i..j-1 are read by WY's moved tokens, j..k-1 by the ones that came forward.
    order = [*range(i), *range(i + k - j, k), *range(i, i + k - j), *range(k, len(text))]
    columns = tuple((b, own[m]) for b, m in zip(base, order, strict=True))
    moved = Transposition("WY", i, j, i + k - j, k)
    alignment = LayerAlignment(head, ("SK", "WY"), columns, (), (moved,))
    witnesses = {"SK": sk, "WY": wy}
    info = (WitnessInfo("SK", "SK", "SK.txt", "plain"), WitnessInfo("WY", "WY", "WY.txt", "plain"))
    return Collation("t", "touhu", "SK", info, (build_layer(alignment, witnesses),)), witnesses


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(transposed())
def test_transpositions_read_back_in_the_witness_order(case: tuple[Collation, dict[str, Witness]]) -> None:
    collation, witnesses = case
    tree = tei_of(collation, witnesses)
    (result,) = collation.layers
    assert witness_text_from_tei(tree, "SK", result.layer) == "".join(
        t.t for t in layer_tokens(witnesses["SK"], result.layer)
    )
    assert witness_text_from_tei(tree, "WY", result.layer) == "".join(
        t.t for t in layer_tokens(witnesses["WY"], Layer.JING)
    )
    assert rule_problems(tree)[0] == []


# --- the default project ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def default_run() -> RunResult:
    return run_default_project()


@pytest.fixture(scope="module")
def default_tei(default_run: RunResult) -> Any:
    data = tei_bytes(build_tei(ExportInput.of(default_run)))
    return etree.ElementTree(etree.fromstring(data))


def test_default_project_is_valid(default_tei: Any, tei_schema: Any) -> None:
    assert_valid(default_tei, tei_schema)


def test_default_project_is_lossless(default_tei: Any, default_run: RunResult) -> None:
    checked = 0
    for result in default_run.collation.layers:
        for j, siglum in enumerate(result.alignment.sigla):
            own = sorted((t for c in result.alignment.columns if (t := c[j]) is not None), key=lambda t: t.index)
            assert witness_text_from_tei(default_tei, siglum, result.layer) == "".join(t.t for t in own)
            checked += len(own)
    assert checked > 5000


def test_default_project_apparatus(default_tei: Any, default_run: RunResult) -> None:
    collation = default_run.collation
    ids = {f"app.{x.id}" for x in collation.loci()}
    written = {a.get(XML_ID) for a in xp(default_tei, "//tei:app[@xml:id]")}
    assert ids <= {w.split(".p")[0] for w in written} | written
    # 哨 (SK, ZS) against 峭 reported for 大戴禮, with where the report comes from.
    shao = [a for a in xp(default_tei, "//tei:app[tei:rdg[@wit='#DD']]") if a[0].text == "哨"]
    assert shao and all(a[0].get("wit") == "#SK #ZS" and a[1].text == "峭" and a[1].get("source") for a in shao)
    # ZS is fragmentary: it ends once per layer, and no reading is given for it afterwards.
    ends = xp(default_tei, "//tei:witEnd[@wit='#ZS']")
    assert len(ends) == len(collation.layers)
    # 注 variant 奉/案, as in the sample apparatus.
    assert xp(default_tei, "//tei:seg[@subtype='zhu']//tei:app[tei:lem='奉'][tei:rdg='案']")


def test_outputs_write_the_tei_from_a_run(default_run: RunResult, tmp_path: Path) -> None:
    from collate.runs.outputs import write_outputs

    (path,) = write_outputs(default_run, tmp_path, ["tei"])
    assert path.name == "touhu.tei.xml"
    assert etree.parse(str(path)).getroot().get("{http://www.w3.org/XML/1998/namespace}lang") == "lzh-Hans"
    # A run survives pickling (collate export reads it back) and gives the same document.
    again = pickle.loads(pickle.dumps(default_run))
    assert tei_bytes(build_tei(ExportInput.of(again))) == path.read_bytes()
