"""A book's HTML in parts (collate/exporters/html/book.py, parts.py, contents.py, search.py).

The book is made here as bench/bench_book.py makes its books, smaller: seed 000's body three times
(each copy lightly edited), two witnesses edited from it (one in traditional characters) and the
大戴禮 readings. The bounds of a part
are lowered for the test (monkeypatched), so that three copies of 9,500 characters make a book.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import opencc
import pytest
from builders import has_class, parse
from conftest import REPO

import collate.exporters.html.parts as parts
from collate.errors import ExportError
from collate.exporters import get_exporter, is_part, part_name, part_stem
from collate.exporters.html import run_html
from collate.exporters.html.common import el
from collate.exporters.html.contents import BOOK_SCRIPTS, BOOK_STYLES
from collate.exporters.html.page import SCRIPTS, asset
from collate.exporters.html.text import Block
from collate.model import Layer
from collate.normalize.tokenize import is_token_char
from collate.pipeline import collate_project
from collate.project import load_project
from collate.results import ExportInput, RunResult
from collate.runs.manifest import MANIFEST, read_manifest, sha256_of
from collate.runs.outputs import export_outputs, recover, write_outputs

SEED = REPO / "seeds" / "000_2cc6d19ca27bf473.txt"
READINGS = REPO / "witnesses" / "dadai-readings.toml"
CJK = re.compile(r"[\u4e00-\u9fff]")
# The characters the siku-wltk layout reads as markers: never edited, so every copy keeps its layers.
MARKERS = set("蕙田案注疏右")
PROJECT = """title = "投壺 ×3"
name = "book"
base = "A"
work = "投壺"

[[witness]]
siglum = "A"
label = "甲本"
path = "A.txt"
layout = "siku-wltk"

[[witness]]
siglum = "B"
label = "乙本"
path = "B.txt"
layout = "siku-wltk"

[[witness]]
siglum = "C"
label = "丙本"
path = "C.txt"
layout = "siku-wltk"

[[witness]]
siglum = "DD"
label = "大戴禮"
path = "dadai.toml"
layout = "readings"

[notes.lexicon]
"大戴礼" = "DD"
"""


def edited(text: str, rate: float, rng: random.Random) -> str:
    """``text`` with about ``rate`` of its characters (not markers) replaced by others of it, or left out."""
    chars = list(text)
    places = [m.start() for m in CJK.finditer(text) if m.group() not in MARKERS]
    pool = [text[i] for i in places]
    for i in rng.sample(places, round(len(places) * rate)):
        chars[i] = rng.choice(pool) if rng.random() < 0.7 else ""
    return "".join(chars)


def write_book(folder: Path, copies: int = 3) -> Path:
    """A project of seed 000's body ``copies`` times in three witnesses, with the readings; its file."""
    lines = SEED.read_text(encoding="utf-8").splitlines(keepends=True)
    end = len(lines)
    while lines[end - 1].strip("\u3000 \n") in {"", "五礼通考卷一百六十五"}:
        end -= 1
    head, body, tail = "".join(lines[:4]), "".join(lines[4:end]), "".join(lines[end:])
    rng = random.Random(3)
    base = head + "".join(edited(body, 0.003, rng) if k else body for k in range(copies)) + tail
    # One witness in traditional characters, as the bench's: the page's fold table then has pairs (壺 壶).
    traditional = str(opencc.OpenCC("s2t").convert(edited(base, 0.02, rng)))
    for siglum, text in (("A", base), ("B", edited(base, 0.01, rng)), ("C", traditional)):
        (folder / f"{siglum}.txt").write_text(text, encoding="utf-8")
    readings = READINGS.read_text(encoding="utf-8")
    first = readings.index("[[reading]]")
    entries = readings[first:].rstrip("\n") + "\n"
    (folder / "dadai.toml").write_text(readings[:first] + "\n".join([entries] * copies), encoding="utf-8")
    (folder / "collate.toml").write_text(PROJECT, encoding="utf-8")
    return folder / "collate.toml"


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, RunResult]:
    """The book's project file and its run."""
    config = write_book(tmp_path_factory.mktemp("book"))
    return config, collate_project(load_project(config))


