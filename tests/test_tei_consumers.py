"""The TEI as two real publication tools render it: the TEI Stylesheets and the Versioning Machine.

The TEI Consortium's Stylesheets (XSLT 3, run with Saxon-HE) print the publication form as a text
with an end apparatus, one entry an ``<app>``: there must be one entry per variant locus, each
naming its witnesses by their sigla, an omission marked, 蕙田案 and where a reading is reported
printed with the reading, commentary labelled by its layer. The Versioning Machine 5.0 (XSLT 1,
run with lxml) lays the lossless file out in one column per witness: each column must hold exactly
its witness's text, nothing of the base's past a fragment's end or outside a sparse witness's
readings. Both run over the default project and over 禮記·射義 in four editions (注疏本, 纂圖本,
集說本, Wikisource). The tools live beside the repository (``../shared/tei/consumers``); the
Stylesheets are compiled once per module.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from builders import assert_valid, run_default_project, shared_project, xp
from conftest import SHARED, need_shared
from lxml import etree
from test_export_tei_own import expected_text

from collate.apparatus import Collation, Locus
from collate.exporters.tei import MILESTONES, TEI_NS, build_tei, tei_bytes
from collate.exporters.tei.edition import EDITION, REGULARIZED, Policy, build_edition
from collate.exporters.tei.markup import GETA, RESUMES
from collate.model import Layer, MarkKind, ReadingClass
from collate.normalize.tokenize import is_token_char
from collate.pipeline import collate_project
from collate.results import ExportInput, RunResult

pytestmark = pytest.mark.slow

CONSUMERS = SHARED / "tei" / "consumers"
# 禮記·射義 in the six editions of ../shared/witnesses.
SHEYI = {
    "ZS": ("liji-sheyi-zhushu-kanripo-WYG.txt", "注疏本"),
    "ZT": ("liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt", "纂圖本"),
    "DS": ("liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt", "單疏本"),
    "CH": ("liji-jishuo-chenhao-sheyi-kanripo-WYG.txt", "集說本"),
    "TLS": ("liji-sheyi-kanripo-TLS.txt", "TLS本"),
    "WS": ("liji-sheyi-wikisource-hangsau.txt", "維基本"),
}
HTML = etree.HTMLParser(encoding="utf-8")
ENTITY = re.compile(r"&KR\d+;")


# --- the tools, once per module ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def stylesheets() -> Iterator[Any]:
    """The TEI Stylesheets' HTML profile, compiled once (Saxon-HE through saxonche)."""
    saxonche = pytest.importorskip("saxonche")
    to_html = need_shared(CONSUMERS / "tei-stylesheets" / "profiles" / "default" / "html" / "to.xsl")
    processor = saxonche.PySaxonProcessor(license=False)
    yield processor.new_xslt30_processor().compile_stylesheet(stylesheet_file=str(to_html))


@pytest.fixture(scope="module")
def vmachine() -> Any:
    """The Versioning Machine's XSLT 1.0 stylesheet."""
    return etree.XSLT(etree.parse(str(need_shared(CONSUMERS / "versioning-machine" / "src" / "vmachine.xsl"))))


@dataclass(frozen=True, slots=True)
class Project:
    """A project collated once: its run, and its TEI in each form, written and parsed again."""

    name: str
    run: RunResult
    files: dict[str, Path]

    def tree(self, form: str) -> Any:
        return etree.parse(str(self.files[form]))


