"""The HTML view in a real browser: headless Chromium (Debian's) driven by Selenium.

The page of the default project is opened from disk, at 1400 px (a laptop) and at 420 px (a
phone): a click on a variant must show every witness's reading, next to the locus on a
phone; search must find and step; a witness switched off must leave the text; the address
must follow the locus shown (Back steps back); the side-by-side view must set a 注 beside its
經; the filters, tabs and keys must work, and a witness reading ``<script>`` must stay text.
Screenshots go to pytest's tmp_path, and also to ``$COLLATE_SCREENSHOT_DIR`` when it is set.
Skipped (with the reason) where Chromium, its driver or Selenium is missing.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from builders import align_rows, run_default_project

from collate.apparatus import Collation, Locus, ReadingClass, WitnessInfo, build_layer
from collate.exporters.html import build_html, display_class, run_html, shown_loci
from collate.exporters.html.common import place
from collate.results import ExportInput, RunResult

pytestmark = pytest.mark.slow

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path(shutil.which("chromedriver") or "/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1400,900",
)

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
if not CHROMEDRIVER.exists():
    pytest.skip(f"{CHROMEDRIVER} is not installed (Debian package chromium-driver)", allow_module_level=True)

from selenium.common.exceptions import JavascriptException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

WIDE, NARROW = 1400, 420
# How long to wait for the page to show something before calling it missing: long, since a loaded
# machine is slow, not wrong (each wait ends as soon as the thing shows).
PATIENCE = 120


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Headless Chromium with a fresh profile, fetching nothing from the network."""
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = webdriver.ChromeService(executable_path=str(CHROMEDRIVER))
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(300)
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def run() -> RunResult:
    return run_default_project()


@pytest.fixture(scope="module")
def page(run: RunResult, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("html") / "touhu.html"
    path.write_text(run_html(ExportInput.of(run)), encoding="utf-8")
    return path


def screenshot(driver: Any, tmp_path: Path, name: str) -> Path:
    """Save a screenshot in tmp_path (and in $COLLATE_SCREENSHOT_DIR, if set)."""
    path = tmp_path / name
    assert driver.save_screenshot(str(path))
    folder = os.environ.get("COLLATE_SCREENSHOT_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, Path(folder) / name)
    assert path.stat().st_size > 10_000  # a real picture, not an empty page
    return path


def open_page(driver: Any, path: Path) -> None:
    driver.get(path.as_uri())
    driver.get_log("browser")  # start each test with an empty console


def console_errors(driver: Any) -> list[str]:
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def panel_text(driver: Any) -> str:
    return str(driver.find_element(By.ID, "panel-body").text)


def a_locus(run: RunResult, siglum: str, text: str) -> Locus:
    collation: Collation = run.collation
    return next(x for r in collation.layers for x in shown_loci(r) if (rd := x.reading_of(siglum)) and rd.text == text)


@contextmanager
def width(driver: Any, pixels: int, height: int = 860) -> Iterator[None]:
    """The page's viewport ``pixels`` wide (as a phone's would be), for the block."""
    metrics = {"width": pixels, "height": height, "deviceScaleFactor": 1, "mobile": False}
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        yield
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def rect(driver: Any, element: Any) -> dict[str, float]:
    """Where an element is in the viewport (CSS pixels)."""
    found: dict[str, float] = driver.execute_script("return arguments[0].getBoundingClientRect().toJSON()", element)
    return found


def viewport(driver: Any) -> tuple[float, float]:
    """The viewport's width and height."""
    size: list[float] = driver.execute_script("return [innerWidth, innerHeight]")
    return size[0], size[1]


def shown_locus(driver: Any) -> str:
    """The id of the locus the panel shows ('' for the overview)."""
    return "".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, "#panel-body .lid"))


def search_count(driver: Any) -> str:
    """What the search box says of its hits (``3/95``)."""
    return str(driver.find_element(By.ID, "q-count").text)


