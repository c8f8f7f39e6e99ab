"""The JSON export: schema keys as documented, CollateX's table shape, tokens traceable, atomic writes."""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import align_rows, decoded_tokens, sparse_witness

from collate.align.alignment import Transposition
from collate.apparatus import ApparatusDiagnostic, Collation, RuleInfo, WitnessInfo, build_layer
from collate.apparatus.habits import Habit
from collate.errors import ExportError
from collate.exporters import EXPORTERS, get_exporter
from collate.exporters.json import SCHEMA, dumps, to_json, write_json
from collate.model import Diagnostic, SourceLocation, Witness
from collate.model.annotations import AttachedNote, ClaimKind, DecisionAction, EditorDecision, NoteClaim
from collate.results import ExportInput

DOC = Path(__file__).resolve().parents[1] / "docs" / "json-schema.md"

ROWS = {
    "SK": "主人请曰某有枉矢哨壶比投不释-胜既脱屦升坐射人奉之",
    "ZS": "主人請曰某有枉矢哨壺比投不釋筭勝既脫-升坐射人案之",
    "WY": "主人曰请某有枉矢哨壺比投不釋-勝既脫屦升坐----",
}


@pytest.fixture
def built() -> tuple[Collation, dict[str, Witness]]:
    """Three witnesses and a sparse one: every kind of record the schema describes."""
    alignment, witnesses = align_rows(ROWS, {"WY": [0, 20]}, lines=3, transpositions=(Transposition("WY", 2, 4, 2, 4),))
    # WY's 曰请 stands at the base's 请曰; give SK's 曰 its printed punctuation.
    columns = list(alignment.columns)
    columns[2], columns[3] = (
        (columns[2][0], columns[2][1], columns[3][2]),
        (columns[3][0], columns[3][1], columns[2][2]),
    )
    first = columns[3][0]
    assert first is not None
    columns[3] = (replace(first, after="："), *columns[3][1:])
    alignment = replace(alignment, columns=tuple(columns))
    dd = sparse_witness(("枉矢哨壺", "哨", "峭", ""), ("无此句", "", "也", "after"))
    result = build_layer(alignment, {**witnesses, "DD": dd})
    claim = NoteClaim(ClaimKind.READS, "今本大戴礼", ("DD",), "哨", "峭")
    note = AttachedNote("an-1", "QinHuitian", "蕙田案今本大戴礼乃作峭谬甚", SourceLocation("SK.txt", 3, 1), (claim,))
    result = result.with_loci(tuple(x.with_notes((note,)) if x.lemma.text == "哨" else x for x in result.loci))
    decision = EditorDecision((DecisionAction.KEEP,), ("editor",), "2026-01-01T00:00:00+00:00", "哨", comment="王肅")
    result = result.with_loci(tuple(x.with_decision(decision) if x.lemma.text == "哨" else x for x in result.loci))
    collation = Collation(
        title="禮記·投壺",
        name="touhu",
        base="SK",
        witnesses=(
            WitnessInfo("SK", "四庫本", "SK.txt", "plain"),
            WitnessInfo("ZS", "注疏本", "ZS.txt", "plain"),
            WitnessInfo("WY", "web", "WY.txt", "plain"),
            WitnessInfo("DD", "大戴禮", "dd.toml", "readings", sparse=True),
        ),
        layers=(result,),
        rules=(RuleInfo("script", "traditional and simplified compare equal"), RuleInfo("taboo", "避諱", False)),
        diagnostics=(
            *result.diagnostics,
            ApparatusDiagnostic("ZS", Diagnostic("odd", "an oddity", 0, 1), SourceLocation("ZS.txt", 1, 1)),
        ),
        habits=(Habit("ZS", "讓", "譲", 3, 0, "常用漢字表"),),
    )
    return collation, {**witnesses, "DD": dd}


@pytest.fixture
def collation(built: tuple[Collation, dict[str, Witness]]) -> Collation:
    return built[0]


@pytest.fixture
def doc(built: tuple[Collation, dict[str, Witness]]) -> dict[str, Any]:
    """The fixture's JSON, written with its witnesses' line starts."""
    return to_json(*built)


