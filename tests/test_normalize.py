"""The normalizer as a whole: the cases file, the seeds, its rules in order, described and fast.

Cases are data (tests/data/normalize_cases.toml): an input and what it must normalize to, or two
inputs and whether they compare equal, with the class and cause of the difference; a case marked
``expect = "fail"`` is a known gap. Each module of the stage has its own tests besides
(test_normalize_explain, _config, _tables, _variants, _relations, _script, _taboo, _placeholder, …).
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from builders import normalizer, text_tokens
from conftest import SEED_000, SEED_001, SEED_004

from collate.apparatus import ReadingClass
from collate.model import Change, ChangeClass, Layer, Token
from collate.normalize import DEFAULT_RULES, Normalizer, build_normalizer, compare, explain, reading_class
from collate.normalize.placeholder import KEY_MARK
from collate.normalize.script import convert
from collate.normalize.tables import CURATED_VARIANTS, data_path, read_rows
from collate.normalize.tokenize import tokenize
from collate.project import load_project
from collate.readers import read_witness

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


CASES: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).parent / "data" / "normalize_cases.toml").read_text(encoding="utf-8")
)["case"]


def keys(tokens: tuple[Token, ...]) -> str:
    return "".join(KEY_MARK if t.n.startswith(KEY_MARK) else t.n for t in tokens)


def case_outcome(case: dict[str, Any]) -> list[str]:
    """The ways a case's result differs from what it expects (empty: it passes)."""
    import json

    config = json.dumps(case.get("config", {}), ensure_ascii=False, sort_keys=True)
    norm = normalizer(config, " ".join(case.get("artifacts", [])))
    # Artifacts are declared for SK; `witness` lets a case read as another witness.
    siglum = case.get("witness", "SK")
    tokens = text_tokens(case["input"], norm, siglum, Layer(case.get("layer", "jing")))
    problems = []
    if "other" in case:
        other = text_tokens(case["other"], norm, case.get("other_witness", "ZS"), Layer(case.get("layer", "jing")))
        if len(other) != len(tokens):
            return [f"{len(tokens)} tokens against {len(other)}"]
        same = keys(tokens) == keys(other) and not any(t.is_placeholder for t in (*tokens, *other))
        if same != case["same"]:
            problems.append(f"same: {same} ({keys(tokens)!r} / {keys(other)!r})")
        if "relation" in case:
            # ``simplified``: the input stands in a simplified text (its 后 may be a traditional 後).
            scripts = (case.get("simplified", False), case.get("other_simplified", False))
            differ = [(a, b) for a, b in zip(tokens, other, strict=True) if a.n != b.n]
            change = norm.relation(differ[0][0].t, differ[0][1].t, simplified=scripts) if differ else None
            got_relation = change.rule if change else "none"
            if got_relation != case["relation"]:
                problems.append(f"relation: {got_relation}")
        verdicts = [v for v in (compare(a, b) for a, b in zip(tokens, other, strict=True)) if v is not None]
        telling = [v for v in verdicts if v[1] != "script"]
        verdict = next(iter(telling or verdicts), None)
        got = (verdict[0].value, verdict[1]) if verdict else None
    else:
        if keys(tokens) != case["n"]:
            problems.append(f"n: {keys(tokens)!r}")
        rules = list(dict.fromkeys(c.rule for t in tokens for c in t.changes))
        if rules != case["rules"]:
            problems.append(f"rules: {rules}")
        cls, cause = reading_class(c for t in tokens for c in t.changes)
        got = (cls.value, cause)
    if got != (case["class"], case.get("cause")):
        problems.append(f"class: {got}")
    return problems


def test_there_are_enough_cases_and_every_rule_is_covered() -> None:
    assert len(CASES) >= 60
    used = {rule for case in CASES if "rules" in case for rule in case["rules"]}
    assert set(DEFAULT_RULES) | {"semantic-variant"} <= used
    assert any(ord(c) > 0xFFFF and not 0xF0000 <= ord(c) for case in CASES for c in case["input"])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    problems = case_outcome(case)
    if case.get("expect") == "fail":
        assert problems, 'a known gap now passes: drop its expect = "fail"'
    else:
        assert not problems, problems