def test_click_on_a_variant_shows_every_reading(browser: Any, run: RunResult, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    screenshot(browser, tmp_path, "html-text.png")
    locus = a_locus(run, "ZS", "盤")  # 注疏本 reads 盤 where 四庫本 reads 般
    mark = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{locus.id}"]')
    assert mark.text == locus.lemma.text == "般"
    mark.click()
    WebDriverWait(browser, PATIENCE).until(lambda d: "盤" in panel_text(d))
    shown = panel_text(browser)
    for words in ("四庫本", "注疏本", "般", "盤", "異文", place(locus.lemma.location), locus.id):
        assert words in shown, words
    assert "sel" in mark.get_attribute("class").split()
    assert browser.execute_script("return location.hash") == f"#{locus.id}"
    # At 1400 px the panel is a column beside the text, its top in sight.
    panel, text = (
        rect(browser, browser.find_element(By.ID, "panel")),
        rect(browser, browser.find_element(By.ID, "view-text")),
    )
    assert viewport(browser)[0] == WIDE and panel["left"] >= text["right"] and panel["top"] < 100
    screenshot(browser, tmp_path, "html-locus.png")
    # The panel's buttons and links (written once for every panel): 在對照中 opens the synoptic view
    # at this locus, the next button the next locus.
    assert len(browser.find_elements(By.CSS_SELECTOR, "#panel-body h2 .nav button")) == 3
    browser.find_element(By.CSS_SELECTOR, '#panel-body .jump [data-goto="syn"]').click()
    WebDriverWait(browser, PATIENCE).until(lambda d: d.find_element(By.ID, "view-syn").is_displayed())
    assert browser.find_elements(By.CSS_SELECTOR, f'#view-syn .v.sel[data-locus="{locus.id}"]')
    browser.find_element(By.CSS_SELECTOR, 'button[data-view="text"]').click()
    browser.find_element(By.CSS_SELECTOR, '#panel-body [data-step="1"]').click()
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) not in ("", locus.id))
    assert console_errors(browser) == []