def documented_keys() -> dict[str, tuple[set[str], set[str]]]:
    """Each object of docs/json-schema.md: (every key, the keys marked optional)."""
    objects: dict[str, tuple[set[str], set[str]]] = {}
    name = ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{2,3} `?([^`]+)`?$", line)
        if heading:
            name = heading.group(1)
            continue
        row = re.match(r"\| `([a-z_]+)` \| ([^|]+) \|", line)
        if row and name not in ("Classes",):
            keys, optional = objects.setdefault(name, (set(), set()))
            keys.add(row.group(1))
            if "optional" in row.group(2):
                optional.add(row.group(1))
    return objects


def objects_of(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every object of an exported document, with the name the schema gives its kind."""
    found: list[tuple[str, dict[str, Any]]] = [("Top level", doc)]
    found += [("witness", w) for w in doc["witnesses"]] + [("rule", r) for r in doc["rules"]]
    found += [("change", c) for c in doc["changes"]]
    found += [("diagnostic", d) for d in doc["diagnostics"]] + [("habit", h) for h in doc["habits"]]
    for layer in doc["layers"]:
        found += [("layer", layer), ("alignment table", layer["alignment"])]
        found += [("extent", e) for e in layer["extents"]] + [("transposition", t) for t in layer["transpositions"]]
        found += [("diagnostic", d) for d in layer["diagnostics"]]
        for row in layer["alignment"]["table"]:
            for cell in row:
                found += [("token", tok) for tok in cell or []]
        for locus in layer["loci"]:
            found += [("locus", locus), ("witness reading", locus["lemma"])]
            found += [("note", n) for n in locus["notes"]]
            found += [("decision", locus["decision"])] if locus["decision"] is not None else []
            for reading in locus["readings"]:
                found += [("reading", reading)] + [("witness reading", w) for w in reading["witnesses"]]
    locations = []
    for _, obj in found:
        locations += [v for k, v in obj.items() if k in ("location", "first", "last") and isinstance(v, dict)]
    return found + [("location", loc) for loc in locations]


def test_exported_keys_are_the_documented_keys(doc: dict[str, Any]) -> None:
    schema = documented_keys()
    seen: set[str] = set()
    for kind, obj in objects_of(doc):
        keys, optional = schema[kind]
        assert set(obj) <= keys, f"{kind}: undocumented {set(obj) - keys}"
        assert keys - optional <= set(obj), f"{kind}: missing {keys - optional - set(obj)}"
        seen.add(kind)
    # The fixture exercises every object the schema documents.
    assert seen == set(schema)


def test_round_trip_through_json_text(built: tuple[Collation, dict[str, Witness]]) -> None:
    text = dumps(*built)
    assert json.loads(text) == to_json(*built)
    assert "蕙田案今本大戴礼乃作峭谬甚" in text and "\\u" not in text  # characters are written as they are
    assert json.loads(text)["schema"] == SCHEMA == "collate/2"
    assert dumps(*built) == text


def test_short_records_stand_on_one_line(doc: dict[str, Any], built: tuple[Collation, dict[str, Witness]]) -> None:
    lines = dumps(*built).splitlines()
    assert any(line.strip() == '[{"t":"主","n":"主","start":0}],' for line in lines)  # one token a line
    assert all(len(line) <= 100 for line in lines if '"description"' not in line and '"text"' not in line)


def test_alignment_table_has_collatex_shape(doc: dict[str, Any]) -> None:
    layer = doc["layers"][0]
    table = layer["alignment"]
    assert table["witnesses"] == ["SK", "ZS", "WY"] == layer["witnesses"]
    width = len(ROWS["SK"])
    assert [len(row) for row in table["table"]] == [width, width, width]
    assert len(table["status"]) == width
    sk_row = table["table"][0]
    assert "".join(cell[0]["t"] for cell in sk_row if cell) == ROWS["SK"].replace("-", "")
    assert sk_row[14] is None  # the base lacks 筭
    zs = table["table"][1][14][0]
    assert zs == {"t": "筭", "n": "算", "start": 15, "changes": [zs["changes"][0]]}
    assert doc["changes"][zs["changes"][0]] == {
        "rule": "variant-graph", "before": "筭", "after": "算", "class": "orthographic", "source": ""
    }  # fmt: skip
    assert sk_row[3][0]["after"] == "："
    # CollateX's t and n always (n even where it is t); no id, no index, no end: the row and run say them.
    assert sk_row[0][0] == {"t": "主", "n": "主", "start": 0}
    assert list(sk_row[0][0])[:2] == ["t", "n"]
    # WY has 曰请 where the base has 请曰: its tokens leave the run, so they name their index.
    wy_row = table["table"][2]
    assert [wy_row[i][0].get("index") for i in range(1, 5)] == [None, 3, 2, 4]


def test_changes_are_listed_once(doc: dict[str, Any]) -> None:
    rows = [json.dumps(c, sort_keys=True) for c in doc["changes"]]
    assert len(rows) == len(set(rows))
    used = {n for layer in doc["layers"] for row in layer["alignment"]["table"] for cell in row
            for tok in cell or [] for n in tok.get("changes", [])}  # fmt: skip
    assert used == set(range(len(doc["changes"])))


def test_every_token_traces_to_its_witness_layer_and_place(
    doc: dict[str, Any], built: tuple[Collation, dict[str, Witness]]
) -> None:
    collation, witnesses = built
    (result,) = collation.layers
    tokens = {(tok.witness, tok.index): tok for col in result.alignment.columns for tok in col if tok is not None}
    decoded = decoded_tokens(doc)
    assert len(decoded) == len(tokens)
    for siglum, layer, index, start, end, t, n, line, column in decoded:
        tok = tokens[(siglum, index)]
        assert (layer, start, end, t, n) == (tok.layer.value, tok.start, tok.end, tok.t, tok.n)
        loc = witnesses[siglum].locate(start)
        assert (line, column) == (loc.line, loc.column)


def test_without_the_witnesses_lines_are_null(collation: Collation) -> None:
    assert {w["lines"] for w in to_json(collation)["witnesses"]} == {None}


def test_loci_carry_classes_and_provenance(doc: dict[str, Any]) -> None:
    layer = doc["layers"][0]
    by_lemma = {x["lemma"]["text"]: x for x in layer["loci"]}
    shao = by_lemma["哨"]
    assert shao["class"] == "substantive" and shao["lemma_witnesses"] == ["SK", "WY", "ZS"]
    (dd,) = shao["readings"]
    assert (dd["class"], dd["derived"], dd["source"], dd["witnesses"][0]["siglum"]) == (
        "substantive",
        True,
        "蕙田案",
        "DD",
    )
    assert shao["notes"][0]["claims"] == ["今本大戴礼 (DD) reads 峭 for 哨"]
    lemma_loc = shao["lemma"]["location"]
    assert lemma_loc["ref"] == f"SK.txt:{lemma_loc['line']}:{lemma_loc['column']}" and lemma_loc["page"] == "1a"
    assert by_lemma["请曰"]["class"] == "transposition"
    assert by_lemma[""]["readings"][0]["witnesses"][0]["text"] == "筭"
    assert by_lemma["屦"]["readings"][0]["class"] == "omission"
    feng = by_lemma["奉"]
    assert [(r["class"], r["witnesses"][0]["siglum"]) for r in feng["readings"]] == [
        ("substantive", "ZS"),
        ("not_extant", "WY"),
    ]
    assert layer["counts"] == {"substantive": 2, "transposition": 1, "omission": 1, "addition": 1}
    assert [d["code"] for d in layer["diagnostics"]] == ["sparse-unplaced"]


def test_write_is_atomic_and_leaves_no_temporary_file(collation: Collation, tmp_path: Path) -> None:
    out = tmp_path / "out" / "touhu.json"
    write_json(collation, out)
    assert os.listdir(out.parent) == ["touhu.json"]
    assert json.loads(out.read_text(encoding="utf-8")) == to_json(collation)
    assert out.stat().st_mode & 0o044  # readable by others, as files are made by default


def test_interrupted_write_keeps_the_old_file(
    collation: Collation, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "touhu.json"
    out.write_text("old", encoding="utf-8")

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_json(collation, out)
    assert os.listdir(tmp_path) == ["touhu.json"] and out.read_text(encoding="utf-8") == "old"


def test_unwritable_place_is_an_export_error(collation: Collation, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(ExportError) as caught:
        write_json(collation, blocker / "touhu.json")
    assert str(blocker / "touhu.json") in str(caught.value)
    assert os.listdir(tmp_path) == ["file"]


def test_registry(built: tuple[Collation, dict[str, Witness]], tmp_path: Path) -> None:
    assert "json" in EXPORTERS
    exporter = get_exporter("json")
    assert (exporter.name, exporter.suffix) == ("json", ".json")
    # The JSON needs only the run's collation and its witnesses as read (for their line starts).
    collation, witnesses = built
    exporter.write(ExportInput(collation, witnesses), tmp_path / "x.json")
    written = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))
    assert written["name"] == "touhu" and all(w["lines"] for w in written["witnesses"])
    with pytest.raises(Exception, match="unknown output format"):
        get_exporter("docx")
