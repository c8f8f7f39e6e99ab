"""Print layouts, one module a layout, registered in one visible place.

``read_witness`` decodes a file, picks its container (:mod:`collate.readers.containers`) and
its print layout (each named, or detected with a reason), reads the container's body with the
layout, merges the two readings (:func:`~collate.readers.body.merge`) and returns a
:class:`~collate.model.Witness` whose spans partition its raw text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from collate.decode import read_text
from collate.model import Diagnostic, Witness
from collate.readers.base import LayoutReader, Parsed, ReadOptions
from collate.readers.body import merge
from collate.readers.containers import CONTAINERS, detect_container, get_container
from collate.registry import best, load

# name -> module holding a ``READER``. Modules are imported on first use so that
# ``collate --help`` does not pay for every reader.
LAYOUTS: dict[str, str] = {
    "siku-wltk": "collate.readers.siku",
    "zhushu": "collate.readers.zhushu",
    "zhushu-wyg": "collate.readers.zhushuwyg",
    "danshu": "collate.readers.danshu",
    "yili-inline": "collate.readers.yili",
    "web-bracket": "collate.readers.web",
    "jishuo": "collate.readers.jishuo",
    "jishuo-chen": "collate.readers.chenhao",
    "jishuo-indent": "collate.readers.jishuoindent",
    "tls": "collate.readers.tls",
    "zhu-bracket": "collate.readers.zhubracket",
    "readings": "collate.readers.readings",
    "plain": "collate.readers.plain",
}


def get_reader(name: str) -> LayoutReader:
    """The reader registered as ``name``, or a :class:`ProjectError` listing the known ones."""
    reader: LayoutReader = load(LAYOUTS, name, "READER", "layout", "layouts", ", or auto")
    return reader


def detect_layout(text: str, path: str = "") -> tuple[str, str]:
    """Pick the best-fitting layout for ``text``: its name and the reason it won."""
    if path.endswith(".toml"):
        return "readings", "the file is TOML (a readings file)"
    score, name, reason = best((s, n, r) for n in LAYOUTS if n != "readings" for s, r in [get_reader(n).detect(text)])
    if score <= 0:
        return "plain", "no layout's markers were found; read as plain or punctuated text"
    return name, reason


def _fit(body_text: str, layout: str) -> tuple[Diagnostic, ...]:
    """A named layout that finds none of its marks where another clearly fits: say so, and which."""
    if layout in ("plain", "readings"):
        return ()
    score, reason = get_reader(layout).detect(body_text)
    if score > 0:
        return ()
    best_score, fits, why = best(
        (s, n, r) for n in LAYOUTS if n not in ("readings", layout) for s, r in [get_reader(n).detect(body_text)]
    )
    if best_score < 0.3:
        return ()
    start = next((i for i, c in enumerate(body_text) if not c.isspace()), 0)
    message = f"the file does not look like layout {layout!r} ({reason}); it looks like {fits!r} ({why})"
    return (Diagnostic("layout-fit", message, start, min(start + 1, len(body_text))),)


@dataclass(frozen=True, slots=True)
class Reading:
    """A raw text read: the container and layout used, why, and the merged annotations."""

    container: str
    container_reason: str
    layout: str
    layout_reason: str
    parsed: Parsed


def read_raw(
    raw: str,
    *,
    layout: str = "auto",
    container: str = "auto",
    gaiji_table: Path | None = None,
    path: str = "",
) -> Reading:
    """Read decoded text: its container, then its print layout, merged back to raw offsets.

    Both are detected unless named; ``layout = "mandoku"`` (older project files) names the
    Mandoku container with the layout detected.
    """
    if layout == "mandoku":
        layout, container = "auto", "mandoku" if container == "auto" else container
    if layout == "readings" or (layout == "auto" and path.endswith(".toml")):
        container = "plain"
    if container == "auto":
        cname, creason = detect_container(raw)
    else:
        get_container(container)
        cname, creason = container, "named"
    body = get_container(cname).read(raw, ReadOptions(gaiji_table=gaiji_table, path=path))
    if layout == "auto":
        name, reason = detect_layout(body.text, path)
    else:
        get_reader(layout)
        name, reason = layout, "named"
    parsed = get_reader(name).read(body.text, ReadOptions(gaiji_table=gaiji_table, path=path, breaks=body.breaks))
    fit = _fit(body.text, name) if layout != "auto" else ()
    if fit:
        parsed = replace(parsed, diagnostics=tuple(sorted(parsed.diagnostics + fit, key=lambda d: d.start)))
    return Reading(cname, creason, name, reason, merge(raw, body, parsed, name, path))


def read_witness(
    path: Path,
    *,
    siglum: str = "",
    label: str = "",
    layout: str = "auto",
    container: str = "auto",
    encoding: str | None = None,
    gaiji_table: Path | None = None,
    display: str | None = None,
) -> Witness:
    """Read one witness file into a :class:`Witness` (see :func:`read_raw`)."""
    shown = display or str(path)
    decoded = read_text(path, shown, encoding)
    reading = read_raw(decoded.text, layout=layout, container=container, gaiji_table=gaiji_table, path=shown)
    merged = reading.parsed
    return Witness(
        siglum=siglum or Path(shown).stem,
        label=label or siglum or Path(shown).stem,
        path=shown,
        text=decoded.text,
        layout=reading.layout,
        layout_reason=reading.layout_reason,
        container=reading.container,
        container_reason=reading.container_reason,
        encoding=decoded.encoding,
        spans=merged.spans,
        marks=merged.marks,
        substitutions=merged.substitutions,
        diagnostics=merged.diagnostics,
        metadata=merged.metadata,
        readings=merged.readings,
    )


__all__ = [
    "CONTAINERS",
    "LAYOUTS",
    "LayoutReader",
    "Parsed",
    "ReadOptions",
    "Reading",
    "detect_container",
    "detect_layout",
    "get_container",
    "get_reader",
    "read_raw",
    "read_witness",
]
