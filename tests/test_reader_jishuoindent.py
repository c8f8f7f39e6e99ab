"""敖繼公 儀禮集說, 四庫 print (layout ``jishuo-indent``): 燕禮 with its 記 and 正誤, and made-up texts."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path
from statistics import median

import pytest
from conftest import GAIJI, SEED_004, SEEDS, SHARED, need_shared
from hypothesis import given
from hypothesis import strategies as st
from rapidfuzz import fuzz
from readers_support import ideographs, line_spans, markup_in_text, real_files, synthetic, text_of

from collate.model import Layer, Witness
from collate.normalize import Normalizer
from collate.readers import read_witness
from collate.readers.base import ReadOptions
from collate.readers.layouts.chenhao import SOUND_NOTES
from collate.readers.layouts.jishuoindent import READER

WITNESSES = SHARED / "witnesses"
AO = WITNESSES / "yili-jishuo-yanli-kanripo-WYG.txt"
ZHENGZHU = WITNESSES / "yili-yanli-zhengzhu-kanripo-SBCK.txt"
_FOLD = Normalizer()


han = ideographs


def folded(text: str) -> str:
    """The ideographs with the project's default folding (script, variant graphs: 爲/為)."""
    return "".join(_FOLD.normalize(c)[0] for c in han(text))


@pytest.fixture(scope="module")
def ao() -> Witness:
    return read_witness(need_shared(AO), gaiji_table=need_shared(GAIJI))


@pytest.fixture(scope="module")
def zhengzhu() -> Witness:
    return read_witness(need_shared(ZHENGZHU), gaiji_table=need_shared(GAIJI))


def line_of(w: Witness, needle: str) -> int:
    return w.line_col(w.text.index(needle))[0]


def units(w: Witness, layer: Layer, role: str | None = None) -> dict[int, str]:
    """The text of each unit of ``layer`` (of one role, if given), in file order."""
    found: dict[int, str] = {}
    for s in w.spans:
        if s.layer is layer and (role is None or s.role == role):
            found[s.unit] = found.get(s.unit, "") + text_of(w, s)
    return found


def test_detected_and_seed_004_still_jishuo(ao: Witness) -> None:
    assert ao.layout == "jishuo-indent" and "繼公謂" in ao.layout_reason
    seed = read_witness(SEED_004)
    assert seed.layout == "jishuo"
    assert READER.detect(SEED_004.read_text(encoding="utf-8"))[0] == 0.0
    assert seed.spans == read_witness(SEED_004, layout="jishuo").spans


@pytest.mark.parametrize(
    "path",
    real_files(SHARED, SEEDS, but=AO),
    ids=lambda p: p.name,
)
def test_not_detected_on_other_files(path: Path) -> None:
    assert read_witness(path, gaiji_table=GAIJI).layout != "jishuo-indent"


def test_headings(ao: Witness) -> None:
    # (The container's own heading, the org title, is labelled ``title``.)
    headings = [(text_of(ao, s), s.label) for s in ao.spans if s.layer is Layer.HEADING and s.label != "title"]
    assert headings[:6] == [
        ("欽定四庫全書", "collection"),
        ("儀禮集說卷六", "juan title"),
        ("元", "juan title"),
        ("敖繼公", "juan title"),
        ("撰", "juan title"),
        ("燕禮第六", "chapter title"),
    ]
    labels = [label for _, label in headings]
    assert labels.count("section end") == 30
    assert ("記", "記") in headings and ("正誤", "正誤") in headings
    assert headings[-2:] == [("儀禮集說卷六", "juan title"), ("正誤", "正誤")]
    assert ao.meta("chapter") == "燕禮第六"
    # 記 opens its line; the rest is 經.
    assert line_spans(ao, line_of(ao, "記燕朝服于寢"))[:2] == [
        ("記", Layer.HEADING, "text", "記"),
        ("燕朝服于寢", Layer.JING, "text", None),
    ]


