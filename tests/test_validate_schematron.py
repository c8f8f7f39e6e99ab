"""The Schematron ``collate validate`` runs: TEI's own rules and the ODD's, by a Schematron processor.

``collate/data/tei-apparatus.sch`` is built from ``tei_all.rng`` and ``collate/data/tei-apparatus.odd``
(``python -m collate.validate.build_schematron``); it is compiled by the ISO Schematron skeleton and run
in Saxon-HE. These tests rebuild it, check the ODD against TEI and against the shipped grammar, show
that TEI's rules run as TEI wrote them, and validate every TEI flavour of two projects three ways.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from builders import run_default_project, shared_project
from conftest import SHARED, need_shared
from lxml import etree

from collate.errors import ValidationError
from collate.exporters.tei import build_tei, tei_bytes
from collate.exporters.tei.edition import EDITION, REGULARIZED, build_edition
from collate.pipeline import collate_project
from collate.results import ExportInput, RunResult
from collate.validate import (
    Severity,
    load_schema,
    load_schematron,
    parse_tei,
    rule_problems,
    schematron_problems,
    shipped_schema,
    shipped_schematron,
    validate_file,
    validate_tree,
)
from collate.validate.build_schematron import COMMAND, build_schematron, data_file, main
from collate.validate.schematron import check_name

TEI_ALL = SHARED / "tei" / "tei_all.rng"
ODD = data_file("tei-apparatus.odd")
SCH = shipped_schematron()
TEI = "http://www.tei-c.org/ns/1.0"
ISO = "http://purl.oclc.org/dsdl/schematron"
RNG = "http://relaxng.org/ns/structure/1.0"

HEAD = """<TEI xmlns="http://www.tei-c.org/ns/1.0"><teiHeader><fileDesc><titleStmt><title>t</title></titleStmt>
<publicationStmt><p>p</p></publicationStmt><sourceDesc><listWit>
<witness xml:id="SK">四庫本</witness><witness xml:id="ZS">注疏本</witness></listWit></sourceDesc></fileDesc>
<encodingDesc><variantEncoding method="parallel-segmentation" location="internal"/></encodingDesc></teiHeader>
<text><body><p>{body}</p></body></text></TEI>"""


def doc(body: str) -> Any:
    return etree.ElementTree(etree.fromstring(HEAD.format(body=body).encode()))


# --- the shipped Schematron: built, not written --------------------------------------------------------


def test_the_shipped_schematron_is_what_the_build_makes() -> None:
    assert build_schematron(need_shared(TEI_ALL), ODD) == SCH.read_bytes()


def test_the_build_command_writes_it(tmp_path: Path) -> None:
    out = tmp_path / "rebuilt.sch"
    assert main([str(need_shared(TEI_ALL)), "--out", str(out)]) == 0
    assert out.read_bytes() == SCH.read_bytes()


def test_the_build_refuses_a_grammar_without_schematron(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bare = tmp_path / "bare.rng"
    bare.write_text(
        f'<grammar xmlns="{RNG}"><!--\nTEI Edition: P5 Version 9.9.9\n--><start><element name="TEI"><empty/>'
        "</element></start></grammar>",
        encoding="utf-8",
    )
    out = tmp_path / "out.sch"
    assert main([str(bare), "--out", str(out)]) == 1
    assert "embeds no Schematron" in capsys.readouterr().err and not out.exists()


def test_the_build_refuses_a_prefix_bound_twice(tmp_path: Path) -> None:
    odd = tmp_path / "clash.odd"
    odd.write_text(
        ODD.read_text(encoding="utf-8").replace(
            '<sch:ns prefix="tei" uri="http://www.tei-c.org/ns/1.0"/>', '<sch:ns prefix="tei" uri="urn:other"/>'
        ),
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="prefix 'tei' is bound to both"):
        build_schematron(need_shared(TEI_ALL), odd)


def test_its_header_names_the_sources_their_licences_and_the_command() -> None:
    comment = etree.parse(str(SCH)).getroot().getprevious()
    header = " ".join(comment.text.split())
    assert "TEI Edition: P5 Version 4.12.0" in header and "revision 113e933e2" in header
    assert "Creative Commons Attribution 3.0" in header and "BSD 2-Clause" in header
    assert "collate/data/tei-apparatus.odd" in header and "(MIT licence)" in header
    assert COMMAND in header


def test_it_holds_every_constraint_of_tei_and_of_the_odd() -> None:
    schema = etree.parse(str(SCH)).getroot()
    assert schema.get("queryBinding") == "xslt2"
    ids = [p.get("id") for p in schema.iter(f"{{{ISO}}}pattern")]
    idents = [c.get("ident") for c in etree.parse(str(ODD)).iter(f"{{{TEI}}}constraintSpec")]
    assert len(idents) == 10 and ids[-len(idents) :] == idents
    # TEI 4.12.0 compiles 93 constraints into tei_all.rng; one has no id.
    assert len(ids) - len(idents) == 93
    assert sum(1 for i in ids if i and i.startswith("tei_all-")) == 90


# --- the ODD -----------------------------------------------------------------------------------------------


def selected(odd: Path) -> set[str]:
    """The elements an ODD's module references include."""
    refs = etree.parse(str(odd)).iter(f"{{{TEI}}}moduleRef")
    return {name for ref in refs for name in (ref.get("include") or "").split()}


