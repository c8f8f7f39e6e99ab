"""``collate stats``: agreement of witnesses at places of substance, counts, singular readings, the tree."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from lxml import html
from test_batch import write_corpus

from collate.batch import Status, load_batch, run_job
from collate.batch.manifest import write_projects
from collate.cli import main
from collate.stats import ALL_LAYERS, StatsError, collation_stats
from collate.stats.agreement import agreement_stats
from collate.stats.read import stats_collation
from collate.stats.records import Node, stats_json
from collate.stats.tree import leaves, neighbour_joining, newick, witness_tree

# Saitou & Nei's method on the textbook matrix whose tree is known: a-u 2, b-u 3, u-v 3, c-v 4, v-w 2, d-w 2, e-w 1.
TEXTBOOK = {"ab": 5, "ac": 9, "ad": 9, "ae": 8, "bc": 10, "bd": 10, "be": 9, "cd": 8, "ce": 7, "de": 3}


def _path_lengths(root: Node) -> dict[frozenset[str], float]:
    """The length of the path between every two leaves of a tree."""
    edges: dict[int, list[tuple[int, float]]] = {}
    names: dict[int, str] = {}

    def walk(node: Node) -> int:
        me = id(node)
        if node.name is not None:
            names[me] = node.name
        for child, length in node.children:
            other = walk(child)
            edges.setdefault(me, []).append((other, length))
            edges.setdefault(other, []).append((me, length))
        return me

    walk(root)
    result = {}
    for start, name in names.items():
        seen, stack = {start}, [(start, 0.0)]
        while stack:
            here, far = stack.pop()
            if here in names and here != start:
                result[frozenset((name, names[here]))] = far
            for there, length in edges.get(here, []):
                if there not in seen:
                    seen.add(there)
                    stack.append((there, far + length))
    return result


def test_neighbour_joining_finds_the_textbook_tree() -> None:
    distances = {frozenset(pair): float(d) for pair, d in TEXTBOOK.items()}
    root = neighbour_joining(list("abcde"), distances)
    assert newick(root) == "(d:2.0000,e:1.0000,(c:4.0000,(a:2.0000,b:3.0000):3.0000):2.0000);"
    # An additive matrix is its tree's path lengths, exactly.
    assert _path_lengths(root) == pytest.approx(distances)
    assert sorted(leaves(root)) == list("abcde")


def test_two_witnesses_are_one_branch_and_a_bad_fit_has_no_negative_branch() -> None:
    two = neighbour_joining(["A", "B"], {frozenset("AB"): 0.4})
    assert newick(two) == "(A:0.2000,B:0.2000);"
    # Far from additive: the lengths a join computes would be negative.
    bad = {frozenset("AB"): 0.1, frozenset("AC"): 0.9, frozenset("BC"): 0.1, frozenset("AD"): 0.1}
    bad |= {frozenset("BD"): 0.9, frozenset("CD"): 0.1}
    root = neighbour_joining(list("ABCD"), bad)

    def lengths(node: Node) -> list[float]:
        return [x for child, length in node.children for x in (length, *lengths(child))]

    assert min(lengths(root)) >= 0
    assert newick(neighbour_joining(["it's", "B"], {frozenset(("it's", "B")): 1.0})).startswith("('it''s':")


def _reading(cls: str, norm: str, *sigla: str, cause: str | None = None) -> dict[str, Any]:
    return {
        "norm": norm,
        "class": cls,
        "cause": cause,
        "witnesses": [{"siglum": s, "text": norm, "location": {"ref": f"{s}.txt:1:1"}} for s in sigla],
    }


def _locus(
    n: int, lemma: list[str], *readings: dict[str, Any], decision: bool = False, cls: str = ""
) -> dict[str, Any]:
    return {
        "id": f"jing-{n:05d}",
        "class": cls or (readings[0]["class"] if readings else "orthographic"),
        "lemma": {"siglum": "A", "text": "甲", "location": {"ref": "A.txt:1:1"}},
        "lemma_witnesses": lemma,
        "readings": list(readings),
        "decision": {"actions": ["keep"]} if decision else None,
    }


def collation(*loci: dict[str, Any], layer: str = "jing") -> dict[str, Any]:
    """A collation as its JSON has it, with only what the statistics read."""
    witnesses = [{"siglum": s, "label": f"{s}本"} for s in "ABCD"]
    return {"schema": "collate/2", "witnesses": witnesses, "layers": [{"layer": layer, "loci": list(loci)}]}


CASES = collation(
    # A and B against C and D.
    _locus(1, ["A", "B"], _reading("substantive", "乙", "C", "D")),
    # Graphs only: no place of substance, but counted by class and cause.
    _locus(2, ["A", "B"], _reading("orthographic", "甲", "C", "D", cause="variant")),
    # C is a placeholder (not compared); D reads the lemma's word in another graph; B stands alone.
    _locus(
        3, ["A"], _reading("substantive", "丙", "B"), _reading("placeholder", "?", "C"), _reading("loan", "甲", "D")
    ),
    # Reviewed, and reclassified there as orthographic: no longer a place of substance.
    _locus(4, ["A"], _reading("orthographic", "丁", "B", "C", "D", cause="editor"), decision=True),
    # Reviewed and still substantive: a reviewed place. B omits.
    _locus(5, ["A", "C", "D"], _reading("omission", "", "B"), decision=True),
    # The base is not extant here: no variant.
    _locus(6, [], _reading("addition", "戊", "B", "C", "D"), cls="not_extant"),
)


def test_agreement_is_counted_at_places_of_substance_from_the_classes_as_reviewed() -> None:
    stats = agreement_stats([("one", stats_collation(CASES, "one.json"))])
    assert stats.places == {"jing": 3, ALL_LAYERS: 3}
    assert stats.reviewed == {"jing": 1, ALL_LAYERS: 1}
    ab = stats.agreement("A", "B")
    cd = stats.agreement("C", "D")
    ad = stats.agreement("A", "D")
    assert ab is not None and (ab.compared, ab.agreed) == (3, 1)
    assert cd is not None and (cd.compared, cd.agreed) == (2, 2)  # C says nothing at the placeholder
    assert ad is not None and (ad.compared, ad.agreed) == (3, 2)  # a loan reads the lemma's word
    alone = {(a.siglum, a.locus) for a in stats.alone}
    assert alone == {("B", "jing-00003"), ("B", "jing-00005")}
    b = next(c for c in stats.counts if c.siglum == "B")
    assert b.classes == {"substantive": 1, "orthographic": 1, "omission": 1, "addition": 1} and b.alone == 2
    assert next(c for c in stats.counts if c.siglum == "C").causes == {"variant": 1, "editor": 1}


def test_a_batch_is_summed_by_siglum_and_a_label_that_differs_is_noted() -> None:
    other = collation(_locus(1, ["A", "B"], _reading("substantive", "乙", "C", "D")), layer="zhu")
    other["witnesses"][1]["label"] = "another edition"
    stats = agreement_stats([("one", stats_collation(CASES, "one.json")), ("two", stats_collation(other, "two.json"))])
    ab = stats.agreement("A", "B")
    assert ab is not None and ab.compared == 4
    zhu = stats.agreement("A", "B", "zhu")
    assert zhu is not None and (zhu.compared, zhu.agreed) == (1, 1)
    assert stats.layers == ("jing", "zhu")
    assert stats.notes == ("B is 'B本' in one but 'another edition' in two",)


def test_the_tree_leaves_out_a_witness_with_no_distance() -> None:
    data = collation(
        _locus(1, ["A", "B"], _reading("substantive", "乙", "C")),
        _locus(2, ["A"], _reading("substantive", "乙", "B", "C")),
    )
    tree = witness_tree(agreement_stats([("one", stats_collation(data, "one.json"))]))
    assert tree is not None
    assert sorted(tree.witnesses) == ["A", "B", "C"] and tree.left_out == ("D",)


@pytest.fixture(scope="module")
def batch_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The output tree of the three-job batch, each job run in this process as a worker runs it."""
    folder = tmp_path_factory.mktemp("stats")
    plan = load_batch(write_corpus(folder), folder / "out")
    write_projects(plan)
    for job in plan.jobs:
        assert run_job(job.name, str(job.project), str(job.out)).status is Status.DONE
    return plan.out