def test_quotations_open_with_their_source(ao: Witness) -> None:
    assert line_spans(ao, line_of(ao, "注曰膳宰天子曰膳夫")) == [
        ("注曰", Layer.ZHU, "attribution", "注曰"),
        ("膳宰天子曰膳夫掌君飲食膳羞者也寢路寢", Layer.ZHU, "text", None),
    ]
    assert line_spans(ao, line_of(ao, "繼公謂具官饌"))[0] == ("繼公謂", Layer.COMMENTARY, "attribution", "繼公謂")
    assert line_spans(ao, line_of(ao, "疏曰漢時殿屋"))[0] == ("疏曰", Layer.SHU, "attribution", "疏曰")
    assert line_spans(ao, line_of(ao, "䟽曰此"))[0][1:3] == (Layer.SHU, "attribution")
    for name in ("朱子曰", "李微之曰", "楊志仁曰"):
        assert line_spans(ao, line_of(ao, "\u3000" + name))[0] == (name, Layer.COMMENTARY, "attribution", name)
    # A book is not a scholar: 春秋傳曰 opens the author's own comment.
    assert line_spans(ao, line_of(ao, "春秋傳曰文王"))[0] == (
        "春秋傳曰文王大明緜兩君相見之樂是諸侯之樂",
        Layer.COMMENTARY,
        "text",
        None,
    )


def test_passages_go_on_over_indented_lines(ao: Witness) -> None:
    commentary = units(ao, Layer.COMMENTARY)
    (passage,) = [t for t in commentary.values() if t.startswith("繼公謂具官饌")]
    assert (
        passage
        == "繼公謂具官饌謂具諸官所當饌之物也寢東盖其東壁之東也" + "此時所具者其薦羞乎及既設賓席官乃改饌之大射云官饌是也"
    )
    # The author's own 集說 after 經, over three lines, the last one character.
    assert "小臣於天子太僕之屬也與者羣臣之與此燕者也君所主與之燕者亦存焉其戒之節於朝於家則未聞" in commentary.values()
    # A 注 that ends on a two-character line (``　升堂``) keeps it.
    zhu = units(ao, Layer.ZHU)
    assert "注曰其始升猶聚足連歩越二等左右足各一發而升堂" in zhu.values()


def sound_notes(w: Witness) -> list[str]:
    """The text of each unit of the commentary's 音 notes, in file order."""
    found: dict[int, str] = {}
    for s in w.spans:
        if s.layer is Layer.COMMENTARY and s.passage == SOUND_NOTES:
            found[s.unit] = found.get(s.unit, "") + text_of(w, s)
    return list(found.values())


def test_sound_glosses_are_the_commentary_s_own_never_shiwen(ao: Witness) -> None:
    notes = sound_notes(ao)
    assert not units(ao, Layer.SHIWEN)
    assert notes[:3] == ["與音預", "縣音𤣥", "罍音雷"]
    assert "大音泰幂眉狄反" in notes
    # Every piece of small print is a note; a piece opening the next line goes on with it.
    pieces = re.findall(r"\(([^()]*)\)", ao.text)
    assert "".join(notes) == "".join(pieces).replace("/", "")
    assert len(notes) == len(pieces) - len(re.findall(r"\)¶\n\u3000?\(", ao.text))
    assert line_spans(ao, line_of(ao, "燕禮小臣戒與者"))[:3] == [
        ("燕禮小臣戒與者", Layer.JING, "text", None),
        ("(", Layer.MARKUP, "marker", "("),
        ("與音", Layer.COMMENTARY, "text", SOUND_NOTES),
    ]


def test_inline_note(ao: Witness) -> None:
    notes = [t for t in units(ao, Layer.NOTE).values() if t.startswith("案")]
    assert len(notes) == 5 and notes[0].startswith("案注知此賔席蒲筵緇布純者")