def test_sparse_reading_and_its_note(browser: Any, run: RunResult, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    locus = a_locus(run, "DD", "峭")
    browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{locus.id}"]').click()
    WebDriverWait(browser, PATIENCE).until(lambda d: "峭" in panel_text(d))
    shown = panel_text(browser)
    assert "大戴禮" in shown and "蕙田案" in shown and "哨" in shown
    screenshot(browser, tmp_path, "html-sparse.png")


def test_filters_hide_a_class_and_a_layer(browser: Any, run: RunResult, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    locus = a_locus(run, "ZS", "盤")
    mark = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{locus.id}"]')
    style = "return getComputedStyle(arguments[0]).textDecorationLine"
    assert browser.execute_script(style, mark) == "underline"
    browser.find_element(By.CSS_SELECTOR, 'input[data-hide="c-substantive"]').click()
    assert browser.execute_script(style, mark) == "none"
    assert "hide-c-substantive" in browser.find_element(By.TAG_NAME, "body").get_attribute("class")
    shu = browser.find_element(By.CSS_SELECTOR, "#view-text .l-shu")
    assert shu.is_displayed()
    browser.find_element(By.CSS_SELECTOR, 'input[data-hide="l-shu"]').click()
    assert not shu.is_displayed()
    screenshot(browser, tmp_path, "html-filtered.png")
    assert console_errors(browser) == []


def test_synoptic_view_keyboard_and_coverage(browser: Any, run: RunResult, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    browser.find_element(By.CSS_SELECTOR, 'button[data-view="syn"]').click()
    assert browser.find_element(By.ID, "view-syn").is_displayed()
    assert not browser.find_element(By.ID, "view-text").is_displayed()
    locus = a_locus(run, "ZS", "盤")
    # A column per witness: the locus marked in each, the base's 般 and 注疏本's 盤 side by side.
    marks = browser.find_elements(By.CSS_SELECTOR, f'#view-syn .v[data-locus="{locus.id}"]')
    assert [m.text for m in marks] == ["般", "盤"]
    heads = browser.find_elements(By.CSS_SELECTOR, "#view-syn .s-jing thead th")
    assert [h.get_attribute("data-w") for h in heads] == ["SK", "ZS", "DD"]
    left, right = (rect(browser, m) for m in marks)
    assert right["left"] > left["right"] and abs(right["top"] - left["top"]) < 40  # one row, two columns
    marks[1].click()
    WebDriverWait(browser, PATIENCE).until(lambda d: locus.id in panel_text(d))
    screenshot(browser, tmp_path, "html-synoptic.png")
    # j: the next locus in reading order.
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    WebDriverWait(browser, PATIENCE).until(lambda d: locus.id not in panel_text(d))
    assert browser.execute_script("return location.hash") != f"#{locus.id}"
    # Esc: back to the overview, with the coverage strips; a tick opens its locus.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    WebDriverWait(browser, PATIENCE).until(lambda d: "各本存佚" in panel_text(d))
    tick = browser.find_element(By.CSS_SELECTOR, f'#panel-body .tick[data-locus="{locus.id}"]')
    tick.click()
    WebDriverWait(browser, PATIENCE).until(lambda d: locus.id in panel_text(d))
    assert console_errors(browser) == []


def test_witness_text_stays_text_in_the_browser(browser: Any, tmp_path: Path) -> None:
    evil = "主人<script>window.pwned=1</script>&amp;<img src=x onerror=window.pwned=2>"
    alignment, witnesses = align_rows({"SK": "主人請曰" + "-" * (len(evil) - 4), "ZS": evil})
    result = build_layer(alignment, witnesses)
    infos = (WitnessInfo("SK", "四庫本", "SK.txt", "plain"), WitnessInfo("ZS", "<b>注疏本</b>", "ZS.txt", "plain"))
    path = tmp_path / "evil.html"
    path.write_text(build_html(Collation("<i>t</i>", "x", "SK", infos, (result,)), witnesses["SK"]), encoding="utf-8")
    open_page(browser, path)
    browser.find_element(By.CSS_SELECTOR, "#view-text .v").click()
    WebDriverWait(browser, PATIENCE).until(lambda d: "pwned" in panel_text(d))
    assert browser.execute_script("return window.pwned === undefined")
    shown = panel_text(browser)
    assert "<script>window.pwned=1</script>&amp;<img src=x onerror=window.pwned=2>" in shown
    assert "<b>注疏本</b>" in shown
    with pytest.raises(JavascriptException):
        browser.execute_script("return document.querySelector('#panel-body img').src")
    screenshot(browser, tmp_path, "html-escaped.png")


# --- Reading and checking: a phone's width, search, witnesses, the address, side by side, pages ----------


def test_at_420px_a_clicked_variant_opens_its_panel_beside_it(
    browser: Any, run: RunResult, page: Path, tmp_path: Path
) -> None:
    locus = a_locus(run, "ZS", "盤")
    with width(browser, NARROW):
        open_page(browser, page)
        assert viewport(browser)[0] == NARROW
        screenshot(browser, tmp_path, "html-420-text.png")
        mark = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{locus.id}"]')
        # Low in the window, where the sheet opening will cover it.
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'}); scrollBy(0, -300)", mark)
        mark.click()
        WebDriverWait(browser, PATIENCE).until(lambda d: "盤" in panel_text(d))
        _, height = viewport(browser)
        sheet = rect(browser, browser.find_element(By.ID, "panel"))
        assert sheet["top"] >= 0 and sheet["bottom"] <= height + 1 and sheet["height"] > 200, sheet
        # The line clicked stays in sight, above the sheet and under the bar.
        bar = rect(browser, browser.find_element(By.CSS_SELECTOR, "header.bar"))
        where = rect(browser, mark)
        assert bar["bottom"] <= where["top"] and where["bottom"] <= sheet["top"], (where, sheet)
        assert "注疏本" in panel_text(browser) and "sel" in mark.get_attribute("class").split()
        screenshot(browser, tmp_path, "html-420-locus.png")
        # Closed, the sheet folds down to its handle.
        browser.find_element(By.CSS_SELECTOR, "#panel-body [data-close]").click()
        WebDriverWait(browser, PATIENCE).until(lambda d: rect(d, d.find_element(By.ID, "panel"))["height"] < 60)
    assert console_errors(browser) == []


def test_search_finds_folded_characters_and_steps(browser: Any, run: RunResult, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    box = browser.find_element(By.ID, "q")
    # 禮 is not in the base (a simplified e-text): it finds 礼, folded as the collation folds.
    box.send_keys("禮")
    WebDriverWait(browser, PATIENCE).until(lambda d: re.fullmatch(r"\d+/\d+", search_count(d)))
    at, total = map(int, search_count(browser).split("/"))
    assert total > 10
    assert browser.execute_script("return CSS.highlights.get('q-hits').size") > 10
    box.send_keys(Keys.ENTER)
    assert search_count(browser) == f"{at % total + 1}/{total}"
    box.send_keys(Keys.SHIFT, Keys.ENTER)
    assert search_count(browser) == f"{at}/{total}"
    now = browser.execute_script("return Array.from(CSS.highlights.get('q-now'))[0].toString()")
    assert now == "礼"
    screenshot(browser, tmp_path, "html-search.png")
    # 盤 only 注疏本 reads (the base reads 般): a hit in a witness's reading, shown in the panel.
    locus = a_locus(run, "ZS", "盤")
    box.clear()
    box.send_keys("盤")
    WebDriverWait(browser, PATIENCE).until(lambda d: search_count(d) == "1/1")
    mark = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{locus.id}"]')
    assert "q-now" in mark.get_attribute("class").split()
    box.send_keys(Keys.ENTER)
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) == locus.id)
    # In the synopsis, every witness's column is searched: the hit is in 注疏本's.
    browser.find_element(By.CSS_SELECTOR, 'button[data-view="syn"]').click()
    WebDriverWait(browser, PATIENCE).until(lambda d: search_count(d) == "1/1")
    hit = (
        "var r = Array.from(CSS.highlights.get('q-hits'))[0];"
        "return [r.toString(), r.startContainer.parentElement.closest('td').dataset.w]"
    )
    assert browser.execute_script(hit) == ["盤", "ZS"]
    with width(browser, NARROW):
        open_page(browser, page)
        browser.find_element(By.ID, "q").send_keys("投壺")
        WebDriverWait(browser, PATIENCE).until(lambda d: re.fullmatch(r"\d+/\d+", search_count(d)))
        screenshot(browser, tmp_path, "html-420-search.png")
    assert console_errors(browser) == []


def test_a_witness_switched_off_leaves_the_text_and_the_panel(browser: Any, run: RunResult, page: Path) -> None:
    open_page(browser, page)
    style = "return getComputedStyle(arguments[0]).textDecorationLine"
    only_zs = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{a_locus(run, "ZS", "盤").id}"]')
    shao = a_locus(run, "DD", "峭")
    only_dd = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{shao.id}"]')
    assert browser.execute_script(style, only_zs) == "underline"
    browser.find_element(By.CSS_SELECTOR, 'input[data-wit="ZS"]').click()
    assert browser.execute_script(style, only_zs) == "none"
    assert browser.execute_script("return getComputedStyle(arguments[0]).pointerEvents", only_zs) == "none"
    assert browser.execute_script(style, only_dd) == "underline"
    only_dd.click()
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) == shao.id)
    shown = panel_text(browser)
    assert "大戴禮" in shown and "峭" in shown and "注疏本" not in shown
    # The synopsis loses ZS's column, its head and its cells.
    browser.find_element(By.CSS_SELECTOR, 'button[data-view="syn"]').click()
    cells = browser.find_elements(By.CSS_SELECTOR, '#view-syn .s-jing [data-w="ZS"]')
    assert cells and not any(c.is_displayed() for c in cells[:50])
    assert browser.find_element(By.CSS_SELECTOR, '#view-syn .s-jing td[data-w="SK"]').is_displayed()
    browser.find_element(By.CSS_SELECTOR, 'input[data-wit="ZS"]').click()
    assert cells[0].is_displayed()
    assert browser.execute_script(style, only_zs) == "underline"
    assert console_errors(browser) == []