# --- the seeds, read through their readers ---------------------------------------------------------------


@cache
def seed_tokens(path: Path, siglum: str, layout: str, layer: Layer) -> tuple[Token, ...]:
    return tokenize(read_witness(path, siglum=siglum, layout=layout), layer, normalizer())


def find(tokens: tuple[Token, ...], phrase: str) -> tuple[Token, ...]:
    text = "".join(t.t for t in tokens)
    at = text.find(phrase)
    assert at >= 0, f"{phrase} not found"
    return tokens[at : at + len(phrase)]


@pytest.mark.parametrize(
    ("layer", "sk", "zs", "same", "cls", "cause"),
    [
        (Layer.JING, "宾再拜受", "賓再拜受", True, None, None),
        (Layer.JING, "执八算兴", "執八筭興", True, ReadingClass.ORTHOGRAPHIC, "variant"),
        (Layer.ZHU, "射人奉之", "射人案之", False, ReadingClass.SUBSTANTIVE, None),
        (Layer.ZHU, "其馀于中", "其餘於中", False, None, None),
    ],
)
def test_seed_passages(layer: Layer, sk: str, zs: str, same: bool, cls: ReadingClass | None, cause: str | None) -> None:
    a = find(seed_tokens(SEED_000, "SK", "siku-wltk", layer), sk)
    b = find(seed_tokens(SEED_001, "ZS", "zhushu", layer), zs)
    assert ([x.n for x in a] == [y.n for y in b]) is same
    script = (ReadingClass.ORTHOGRAPHIC, "script")
    norm = normalizer()
    # Seed 000 is simplified: its 于 stands for the 於 of seed 001 (keys differ, the relation is script).
    related = [(x, y) for x, y in zip(a, b, strict=True) if x.n != y.n and _script_pair(norm, x.t, y.t)]
    assert all(x.t == "于" and y.t == "於" for x, y in related)
    verdicts = {compare(x, y) for x, y in zip(a, b, strict=True) if (x, y) not in related} - {None}
    # Differences of script alone are classed as such (the apparatus lists no variant for them).
    assert verdicts - {script} == ({(cls, cause)} if cls else set())


def _script_pair(norm: Normalizer, simplified: str, traditional: str) -> bool:
    change = norm.relation(simplified, traditional, simplified=(True, False))
    return change is not None and change.rule == "script"


def test_seed_004_賔_meets_seed_001_賓() -> None:
    jishuo = [t for t in seed_tokens(SEED_004, "JS", "jishuo", Layer.JING) if t.t == "賔"]
    zhushu = [t for t in seed_tokens(SEED_001, "ZS", "zhushu", Layer.JING) if t.t == "賓"]
    assert jishuo and zhushu
    assert {t.n for t in jishuo} == {t.n for t in zhushu} == {"宾"}
    assert explain(jishuo[0], zhushu[0])[0] == Change("variant-graph", "賔", "賓", ChangeClass.ORTHOGRAPHIC, "curated")


# --- explanations, sources, folding ----------------------------------------------------------------------


def test_explain_strings_gives_the_union_of_changes() -> None:
    norm = normalizer()
    why = norm.explain("賔", "宾")
    assert [(c.rule, c.before, c.after) for c in why] == [("variant-graph", "賔", "賓"), ("script", "賓", "宾")]
    assert norm.explain("曆", "歷")[0].cls is ChangeClass.TABOO
    with pytest.raises(ValueError, match="normalize differently"):
        norm.explain("奉", "案")


def test_changes_name_their_sources() -> None:
    norm = normalizer()
    _, changes = norm.normalize("逺")
    assert [c.source for c in changes] == ["curated", convert_source(norm)]
    _, changes = norm.normalize("\uf900")
    assert changes[0].source == "Unicode compatibility ideograph"
    _, changes = norm.normalize("玄")
    assert "玄燁" in changes[0].source


def convert_source(norm: Normalizer) -> str:
    return next(r.source for r in norm.describe() if r.name == "script")


def test_fold_strings_for_phrase_matching() -> None:
    norm = normalizer()
    assert norm.fold("比投不釋") == "比投不释"
    assert norm.fold("賔□") == "宾" + KEY_MARK