def bounds(monkeypatch: pytest.MonkeyPatch, chars: int = 12_000, loci: int = 400) -> None:
    """A part of up to ``chars`` characters and ``loci`` loci; a book from a third of that."""
    monkeypatch.setattr(parts, "PART_CHARS", chars)
    monkeypatch.setattr(parts, "PART_LOCI", loci)
    monkeypatch.setattr(parts, "ONE_PAGE_CHARS", chars // 3)
    monkeypatch.setattr(parts, "ONE_PAGE_LOCI", loci // 3)


# What every part has alike, written once beside them: the stylesheet (the index's too) and the scripts.
SHARED = ("book.part-000.css", "book.part-000.js")


def pages(out: Path) -> list[Path]:
    """The parts' pages in ``out``, in order."""
    return sorted(p for p in out.iterdir() if is_part(p.name) and p.suffix == ".html")


def search_data(path: Path) -> Any:
    """What a part's search script assigns: its JSON, the assignment taken off."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("(window.collateSearch = window.collateSearch || {})[")
    return json.loads(text[text.index("= {") + 2 : text.rindex(";")])


def base_text(run: RunResult) -> str:
    """The base's text and headings: what the parts hold between them, each character once (the printed
    markers, 注 疏, left out as the search leaves them out)."""
    base = run.read.base
    return "".join(base.text[s.start : s.end] for s in base.spans if s.layer.is_text or s.layer is Layer.HEADING)


def entries(doc: Any) -> list[str]:
    """The 校勘記's numbered entries, in order: their locus ids."""
    return [
        str(x) for x in doc.xpath(f"//section[@id='jkj']//li[{has_class('e')} and not({has_class('x')})]/@data-locus")
    ]


@pytest.fixture(scope="module")
def written(book: tuple[Path, RunResult], tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The book's HTML written as a set with a part of up to 12,000 characters: a part a copy of the body.

    Read, never changed, by the tests that take it.
    """
    out = tmp_path_factory.mktemp("written") / "output"
    with pytest.MonkeyPatch.context() as patch:
        bounds(patch)
        write_outputs(book[1], out, ["html"])
    yield out


def test_a_book_is_written_in_parts_with_the_set(written: Path) -> None:
    manifest = read_manifest(written)
    found = pages(written)
    assert [p.name for p in found] == [part_name("book", k, ".html") for k in (1, 2, 3)]
    names = {p.name for p in found} | {p.with_suffix(".js").name for p in found} | set(SHARED)
    assert names <= manifest.outputs.keys()
    for name in names | {"book.html"}:
        assert manifest.outputs[name] == sha256_of(written / name)
    assert not [p for p in written.iterdir() if p.name.startswith(".") and p.name != ".collate"]


def test_each_part_stands_alone_but_for_what_the_parts_share(written: Path) -> None:
    for k, page in enumerate(pages(written), 1):
        doc = parse(page.read_text(encoding="utf-8"))
        assert not doc.xpath("//style | //script[not(@src)] | //img | //iframe")
        assert doc.xpath("//link[@rel='stylesheet']/@href") == [SHARED[0]] and doc.xpath("//script/@src") == [SHARED[1]]
        assert doc.xpath("//body/@data-part") == [str(k)] and doc.xpath("//body/@data-parts") == ["3"]
        assert doc.xpath("//section[@id='view-text']/*") and doc.xpath("//section[@id='view-syn']//table")
        links = doc.xpath("//nav[@class='book-nav']//a/@href")
        assert "book.html" in links and all((written / link).is_file() for link in links)
        # Each locus of the part has its panel; every mark opens one of them.
        details = set(doc.xpath("//div[@id='details']/section/@data-locus"))
        marks = set(doc.xpath(f"//section[@id='view-text']//span[{has_class('v')}]/@data-locus"))
        assert marks and marks <= details


def test_the_parts_share_one_stylesheet_and_one_script(written: Path) -> None:
    """What every part has alike is written once, beside them, and loaded by its relative name: the
    folder is the book, opened from disk with no network. The index links the same stylesheet, and
    inlines its own scripts (not the parts': it has no text to search)."""
    css = (written / SHARED[0]).read_text(encoding="utf-8")
    assert css.startswith('@charset "utf-8";\n') and all(asset(name) in css for name in BOOK_STYLES)
    script = (written / SHARED[1]).read_text(encoding="utf-8")
    assert script == "\n".join(asset(name) for name in (*SCRIPTS, *BOOK_SCRIPTS)) + "\n"
    index = parse((written / "book.html").read_text(encoding="utf-8"))
    assert index.xpath("//link[@rel='stylesheet']/@href") == [SHARED[0]] and not index.xpath("//style")
    assert not index.xpath("//script[@src]") and asset("book-search.js") in index.xpath("string(//script)")
    for page in [written / "book.html", *pages(written)]:
        doc = parse(page.read_text(encoding="utf-8"))
        files = {str(x).partition("#")[0] for x in doc.xpath("//@href | //@src")} - {""}
        assert files and all((written / name).is_file() for name in files), page.name


def test_the_shared_files_are_named_as_parts() -> None:
    assert [part_stem(name) for name in SHARED] == ["book", "book"]
    assert part_name("book", 0, ".css") == SHARED[0] and is_part(SHARED[0], "book")
    assert not is_part("book.css") and not is_part("book.part-000.png") and not is_part(SHARED[0], "other")


def test_every_locus_is_in_one_part_and_numbered_as_in_the_book(book: tuple[Path, RunResult], written: Path) -> None:
    whole = parse(run_html(ExportInput.of(book[1])))
    folded = set(whole.xpath(f"//section[@id='jkj']//li[{has_class('c-orthographic')}]/@data-locus"))
    seen: list[str] = []
    numbered: list[str] = []
    for page in pages(written):
        doc = parse(page.read_text(encoding="utf-8"))
        start = len(set(numbered) - folded)  # the print numbers what the filters show: 異體 not, as the page opens
        assert doc.xpath("//body/@style") == [f"counter-reset: jkj {start} jkj-e {start}"]
        before = json.loads(doc.xpath("//body/@data-before")[0])
        assert sum(n for _, _, n in before) == len(numbered)
        mine = entries(doc)
        marks = doc.xpath(f"//section[@id='view-text']//span[{has_class('n')}]/@data-locus")
        assert mine == marks  # the text numbers its loci in the order its 校勘記 lists them
        numbered += mine
        seen += doc.xpath("//div[@id='details']/section/@data-locus")
    assert numbered == entries(whole)
    assert sorted(seen) == sorted(whole.xpath("//div[@id='details']/section/@data-locus"))
    assert len(seen) == len(set(seen))


def test_the_search_data_covers_every_part(book: tuple[Path, RunResult], written: Path) -> None:
    texts = []
    for k, page in enumerate(pages(written), 1):
        doc = parse(page.read_text(encoding="utf-8"))
        data = search_data(page.with_suffix(".js"))
        assert search_data(page.with_suffix(".js")) and page.with_suffix(".js").name == part_name("book", k, ".js")
        assert [b[0] for b in data["blocks"]] == doc.xpath("//section[@id='view-text']/*/@id")
        assert {x[0] for x in data["loci"]} == set(doc.xpath("//div[@id='details']/section/@data-locus"))
        assert data["title"].startswith("礼记投壶") and data["pages"].startswith("頁")
        texts.append("".join(b[1] for b in data["blocks"]))
    assert CJK.findall("".join(texts)) == CJK.findall(base_text(book[1]))
    # Every page carries the book's fold table (壺 is searched as 壶, as the collation compared them).
    index = parse((written / "book.html").read_text(encoding="utf-8"))
    fold = index.xpath("//input[@id='q']/@data-fold")[0]
    assert dict(zip(fold[::2], fold[1::2], strict=True)).get("壺") == "壶"


def test_the_search_data_says_what_each_filter_hides(written: Path) -> None:
    """Each block's runs of layer (and quoted work) and each locus's filter classes, for the book's search."""
    mixed = 0
    for page in pages(written):
        data = search_data(page.with_suffix(".js"))
        table = data["hides"]
        assert len(set(table)) == len(table)  # each set of classes written once
        for _, text, flat in data["blocks"]:
            runs = list(zip(flat[::2], (table[k] for k in flat[1::2]), strict=True))
            offsets = [at for at, _ in runs]
            assert offsets == sorted(set(offsets)) and (not text or offsets[0] == 0) and offsets[-1] <= len(text)
            assert all(re.fullmatch(r"((l-[a-z_]+|w-[0-9]+)( |$))*", names) for _, names in runs)
            mixed += len({names for _, names in runs}) > 1
        for locus_id, _, _, _, k in data["loci"]:
            names = table[k].split()
            assert f"l-{locus_id.split('-')[0]}" in names and any(n.startswith("c-") for n in names)
    assert mixed  # a paragraph of 經 with its 注 inside: two layers in one block


def test_the_index_lists_the_parts(written: Path) -> None:
    doc = parse((written / "book.html").read_text(encoding="utf-8"))
    rows = doc.xpath("//table[@class='toc-table']/tbody/tr")
    assert [r.xpath("./td/a/@href")[0] for r in rows] == [p.name for p in pages(written)]
    assert all(r.xpath("string(./td[@class='heads'])").startswith("礼记投壶") for r in rows)
    assert doc.xpath("//body/@data-part") == ["0"] and not doc.xpath("//section[@id='view-text']")
    counts = {x.get("data-hide"): x.getparent().xpath("string(./span[@class='n'])") for x in doc.xpath("//input")}
    whole = sum(int(n) for key, n in counts.items() if key and key.startswith("c-"))
    assert whole == sum(len(search_data(p.with_suffix(".js"))["loci"]) for p in pages(written))


def test_the_index_counts_each_parts_characters_of_the_base(book: tuple[Path, RunResult], written: Path) -> None:
    """字數: the base's characters in the part (as a token counts them), not what its page prints beside them."""
    doc = parse((written / "book.html").read_text(encoding="utf-8"))
    rows = doc.xpath("//table[@class='toc-table']/tbody/tr")
    counted = [int(r.xpath("string(./td[4])").removesuffix(" 字").replace(",", "")) for r in rows]
    assert sum(counted) == sum(1 for char in base_text(book[1]) if is_token_char(char))
    # Each part's count is the characters of its own text, which its search data holds.
    for n, page in zip(counted, pages(written), strict=True):
        held = "".join(block[1] for block in search_data(page.with_suffix(".js"))["blocks"])
        assert n == sum(1 for char in held if is_token_char(char))


def test_the_jump_lists_a_parts_own_pages_and_leads_to_the_others(written: Path) -> None:
    index = parse((written / "book.html").read_text(encoding="utf-8"))
    for select in index.xpath("//select[@data-for]"):
        # Every page of the book, the part it is in marked where it changes.
        assert [int(x) for x in select.xpath("./option/@data-part")] == [1, 2, 3]
    doc = parse(pages(written)[1].read_text(encoding="utf-8"))
    own: set[str] = set()
    for select in doc.xpath("//select[@data-for]"):
        others = [o for o in select.xpath("./option") if o.get("data-part") != "2"]
        assert [o.get("data-part") for o in others] == ["1", "3"]
        assert all(o.text.startswith(f"第{o.get('data-part')}部分（") for o in others)
        own.update(select.xpath("./option[@data-part='2']/@value"))
    drawn = set(doc.xpath("//section[@id='view-text']//@data-page"))
    assert drawn and drawn <= own


def test_a_smaller_set_removes_the_parts_it_has_no_more(
    book: tuple[Path, RunResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "output"
    bounds(monkeypatch, chars=4_000, loci=150)
    write_outputs(book[1], out, ["html"])
    many = len(pages(out))
    assert many > 3
    bounds(monkeypatch)
    write_outputs(book[1], out, ["html"])
    assert len(pages(out)) == 3 and not (out / part_name("book", 4, ".js")).exists()
    assert sorted(n for n in read_manifest(out).outputs if is_part(n)) == sorted(
        [*SHARED, *(n for p in pages(out) for n in (p.name, p.with_suffix(".js").name))]
    )
    # Again in more parts, the HTML alone (`collate export --format html`); then fewer, alone again.
    bounds(monkeypatch, chars=4_000, loci=150)
    export_outputs(out, ["html"], force=True)
    assert len(pages(out)) == many
    bounds(monkeypatch)
    export_outputs(out, ["html"], force=True)
    assert len(pages(out)) == 3
    assert set(read_manifest(out).outputs) == {p.name for p in out.iterdir() if p.is_file()}


def test_a_set_of_one_page_removes_every_part_the_shared_files_too(
    book: tuple[Path, RunResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "output"
    for alone in (False, True):  # with the set, then the HTML alone (`collate export --format html`)
        bounds(monkeypatch)
        write_outputs(book[1], out, ["html"])
        assert len(pages(out)) == 3 and all((out / name).is_file() for name in SHARED)
        bounds(monkeypatch, chars=10**7, loci=10**6)
        if alone:
            export_outputs(out, ["html"], force=True)
        else:
            write_outputs(book[1], out, ["html"])
        assert not [p.name for p in out.iterdir() if is_part(p.name)]
        assert set(read_manifest(out).outputs) == {p.name for p in out.iterdir() if p.is_file()} == {"book.html"}


def test_export_finds_the_parts_current_or_writes_them_again(
    book: tuple[Path, RunResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bounds(monkeypatch)
    written = tmp_path / "output"
    write_outputs(book[1], written, ["html", "jiaokanji"])
    assert not export_outputs(written, ["html"]).written
    (written / part_name("book", 2, ".js")).unlink()
    assert export_outputs(written, ["html"]).written
    assert (written / part_name("book", 2, ".js")).is_file()
    (written / SHARED[0]).unlink()
    assert export_outputs(written, ["html"]).written
    assert (written / SHARED[0]).is_file()
    style = written / SHARED[0]
    rules = style.read_text(encoding="utf-8")
    style.write_text(rules + "edited", encoding="utf-8")
    with pytest.raises(ExportError, match=r"book\.part-000\.css"):
        export_outputs(written, ["jiaokanji"])
    style.write_text(rules, encoding="utf-8")
    page = written / part_name("book", 3, ".html")
    page.write_text(page.read_text(encoding="utf-8") + "edited", encoding="utf-8")
    with pytest.raises(ExportError, match=r"book\.part-003\.html"):
        export_outputs(written, ["jiaokanji"])


class Killed(BaseException):
    """Stands for SIGKILL while the set moves into place."""


def test_a_kill_before_the_manifest_leaves_the_stale_parts_to_the_next_writer(
    book: tuple[Path, RunResult], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "output"
    bounds(monkeypatch, chars=4_000, loci=150)
    write_outputs(book[1], out, ["html"])
    bounds(monkeypatch)
    real = os.replace

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        if Path(dst) == out / MANIFEST:
            raise Killed
        real(src, dst)

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", replace)
        with pytest.raises(Killed):
            write_outputs(book[1], out, ["html"])
    assert len(pages(out)) == 3  # the stale parts went before the manifest, which names them still
    recover(out)
    manifest = read_manifest(out)
    assert {p.name for p in pages(out)} == {n for n in manifest.outputs if n.endswith(".html") and is_part(n)}
    assert all(sha256_of(out / name) == digest for name, digest in manifest.outputs.items())


def test_below_the_bounds_the_page_is_the_one_page(book: tuple[Path, RunResult], tmp_path: Path) -> None:
    data = ExportInput.of(book[1])
    path = tmp_path / "book.html"
    assert get_exporter("html").write(data, path) is None
    assert path.read_text(encoding="utf-8") == run_html(data)
    assert [p.name for p in tmp_path.iterdir()] == ["book.html"]


def test_a_paragraph_longer_than_a_part_is_cut_between_its_units(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 注疏 print with no heading and no commentator is one paragraph: cut where a part must end, and
    whole again wherever its pieces stay together."""
    monkeypatch.setattr(parts, "PART_CHARS", 100)
    monkeypatch.setattr(parts, "PART_LOCI", 50)
    para = el("p", {"class": "para"}, "序")
    units = {}
    for k in range(40):  # forty units of eight or nine characters, a locus in every other one
        mark = el("span", {"class": "v c-substantive", "data-locus": f"jing-{k}"}, "經") if k % 2 else None
        unit = el(
            "span",
            {"class": "u"},
            el("span", {"class": "uj"}, f"{k:02d}經文", mark),
            el("span", {"class": "uc"}, "注文注"),
        )
        para.append(unit)
        unit.tail = "。"
        units[unit] = 100 * k
    text = "".join(para.itertext())
    blocks, weights, origin = parts.cut_paragraphs([Block(para, 0, "title", units)])
    assert len(blocks) > 1 and all(b.element.get("class") == "para" for b in blocks)
    assert [b.start for b in blocks] == sorted(b.start for b in blocks)
    ranges = parts.divide([b.kind for b in blocks], weights)
    # 341 characters in parts of up to 100, each ended between two units.
    assert len(ranges) == 4 and all(sum(weights[i].chars for i in r) <= 100 for r in ranges)
    rejoined = [parts.rejoin([blocks[i] for i in r], origin) for r in ranges]
    assert all(len(group) == 1 for group in rejoined)  # one paragraph a part
    assert "".join("".join(group[0].element.itertext()) for group in rejoined) == text


def test_the_parts_are_divisions_small_ones_merged_long_ones_cut() -> None:
    w = parts.Weight
    kinds = ["front", "title", "para", "close", "para", "title", "para", "title", "para", "para", "para"]
    weights = [w((), 10), w(("a",), 1_000), w(("b", "c"), 30_000), w((), 5), w((), 100)]
    weights += [w(("d",), 20_000), w(("e",), 100), w(("f",), 25_000), w(("f", "g"), 25_000), w(("h",), 25_000)]
    weights += [w(("i",), 1_000)]
    # The front and the close join their neighbours; the last division is cut, but not inside f.
    assert parts.divide(kinds, weights) == [range(0, 5), range(5, 7), range(7, 9), range(9, 11)]


# --- In a browser: the search of every part, a hit followed, a page of another part ------------------

# Debian's chromium and chromium-driver, as CI installs them (found on the PATH where they are).
CHROMIUM = Path(shutil.which("chromium") or "/usr/bin/chromium")
CHROMEDRIVER = Path(shutil.which("chromedriver") or "/usr/bin/chromedriver")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium (Debian's, as tests/test_html_browser.py drives it) with a fresh profile."""
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("chromium and chromium-driver (Debian packages) are not installed")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--window-size=1300,1000"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def shot(driver: Any, tmp_path: Path, name: str) -> None:
    """A screenshot in tmp_path, and in $COLLATE_SCREENSHOT_DIR if it is set."""
    path = tmp_path / name
    assert driver.save_screenshot(str(path)) and path.stat().st_size > 10_000
    folder = os.environ.get("COLLATE_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(path.read_bytes())


@pytest.mark.slow
def test_in_a_browser_the_index_searches_every_part_and_leads_to_the_hit(
    browser: Any, written: Path, tmp_path: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    wait = WebDriverWait(browser, 60)
    browser.get((written / "book.html").as_uri())
    browser.get_log("browser")
    # The shared stylesheet, a file beside the page, applies.
    assert browser.execute_script("return getComputedStyle(document.querySelector('.bar')).position") == "sticky"
    browser.find_element(By.ID, "q").send_keys("壺")  # the base prints 壶: found folded, as the collation compares
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#book-hits .sum"))
    listed = browser.find_elements(By.CSS_SELECTOR, "#book-hits .book-parts > li")
    assert len(listed) == 3
    total = sum(int(li.find_element(By.CSS_SELECTOR, ".n").text.split()[0]) for li in listed)
    assert browser.find_element(By.ID, "q-count").text == str(total)
    # A layer switched off takes its hits out of the list, as the page's own search leaves them out.
    zhu = browser.find_element(By.CSS_SELECTOR, "input[data-hide='l-zhu']")
    browser.execute_script("arguments[0].click()", zhu)
    wait.until(lambda d: d.find_element(By.ID, "q-count").text != str(total))
    assert 0 < int(browser.find_element(By.ID, "q-count").text) < total
    browser.execute_script("arguments[0].click()", zhu)
    wait.until(lambda d: d.find_element(By.ID, "q-count").text == str(total))
    shot(browser, tmp_path, "book-index-search.png")
    listed = browser.find_elements(By.CSS_SELECTOR, "#book-hits .book-parts > li")  # listed again
    hit = listed[1].find_elements(By.CSS_SELECTOR, ".hits a")[2]  # the third hit of the second part
    assert "~" in hit.get_attribute("href")
    hit.click()
    wait.until(lambda d: "book.part-002.html" in d.current_url)
    wait.until(lambda d: d.find_element(By.ID, "q-count").text.startswith("3/"))
    assert browser.execute_script("return getComputedStyle(document.querySelector('.bar')).position") == "sticky"
    shot(browser, tmp_path, "book-part-hit.png")
    # A page of another witness in the third part: the jump opens that part there.
    Select(browser.find_element(By.ID, "jump-w")).select_by_value("C")
    pages = browser.find_element(By.CSS_SELECTOR, 'select.jump-p[data-for="C"]')
    last = pages.find_elements(By.TAG_NAME, "option")[-1].get_attribute("value")
    Select(pages).select_by_value(last)
    wait.until(lambda d: "book.part-003.html" in d.current_url)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, f'.here[data-page="{last}"]'))
    # The whole book's search from a part: its list, each part a link.
    browser.find_element(By.ID, "q").send_keys("壺")
    browser.find_element(By.ID, "q-book").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#book-hits .book-parts > li"))
    assert browser.find_element(By.ID, "book-hits").is_displayed()
    assert len(browser.find_elements(By.CSS_SELECTOR, "#book-hits .book-parts > li")) == 3
    shot(browser, tmp_path, "book-part-search.png")
    assert [e["message"] for e in browser.get_log("browser") if e["level"] == "SEVERE"] == []
