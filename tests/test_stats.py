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
from rich.console import Console
from test_batch import write_corpus

from collate.batch import Status, load_batch, run_job
from collate.batch.manifest import write_projects
from collate.cli import main
from collate.stats import ALL_LAYERS, MIN_PLACES, Stats, StatsError, collation_stats
from collate.stats.agreement import agreement_stats
from collate.stats.html import stats_page
from collate.stats.read import stats_collation
from collate.stats.records import Node, stats_json
from collate.stats.tree import leaves, neighbour_joining, newick, with_tree
from collate.stats.view import tree_view

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


def _splits(root: Node) -> set[frozenset[frozenset[str]]]:
    """The inner branches of an unrooted tree, each as the two sets of witnesses it parts."""
    everyone = frozenset(leaves(root))
    found = set()

    def walk(node: Node) -> None:
        for child, _ in node.children:
            below = frozenset(leaves(child))
            if 1 < len(below) < len(everyone) - 1:
                found.add(frozenset((below, everyone - below)))
            walk(child)

    walk(root)
    return found


def _split(one: str, other: str) -> frozenset[frozenset[str]]:
    return frozenset((frozenset(one), frozenset(other)))


def _branch_lengths(node: Node) -> list[float]:
    return [x for child, length in node.children for x in (length, *_branch_lengths(child))]


def test_the_library_joins_the_textbook_tree() -> None:
    distances = {frozenset(pair): float(d) for pair, d in TEXTBOOK.items()}
    root = neighbour_joining(list("abcde"), distances)
    # The known tree: its two inner branches part ab from cde and abc from de; its lengths are those above.
    assert _splits(root) == {_split("ab", "cde"), _split("abc", "de")}
    assert sorted(_branch_lengths(root)) == pytest.approx([1, 2, 2, 2, 3, 3, 4])
    # An additive matrix is its tree's path lengths, exactly.
    assert _path_lengths(root) == pytest.approx(distances)
    assert newick(root) == "(((a:2.0000,b:3.0000):3.0000,c:4.0000):2.0000,d:2.0000,e:1.0000);"
    # The same tree whatever the order the witnesses come in; only the drawing order follows it.
    reverse = neighbour_joining(list("edcba"), distances)
    assert _splits(reverse) == _splits(root) and _path_lengths(reverse) == pytest.approx(distances)
    assert leaves(reverse)[0] == "e"


def test_ties_give_the_same_tree_every_time() -> None:
    # Every pair equally far: every pair ties at every join; the first in the witnesses' order goes first.
    names = list("ABCDEF")
    ties = {frozenset(pair): 1.0 for pair in itertools.combinations(names, 2)}
    trees = {newick(neighbour_joining(names, ties)) for _ in range(5)}
    assert trees == {"((((A:0.5000,B:0.5000):0.0000,C:0.5000):0.0000,D:0.5000):0.0000,E:0.5000,F:0.5000);"}


def test_two_witnesses_are_one_branch_and_a_bad_fit_has_no_negative_branch() -> None:
    two = neighbour_joining(["A", "B"], {frozenset("AB"): 0.4})
    assert newick(two) == "(A:0.2000,B:0.2000);"
    # Far from additive: the lengths a join computes would be negative.
    bad = {frozenset("AB"): 0.1, frozenset("AC"): 0.9, frozenset("BC"): 0.1, frozenset("AD"): 0.1}
    bad |= {frozenset("BD"): 0.9, frozenset("CD"): 0.1}
    root = neighbour_joining(list("ABCD"), bad)
    assert min(_branch_lengths(root)) >= 0
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


def collation(*loci: dict[str, Any], layer: str = "jing", sigla: str = "ABCD", sparse: str = "") -> dict[str, Any]:
    """A collation as its JSON has it, with only what the statistics read; ``sparse`` are readings files."""
    witnesses = [{"siglum": s, "label": f"{s}本", "sparse": s in sparse} for s in sigla]
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


def test_only_two_witnesses_at_a_place_is_no_evidence_of_their_agreement() -> None:
    # A and B alone: the place is one because B reads otherwise. A, B and C: B and C agree against A.
    data = collation(
        _locus(1, ["A"], _reading("substantive", "乙", "B")),
        _locus(2, ["A"], _reading("substantive", "乙", "B", "C")),
    )
    stats = agreement_stats([("one", stats_collation(data, "one.json"))])
    ab, bc = stats.agreement("A", "B"), stats.agreement("B", "C")
    assert ab is not None and (ab.compared, ab.agreed, ab.only_two) == (1, 0, 1)
    assert bc is not None and (bc.compared, bc.agreed, bc.only_two, bc.rate) == (1, 1, 0, 1.0)


def sample() -> Stats:
    """Twelve places where A and B read the lemma against C; D is compared at three of them only; E only ever
    beside A alone, where it reads otherwise; F, a readings file, reports a reading at four."""
    loci = [
        _locus(
            n,
            ["A", "B", *(["D"] if n <= 3 else [])],
            _reading("substantive", "乙", "C", *(["F"] if n <= 4 else [])),
        )
        for n in range(1, 13)
    ]
    loci += [_locus(n, ["A"], _reading("substantive", "丙", "E")) for n in range(13, 18)]
    data = collation(*loci, sigla="ABCDEF", sparse="F")
    return with_tree(agreement_stats([("one", stats_collation(data, "one.json"))]))


