"""The HTML view in a real browser: headless Chromium (Debian's) driven by Selenium.

The page of the default project is opened from disk; a click on a variant must show every
witness's reading, the filters and tabs must work, and a witness reading ``<script>`` must
stay text. Screenshots go to pytest's tmp_path, and also to ``$COLLATE_SCREENSHOT_DIR`` when
it is set. Skipped (with the reason) where Chromium, its driver or Selenium is missing.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from builders import align_rows, run_default_project

from collate.apparatus import Collation, Locus, WitnessInfo, build_layer
from collate.exporters import ExportInput
from collate.exporters.html import build_html, run_html, shown_loci
from collate.exporters.html.common import place
from collate.pipeline import RunResult

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
    "--window-size=1366,768",
)

webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed")
if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed (Debian package chromium)", allow_module_level=True)
if not CHROMEDRIVER.exists():
    pytest.skip(f"{CHROMEDRIVER} is not installed (Debian package chromium-driver)", allow_module_level=True)

from selenium.common.exceptions import JavascriptException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


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
    driver.set_page_load_timeout(30)
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


def test_click_on_a_variant_shows_every_reading(browser: Any, run: RunResult, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    screenshot(browser, tmp_path, "html-text.png")
    locus = a_locus(run, "ZS", "盤")  # 注疏本 reads 盤 where 四庫本 reads 般
    mark = browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{locus.id}"]')
    assert mark.text == locus.lemma.text == "般"
    mark.click()
    WebDriverWait(browser, 5).until(lambda d: "盤" in panel_text(d))
    shown = panel_text(browser)
    for words in ("四庫本", "注疏本", "般", "盤", "異文", place(locus.lemma.location), locus.id):
        assert words in shown, words
    assert "sel" in mark.get_attribute("class").split()
    assert browser.execute_script("return location.hash") == f"#{locus.id}"
    screenshot(browser, tmp_path, "html-locus.png")
    assert console_errors(browser) == []


def test_sparse_reading_and_its_note(browser: Any, run: RunResult, page: Path, tmp_path: Path) -> None:
    open_page(browser, page)
    locus = a_locus(run, "DD", "峭")
    browser.find_element(By.CSS_SELECTOR, f'#view-text .v[data-locus="{locus.id}"]').click()
    WebDriverWait(browser, 5).until(lambda d: "峭" in panel_text(d))
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
    column = browser.find_element(By.CSS_SELECTOR, f'#view-syn .sc[data-locus="{locus.id}"]')
    assert column.text.split() == ["般", "盤"]
    column.click()
    WebDriverWait(browser, 5).until(lambda d: locus.id in panel_text(d))
    screenshot(browser, tmp_path, "html-synoptic.png")
    # j: the next locus in reading order.
    browser.find_element(By.TAG_NAME, "body").send_keys("j")
    WebDriverWait(browser, 5).until(lambda d: locus.id not in panel_text(d))
    assert browser.execute_script("return location.hash") != f"#{locus.id}"
    # Esc: back to the overview, with the coverage strips; a tick opens its locus.
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ESCAPE)
    WebDriverWait(browser, 5).until(lambda d: "各本存佚" in panel_text(d))
    tick = browser.find_element(By.CSS_SELECTOR, f'#panel-body .tick[data-locus="{locus.id}"]')
    tick.click()
    WebDriverWait(browser, 5).until(lambda d: locus.id in panel_text(d))
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
    WebDriverWait(browser, 5).until(lambda d: "pwned" in panel_text(d))
    assert browser.execute_script("return window.pwned === undefined")
    shown = panel_text(browser)
    assert "<script>window.pwned=1</script>&amp;<img src=x onerror=window.pwned=2>" in shown
    assert "<b>注疏本</b>" in shown
    with pytest.raises(JavascriptException):
        browser.execute_script("return document.querySelector('#panel-body img').src")
    screenshot(browser, tmp_path, "html-escaped.png")