def test_corrections_are_notes_never_jing(ao: Witness) -> None:
    start = ao.text.index("正誤¶")
    after = [s for s in ao.spans if s.start > start + 2 and s.layer.is_text]
    assert {s.layer for s in after} == {Layer.NOTE}
    assert {s.label for s in after} == {"正誤"}
    entries = list(units(ao, Layer.NOTE).values())[-3:]
    assert [e[:8] for e in entries] == ["設洗于阼階東南諸", "騰觚于賔鄭本作媵", "士長升拜受觚主人"]
    assert entries[1] == "騰觚于賔鄭本作媵觚注云今文媵皆作騰繼公案騰字似優於媵觚宜悉從今文"
    assert not ao.layer_text(Layer.JING).endswith("有房中之樂士長升拜受觚主人拜送觚")


def test_text_layers_hold_no_markup(ao: Witness) -> None:
    assert markup_in_text(ao, "()/ \u3000\n<>¶") == []
    # ASCII in a text layer only inside a gaiji entity the container read as one character.
    entities = {i for sub in ao.substitutions for i in range(sub.start, sub.end)}
    assert entities
    for s in ao.spans:
        if s.layer.is_text:
            ascii_at = {s.start + m.start() for m in re.finditer(r"[\x00-\x7f]", text_of(ao, s))}
            assert ascii_at <= entities, text_of(ao, s)


def test_characters_per_layer(ao: Witness) -> None:
    counts = {layer: len(han(ao.layer_text(layer))) for layer in ao.layers()}
    assert counts[Layer.COMMENTARY] > counts[Layer.JING] > counts[Layer.ZHU] > counts[Layer.SHU] > 0
    assert counts[Layer.NOTE] > 0 and Layer.SHIWEN not in counts


def test_jing_against_the_zhengzhu_print(ao: Witness, zhengzhu: Witness) -> None:
    ours, theirs = folded(ao.layer_text(Layer.JING)), folded(zhengzhu.layer_text(Layer.JING))
    # The SBCK print lost two leaves (``# page missing``), about 300 characters of 經:
    # 3245 against 3031, ratio 95.6.
    assert 0 < len(ours) - len(theirs) <= 400
    assert fuzz.ratio(ours, theirs) >= 93
    assert fuzz.ratio(ours, folded(ao.layer_text(Layer.COMMENTARY))[: len(ours)]) < 50


def test_zhu_quotations_are_found_in_the_zhengzhu_print(ao: Witness, zhengzhu: Witness) -> None:
    zhu = folded(zhengzhu.layer_text(Layer.ZHU))
    quoted = [folded(t) for t in units(ao, Layer.ZHU, "text").values()]
    scores = [fuzz.partial_ratio(q, zhu) for q in quoted]
    # 敖繼公 quotes 鄭注 freely (abridged, reworded) and some quotations fall in the SBCK's
    # lost leaves: 84 quotations, 62 score 70 or more, 70 score 60 or more, median 100.
    assert len(quoted) == 84
    assert median(scores) >= 90
    assert sum(s >= 60 for s in scores) >= 0.8 * len(scores)
    # His own words are not 注: they score far lower.
    own = [folded(t) for t in units(ao, Layer.COMMENTARY, "text").values() if len(t) > 10]
    assert median(fuzz.partial_ratio(t, zhu) for t in own) < median(scores) - 30


def test_made_up_text(tmp_path: Path) -> None:
    text = (
        "欽定四庫全書\n　儀禮集說卷一　　元　敖繼公　撰\n士冠禮第一\n"
        "筮人許諾右還即席坐西面卦者在左卒筮書卦(還音/旋下)\n(同/)\n"
        "　注曰即就也\n"
        "　繼公謂筮人即席抽下韇乃釋之而坐筮也凡卜\n"
        "　筮于門者皆西面　案注云蓋如有司\n"
        "　　　　右筮日\n"
        "　　　　　此禮用醴\n　　　　　子而醮\n"
        "記冠義\n"
        "　此記也\n"
        "正誤\n筮人許諾\n　諸本皆云\n"
        "欽定四庫全書\n宗人告事畢\n"
    )
    w = synthetic(text, tmp_path, "jishuo-indent")
    assert w.layer_text(Layer.JING) == "筮人許諾右還即席坐西面卦者在左卒筮書卦冠義宗人告事畢"
    assert sound_notes(w) == ["還音旋下同"]
    assert w.layer_text(Layer.ZHU) == "注曰即就也"
    assert w.layer_text(Layer.NOTE) == "案注云蓋如有司筮人許諾諸本皆云"
    assert list(units(w, Layer.COMMENTARY).values()) == [
        "還音旋下同",
        "繼公謂筮人即席抽下韇乃釋之而坐筮也凡卜筮于門者皆西面",
        "此禮用醴子而醮",
        "此記也",
    ]
    assert "記" in w.layer_text(Layer.HEADING)


