"""Layout readers, one module a layout, registered in one visible place.

``read_witness`` decodes a file, picks a layout (named, or detected with a reason) and
returns a :class:`~collate.model.Witness` whose spans partition its raw text.
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from collate.decode import read_text
from collate.errors import LayoutError, ProjectError
from collate.model import Witness
from collate.readers.base import LayoutReader, Parsed, ReadOptions

# name -> module holding a ``READER``. Modules are imported on first use so that
# ``collate --help`` does not pay for every reader.
LAYOUTS: dict[str, str] = {
    "siku-wltk": "collate.readers.siku",
    "zhushu": "collate.readers.zhushu",
    "yili-inline": "collate.readers.yili",
    "web-bracket": "collate.readers.web",
    "jishuo": "collate.readers.jishuo",
    "mandoku": "collate.readers.mandoku",
    "readings": "collate.readers.readings",
    "plain": "collate.readers.plain",
}


def get_reader(name: str) -> LayoutReader:
    """The reader registered as ``name``, or a :class:`ProjectError` listing the known ones."""
    try:
        module = LAYOUTS[name]
    except KeyError:
        known = ", ".join(sorted(LAYOUTS))
        raise ProjectError(f"unknown layout {name!r}", hint=f"known layouts: {known}, or auto") from None
    reader: LayoutReader = import_module(module).READER
    return reader


def detect_layout(text: str, path: str = "") -> tuple[str, str]:
    """Pick the best-fitting layout for ``text``: its name and the reason it won."""
    if path.endswith(".toml"):
        return "readings", "the file is TOML (a readings file)"
    scored = []
    for name in LAYOUTS:
        if name == "readings":
            continue
        score, reason = get_reader(name).detect(text)
        scored.append((score, name, reason))
    scored.sort(key=lambda s: (-s[0], s[1]))
    score, name, reason = scored[0]
    if score <= 0:
        return "plain", "no layout's markers were found; read as plain or punctuated text"
    return name, reason


def _check_partition(parsed: Parsed, text: str, layout: str, path: str) -> None:
    pos = 0
    for span in parsed.spans:
        if span.start != pos or span.end < span.start:
            raise LayoutError(
                f"reader {layout!r} left a gap or overlap at offset {pos}", where=path, hint="this is a bug"
            )
        pos = span.end
    if pos != len(text):
        raise LayoutError(f"reader {layout!r} did not cover the whole file", where=path, hint="this is a bug")


def read_witness(
    path: Path,
    *,
    siglum: str = "",
    label: str = "",
    layout: str = "auto",
    encoding: str | None = None,
    gaiji_table: Path | None = None,
    display: str | None = None,
) -> Witness:
    """Read one witness file into a :class:`Witness`."""
    shown = display or str(path)
    decoded = read_text(path, shown, encoding)
    text = decoded.text
    if layout == "auto":
        name, reason = detect_layout(text, shown)
    else:
        get_reader(layout)
        name, reason = layout, "named in the project file"
    parsed = get_reader(name).read(text, ReadOptions(gaiji_table=gaiji_table, path=shown))
    _check_partition(parsed, text, name, shown)
    return Witness(
        siglum=siglum or Path(shown).stem,
        label=label or siglum or Path(shown).stem,
        path=shown,
        text=text,
        layout=name,
        layout_reason=reason,
        encoding=decoded.encoding,
        spans=parsed.spans,
        marks=parsed.marks,
        substitutions=parsed.substitutions,
        diagnostics=parsed.diagnostics,
        metadata=parsed.metadata,
        readings=parsed.readings,
    )


__all__ = ["LAYOUTS", "LayoutReader", "Parsed", "ReadOptions", "detect_layout", "get_reader", "read_witness"]
