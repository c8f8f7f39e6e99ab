"""A compilation base with no work named: every quoted work collated against the witnesses that hold it.

五禮通考 卷163 quotes 禮記射義, 周禮 (春官, 夏官: 射人 among other offices), 詩, 論語, 孟子…; the
shared witnesses hold editions of 禮記·射義 and of 周禮·射人, and of chapters the juan does not
quote (儀禮·燕禮, 大戴禮記·投壺). Each is aligned with the articles it holds alone.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from builders import text_tokens
from conftest import SHARED, need_shared

from collate.align.holdings import Article, holdings, keys_of, masked
from collate.model import Layer
from collate.normalize import Normalizer
from collate.pipeline import collate_project
from collate.project import project_from_mapping
from collate.results import RunResult
from collate.views.run import coverage_lines

EDITIONS = {
    "SY": "liji-sheyi-zhushu-kanripo-WYG.txt",
    "ZT": "liji-sheyi-zuantu-huzhu-kanripo-SBCK.txt",
    "DS": "liji-zhengyi-danshu-sheyi-kanripo-SBCK.txt",
    "SR": "zhouli-zhushu-sheren-kanripo-WYG.txt",
    "YL": "yili-yanli-zhushu-kanripo-WYG.txt",
    "TH": "dadai-touhu-kanripo-SBCK.txt",
}


@pytest.fixture(scope="module")
def juan(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    shared = need_shared(SHARED)
    root = tmp_path_factory.mktemp("juan163")
    witnesses = [{"siglum": "WL", "path": str(shared / "witnesses" / "wuli-tongkao-juan163-kanripo-WYG.txt")}]
    witnesses += [{"siglum": s, "path": str(shared / "witnesses" / name)} for s, name in EDITIONS.items()]
    gaiji = str(shared / "data" / "kanripo-KR-Gaiji-charlist.org.txt")
    project = project_from_mapping({"base": "WL", "gaiji_table": gaiji, "witness": witnesses}, root=root)
    return collate_project(project)


def titles_of_readings(run: RunResult, siglum: str) -> set[str]:
    """The run-in titles of the base's articles where ``siglum`` has a variant reading."""
    from collate.align.holdings import articles

    found = articles(run.read.base)
    out = set()
    for result in run.collation.layers:
        for locus in result.loci:
            if not any(siglum in r.sigla for r in locus.variants()):
                continue
            tokens = result.alignment.base.within(locus.col_start, max(locus.col_end, locus.col_start + 1))
            for tok in tokens:
                out |= {a.title for a in found if a.start <= tok.start < a.end}
    return out


@pytest.mark.shared
def test_each_edition_is_collated_where_the_juan_quotes_its_chapter(juan: RunResult) -> None:
    covered = {w.title: dict(w.collated) for w in juan.coverage}
    assert {"SY", "ZT", "DS"} <= set(covered["禮記射義"])
    assert "SR" in covered["周禮夏官"] and covered["周禮夏官"]["SR"] >= 0.9 * max(covered["周禮夏官"].values())
    # Readings of the 射義 editions stand in 禮記 articles (or words of 射義 another title quotes:
    # 論語's 君子無所爭), never in 周禮 or 詩; those of the 周禮 edition in 周禮 articles.
    assert titles_of_readings(juan, "SY") and not any("周禮" in t or "詩" in t for t in titles_of_readings(juan, "SY"))
    assert titles_of_readings(juan, "SR") and all("官" in t for t in titles_of_readings(juan, "SR"))


@pytest.mark.shared
def test_a_witness_of_a_chapter_the_juan_does_not_quote_has_no_reading(juan: RunResult) -> None:
    for siglum in ("YL", "TH"):
        assert not any(siglum in r.sigla for x in juan.collation.loci() for r in x.variants()), siglum
        assert not any(siglum in dict(w.collated) for w in juan.coverage), siglum


@pytest.mark.shared
def test_a_work_no_witness_holds_is_listed_as_not_collated(juan: RunResult) -> None:
    lines = coverage_lines(juan)
    assert any(line.startswith("not collated: 詩小雅") and "(no witness)" in line for line in lines)
    assert any(line.startswith("禮記射義: ") and "SY (" in line for line in lines)


def spread(start: int, n: int) -> str:
    """``n`` ideographs no text shares with another's (from U+5000 + ``start``, seven apart)."""
    return "".join(chr(0x5000 + start + 7 * i) for i in range(n))