def test_the_odd_selects_the_elements_of_the_shipped_grammar() -> None:
    grammar = {e.get("name") for e in etree.parse(str(shipped_schema())).iter(f"{{{RNG}}}element")}
    assert len(grammar) > 90
    assert selected(ODD) == grammar


def test_the_odd_is_a_valid_tei_customisation(tei_schema: Any) -> None:
    """An ODD is a TEI document: tei_all's grammar and TEI's rules for ODDs (moduleRef, constraintSpec) hold."""
    report = validate_tree(parse_tei(ODD), tei_schema, str(ODD))
    assert report.valid and report.problems == (), [str(p) for p in report.problems][:5]


# --- the processor -----------------------------------------------------------------------------------------


def test_tei_rules_run_as_tei_wrote_them() -> None:
    (problem,) = rule_problems(doc('之<seg subtype="jing">主人</seg>'))[0]
    assert (problem.check, problem.element, problem.severity) == ("tei:att.typed-subtypeTyped", "seg", Severity.ERROR)
    assert problem.message == (
        "The <seg> element should not be categorized in detail with @subtype unless also categorized in general "
        "with @type."
    )


def test_a_nonfatal_tei_rule_is_a_warning() -> None:
    (problem,) = rule_problems(doc('<date when="1761" notBefore="1760">乾隆</date>'))[0]
    assert problem.severity is Severity.WARNING and problem.check == "tei:att.datable.w3c-att-datable-w3c-when"


def test_a_schematron_problem_has_its_line_and_column(tmp_path: Path) -> None:
    body = "".join(f'<seg type="t" n="{i}">之</seg>' for i in range(400)) + '<seg subtype="jing">主人</seg>'
    path = tmp_path / "long.xml"
    text = HEAD.format(body=body)
    path.write_text(text, encoding="utf-8")
    (problem,) = [p for p in validate_file(path).problems if p.check == "tei:att.typed-subtypeTyped"]
    assert problem.line is not None and problem.column is not None
    assert text.split("\n")[problem.line - 1][problem.column - 1 :].startswith('<seg subtype="jing">')


def test_the_rules_see_a_document_whose_entities_were_left_unresolved(tmp_path: Path) -> None:
    path = tmp_path / "entities.xml"
    text = '<!DOCTYPE TEI [<!ENTITY k "矢">]>\n' + HEAD.format(
        body='&k;<app><rdg wit="#ZS">案</rdg>\n<lem wit="#SK">奉</lem></app>'
    )
    path.write_text(text, encoding="utf-8")
    report = validate_file(path)
    assert {p.check for p in report.problems if p.severity is Severity.WARNING} == {"dtd"}
    (lem_first,) = [p for p in report.problems if p.check == "lem-first"]
    assert (lem_first.element, lem_first.line, lem_first.column) == ("lem", 7, 1)


def test_a_reading_where_the_witness_is_not_extant_names_where_it_stopped() -> None:
    tree = doc(
        '<seg xml:id="jing.1" ana="#jing"><app><lem wit="#SK #ZS">矢<witEnd wit="#ZS"/></lem></app>司射'
        '<app><lem wit="#SK">奉</lem><rdg wit="#ZS"/></app></seg><category xml:id="jing"/>'
    )
    (problem,) = [p for p in rule_problems(tree)[0] if p.check == "not-extant"]
    assert problem.element == "rdg"
    assert problem.message == "reading for #ZS, which is not extant here (it stopped at the <witEnd> in #jing.1)"


def test_any_schematron_schema_can_be_run(tmp_path: Path) -> None:
    """The processor is general: XPath 2 (tokenize, eq), an assertion's own id as the check's name."""
    schema = tmp_path / "own.sch"
    schema.write_text(
        f'<schema xmlns="{ISO}" queryBinding="xslt2"><ns prefix="tei" uri="{TEI}"/>'
        '<pattern id="second-word"><rule context="tei:seg">'
        "<assert id=\"two-words\" test=\"tokenize(normalize-space(.), ' ')[2] eq 'b'\">second word is not b: "
        '<value-of select="."/></assert></rule></pattern></schema>',
        encoding="utf-8",
    )
    problems, fired = schematron_problems(doc("<seg>a b</seg><seg>a c</seg>"), load_schematron(schema))
    assert fired == 2
    assert [(p.check, p.message) for p in problems] == [("two-words", "second word is not b: a c")]