@pytest.fixture(scope="module", params=["default", "sheyi"])
def project(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Project:
    folder = tmp_path_factory.mktemp(request.param)
    if request.param == "default":
        run = run_default_project()
    else:
        run = collate_project(shared_project(folder, "ZS", SHEYI))
    data = ExportInput.of(run)
    files = {}
    for form, tree in (
        ("lossless", build_tei(data)),
        ("edition", build_edition(data, EDITION)),
        ("edition-regularized", build_edition(data, REGULARIZED)),
    ):
        files[form] = folder / f"{form}.xml"
        files[form].write_bytes(tei_bytes(tree))
    return Project(request.param, run, files)


@pytest.fixture(scope="module", params=[EDITION, REGULARIZED], ids=["edition", "regularized"])
def printed(request: pytest.FixtureRequest, project: Project, stylesheets: Any) -> tuple[Project, Policy, Any]:
    """The publication form as the TEI Stylesheets print it (HTML, parsed)."""
    policy: Policy = request.param
    html = stylesheets.transform_to_string(source_file=str(project.files[policy.name]))
    return project, policy, etree.fromstring(html.encode("utf-8"), HTML)


@pytest.fixture(scope="module")
def columns(project: Project, vmachine: Any) -> dict[str, Any]:
    """The lossless file as the Versioning Machine lays it out: each witness's panel, by siglum."""
    html = etree.tostring(vmachine(project.tree("lossless")), method="html", encoding="UTF-8")
    page = etree.fromstring(html, HTML)
    return {p.get("id"): p for p in page.xpath("//div[contains(concat(' ', @class, ' '), ' mssPanel ')]")}


# --- the TEI Stylesheets: the publication form's apparatus ----------------------------------------------


def listed(locus: Locus, policy: Policy) -> bool:
    """The locus is an entry of the publication form: a variant of a witness extant there."""
    if locus.cls is ReadingClass.NOT_EXTANT:
        return False
    kinds = {r.cls for r in locus.readings} - {ReadingClass.NOT_EXTANT}
    return bool(kinds - (set() if policy.orthographic else {ReadingClass.ORTHOGRAPHIC}))


def entries(page: Any) -> list[str]:
    return ["".join(e.itertext()) for e in page.xpath("//div[@class='appcrit']/div[@class='app']")]


def test_the_stylesheets_print_one_entry_per_variant_locus(printed: tuple[Project, Policy, Any]) -> None:
    project, policy, page = printed
    loci = [x for x in project.run.collation.loci() if listed(x, policy)]
    assert len(entries(page)) == len(loci) > 0
    # No entry is empty: every reading has characters, an omission its mark [].
    assert not [e for e in entries(page) if re.search(r";\s*\(", e)]


def test_the_lossless_file_is_no_publication_form(project: Project, stylesheets: Any) -> None:
    """Run through the Stylesheets, the lossless file prints an entry for each script difference
    and each stretch not every witness has too: it is the witnesses' file, not the edition."""
    html = stylesheets.transform_to_string(source_file=str(project.files["lossless"]))
    loci = [x for x in project.run.collation.loci() if listed(x, EDITION)]
    printed = entries(etree.fromstring(html.encode("utf-8"), HTML))
    scripts = xp(project.tree("lossless"), "//tei:app[@type='script']")
    assert len(printed) >= len(loci) + len(scripts) > len(loci)


def test_the_stylesheets_name_the_witnesses_by_their_sigla(printed: tuple[Project, Policy, Any]) -> None:
    project, _, page = printed
    labels = {w.label for w in project.run.collation.witnesses}
    sigla = {w.siglum for w in project.run.collation.witnesses}
    named = {
        name
        for span in page.xpath("//div[@class='app']/span[@class='lemmawitness']")
        for name in (span.text or "").split(", ")
    }
    named |= {n for e in entries(page) for group in re.findall(r"\(([^()]*)\)$", e) for n in group.split(", ")}
    assert named and named <= labels and not named & sigla


def test_the_stylesheets_mark_each_omission(printed: tuple[Project, Policy, Any]) -> None:
    project, policy, page = printed
    omitted = xp(project.tree(policy.name), "//tei:app/tei:rdg[@cause='omission']")
    assert sum(e.count("[]") for e in entries(page)) == len(omitted)
    if project.name == "default":
        assert "以] 四庫本; [] (注疏本)" in entries(page)


def test_the_stylesheets_apparatus_has_no_latin_letters_but_sigla_and_pages(
    printed: tuple[Project, Policy, Any],
) -> None:
    """A Chinese edition's apparatus reads as a 校勘記: no English, no file path. Latin letters
    only in what the project declares (its sigla) and the prints' own page labels (頁3a, 062-1a)."""
    project, _, page = printed
    sigla = {w.siglum for w in project.run.collation.witnesses}
    pages = {m.label for w in project.run.read.witnesses for m in w.marks}
    foreign = []
    for entry in entries(page):
        rest = entry
        for label in sorted(pages, key=len, reverse=True):
            rest = rest.replace(label, "")
        foreign += [w for w in re.findall(r"[A-Za-z]+", rest) if w not in sigla]
    assert foreign == []


def test_the_publication_header_speaks_chinese(project: Project) -> None:
    for form in ("edition", "edition-regularized"):
        tree = project.tree(form)
        header = xp(tree, "//tei:teiHeader")[0]
        english = header.xpath(".//*[@xml:lang='en']", namespaces={"tei": TEI_NS})
        # The project's own words stay as it wrote them; collate says nothing in English.
        declared = {n.text for n in xp(tree, "//tei:listWit//tei:note")}
        assert [e.text for e in english if e.text not in declared] == [], form
        assert not xp(tree, "//tei:listWit//tei:note[@type='source']"), form  # no file paths
        (sub,) = xp(tree, "//tei:titleStmt/tei:title[@type='sub']")
        assert sub.text.startswith("校勘記")


def test_the_stylesheets_print_an_addition_with_the_word_before_it(printed: tuple[Project, Policy, Any]) -> None:
    project, policy, page = printed
    added = xp(project.tree(policy.name), "//tei:app/tei:rdg[@cause='addition']")
    assert not [e for e in entries(page) if e.startswith("]")]
    if project.name == "default":
        assert added and "俎] 四庫本; 俎以 (注疏本)" in entries(page)


def test_the_stylesheets_print_notes_and_reports_with_their_reading(printed: tuple[Project, Policy, Any]) -> None:
    project, policy, page = printed
    reported = [r for x in project.run.collation.loci() for r in x.readings if r.derived]
    # Who reports a reading, as a 校勘記 says it: 據蕙田案（五禮通考卷165 頁3a）.
    assert sum(any(f"據{r.source}" in e for r in reported) for e in entries(page)) == len(reported)
    notes = [n for x in project.run.collation.loci() if listed(x, policy) for n in x.notes]
    for note in notes:
        # Quoted once, in the first entry it judges; the others point back at it.
        assert sum(note.text in e for e in entries(page)) == 1, note.text
    if project.name == "default":
        assert reported
        (suan,) = [e for e in entries(page) if e.startswith("释] 四庫本; 释算")]
        assert "蕙田案見前「曰」條" in suan
    if project.name == "default":
        (shao, *_) = [e for e in entries(page) if e.startswith("哨] 四庫本, 注疏本; 峭")]
        assert "蕙田案王肃云枉不直哨不正与郑小异今本大戴礼乃作峭谬甚" in shao and shao.endswith("(大戴禮)")


def test_the_stylesheets_label_each_layer_of_commentary(printed: tuple[Project, Policy, Any]) -> None:
    project, policy, page = printed
    tree = project.tree(policy.name)
    labels = [s.text for s in page.xpath("//div[@class='tei_body']//span[@class='noteLabel']")]
    for layer in (Layer.ZHU, Layer.SHU, Layer.SHIWEN, Layer.COMMENTARY):
        blocks = xp(tree, f"//tei:body//tei:note[@type='commentary'][@subtype='{layer.value}']")
        assert labels.count(layer.chinese) == len(blocks)
    assert "Note: " not in labels  # every note says what it is
    if project.name == "default":
        assert {"注", "疏", "集說", "案"} <= set(labels)


# --- the Versioning Machine: one column per witness of the lossless file ---------------------------------

_T = f"{{{TEI_NS}}}"
_MARKS = {f"{_T}{m}" for m in MILESTONES}
_RESUMES = {f"{_T}{m}" for m in RESUMES}
_HEADINGS = {f"{_T}head", f"{_T}trailer"}
_SKIPPED = {f"{_T}{n}" for n in ("note", "pc", "pb", "lb", "milestone", "witDetail", "gap")}


class RunningText:
    """A witness's running text in document order, as the document says it (independently of any viewer).

    In a block of a layer collated for the witness: the text outside entries and, in each entry, the
    witness's reading, between its witStart and witEnd; in a block of one witness's text (@source):
    all of it if it is this witness's. Attributions (``<label>``) are printed text too; notes are not
    running text (a viewer shows them as notes), nor punctuation and breaks. ``pieces`` are
    (layer, collated, characters).
    """

    def __init__(self, root: Any, siglum: str) -> None:
        self.pointer = f"#{siglum}"
        (witness,) = xp(root, f"//tei:listWit//tei:witness[@xml:id='{siglum}']")
        self.carried = set((witness.get("ana") or "").split())
        self.extant: dict[str, bool] = {}
        self.pieces: list[tuple[str, bool, str]] = []
        blocks = list(self._blocks(root.find(f"{_T}text/{_T}body")))
        for block in blocks:
            for mark in block.iter(*_MARKS):
                if self.pointer in (mark.get("wit") or "").split() and not block.get("source"):
                    self.extant.setdefault(self._layer(block), mark.tag not in _RESUMES)
        self._visit(root.find(f"{_T}text/{_T}body"))

    @staticmethod
    def _is_block(e: Any) -> bool:
        return e.tag in _HEADINGS or (e.tag in (f"{_T}seg", f"{_T}note") and bool(e.get("ana") or e.get("source")))

    def _blocks(self, e: Any) -> Iterator[Any]:
        for child in e:
            if isinstance(child.tag, str):
                yield from [child] if self._is_block(child) else self._blocks(child)

    @staticmethod
    def _layer(block: Any) -> str:
        return "#heading" if block.tag in _HEADINGS else (block.get("ana") or "").split()[0]

    def _choose(self, app: Any) -> Any | None:
        for child in app:
            if child.tag in (f"{_T}lem", f"{_T}rdg") and self.pointer in (child.get("wit") or "").split():
                return child
            if child.tag == f"{_T}rdgGrp" and (found := self._choose(child)) is not None:
                return found
        return None

    def _visit(self, e: Any) -> None:
        for child in e:
            if not isinstance(child.tag, str) or child.tag == f"{_T}note":
                continue  # a note, even a block of a layer (蕙田案): a viewer shows it as a note
            if self._is_block(child):
                source = child.get("source")
                collated = not source and child.tag not in _HEADINGS
                mine = None if collated else self.pointer in (source or "").split()
                self._walk(child, self._layer(child), collated, False, mine)
            elif child.tag == f"{_T}app":
                if (reading := self._choose(child)) is not None:
                    self._visit(reading)
            else:
                self._visit(child)

    def _walk(self, e: Any, layer: str, collated: bool, reading: bool, fixed: bool | None) -> None:
        def mine() -> bool:
            if fixed is not None:
                return fixed
            extant = self.extant.get(layer, True)
            return extant if reading else layer in self.carried and extant

        def add(text: str | None, kind: str = "") -> None:
            if text and mine():
                self.pieces.append((kind or layer, collated, text))

        add(e.text)
        for child in e:
            if child.tag == f"{_T}app":
                if (chosen := self._choose(child)) is not None:
                    self._walk(chosen, layer, collated, True, fixed)
            elif child.tag in _MARKS:
                if self.pointer in (child.get("wit") or "").split():
                    self.extant[layer] = child.tag in _RESUMES
            elif child.tag == f"{_T}label":
                add("".join(child.itertext()), "label")
            elif child.tag not in _SKIPPED:
                self._walk(child, layer, collated, reading, fixed)
            add(child.tail)

    def text(self) -> str:
        return chars("".join(p[2] for p in self.pieces))

    def layer(self, layer: Layer, collated: bool) -> str:
        return "".join(p[2] for p in self.pieces if p[0] == f"#{layer.value}" and p[1] == collated)


def chars(text: str) -> str:
    """The characters of a text (punctuation and whitespace are none)."""
    return "".join(c for c in text if is_token_char(c))


def column(panel: Any) -> str:
    """What a Versioning Machine column shows as text: its visible readings and shared text, no notes."""
    out: list[str] = []

    def visit(e: Any) -> None:
        classes = set((e.get("class") or "").split())
        if "noteicon" in classes:
            return
        if classes & {"apparatus", "reading"} and "display:inline-block" not in (e.get("style") or ""):
            return  # the stylesheet shows an entry or a reading only in the columns it names
        if "textcontent" in classes:
            out.append(e.text or "")
        for child in e:
            visit(child)

    visit(panel.xpath("div[@class='mssContent']")[0])
    return chars("".join(out))


def test_each_vm_column_holds_its_witness_text_and_nothing_else(project: Project, columns: dict[str, Any]) -> None:
    collation = project.run.collation
    witnesses = project.run.read.by_siglum()
    root = project.tree("lossless").getroot()
    assert set(columns) == {w.siglum for w in collation.witnesses}
    for info in collation.witnesses:
        running = RunningText(root, info.siglum)
        assert column(columns[info.siglum]) == running.text(), info.siglum
        if info.sparse:
            continue
        # And that running text is the witness's own, layer by layer, where it is extant.
        for result in collation.layers:
            if info.siglum in result.alignment.sigla:
                expected = expected_text(collation, witnesses[info.siglum], result.layer)
                # A gaiji entity no table resolved is shown as the printer's 〓 (its <g> in the TEI).
                expected = ENTITY.sub(GETA, expected)
                assert running.layer(result.layer, True) == expected, (info.siglum, result.layer)


def test_no_vm_column_shows_the_base_where_its_witness_is_not_extant(project: Project, columns: dict[str, Any]) -> None:
    collation: Collation = project.run.collation
    if project.name != "default":
        pytest.skip("every witness of 射義 is extant throughout")
    zs, dd = column(columns["ZS"]), column(columns["DD"])
    jing = collation.layer(Layer.JING)
    assert jing is not None
    # The 注疏本 ends early: the base's last 經 is not in its column.
    base_end = chars(expected_text(collation, project.run.read.by_siglum()["SK"], Layer.JING))[-40:]
    assert base_end not in zs and base_end in column(columns["SK"])
    # 大戴禮 is extant only where a reading of it is reported: its column is those readings.
    said = []
    for locus in jing.loci:
        reading = locus.reading_of("DD")
        if "DD" in locus.lemma_witnesses:
            said.append(locus.lemma.text)
        elif reading is not None:
            said.append(reading.text)
    assert dd == chars("".join(said))


def test_vm_shows_pages_and_reports_in_their_witness_column(project: Project, columns: dict[str, Any]) -> None:
    sources = {r.source for x in project.run.collation.loci() for r in x.readings if r.derived and r.source}
    base_pages = xp(project.tree("lossless"), "//tei:body//tei:pb[not(@ed)]")
    for siglum, panel in columns.items():
        # A witness's page break names it (@ed), and the Machine shows it in that column only; the
        # base's pages are the document's, drawn across every column.
        breaks = panel.xpath(".//hr[contains(@class, 'pagebreak')]")
        assert {tuple((b.get("class") or "").split()[1:]) for b in breaks} <= {(), *((s,) for s in columns)}
        assert len([b for b in breaks if b.get("class") == "pagebreak"]) == len(base_pages)
        reported = [
            n
            for n in panel.xpath(".//div[@class='noteicon']")
            if any(s in "".join(n.itertext()) for s in sources)
            and not n.xpath("ancestor::div[contains(@class, 'reading')]")
        ]
        assert not reported, siglum  # where a reading is reported is said with that reading only
    if project.name == "default":
        shown = columns["DD"].xpath(".//div[contains(@class, 'reading')][@style]")
        visible = [r for r in shown if any(s in "".join(r.itertext()) for s in sources)]
        derived = [r for x in project.run.collation.loci() for r in x.readings if r.derived]
        assert len(visible) == len(derived)


# --- both forms are TEI --------------------------------------------------------------------------------------


@pytest.mark.parametrize("form", ["lossless", "edition", "edition-regularized"])
def test_each_form_is_valid(project: Project, form: str, tei_schema: Any) -> None:
    assert_valid(project.tree(form), tei_schema)


def test_the_publication_form_names_its_policy_and_the_lossless_file(project: Project) -> None:
    for form in ("edition", "edition-regularized"):
        tree = project.tree(form)
        (ref,) = xp(tree, "//tei:editorialDecl/tei:normalization/tei:p[1]/tei:ref")
        assert ref.get("target") == f"{project.run.collation.name}.tei.xml"
        assert not xp(tree, "//tei:app[@type='script' or @type='extent' or @type='not-extant']")
        assert not xp(tree, "//tei:rdgGrp | //tei:witStart | //tei:witEnd | //tei:lacunaStart | //tei:lacunaEnd")
    assert xp(project.tree("edition"), "//tei:rdg[@type='orthographic']")
    assert not xp(project.tree("edition-regularized"), "//tei:rdg[@type='orthographic']")


# --- EVT 3: a page at a time ---------------------------------------------------------------------------------


def evt_pages(tree: Any, *, every_pb: bool) -> list[str]:
    """The pages EVT 3 lists for a document: one per ``<pb>`` of the body, labelled by its ``@n``.

    Its structure parser took the pages from the ``<pb>`` with no ``@ed`` (the document's own), and
    now from every ``<pb>`` (its ``structureSeparators``, "pb" by default); with none, the whole
    body is one page called ``mainText``.
    """
    breaks = [b for b in xp(tree, "//tei:body//tei:pb") if every_pb or not b.get("ed")]
    return [b.get("n") or "page" for b in breaks] or ["mainText"]


@pytest.mark.parametrize("form", ["lossless", "edition", "edition-regularized"])
def test_evt_lists_every_page_of_the_base(project: Project, form: str) -> None:
    base = project.run.read.base
    pages = [m.label for m in sorted(base.marks, key=lambda m: m.offset) if m.kind is MarkKind.PAGE]
    assert len(pages) > 1
    tree = project.tree(form)
    assert evt_pages(tree, every_pb=False) == pages
    listed = iter(evt_pages(tree, every_pb=True))
    assert all(page in listed for page in pages)  # the base's pages in order, among the others'