def test_stats_on_a_batch_shows_the_agreement_table_and_a_tree(batch_out: Path) -> None:
    result = CliRunner().invoke(main, ["stats", str(batch_out)])
    assert result.exit_code == 0, result.output
    assert "3 collations: sheren, sheyi, touhu" in result.output
    assert "agreement at places of substance: all layers" in result.output
    assert "witness tree (neighbour joining" in result.output
    page = html.parse(str(batch_out / "stats.html")).getroot()
    assert page.findall(".//table") and page.find(".//svg") is not None
    assert "TLS" in page.text_content()


def test_stats_as_json(batch_out: Path) -> None:
    result = CliRunner().invoke(main, ["stats", str(batch_out), "--json", "--html", str(batch_out / "s.html")])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["schema"] == "collate-stats/1"
    assert data["runs"] == ["sheren", "sheyi", "touhu"]
    # The jobs are different works with their own witnesses: the tree is of the largest group compared together.
    tree = data["tree"]
    assert len(tree["witnesses"]) >= 3
    assert sorted(tree["witnesses"] + tree["left_out"]) == sorted(w["siglum"] for w in data["witnesses"])
    assert data["tree"]["newick"].endswith(";")
    pairs = {(x["a"], x["b"], x["layer"]) for x in data["agreement"]}
    assert ("TLS", "WS", "jing") in pairs and ("TLS", "WS", ALL_LAYERS) in pairs
    for x in data["agreement"]:
        assert 0 <= x["agreed"] <= x["compared"] and x["rate"] == pytest.approx(x["agreed"] / x["compared"], abs=1e-6)
    assert (batch_out / "s.html").is_file()


def test_stats_of_one_run(batch_out: Path) -> None:
    stats = collation_stats(batch_out / "sheyi")
    assert stats.runs == ("sheyi",)
    assert stats_json(stats)["places"]["jing"] > 0
    for a, b in itertools.combinations(["HZ", "TLS", "WS"], 2):
        assert stats.agreement(a, b) is not None


def test_stats_refuses_a_folder_without_a_collation_and_an_edited_json(tmp_path: Path, batch_out: Path) -> None:
    result = CliRunner().invoke(main, ["stats", str(tmp_path)])
    assert result.exit_code != 0 and "no collation here" in result.output and "Traceback" not in result.output
    copy = tmp_path / "sheren"
    shutil.copytree(batch_out / "sheren", copy)
    (copy / "sheren.json").write_text("{}", encoding="utf-8")
    with pytest.raises(StatsError, match="not the file the run wrote"):
        collation_stats(copy)


def test_a_value_of_another_type_is_named_by_its_json_path() -> None:
    bad = json.loads(json.dumps(CASES))
    bad["layers"][0]["loci"][1]["readings"][0]["class"] = 3
    where = r"\$\.layers\[0\]\.loci\[1\]\.readings\[0\]\.class"
    with pytest.raises(StatsError, match=rf"Expected `str`, got `int` - at `{where}`"):
        stats_collation(bad, "one.json")