def test_the_address_follows_the_locus_and_back_steps_back(browser: Any, run: RunResult, page: Path) -> None:
    open_page(browser, page)
    first, second = a_locus(run, "ZS", "盤"), a_locus(run, "DD", "峭")
    browser.execute_script("location.hash = '#' + arguments[0]", first.id)
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) == first.id)
    mark = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{first.id}"]')
    assert "sel" in mark.get_attribute("class").split()
    browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{second.id}"]').click()
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) == second.id)
    assert browser.execute_script("return location.hash") == f"#{second.id}"
    browser.back()
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) == first.id)
    assert browser.execute_script("return location.hash") == f"#{first.id}"
    browser.back()
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) == "")
    browser.forward()
    WebDriverWait(browser, PATIENCE).until(lambda d: shown_locus(d) == first.id)
    assert console_errors(browser) == []


def first_zhu(driver: Any) -> tuple[Any, Any]:
    """The first unit's 經 and the first 注 printed after it."""
    unit = driver.find_element(By.XPATH, "//*[@id='view-text']//span[@class='u'][.//span[@class='l-zhu']]")
    return unit.find_element(By.CSS_SELECTOR, ".uj"), unit.find_element(By.CSS_SELECTOR, ".uc .l-zhu")


def test_side_by_side_sets_each_zhu_beside_its_jing(browser: Any, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    jing, zhu = first_zhu(browser)
    # As printed: the 注 runs on after the 經, in the same lines.
    assert rect(browser, zhu)["top"] < rect(browser, jing)["bottom"]
    browser.find_element(By.ID, "parallel").click()
    assert browser.find_element(By.ID, "parallel").get_attribute("aria-pressed") == "true"
    left, right = rect(browser, jing), rect(browser, zhu)
    assert right["left"] >= left["right"] and abs(right["top"] - left["top"]) < 30, (left, right)
    browser.execute_script("arguments[0].scrollIntoView(); scrollBy(0, -80)", jing)
    screenshot(browser, tmp_path, "html-parallel.png")
    with width(browser, NARROW):
        open_page(browser, page)
        browser.find_element(By.ID, "parallel").click()
        jing, zhu = first_zhu(browser)
        # No room beside it on a phone: under its 經, indented.
        assert rect(browser, zhu)["top"] >= rect(browser, jing)["bottom"] - 1
        assert rect(browser, zhu)["left"] > rect(browser, jing)["left"]
        browser.execute_script("arguments[0].scrollIntoView(); scrollBy(0, -120)", jing)
        screenshot(browser, tmp_path, "html-420-parallel.png")
    assert console_errors(browser) == []


def test_jump_to_a_page_of_any_witness(browser: Any, page: Path) -> None:
    open_page(browser, page)
    _, height = viewport(browser)
    for siglum, label in (("ZS", "行23"), ("SK", "5a")):
        Select(browser.find_element(By.ID, "jump-w")).select_by_value(siglum)
        pages = browser.find_element(By.CSS_SELECTOR, f'select.jump-p[data-for="{siglum}"]')
        assert pages.is_displayed()
        Select(pages).select_by_value(f"{siglum}:{label}")
        target = browser.find_element(By.CSS_SELECTOR, f'#view-text [data-page="{siglum}:{label}"]')
        bar = rect(browser, browser.find_element(By.CSS_SELECTOR, "header.bar"))
        where = rect(browser, target)
        assert bar["bottom"] <= where["top"] < height / 2, (siglum, where)
        assert "here" in target.get_attribute("class").split()
    assert console_errors(browser) == []


def test_orthographic_loci_open_unmarked_until_their_box_is_ticked(browser: Any, run: RunResult, page: Path) -> None:
    open_page(browser, page)
    style = "return getComputedStyle(arguments[0]).textDecorationLine"
    graph = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{a_locus(run, "ZS", "筭").id}"]')
    reading = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{a_locus(run, "ZS", "盤").id}"]')
    assert browser.execute_script(style, graph) == "none" and browser.execute_script(style, reading) == "underline"
    note = browser.find_element(By.CSS_SELECTOR, "#panel-body .fold-note")
    assert note.is_displayed() and re.fullmatch(r"另有異體 \d+ 處未標出（勾選「異體」顯示）。", note.text)
    browser.find_element(By.CSS_SELECTOR, 'input[data-hide="c-orthographic"]').click()
    assert browser.execute_script(style, graph) == "underline" and not note.is_displayed()
    assert console_errors(browser) == []


# What the print shows, counted as the browser lays it out: a mark numbered (its counter steps)
# and an entry of the 校勘記, each only where it is drawn.
PRINTED = """
const drawn = (e) => e.getClientRects().length > 0;
const marks = [...document.querySelectorAll('#view-text .v.n')]
  .filter((e) => drawn(e) && getComputedStyle(e).counterIncrement !== 'none');
const entries = [...document.querySelectorAll('#jkj .e:not(.x)')].filter(drawn);
return [marks.map((e) => e.dataset.locus), entries.map((e) => e.dataset.locus)];
"""


def test_the_page_prints_as_a_jiaokanji_its_numbers_meeting(
    browser: Any, run: RunResult, page: Path, tmp_path: Path
) -> None:
    open_page(browser, page)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        assert not browser.find_element(By.CSS_SELECTOR, ".bar").is_displayed()
        assert not browser.find_element(By.ID, "panel").is_displayed()
        assert browser.find_element(By.ID, "jkj").is_displayed()
        marks, entries = browser.execute_script(PRINTED)
        shown = [display_class(x) for r in run.collation.layers for x in shown_loci(r)]
        graphs = shown.count(ReadingClass.ORTHOGRAPHIC)
        assert marks == entries and len(entries) == len(shown) - graphs  # 異體字不出校
        screenshot(browser, tmp_path, "html-print.png")
        # The 異體 ticked: their marks numbered and their entries listed, the numbers meeting still.
        browser.execute_script("document.querySelector('input[data-hide=\"c-orthographic\"]').click()")
        marks, entries = browser.execute_script(PRINTED)
        assert marks == entries and len(entries) > graphs
        # 直排: the whole print in vertical lines.
        browser.execute_script("document.querySelector('input[data-print=\"vertical\"]').click()")
        mode = browser.execute_script("return getComputedStyle(document.documentElement).writingMode")
        assert mode == "vertical-rl"
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert browser.execute_script("return getComputedStyle(document.documentElement).writingMode") == "horizontal-tb"
    pdf = browser.execute_cdp_cmd("Page.printToPDF", {"printBackground": False})
    assert len(pdf["data"]) > 10_000
    assert console_errors(browser) == []
