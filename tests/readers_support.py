"""What the reader tests share: a text read from a file, spans by line, markup left in text, the partition check."""

from __future__ import annotations

import re
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path

from collate.model import Layer, Span, Witness
from collate.readers import read_witness


def text_of(w: Witness, span: Span) -> str:
    """The characters ``span`` covers."""
    return w.text[span.start : span.end]


def line_spans(w: Witness, line: int) -> list[tuple[str, Layer, str, str | None]]:
    """(text, layer, role, label) of the non-layout spans on one file line."""
    return [
        (text_of(w, s), s.layer, s.role, s.label)
        for s in w.spans
        if s.role != "layout" and w.line_col(s.start)[0] == line
    ]


def synthetic(text: str, tmp_path: Path, layout: str, gaiji: Path | None = None) -> Witness:
    """``text`` written as UTF-8 to a file under ``tmp_path`` and read in ``layout``."""
    path = tmp_path / "witness.txt"
    path.write_text(text, encoding="utf-8")
    return read_witness(path, layout=layout, gaiji_table=gaiji)


def markup_in_text(w: Witness, chars: str) -> list[Span]:
    """The spans of text layers holding any of ``chars``: markup the reader failed to set apart."""
    return [s for s in w.spans if s.layer.is_text and set(text_of(w, s)) & set(chars)]

# CJK unified ideographs of every plane and the compatibility block: what two witnesses of one
# text are compared on in the independent checks (punctuation, markup and placeholders aside).
_IDEOGRAPH = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff]")


def ideographs(text: str, also: str = "") -> str:
    """The CJK ideographs of ``text`` (and the characters of ``also``), in order."""
    return "".join(c for c in text if _IDEOGRAPH.match(c) or c in also)


def real_files(shared: Path, seeds: Path, *, but: Path) -> list[Path]:
    """Every witness file beside the project and every seed, except ``but``: where a layout must not win."""
    return sorted(p for p in [*(shared / "witnesses").glob("*.txt"), *seeds.glob("*.txt")] if p.name != but.name)


def assert_partition(spans: Sequence[Span], text: str) -> None:
    """``spans`` partition ``text``: none empty, each starting where the last ended, 0 to the end."""
    assert all(s.start < s.end for s in spans)
    assert all(a.end == b.start for a, b in pairwise(spans))
    assert (spans[0].start, spans[-1].end) == (0, len(text)) if spans else text == ""
    assert "".join(text[s.start : s.end] for s in spans) == text
