from __future__ import annotations

from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest
from builders import text_tokens
from click.testing import CliRunner
from conftest import GAIJI, MANDOKU, SEED_000, SEED_001, SEED_002, SEED_003, SEED_004, need_shared
from hypothesis import given, settings
from hypothesis import strategies as st

from collate.apparatus import ReadingClass
from collate.cli import main
from collate.model import Layer, Span, Substitution, Token, Witness
from collate.normalize import Normalizer
from collate.normalize.placeholder import KEY_MARK
from collate.normalize.tokenize import is_question_placeholder, joined, tokenize, tokenize_witness
from collate.readers import read_witness
from collate.readers.base import ReadOptions
from collate.readers.layouts.plain import READER as PLAIN

SEEDS = {
    SEED_000: "siku-wltk",
    SEED_001: "zhushu",
    SEED_002: "yili-inline",
    SEED_003: "web-bracket",
    SEED_004: "jishuo",
}


@cache
def normalizer() -> Normalizer:
    return Normalizer()


def witness(text: str, spans: tuple[Span, ...] | None = None, subs: tuple[Substitution, ...] = ()) -> Witness:
    return Witness(
        "W", "W", "w.txt", text, "test", spans=spans or (Span(0, len(text), Layer.JING),), substitutions=subs
    )


def layer_text(w: Witness, layer: Layer) -> str:
    return "".join(w.text[s.start : s.end] for s in w.spans if s.layer is layer and s.role == "text")


def assert_well_formed(w: Witness, layer: Layer, tokens: tuple[Token, ...]) -> None:
    assert joined(tokens, w) == layer_text(w, layer)
    assert [t.index for t in tokens] == list(range(len(tokens)))
    assert all(a.end <= b.start for a, b in pairwise(tokens))
    assert all(t.layer is layer and t.witness == w.siglum and t.start < t.end for t in tokens)


def ts(tokens: tuple[Token, ...]) -> list[str]:
    return [t.t for t in tokens]


def test_one_character_one_token_punctuation_attached() -> None:
    w = witness("投壺之禮．主人奉矢．")
    tokens = tokenize(w, Layer.JING, normalizer())
    assert ts(tokens) == list("投壺之禮主人奉矢")
    assert tokens[3].after == "．" and tokens[4].before == ""
    assert tokens[-1].after == "．"
    assert [t.n for t in tokens] == list("投壶之礼主人奉矢")


def test_opening_punctuation_goes_with_the_next_token() -> None:
    w = witness("曰：『辟．』「主人」")
    tokens = tokenize(w, Layer.JING, normalizer())
    assert [(t.before, t.t, t.after) for t in tokens] == [
        ("", "曰", "："),
        ("『", "辟", "．』"),
        ("「", "主", ""),
        ("", "人", "」"),
    ]


def test_leading_and_trailing_marks_and_space() -> None:
    w = witness("\u3000『某』。\n")
    tokens = tokenize(w, Layer.JING, normalizer())
    assert [(t.before, t.t, t.after) for t in tokens] == [("\u3000『", "某", "』。\n")]


def test_punctuation_only_gives_no_tokens() -> None:
    assert tokenize(witness("．：『』"), Layer.JING, normalizer()) == ()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("巳尊?人也", ["巳", "尊", "?", "人", "也"]),
        ("之??也", ["之", "?", "?", "也"]),
        ("物当?", ["物", "当", "?"]),
        ("【案?今", ["案", "?", "今"]),
        ("what?", []),
        ("何也？", ["何", "也"]),
    ],
)
def test_ascii_question_mark_between_cjk_is_a_placeholder_token(text: str, expected: list[str]) -> None:
    tokens = tokenize(witness(text), Layer.JING, normalizer())
    assert ts(tokens) == expected
    assert all(t.is_placeholder for t in tokens if t.t == "?")
    assert all(not t.is_placeholder for t in tokens if t.t != "?")


def test_question_mark_context_looks_past_a_run() -> None:
    assert is_question_placeholder("之??", 2)
    assert not is_question_placeholder("a??b", 1)


def test_content_symbols_and_every_plane_are_tokens() -> None:
    text = "鼓○囗𠮟\uf900\ue5ab〇"
    tokens = tokenize(witness(text), Layer.JING, normalizer())
    assert ts(tokens) == list(text)
    assert [t.is_placeholder for t in tokens] == [False, False, False, False, False, True, False]
    assert tokens[3].t == "𠮟" and tokens[3].end - tokens[3].start == 1
    assert tokens[4].t == "\uf900"  # kept as it is: no NFC


def test_variation_selector_stays_with_its_character() -> None:
    w = witness("葛\U000e0100之")
    tokens = tokenize(w, Layer.JING, normalizer())
    assert ts(tokens) == ["葛\U000e0100", "之"]
    assert tokens[0].n == "葛" and (tokens[0].start, tokens[0].end) == (0, 2)
    assert_well_formed(w, Layer.JING, tokens)