def test_author_notes_and_postscript(tmp_path: Path) -> None:
    text = (
        "司宫埽祭\n"
        "　注曰埽豆間之祭舊説云埋之西階東\n"
        "　繼公案舊說謂埋祭於西階東者據聘禮埋幣之處\n"
        "　而言也\n"
        "　案注云復平生時食\n"
        "　　　　右改設\n"
        "　儀禮集說卷十七\n"
        "正誤\n以羊鉶之柶扱羊鉶\n　鄭本扱作挹繼公案當從今文\n南面立於席西\n　鄭本無南面字\n"
        "禮古經十七篇其十三篇之後皆有記四篇則無之四\n"
        "篇者士相見大射少牢上下也(漢藝文志言禮經與/記各自爲篇)\n"
        "亦冝矣又何足怪焉大徳辛丑仲秋望日長樂敖繼公\n書\n"
    )
    w = synthetic(text, tmp_path, "jishuo-indent")
    # 繼公案 is the author speaking, as 繼公謂 is: it ends the 注 quotation.
    assert w.layer_text(Layer.ZHU) == "注曰埽豆間之祭舊説云埋之西階東"
    commentary = list(units(w, Layer.COMMENTARY).values())
    assert commentary[0] == "繼公案舊說謂埋祭於西階東者據聘禮埋幣之處而言也"
    # 案 opening a line where a passage may begin is a note, its indent the blank before it.
    notes = list(units(w, Layer.NOTE).values())
    assert notes[0] == "案注云復平生時食"
    # Two entries of 正誤 (lemma and notes), then the postscript: prose, not one entry a line.
    assert notes[1:] == ["以羊鉶之柶扱羊鉶鄭本扱作挹繼公案當從今文", "南面立於席西鄭本無南面字"]
    postscript = [s for s in w.spans if s.label == "跋"]
    assert {(s.layer, s.unit) for s in postscript} == {(Layer.COMMENTARY, postscript[0].unit)}
    assert commentary[-1].startswith("禮古經十七篇") and commentary[-1].endswith("敖繼公書")
    assert "漢藝文志言禮經與記各自爲篇" in commentary[-1]
    assert w.layer_text(Layer.JING) == "司宫埽祭"


def test_unbalanced_brackets_are_reported(tmp_path: Path) -> None:
    w = synthetic("筮人許諾(還音旋\n　注曰即)就也\n", tmp_path, "jishuo-indent")
    assert [(d.code, w.text[d.start]) for d in w.diagnostics] == [("unbalanced", "("), ("unbalanced", ")")]
    assert w.layer_text(Layer.ZHU) == "注曰即就也"


PIECES = ("(", ")", "/", "\u3000", "\u3000\u3000\u3000\u3000", "\n", "注曰", "疏曰", "繼公謂", "朱子曰", "\u3000案",
          "右", "記", "正誤", "欽定四庫全書", "儀禮集說卷六", "燕禮第六", "音", "反", "也", " ")  # fmt: skip


@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_any_text_is_partitioned(text: str) -> None:
    spans = READER.read(text, ReadOptions()).spans
    assert all(s.start < s.end for s in spans)
    assert all(a.end == b.start for a, b in pairwise(spans))
    assert "".join(text[s.start : s.end] for s in spans) == text
    for s in spans:
        if s.layer.is_text:
            assert not re.search(r"[()/ \u3000\n]", text[s.start : s.end])