def test_a_broken_schematron_is_a_clean_error(tmp_path: Path) -> None:
    schema = tmp_path / "broken.sch"
    schema.write_text(
        f'<schema xmlns="{ISO}" queryBinding="xslt2"><pattern><rule context="*">'
        '<assert test="(((">never</assert></rule></pattern></schema>',
        encoding="utf-8",
    )
    with pytest.raises(ValidationError, match="not a usable Schematron schema"):
        load_schematron(schema)
    with pytest.raises(ValidationError, match="cannot be read"):
        load_schematron(tmp_path / "missing.sch")


def test_a_rule_that_fails_on_the_document_is_a_clean_error(tmp_path: Path) -> None:
    schema = tmp_path / "dynamic.sch"
    schema.write_text(
        f'<schema xmlns="{ISO}" queryBinding="xslt2"><ns prefix="tei" uri="{TEI}"/>'
        '<ns prefix="xs" uri="http://www.w3.org/2001/XMLSchema"/><pattern><rule context="tei:seg">'
        '<assert test="xs:integer(string(.)) gt 0">n</assert></rule></pattern></schema>',
        encoding="utf-8",
    )
    compiled = load_schematron(schema)
    assert schematron_problems(doc("<seg>3</seg>"), compiled) == ([], 1)
    with pytest.raises(ValidationError, match="the Schematron could not be run"):
        schematron_problems(doc("<seg>三</seg>"), compiled)


def test_the_shipped_schematron_is_compiled_once() -> None:
    assert load_schematron(SCH) is load_schematron(SCH)


@pytest.mark.parametrize(
    ("pattern", "check"),
    [
        ("tei_all-rdgGrp-only1lem-constraint-rule-50", "tei:rdgGrp-only1lem"),
        ("tei_all-att.datable.w3c-att-datable-w3c-when-constraint-rule-2", "tei:att.datable.w3c-att-datable-w3c-when"),
        ("lem-first", "lem-first"),
        ("", "schematron"),
    ],
)
def test_a_problem_names_its_constraint(pattern: str, check: str) -> None:
    assert check_name(pattern) == check


# --- every TEI flavour, of the default project and of 射義 ----------------------------------------------------

# The 射義 project: 禮記注疏 (the base) with the 正義, the 纂圖互註本, 陳澔's 集說, TLS and Wikisource.
SHEYI = {
    "WYG-zhushu": ("liji-sheyi-zhushu-kanripo-WYG.txt", "四庫本《禮記註疏》"),
    "SBCK-zhengyi": ("liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt", "四部叢刊本《禮記正義》"),
    "SBCK-zuantu": ("liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt", "四部叢刊本《纂圖互註禮記》"),
    "WYG-jishuo": ("liji-jishuo-chenhao-sheyi-kanripo-WYG.txt", "四庫本《陳氏禮記集說》"),
    "TLS": ("liji-sheyi-kanripo-TLS.txt", "TLS本"),
    "wikisource": ("liji-sheyi-wikisource-hangsau.txt", "射義"),
}


@dataclass(frozen=True, slots=True)
class Written:
    """A project's TEI in one flavour, as the exporter writes it."""

    project: str
    flavour: str
    path: Path


@pytest.fixture(scope="module", params=["default", "sheyi"])
def written(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[Written]:
    """Every TEI flavour of the project (lossless, edition, edition-regularized), written to files."""
    folder = tmp_path_factory.mktemp(request.param)
    run: RunResult
    if request.param == "default":
        run = run_default_project()
    else:
        run = collate_project(shared_project(folder, "WYG-zhushu", SHEYI))
    data = ExportInput.of(run)
    trees = {
        "lossless": build_tei(data),
        "edition": build_edition(data, EDITION),
        "edition-regularized": build_edition(data, REGULARIZED),
    }
    out = []
    for flavour, tree in trees.items():
        path = folder / f"{flavour}.tei.xml"
        path.write_bytes(tei_bytes(tree))
        out.append(Written(request.param, flavour, path))
    return out


def test_every_tei_flavour_is_valid_against_both_grammars_and_the_schematron(
    written: list[Written], tei_schema: Any
) -> None:
    subset = load_schema(shipped_schema())
    for file in written:
        shipped = validate_file(file.path)
        assert shipped.schema == str(shipped_schema())
        assert shipped.valid and shipped.problems == (), (file, [str(p) for p in shipped.problems][:5])
        tree = parse_tei(file.path)
        assert subset.validate(tree) and tei_schema.validate(tree), file
        assert rule_problems(tree)[0] == [], file
        # Hundreds of rules fired: the Schematron looked at the document, it did not pass it unread.
        assert shipped.checks > 1000, (file, shipped.checks)
