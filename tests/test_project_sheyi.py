"""禮記·射義 in six real witnesses of four kinds, each read by auto-detection, collated layer with layer."""

from __future__ import annotations

import pytest
from conftest import GAIJI, REPO, SHARED, need_shared

from collate.apparatus import ReadingClass
from collate.exporters.html import run_html
from collate.model import Layer
from collate.pipeline import collate_project
from collate.project import project_from_mapping
from collate.results import ExportInput, RunResult

WITNESSES = SHARED / "witnesses"
# siglum, file, the layers its print has (of the four collated).
SHEYI = (
    ("ZS", "liji-sheyi-zhushu-kanripo-WYG.txt", {Layer.JING, Layer.ZHU, Layer.SHU, Layer.SHIWEN}),
    ("ZT", "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt", {Layer.JING, Layer.ZHU, Layer.SHIWEN}),
    ("DS", "liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt", {Layer.SHU}),
    ("CH", "liji-jishuo-chenhao-sheyi-kanripo-WYG.txt", {Layer.JING}),
    ("TLS", "liji-sheyi-kanripo-TLS.txt", {Layer.JING}),
    ("WS", "liji-sheyi-wikisource-hangsau.txt", {Layer.JING}),
)


@pytest.fixture(scope="module")
def run() -> RunResult:
    for _, name, _ in SHEYI:
        need_shared(WITNESSES / name)
    data = {
        "title": "禮記·射義",
        "name": "sheyi",
        "base": "ZS",
        "gaiji_table": str(need_shared(GAIJI)),
        "layers": ["jing", "zhu", "shu", "shiwen"],
        "witness": [{"siglum": s, "path": str(WITNESSES / name)} for s, name, _ in SHEYI],
    }
    return collate_project(project_from_mapping(data, root=REPO))


def test_each_witness_is_read_into_the_layers_its_print_has(run: RunResult) -> None:
    for siglum, _, layers in SHEYI:
        w = next(w for w in run.read.witnesses if w.siglum == siglum)
        present = {layer for layer in w.layers() if layer in layers | {Layer.JING, Layer.ZHU, Layer.SHU, Layer.SHIWEN}}
        assert present == layers, siglum


@pytest.mark.parametrize("layer", [Layer.JING, Layer.ZHU, Layer.SHU, Layer.SHIWEN])
def test_each_layer_is_collated_with_every_witness_that_has_it(run: RunResult, layer: Layer) -> None:
    result = run.collation.layer(layer)
    assert result is not None, f"{layer} was not collated"
    expected = {siglum for siglum, _, layers in SHEYI if layer in layers}
    assert set(result.sigla) == expected
    for cover in result.coverage:
        # Every witness is extant over most of its layer: the same chapter, aligned as a whole.
        w = next(w for w in run.read.witnesses if w.siglum == cover.siglum)
        own = sum(1 for s in w.spans if s.layer is layer and s.role == "text")
        assert own and cover.tokens > 0, cover.siglum


def test_the_jing_of_five_editions_agrees_almost_everywhere(run: RunResult) -> None:
    """射義 is about 1,000 characters; five editions of one text differ in a few dozen places, not hundreds."""
    result = run.collation.layer(Layer.JING)
    assert result is not None
    substantive = [locus for locus in result.loci if locus.cls is ReadingClass.SUBSTANTIVE]
    assert len(substantive) < 120, len(substantive)


def test_the_page_shows_the_print_not_the_file_markup(run: RunResult) -> None:
    """The base is a Kanripo file: its org lines and page markers are not drawn as printed words."""
    page = run_html(ExportInput.of(run))
    assert "#+PROPERTY" not in page and "<pb:" not in page and "¶" not in page
    assert "禮記注疏卷六十二" in page  # the print's own headings are