def test_an_article_is_held_by_its_text_not_its_title() -> None:
    """Two articles of a base; a witness holding the words of the first holds it alone, layer by layer."""
    nz = Normalizer()
    base_text = "射者仁之道也射求正諸己己正而后發發而不中則不怨勝己者詩云終日射侯不出正兮展我甥兮"
    cut = base_text.index("詩")
    base = text_tokens(base_text, nz, siglum="B")
    found = (Article("禮記射義", 0, cut), Article("詩齊風", cut, len(base_text)))
    wit = text_tokens("射者仁之道也射求正諸己己正而後發發而不中則不怨勝己者反求諸己而已矣", nz, siglum="W")
    held = holdings(found, {Layer.JING: base}, {"W": {Layer.JING: keys_of(wit)}})
    assert held["W"].layers[Layer.JING] == frozenset({0})
    assert masked(found, base, held["W"].layers[Layer.JING]) == ((cut, len(base_text)),)


def test_an_article_whose_words_differ_more_is_held_between_two_its_witness_holds() -> None:
    """大射 quoted passage after passage: a short 經 with 于 for 於 and 鍾 for 鐘 keeps under half its
    strings in the edition, and is held where the edition holds the passages on either side."""
    nz = Normalizer()

    first, middle, last = spread(0, 20), spread(300, 20), spread(600, 20)
    varied = middle[:6] + "甲" + middle[7:13] + "乙" + middle[14:]  # two words another way
    base = text_tokens(first + middle + last, nz, siglum="B")
    found = tuple(Article("儀禮大射", a, a + 20) for a in (0, 20, 40))
    wit = {"W": {Layer.JING: keys_of(text_tokens(first + varied + last, nz, siglum="W"))}}
    assert holdings(found, {Layer.JING: base}, wit)["W"].layers[Layer.JING] == frozenset({0, 1, 2})
    # With the passage after it gone from the witness, nothing says it goes on: not held.
    short = {"W": {Layer.JING: keys_of(text_tokens(first + varied, nz, siglum="W"))}}
    assert holdings(found, {Layer.JING: base}, short)["W"].layers[Layer.JING] == frozenset({0})


def test_the_engine_aligns_a_witness_with_what_it_holds_alone() -> None:
    """Masked base positions: the witness is not aligned there, and not extant there (no omission)."""
    from collate.align.engine import align_layer

    nz = Normalizer()
    base = text_tokens("君子之射也以爲諸侯之射也必先行燕禮", nz, siglum="B")
    # The witness reads the second half only; the first half, though it shares 之射也, is masked.
    wit = text_tokens("諸侯之射也必先行燕禮", nz, siglum="W")
    aligned = align_layer(Layer.JING, {"B": base, "W": wit}, "B", masks={"W": ((0, 7),)})
    extent = aligned.extent("W")
    for c, col in enumerate(aligned.columns):
        if col[0] is not None and col[0].index < 7:
            assert col[1] is None and not extent.covers(c)
    assert [col[1].t for col in aligned.columns if col[1] is not None] == list("諸侯之射也必先行燕禮")