def test_no_unicode_normalization() -> None:
    token = text_tokens("\uf900，", normalizer())[0]
    assert token.t == "\uf900" != unicodedata.normalize("NFC", token.t)
    assert token.after == "，"


# --- consistency of the tables with OpenCC ---------------------------------------------------------------


def test_every_character_meets_its_simplified_form() -> None:
    """n(c) == n(t2s(c)) for the whole URO, Ext A and compatibility block, or, where simplification
    merged c with another character (後 and 后 are both 后), the simplified form of a simplified
    text stands for c: the relation is script."""
    norm = normalizer()
    parted: list[str] = []
    merged: list[str] = []
    for cp in [*range(0x3400, 0x4DC0), *range(0x4E00, 0xA000), *range(0xF900, 0xFB00)]:
        char = chr(cp)
        simple = convert("t2s", char)
        if len(simple) == 1 and norm.normalize(char)[0] != norm.normalize(simple)[0]:
            (merged if _script_pair(norm, simple, char) else parted).append(char)
    assert parted == []
    assert {"後", "脩", "於", "髮", "發", "乾", "幹", "癒"} <= set(merged)
    assert len(merged) < 400  # the mergers only, never the script as a whole


@pytest.mark.parametrize("rule", ["variant-graph", "semantic-variant", "script"])
def test_every_curated_mapping_applies(rule: str) -> None:
    norm = normalizer('{"semantic": true}')
    rows = [f for _, f in read_rows(data_path(CURATED_VARIANTS), 3) if f[2] == rule]
    assert rows
    for variant, standard, *_ in rows:
        assert norm.normalize(variant)[0] == norm.normalize(standard)[0], (variant, standard)


def test_script_before_variants_still_meets() -> None:
    order = '{"rules": ["placeholder", "script", "variant-graph", "taboo"]}'
    norm = normalizer(order)
    for a, b in (("賔", "宾"), ("筭", "算"), ("曆", "历"), ("岗", "崗")):
        assert norm.normalize(a)[0] == norm.normalize(b)[0], (a, b)


# --- configuration ---------------------------------------------------------------------------------------


def test_describe_lists_every_rule_in_order() -> None:
    infos = normalizer('{"semantic": true}', "防").describe()
    names = [i.name for i in infos]
    assert names == ["placeholder", "artifact", "taboo", "variant-graph", "semantic-variant", "script"]
    assert all(i.enabled and i.description and i.source for i in infos)
    assert "SK: 防" in infos[1].source
    default = normalizer().describe()
    assert [i.name for i in default if not i.enabled] == ["semantic-variant"]
    assert "Unihan" in next(i.source for i in default if i.name == "variant-graph")


def test_from_project(tmp_path: Path) -> None:
    (tmp_path / "collate.toml").write_text(
        '[[witness]]\nsiglum = "SK"\npath = "a.txt"\nartifacts = ["防"]\n\n'
        '[[witness]]\nsiglum = "ZS"\npath = "b.txt"\n\n'
        '[normalize]\nsemantic = true\ntaboo_eras = ["qing", "tang"]\n',
        encoding="utf-8",
    )
    norm = Normalizer.from_project(load_project(tmp_path / "collate.toml"))
    assert "semantic-variant" in norm.rules
    assert norm.normalize("民")[0] == "人"
    assert norm.normalize("防", witness="SK")[1][0].cls is ChangeClass.UNCERTAIN
    assert norm.normalize("防", witness="ZS")[1] == ()


def test_project_adds_never_fold_and_loans() -> None:
    mine = build_normalizer({"never_fold": ["竒奇"], "loans": {"奉": "捧"}}, {})
    assert mine.normalize("竒")[0] != mine.normalize("奇")[0]
    assert mine.relation("竒", "奇") is None
    change = mine.relation("奉", "捧")
    assert change is not None and change.cls is ChangeClass.LOAN and change.source == "project file"
    # A project's own variant wins over the shipped never-fold list.
    folded = build_normalizer({"variants": {"巳": "已"}}, {})
    assert folded.normalize("巳")[0] == folded.normalize("已")[0]