def test_the_tree_leaves_out_a_readings_file_and_witnesses_with_too_few_places_and_says_why() -> None:
    stats = sample()
    assert stats.tree is not None and stats.tree.witnesses == ("A", "B", "C")
    why = {x.siglum: x.why for x in stats.left_out}
    assert stats.tree.left_out == tuple(why) and sorted(why) == ["D", "E", "F"]
    assert why["F"].startswith("a readings file")
    assert f"fewer than {MIN_PLACES}" in why["D"] and "3 with A" in why["D"]
    assert "5 with A" in why["E"] and "by construction" in why["E"]
    # A and B read alike everywhere, C against them: A and B are one branch's two leaves.
    assert _path_lengths(stats.tree.root)[frozenset("AB")] == pytest.approx(0.0)


def _heat_cells(page: Any) -> dict[tuple[str, str], Any]:
    """The cells of the first heat map (all layers) by (row, column) siglum."""
    table = page.find(".//table[@class='heat']")
    head, *rows = table.findall("tr")
    columns = [th.text for th in head.findall("th")[1:]]
    cells = {}
    for row in rows:
        siglum = row.find("th").text_content().split()[0]
        for column, td in zip(columns, row.findall("td"), strict=True):
            cells[(siglum, column)] = td
    return cells


def test_a_cell_over_too_few_places_shows_no_rate_and_says_why() -> None:
    cells = _heat_cells(html.fromstring(stats_page(sample())))
    measured = cells[("A", "B")]
    assert measured.text_content().startswith("100%") and "background" in measured.get("style", "")
    few = cells[("A", "D")]
    assert "%" not in few.text_content() and few.text_content().startswith("too few")
    assert "few" in few.get("class", "") and few.get("style") is None
    assert "at 3 places only" in few.get("title") and f"fewer than {MIN_PLACES}" in few.get("title")
    # E and A are never compared beside a third witness: they differ by construction, no rate.
    alone = cells[("E", "A")]
    assert "%" not in alone.text_content() and alone.text_content().startswith("only the two")
    assert alone.get("style") is None and "At 5 more" in alone.get("title")


def test_the_tree_section_names_the_witnesses_left_out_before_the_drawing() -> None:
    stats = sample()
    body = list(html.fromstring(stats_page(stats)).find("body"))
    start = next(i for i, el in enumerate(body) if el.get("id") == "tree")
    section = body[start + 1 :]
    first = section[0]
    assert first.get("class") == "left-out"
    named = [li.find("strong").text_content().split()[0] for li in first.iter("li")]
    # The readings file first; then E, compared at no place beside a third witness, before D, at three.
    assert named == ["F", "E", "D"]
    assert "readings file" in first.text_content()
    drawing = next(i for i, el in enumerate(section) if el.tag == "svg")
    assert drawing > 0
    # The terminal says it before the tree as well.
    console = Console(record=True, width=300)
    console.print(tree_view(stats))
    text = console.export_text()
    assert text.index("left out of the tree: F") < text.index("witness tree")


def test_with_no_tree_the_witnesses_left_out_are_still_named() -> None:
    data = collation(*(_locus(n, ["A"], _reading("substantive", "乙", "B")) for n in range(1, 20)), sigla="AB")
    stats = with_tree(agreement_stats([("one", stats_collation(data, "one.json"))]))
    assert stats.tree is None and [x.siglum for x in stats.left_out] == ["B", "A"]
    page = html.fromstring(stats_page(stats))
    assert "B B本: too few places" in page.find(".//div[@class='left-out']").text_content()
    assert "No tree" in page.find(".//div[@class='left-out']").getnext().text_content()
    assert page.find(".//svg") is None
    data = stats_json(stats)
    assert data["tree"] is None and data["left_out_of_tree"][0]["siglum"] == "B"
    assert data["agreement"][0] | {"a": "A", "b": "B"} == {
        "a": "A",
        "b": "B",
        "layer": "jing",
        "compared": 0,
        "agreed": 0,
        "only_two": 19,
        "rate": None,
        "measured": False,
    }


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
    # Three small works, one layer each in the main: no pair has places enough for a tree, and it says so.
    assert result.output.index("left out of the tree: DD: a readings file") < result.output.index("no tree:")
    page = html.parse(str(batch_out / "stats.html")).getroot()
    assert page.findall(".//table") and page.find(".//div[@class='left-out']") is not None
    assert "TLS" in page.text_content()


def test_stats_as_json(batch_out: Path) -> None:
    result = CliRunner().invoke(main, ["stats", str(batch_out), "--json", "--html", str(batch_out / "s.html")])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["schema"] == "collate-stats/1"
    assert data["runs"] == ["sheren", "sheyi", "touhu"]
    # The jobs are different works with their own witnesses, each compared at a few places: no tree.
    assert data["tree"] is None
    left_out = {x["siglum"]: x["why"] for x in data["left_out_of_tree"]}
    assert sorted(left_out) == sorted(w["siglum"] for w in data["witnesses"])
    assert [w["siglum"] for w in data["witnesses"] if w["sparse"]] == ["DD"]
    pairs = {(x["a"], x["b"], x["layer"]) for x in data["agreement"]}
    assert ("TLS", "WS", "jing") in pairs and ("TLS", "WS", ALL_LAYERS) in pairs
    for x in data["agreement"]:
        assert 0 <= x["agreed"] <= x["compared"] and x["measured"] == (x["compared"] >= MIN_PLACES)
        assert x["rate"] == (pytest.approx(x["agreed"] / x["compared"], abs=1e-6) if x["compared"] else None)
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