def test_the_project_file_needs_no_work(tmp_path: Path) -> None:
    """Without `work`, a project of plain texts is unchanged: no compilation, no coverage lines."""
    (tmp_path / "a.txt").write_text("君子之射也\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("君子之射矣\n", encoding="utf-8")
    project = project_from_mapping(
        {"base": "A", "witness": [{"siglum": "A", "path": "a.txt"}, {"siglum": "B", "path": "b.txt"}]}, root=tmp_path
    )
    run = collate_project(project)
    assert run.coverage == () and coverage_lines(run) == []


def test_a_run_in_title_is_cited_as_book_and_chapter() -> None:
    from collate.compilation import work_title

    assert work_title("禮記射義") == "禮記·射義"
    assert work_title("周禮夏官") == "周禮·夏官"
    assert work_title("夏官") == "周禮·夏官"  # an office printed alone is of 周禮
    assert work_title("詩小雅") == "詩·小雅"
    assert work_title("論語") == "論語"


@pytest.mark.shared
def test_the_jiaokanji_is_headed_by_quoted_passage(juan: RunResult) -> None:
    from collate.exporters.jiaokanji import entries

    lines = list(entries(juan.collation, juan.read.by_siglum()))
    heads = [k for k, line in enumerate(lines) if line.startswith("《")]
    assert heads and heads[0] == 0  # the first entry comes under its passage's heading
    assert any(lines[k].startswith("《禮記·射義》「") for k in heads)
    assert all(not lines[k + 1].startswith("《") for k in heads)  # a heading only where entries follow
    assert not any(line.startswith("《詩·小雅》") for line in lines)  # no witness holds it: no entry


@pytest.mark.shared
def test_the_page_filters_the_passages_by_quoted_work(juan: RunResult) -> None:
    from lxml import html as lhtml

    from collate.exporters.html import build_html

    page = build_html(juan.collation, juan.read.base, witnesses=juan.read.by_siglum())
    doc = lhtml.fromstring(page.encode("utf-8"))
    boxes = doc.xpath("//fieldset[legend='出處']/label")
    labels = {label.get("title"): label.xpath("./input/@data-hide")[0] for label in boxes}
    assert {"禮記·射義", "詩·小雅", "周禮·夏官"} <= set(labels)
    assert len(labels) == len(boxes)  # 夏官 and 周禮夏官: one work, one box
    sheyi = labels["禮記·射義"]
    paragraphs = doc.xpath(f"//p[contains(concat(' ', @class, ' '), ' {sheyi} ')]")
    assert paragraphs and any("射者仁之道也" in p.text_content() for p in paragraphs)
    assert f".hide-{sheyi} .{sheyi} {{ display: none; }}" in doc.xpath("//style")[0].text


@pytest.mark.shared
def test_the_tei_names_the_source_of_each_quoted_passage(juan: RunResult, tei_schema: object) -> None:
    from builders import assert_valid
    from lxml import etree

    from collate.exporters.tei import build_tei, tei_bytes
    from collate.results import ExportInput

    tree = etree.ElementTree(etree.fromstring(tei_bytes(build_tei(ExportInput.of(juan)))))
    ns = {"tei": "http://www.tei-c.org/ns/1.0"}
    bibls = {
        f"#{b.get('{http://www.w3.org/XML/1998/namespace}id')}": "".join(b.itertext())
        for b in tree.xpath("//tei:standOff//tei:bibl", namespaces=ns)
    }
    cited = [bibls[d.get("source")] for d in tree.xpath("//tei:div[@source]", namespaces=ns)]
    assert "禮記·射義" in cited and "詩·小雅" in cited and "周禮·夏官" in cited
    assert_valid(tree, tei_schema)


@pytest.mark.shared
def test_a_passage_whose_text_is_another_works_is_said_and_the_text_decides(juan: RunResult) -> None:
    # 射義 quotes 論語's 君子無所爭…其爭也君子: the 論語 passage of the juan is held by the 射義 editions.
    lunyu = [d for d in juan.disagreements if d.article.title == "論語"]
    assert lunyu and lunyu[0].text_title == "禮記射義" and "SY" in lunyu[0].sigla
    assert not any(d.article.title == "禮記射義" for d in juan.disagreements)
    assert any("is titled 論語 but its text is 禮記射義's" in line for line in coverage_lines(juan))


@pytest.mark.shared
def test_a_project_may_name_several_works(juan: RunResult) -> None:
    """work = ["禮記射義", "周禮夏官"]: those works' passages alone, each against its editions."""
    from dataclasses import replace

    project = replace(juan.read.project, work=("禮記射義", "周禮夏官"))
    run = collate_project(project)
    assert run.coverage == ()  # works named: no compilation plan
    readers = {s for x in run.collation.loci() for r in x.variants() for s in r.sigla}
    assert {"SY", "SR"} <= readers


def test_work_is_a_name_or_a_list_of_names(tmp_path: Path) -> None:
    from collate.errors import ProjectError

    (tmp_path / "a.txt").write_text("君子之射也\n", encoding="utf-8")
    witnesses = [{"siglum": "A", "path": "a.txt"}]
    project = project_from_mapping({"base": "A", "work": ["禮記射義", "周禮夏官"], "witness": witnesses}, root=tmp_path)
    assert project.works == ("禮記射義", "周禮夏官")
    with pytest.raises(ProjectError, match="`work` must be a work's name or a list of them"):
        project_from_mapping({"base": "A", "work": 3, "witness": witnesses}, root=tmp_path)


def test_an_edition_of_another_chapter_of_the_book_holds_no_parallel_passage() -> None:
    """鄉射禮 repeats 鄉飲酒禮's formulas: an edition whose headings name 鄉射禮 is no source of 鄉飲酒禮."""
    from collate.align.holdings import Holding, without_parallels

    found = (Article("儀禮鄉飲酒禮", 0, 10), Article("論語", 10, 20), Article("禮記射義", 20, 30))
    held = {
        "XS": Holding("XS", {Layer.JING: frozenset({0})}),  # 鄉射禮: the parallel formula only
        "SY": Holding("SY", {Layer.JING: frozenset({1, 2})}),  # 射義, which quotes 論語
        "NN": Holding("NN", {Layer.JING: frozenset({0})}),  # names no chapter: the words decide
    }
    identities = {"XS": frozenset({("儀禮", "鄉射禮")}), "SY": frozenset({("禮記", "射義")})}
    kept = without_parallels(found, held, identities)
    assert kept["XS"].layers[Layer.JING] == frozenset()
    assert kept["SY"].layers[Layer.JING] == frozenset({1, 2})  # another book's title: the text decides
    assert kept["NN"].layers[Layer.JING] == frozenset({0})


def test_an_edition_of_another_book_holds_no_passage_an_edition_of_its_own_book_holds() -> None:
    """燕義 quotes 周禮's 諸子 article: where an edition of 周禮 holds 五禮通考's 周禮 passage too, the
    editions of 禮記 are parallels there; 射義's 論語, which no edition of 論語 holds, stays theirs."""
    from collate.align.holdings import Holding, without_parallels

    found = (Article("周禮夏官", 0, 10), Article("論語", 10, 20))
    held = {
        "ZL": Holding("ZL", {Layer.JING: frozenset({0}), Layer.ZHU: frozenset({0})}),  # 周禮 諸子
        "YY": Holding("YY", {Layer.JING: frozenset({0, 1})}),  # 燕義 (and a 論語 quotation)
        "NN": Holding("NN", {Layer.JING: frozenset({0})}),  # an edition of no book it names
    }
    identities = {"YY": frozenset({("禮記", "燕義")})}
    kept = without_parallels(found, held, identities, {"ZL": "周禮", "YY": "禮記", "NN": None})
    assert kept["YY"].layers[Layer.JING] == frozenset({1})
    assert kept["ZL"].layers == held["ZL"].layers and kept["NN"].layers == held["NN"].layers
    # Without an edition of 周禮 there, the words decide, as before.
    alone = without_parallels(found, {k: v for k, v in held.items() if k != "ZL"}, identities, {"YY": "禮記"})
    assert alone["YY"].layers[Layer.JING] == frozenset({0, 1})


def test_a_witness_is_an_edition_of_the_book_its_title_names(tmp_path: Path) -> None:
    from collate.readers import read_witness
    from collate.readers.titles import witness_book

    zhouli = tmp_path / "zhouli.txt"
    zhouli.write_text("#+TITLE: 周禮注疏\n<pb:KR1d0003_WYG_031-1a>¶\n諸子掌國子之倅¶\n", encoding="utf-8")
    assert witness_book(read_witness(zhouli)) == "周禮"
    plain = tmp_path / "plain.txt"
    plain.write_text("諸子掌國子之倅\n", encoding="utf-8")
    assert witness_book(read_witness(plain)) is None


def test_a_file_names_its_chapter_by_its_headings_or_by_the_edition_it_copies() -> None:
    from collate.align.holdings import borrowed_identities
    from collate.readers.titles import identity

    assert identity(("儀禮注疏", "儀禮注疏卷五", "鄉射禮第五"), "儀禮注疏") == {("儀禮", "鄉射禮")}
    assert identity(("=== 20 | 射義 ===",)) == {("禮記", "射義")}
    assert identity(("大戴禮記", "投壺", "第七十八"), "大戴禮記") == {("大戴禮記", "投壺")}  # not 禮記's
    text = "主人戒賓賓拜辱主人荅拜乃請賓賓禮辭許主人再拜賓荅拜"
    keys = {"ZS": {Layer.JING: text}, "EX": {Layer.JING: text[4:]}, "OT": {Layer.JING: "天子之射也以爲諸侯"}}
    named = borrowed_identities(keys, {"ZS": frozenset({("儀禮", "鄉射禮")})})
    assert named["EX"] == {("儀禮", "鄉射禮")}  # an excerpt cut below its heading: the edition it copies
    assert "OT" not in named or not named["OT"]


def test_a_layer_is_held_by_the_same_layer_of_a_witness() -> None:
    """A 鄉飲酒義 whose 疏 quotes the 鄉飲酒禮 holds no 經 of 鄉飲酒禮."""
    nz = Normalizer()
    jing = "主人戒賓賓拜辱主人荅拜乃請賓賓禮辭許主人再拜"
    base = text_tokens(jing, nz, siglum="B")
    found = (Article("儀禮鄉飲酒禮", 0, len(jing)),)
    quoting = {"Q": {Layer.SHU: keys_of(text_tokens("疏曰" + jing, nz, siglum="Q", layer=Layer.SHU))}}
    edition = {"E": {Layer.JING: keys_of(text_tokens(jing, nz, siglum="E"))}}
    assert holdings(found, {Layer.JING: base}, quoting)["Q"].layers[Layer.SHU] == frozenset()
    assert holdings(found, {Layer.JING: base}, edition)["E"].layers[Layer.JING] == frozenset({0})


def test_a_word_next_to_a_masked_passage_is_no_move() -> None:
    """A move the witness's absence cuts is told where the witness reads it: the 也 ending the base's
    sentence before another work's passage, matched with the moved passage's head, is no move."""
    from collate.align.engine import align_layer
    from collate.apparatus import build_layer
    from collate.model import ReadingClass

    nz = Normalizer()

    head, other, moved, tail, end = spread(0, 30), spread(300, 40), spread(600, 20), spread(900, 40), spread(1200, 30)
    base = text_tokens(head + "也" + other + moved + tail + end, nz, siglum="B")
    # The witness has the passage after the base's tail, headed by its own 也; 40 words of
    # another work between the base's 也 and the passage are masked for it.
    wit = text_tokens(head + tail + "也" + moved + end, nz, siglum="W")
    aligned = align_layer(Layer.JING, {"B": base, "W": wit}, "B", masks={"W": ((31, 71),)})
    assert any(t.base_start <= 30 and t.base_end >= 91 for t in aligned.transpositions)
    loci = build_layer(aligned, {}, nz).loci
    moves = [lo for lo in loci if lo.cls is ReadingClass.TRANSPOSITION]
    assert moves and all("也" not in "".join(t.t for t in lo.lemma.tokens) for lo in moves)
    assert "".join(t.t for lo in moves for t in lo.lemma.tokens) == moved


def test_a_passage_a_witness_agrees_with_in_less_than_half_is_none_it_holds() -> None:
    """擯者以命升賓 held by the formula alone: the witness's words aligned there are no readings."""
    from builders import align_rows

    from collate.compilation import unread_passages

    rows = {"B": "主人獻大夫大夫皆升就席擯者司正也", "W": "主人獻大夫大夫皆升就席胥宰官之吏"}
    alignment, _ = align_rows(rows)
    found = (Article("儀禮大射", 0, 11), Article("儀禮大射", 11, 16))
    read = unread_passages(alignment, found)
    extent = read.extent("W")
    assert [extent.covers(c) for c in (0, 10)] == [True, True]
    assert not any(extent.covers(c) for c in range(11, 16))
    # A passage it reads with a word or two otherwise is its own.
    near = {"B": rows["B"], "W": "主人獻大夫大夫皆升就席擯者司政也"}
    same, _ = align_rows(near)
    assert unread_passages(same, found) is same


def test_a_witness_commentary_on_the_title_is_not_collated_where_the_base_has_none() -> None:
    """The 四庫 注疏 moves the 篇題 notes to its table of contents: the 纂圖's 陸曰 after the title and the
    單疏本's 疏 on the title have nothing to be set against."""
    from builders import layered

    from collate.compilation import title_noted, without_title_notes

    base = layered("B", [(Layer.HEADING, "冠義"), (Layer.JING, "冠者禮之始也"), (Layer.ZHU, "始猶根也")])
    zuantu = layered(
        "T",
        [
            (Layer.HEADING, "冠義第四十三"),
            (Layer.SHIWEN, "陸曰鄭云冠義者"),
            (Layer.JING, "冠者禮之始也"),
            (Layer.ZHU, "始猶根也"),
        ],
    )
    kept = without_title_notes(zuantu, title_noted(base))
    assert kept.layer_text(Layer.SHIWEN) == "" and kept.layer_text(Layer.JING) == "冠者禮之始也"
    danshu = layered(
        "D", [(Layer.HEADING, "冠義第四十三"), (Layer.SHU, "案鄭目録云"), (Layer.MARKUP, "　"), (Layer.SHU, "此一節")]
    )
    assert without_title_notes(danshu, title_noted(base)).layer_text(Layer.SHU) == "此一節"
    # A base with its own note on the title keeps the witness's; an excerpt opening inside a 注 has none.
    noted = layered("N", [(Layer.HEADING, "冠義"), (Layer.SHIWEN, "陸曰"), (Layer.JING, "冠者禮之始也")])
    assert without_title_notes(zuantu, title_noted(noted)) is zuantu
    excerpt = layered("E", [(Layer.ZHU, "猶根也"), (Layer.JING, "冠者禮之始也")])
    assert without_title_notes(excerpt, title_noted(base)) is excerpt
