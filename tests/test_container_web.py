"""The web container: a saved page's furniture lines at the edges are boilerplate, the rest the layout's."""

from __future__ import annotations

import pytest

from collate.model import Layer
from collate.readers import read_raw
from collate.readers.base import ReadOptions
from collate.readers.containers import detect_container, get_container
from collate.readers.containers.web import is_furniture_line


def body(name: str, raw: str) -> str:
    return get_container(name).read(raw, ReadOptions()).text


def test_web_furniture_at_the_edges_is_boilerplate() -> None:
    raw = "古者諸侯之射也【注言别尊卑】\n" * 3 + "【打 印】 【来源：读书之家】\n"
    assert detect_container(raw)[0] == "web"
    reading = read_raw(raw)
    (furniture,) = [s for s in reading.parsed.spans if s.layer is Layer.BOILERPLATE]
    assert raw[furniture.start : furniture.end] == "【打 印】 【来源：读书之家】"
    assert body("web", raw) == "古者諸侯之射也【注言别尊卑】\n" * 3


@pytest.mark.parametrize(
    ("line", "furniture"),
    [
        ("【打 印】 【来源：读书之家-dushuzhijia.com】", True),
        ("【返回】", True),
        ("\u3000【上一頁】　【下一頁】", True),
        ("【注言别尊卑】", False),  # a bracket of the print's own
        ("【打印】古者諸侯之射也", False),  # text beside it
        ("【打印", False),
        ("", False),
    ],
)
def test_a_furniture_line_is_nothing_but_brackets_of_furniture_words(line: str, furniture: bool) -> None:
    assert is_furniture_line(line) is furniture


def test_furniture_is_looked_for_only_near_the_edges() -> None:
    text = "".join(f"古者諸侯之射也{i}\n" for i in range(4))
    inside = "【返回】\n" + text + "【返回】\n" + text + "【返回】\n"
    got = get_container("web").read(inside, ReadOptions())
    # The first and the last lines go; the one in the middle of the text is the print's.
    assert got.text == text + "【返回】\n" + text
    assert [inside[s.start : s.end] for s in got.spans if s.layer is Layer.BOILERPLATE] == ["【返回】", "【返回】"]
