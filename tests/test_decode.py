from __future__ import annotations

import codecs

import pytest

from collate.decode import decode_bytes
from collate.errors import InputError

TEXT = "投壺之禮主人奉矢司射奉中使人執壺\n主人請曰某有枉矢哨壺請以樂賓\n"


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (TEXT.encode("utf-8"), "utf-8"),
        (codecs.BOM_UTF8 + TEXT.encode("utf-8"), "utf-8 (BOM)"),
        (TEXT.encode("utf-16"), "utf-16 (BOM)"),
        (TEXT.encode("gb18030"), "gb18030"),
        (TEXT.encode("big5"), "big5"),
    ],
)
def test_decodes_every_supported_encoding(data: bytes, encoding: str) -> None:
    decoded = decode_bytes(data, "w.txt")
    assert decoded.text == TEXT
    assert decoded.encoding == encoding


def test_simplified_gb18030_is_not_taken_for_big5() -> None:
    text = "主人请曰某有枉矢哨壶请以乐宾宾曰子有旨酒嘉肴" * 3
    assert decode_bytes(text.encode("gb18030"), "w.txt").encoding == "gb18030"


def test_named_encoding_wins() -> None:
    assert decode_bytes(TEXT.encode("big5"), "w.txt", "big5").text == TEXT


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\x00\x01\x02abc", "NUL"),
        (bytes(range(128, 256)) * 4, "could not be determined"),
    ],
)
def test_bad_input_names_the_file(data: bytes, message: str) -> None:
    with pytest.raises(InputError) as err:
        decode_bytes(data, "bad.txt")
    assert "bad.txt" in str(err.value)
    assert message in str(err.value)


def test_wrong_named_encoding_says_where() -> None:
    with pytest.raises(InputError, match="byte"):
        decode_bytes("投壺".encode("gb18030"), "w.txt", "utf-8")


@pytest.mark.parametrize("text", ["禮記注疏", "賓再拜受", "投壺之禮主人奉矢"])
def test_short_big5_is_not_taken_for_gb18030(text: str) -> None:
    # These bytes decode in GB18030 too (禮記注疏 as 搂癘猔波): rare characters give it away.
    assert decode_bytes(text.encode("big5"), "w.txt").text == text


def test_traditional_text_in_gb18030_still_reads() -> None:
    text = "投壺之禮．主人奉矢．司射奉中．使人執壺．主人請曰：『某有枉矢哨壺．請以樂賓．』" * 3
    decoded = decode_bytes(text.encode("gb18030"), "w.txt")
    assert (decoded.text, decoded.encoding) == (text, "gb18030")
