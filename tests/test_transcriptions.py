"""Two transcriptions of one print differ only by real slips: what the apparatus lists between them.

The Kanripo 五禮通考 卷163 in its two branches (master and WYG), and the master file against a
simplified copy of itself made with OpenCC (phrase by phrase, as any simplified e-text is made):
every substantive entry left must be a real difference of the two files, and there are at most
one per 2,000 characters of a layer.
"""

from __future__ import annotations

from pathlib import Path

import opencc
import pytest
from conftest import GAIJI, REPO, SHARED, need_shared

from collate.apparatus import ReadingClass
from collate.exporters.jiaokanji import SUBSTANTIVE
from collate.model import Layer
from collate.pipeline import collate_project
from collate.project import project_from_mapping
from collate.results import RunResult

MASTER = SHARED / "witnesses" / "wuli-tongkao-juan163-kanripo-master.txt"
WYG = SHARED / "witnesses" / "wuli-tongkao-juan163-kanripo-WYG.txt"
LAYERS = (Layer.JING, Layer.ZHU, Layer.SHU, Layer.COMMENTARY, Layer.NOTE)


def run(tmp: Path, other: Path) -> RunResult:
    data = {
        "title": "五禮通考卷一百六十三",
        "name": "wltk163",
        "base": "A",
        "gaiji_table": str(need_shared(GAIJI)),
        "layers": [layer.value for layer in LAYERS],
        "witness": [{"siglum": "A", "path": str(need_shared(MASTER))}, {"siglum": "B", "path": str(other)}],
    }
    return collate_project(project_from_mapping(data, root=tmp))


@pytest.fixture(scope="module")
def simplified(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    tmp = tmp_path_factory.mktemp("simplified")
    copy = tmp / "wltk-simplified.txt"
    copy.write_text(opencc.OpenCC("t2s").convert(need_shared(MASTER).read_text(encoding="utf-8")), encoding="utf-8")
    return run(tmp, copy)


@pytest.fixture(scope="module")
def branches(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return run(tmp_path_factory.mktemp("branches"), need_shared(WYG))


def substantive(result: RunResult, layer: Layer) -> list[str]:
    collated = result.collation.layer(layer)
    assert collated is not None, f"{layer} was not collated"
    return [
        f"{locus.lemma.text}→{reading.text}"
        for locus in collated.loci
        for reading in locus.readings
        if reading.cls in SUBSTANTIVE or reading.cls is ReadingClass.LOAN
    ]


@pytest.mark.parametrize("layer", LAYERS, ids=[layer.value for layer in LAYERS])
def test_two_branches_of_one_file_list_nothing(branches: RunResult, layer: Layer) -> None:
    assert substantive(branches, layer) == []


@pytest.mark.parametrize("layer", LAYERS, ids=[layer.value for layer in LAYERS])
def test_a_simplified_copy_lists_at_most_one_entry_per_2000_characters(simplified: RunResult, layer: Layer) -> None:
    size = len(simplified.tokens["A"][layer])
    found = substantive(simplified, layer)
    assert len(found) <= size / 2000, found


@pytest.fixture(scope="module")
def traditional(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    """Seed 000 (simplified) against a traditional copy of itself: s2t chooses among several forms."""
    tmp = tmp_path_factory.mktemp("traditional")
    seed = REPO / "seeds" / "000_2cc6d19ca27bf473.txt"
    copy = tmp / "seed000-traditional.txt"
    copy.write_text(opencc.OpenCC("s2t").convert(seed.read_text(encoding="utf-8")), encoding="utf-8")
    data = {
        "title": "投壺",
        "name": "touhu",
        "base": "A",
        "work": "投壺",
        "layers": [layer.value for layer in LAYERS],
        "witness": [{"siglum": "A", "path": str(seed)}, {"siglum": "B", "path": str(copy)}],
    }
    return collate_project(project_from_mapping(data, root=tmp))


@pytest.mark.parametrize("layer", LAYERS, ids=[layer.value for layer in LAYERS])
def test_a_traditional_copy_of_a_simplified_text_lists_nothing(traditional: RunResult, layer: Layer) -> None:
    """Every difference is one of script, one-to-many included (借/藉, 干/幹), never a reading."""
    assert substantive(traditional, layer) == []