def test_resolved_entity_is_one_token() -> None:
    text = "某黨賢&KR0002;干"
    w = witness(text, subs=(Substitution(3, 11, "若", "KR0002"),))
    tokens = tokenize(w, Layer.JING, normalizer())
    assert ts(tokens) == ["某", "黨", "賢", "若", "干"]
    assert (tokens[3].start, tokens[3].end) == (3, 11)
    assert not tokens[3].is_placeholder
    assert_well_formed(w, Layer.JING, tokens)


def test_unresolved_entity_is_a_placeholder_token() -> None:
    text = "半以&KR9999;棘"
    w = witness(text, subs=(Substitution(2, 10, None, "KR9999"),))
    tokens = tokenize(w, Layer.JING, normalizer())
    assert ts(tokens) == ["半", "以", "&KR9999;", "棘"]
    assert tokens[2].is_placeholder and tokens[2].n.startswith(KEY_MARK)
    assert_well_formed(w, Layer.JING, tokens)


def test_only_text_spans_of_the_layer_give_tokens() -> None:
    text = "方氏愨曰矢將以授賓(注/矢所以投)\n"
    spans = (
        Span(0, 4, Layer.COMMENTARY, unit=1, role="attribution", label="方氏愨"),
        Span(4, 9, Layer.COMMENTARY, unit=1),
        Span(9, 10, Layer.MARKUP, role="layout"),
        Span(10, 11, Layer.ZHU, unit=2, role="marker"),
        Span(11, 12, Layer.MARKUP, role="layout"),
        Span(12, 16, Layer.ZHU, unit=2),
        Span(16, 18, Layer.MARKUP, role="layout"),
    )
    w = witness(text, spans)
    commentary = tokenize(w, Layer.COMMENTARY, normalizer())
    zhu = tokenize(w, Layer.ZHU, normalizer())
    assert ts(commentary) == list("矢將以授賓") and {t.unit for t in commentary} == {1}
    assert ts(zhu) == list("矢所以投") and zhu[0].start == 12
    assert tokenize(w, Layer.JING, normalizer()) == ()
    assert set(tokenize_witness(w, normalizer())) == {Layer.COMMENTARY, Layer.ZHU}


@pytest.mark.parametrize("path", list(SEEDS), ids=[p.name[:3] for p in SEEDS])
def test_seed_layers_join_back(path: Path) -> None:
    w = read_witness(path, siglum="S", layout=SEEDS[path])
    by_layer = tokenize_witness(w, normalizer())
    assert by_layer
    for layer, tokens in by_layer.items():
        assert_well_formed(w, layer, tokens)


def test_mandoku_entities_are_single_tokens() -> None:
    w = read_witness(need_shared(MANDOKU), siglum="DDT", layout="mandoku", gaiji_table=need_shared(GAIJI))
    tokens = [t for layer, ts_ in tokenize_witness(w, normalizer()).items() for t in ts_]
    entities = [t for t in tokens if w.text[t.start : t.end].startswith("&KR")]
    assert entities and all(t.t == "若" for t in entities if w.text[t.start : t.end] == "&KR0002;")


# --- properties ----------------------------------------------------------------------------

ALPHABET = "投壺之禮主人奉矢賓宾筭算𠮟𡴲\uf900\ue5ab○囗□?？．：，。『』「」【】（）()/ \u3000\u00a0\nabc1"
LAYERS = [Layer.JING, Layer.ZHU, Layer.SHU, Layer.MARKUP]
ROLES = ["text", "text", "marker", "attribution", "layout"]


@st.composite
def witnesses(draw: st.DrawFn) -> Witness:
    text = draw(st.text(alphabet=ALPHABET, max_size=60))
    cuts = sorted(draw(st.sets(st.integers(1, max(1, len(text) - 1)), max_size=8)) - {len(text)})
    bounds = [0, *[c for c in cuts if 0 < c < len(text)], len(text)]
    spans = tuple(
        Span(a, b, draw(st.sampled_from(LAYERS)), unit=i, role=draw(st.sampled_from(ROLES)))
        for i, (a, b) in enumerate(pairwise(bounds))
        if b > a
    )
    return witness(text, spans or (Span(0, 0, Layer.JING),))


@settings(max_examples=300, deadline=None)
@given(witnesses())
def test_property_tokens_join_back_to_the_layer_text(w: Witness) -> None:
    for layer in LAYERS:
        tokens = tokenize(w, layer, normalizer())
        if tokens:
            assert_well_formed(w, layer, tokens)
        else:
            assert not any(c in layer_text(w, layer) for c in "投壺之禮主人奉矢賓宾筭算𠮟𡴲\uf900\ue5ab○囗□●")


@st.composite
def seed_passages(draw: st.DrawFn) -> Witness:
    path = draw(st.sampled_from(list(SEEDS)))
    text = path.read_text(encoding="utf-8")
    start = draw(st.integers(0, len(text) - 1))
    end = draw(st.integers(start + 1, min(len(text), start + 400)))
    passage = text[start:end]
    parsed = PLAIN.read(passage, ReadOptions())
    return Witness("P", "P", path.name, passage, "plain", spans=parsed.spans)


@settings(max_examples=100, deadline=None)
@given(seed_passages())
def test_property_seed_passages_join_back(w: Witness) -> None:
    tokens = tokenize(w, Layer.JING, normalizer())
    # ASCII letters and digits make no token (like punctuation, they need a token to carry them).
    if tokens or any((c.isalnum() and not c.isascii()) or c in "○囗□" for c in layer_text(w, Layer.JING)):
        assert_well_formed(w, Layer.JING, tokens)


# --- the command line -----------------------------------------------------------------------


def test_inspect_tokens_prints_the_table() -> None:
    result = CliRunner().invoke(main, ["inspect", str(SEED_001), "--layout", "zhushu", "--tokens"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split("\t") == ["#", "t", "n", "rules", "layer", "line:col"]
    first = lines[1].split("\t")
    assert first[1:3] == ["投", "投"] and first[4] == "jing"
    assert any(row.split("\t")[1:4] == ["筭", "算", "variant-graph"] for row in lines[1:])
    assert "Traceback" not in result.output


def test_inspect_tokens_shows_placeholders() -> None:
    result = CliRunner().invoke(main, ["inspect", str(SEED_002), "--layout", "yili-inline", "--tokens"])
    assert result.exit_code == 0, result.output
    rows = [line.split("\t") for line in result.output.splitlines()[1:]]
    marks = [r for r in rows if r[1] == "?"]
    assert len(marks) == 29 and all(r[2] == "(placeholder)" and r[3] == "placeholder" for r in marks)


def test_a_drum_score_is_text_and_its_signs_are_one_each(tmp_path: Path) -> None:
    """投壺's 魯鼓 score: □ there is the 鼙's sign, not a lost glyph; 〇/○ and □/囗 compare equal."""
    from collate.pipeline import collate_project
    from collate.project import project_from_mapping

    texts = {
        "SK": "魯鼓○囗○○囗囗○囗半君子之射也",  # seed 000 writes the score with ○ and 囗
        "ZS": "魯鼓〇□〇〇□□〇□半君□之射也",  # another e-text with 〇 and □; its □ after 君 is a lost glyph
        "WY": "魯鼓○囗○囗囗囗○囗半君子之射也",  # a real difference in the score: ○ read 囗
    }
    for siglum, text in texts.items():
        (tmp_path / f"{siglum}.txt").write_text(text + "\n", encoding="utf-8")
    project = project_from_mapping(
        {"base": "SK", "witness": [{"siglum": s, "path": f"{s}.txt", "layout": "plain"} for s in texts]},
        root=tmp_path,
    )
    run = collate_project(project)
    zs = run.tokens["ZS"][Layer.JING]
    assert not any(t.is_placeholder for t in zs[2:11])  # the score's signs are text
    assert zs[12].t == "□" and zs[12].is_placeholder  # □ beside 君, in no score, is a lost glyph
    found = {
        (x.lemma.text, r.cls.value, w.siglum) for x in run.collation.loci() for r in x.readings for w in r.witnesses
    }
    # Compared sign by sign, and a reading of the score, not of the words: listed apart.
    assert any(cls == "notation" and s == "WY" and "○" in text for text, cls, s in found)
    assert not any(cls == "substantive" for _, cls, s in found if s == "WY")
    assert ("子", "placeholder", "ZS") in found
    assert {cls for text, cls, s in found if s == "ZS" and text != "子"} <= {"orthographic"}
    from collate.exporters.jiaokanji import SCORES, entries

    lines = list(entries(run.collation, run.read.by_siglum()))
    heading = next(i for i, line in enumerate(lines) if line.startswith(SCORES))
    assert heading == len(lines) - 2 and "WY作" in lines[-1]  # the score's one entry, after the others


def test_a_score_read_otherwise_beside_words_read_otherwise_is_a_reading_of_the_words() -> None:
    """Only where both sides are a score's signs and nothing else is a reading one of the score."""
    from collate.apparatus.compare import _compare

    nz = normalizer()  # the default one
    score = text_tokens("○囗○○囗", nz)
    other = text_tokens("○囗囗○囗", nz)
    words = text_tokens("君子之射也", nz)
    assert _compare(score, other, nz) == (ReadingClass.NOTATION, None, ())
    lacking = _compare(score[:4], (), nz)  # signs the other score lacks
    assert lacking is not None and lacking[0] is ReadingClass.NOTATION
    mixed = _compare((*score, *words[:2]), (*other, *text_tokens("君臣", nz)[:2]), nz)
    assert mixed is not None and mixed[0] is ReadingClass.SUBSTANTIVE


def test_a_score_sign_is_no_lost_glyph_to_the_readers_either() -> None:
    from collate.readers.base import glyph_diagnostics

    text = "魯鼓○□○○□□○□半君□之射也"
    flagged = [d.start for d in glyph_diagnostics(text) if d.code == "placeholder"]
    assert flagged == [text.index("君") + 1]  # the □ beside 君 alone
