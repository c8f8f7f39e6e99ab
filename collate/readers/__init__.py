"""Print layouts, one module a layout, registered in one visible place.

``read_witness`` decodes a file, picks its container (:mod:`collate.readers.containers`) and
its print layout (each named, or detected with a reason), reads the container's body with the
layout, merges the two readings (:func:`~collate.readers.body.merge`) and returns a
:class:`~collate.model.Witness` whose spans partition its raw text. Characters that are no
part of any text (bidi controls, terminal controls) are diagnosed where they stand; a file
with no text at all is refused.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from collate.decode import read_text
from collate.errors import InputError
from collate.model import Diagnostic, Role, Severity, Witness
from collate.readers.base import LayoutReader, Parsed, ReadOptions
from collate.readers.body import merge
from collate.readers.containers import CONTAINERS, detect_container, get_container
from collate.registry import best, load

# name -> module holding a ``READER``. Modules are imported on first use so that
# ``collate --help`` does not pay for every reader.
LAYOUTS: dict[str, str] = {
    "siku-wltk": "collate.readers.layouts.siku",
    "zhushu": "collate.readers.layouts.zhushu",
    "zhushu-wyg": "collate.readers.layouts.zhushuwyg",
    "danshu": "collate.readers.layouts.danshu",
    "yili-inline": "collate.readers.layouts.yili",
    "web-bracket": "collate.readers.layouts.web",
    "jishuo": "collate.readers.layouts.jishuo",
    "jishuo-chen": "collate.readers.layouts.chenhao",
    "jishuo-indent": "collate.readers.layouts.jishuoindent",
    "tls": "collate.readers.layouts.tls",
    "zhu-bracket": "collate.readers.layouts.zhubracket",
    "readings": "collate.readers.layouts.readings",
    "plain": "collate.readers.layouts.plain",
}


def get_reader(name: str) -> LayoutReader:
    """The reader registered as ``name``, or a :class:`ProjectError` listing the known ones."""
    reader: LayoutReader = load(LAYOUTS, name, "READER", "layout", "layouts", ", or auto")
    return reader


# The layout of a text no layout's markers fit.
FALLBACK = "plain"
# File suffixes that name a layout before the file is read, with the reason said. Kept here, beside
# LAYOUTS, so that naming a file's layout imports no layout module but the one it names.
SUFFIXES: dict[str, tuple[str, str]] = {".toml": ("readings", "the file is TOML (a readings file)")}


def _text_layouts() -> list[str]:
    """The layouts detected from a text: every one but the sparse (a readings file is named by its suffix)."""
    return [n for n in LAYOUTS if not get_reader(n).sparse]


def layout_by_suffix(path: str) -> tuple[str, str] | None:
    """The layout a file's suffix names (a readings file is TOML) and the reason said; None for most files."""
    return next((named for suffix, named in SUFFIXES.items() if path.endswith(suffix)), None)


def is_sparse(layout: str, path: str) -> bool:
    """Whether a file read with ``layout`` (``auto``: as its suffix names it) is a sparse witness's."""
    if layout == "auto":
        named = layout_by_suffix(path)
        return named is not None and get_reader(named[0]).sparse
    return layout in LAYOUTS and get_reader(layout).sparse


def detect_layout(text: str, path: str = "") -> tuple[str, str]:
    """Pick the best-fitting layout for ``text``: its name and the reason it won."""
    named = layout_by_suffix(path)
    if named is not None:
        return named
    score, name, reason = best((s, n, r) for n in _text_layouts() for s, r in [get_reader(n).detect(text)])
    if score <= 0:
        return FALLBACK, "no layout's markers were found; read as plain or punctuated text"
    return name, reason


def _fit(body_text: str, layout: str) -> tuple[Diagnostic, ...]:
    """A named layout that finds none of its marks where another clearly fits: say so, and which."""
    if layout == FALLBACK or get_reader(layout).sparse:
        return ()
    score, reason = get_reader(layout).detect(body_text)
    if score > 0:
        return ()
    best_score, fits, why = best(
        (s, n, r) for n in _text_layouts() if n != layout for s, r in [get_reader(n).detect(body_text)]
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
    if is_sparse(layout, path):
        container = "plain"  # a readings file is TOML: no container wraps it
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


# Bidi controls reorder what follows them on screen: 主人奉矢 can display as 矢奉人主, or a
# reading as another, while the file holds something else.
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
# C0 controls but the line ends, tab and form feed a text file holds; DEL; C1. NUL is refused
# when the file is decoded.
_CONTROL = "\x01-\x08\x0b\x0e-\x1f\x7f-\x9f"
_ODD = re.compile(f"[{_BIDI}]+|[{_CONTROL}]+")
_ODD_SHOWN = 50  # diagnostics of one file, one a run of such characters; the rest are counted


def _code_points(run: str) -> str:
    named = [f"U+{ord(ch):04X}" + (f" {unicodedata.name(ch)}" if unicodedata.name(ch, "") else "") for ch in run]
    return ", ".join(named[:3]) + (f" and {len(run) - 3} more" if len(run) > 3 else "")


def control_diagnostics(text: str) -> tuple[Diagnostic, ...]:
    """A diagnostic at each run of bidi or terminal control characters in ``text``.

    They are kept in the text (the witness owns its text), but an editor must know they are
    there: a bidi control can make a reading display as another, and a terminal control is
    no part of any text (the views show both escaped).
    """
    found: list[Diagnostic] = []
    runs = list(_ODD.finditer(text))
    for m in runs[:_ODD_SHOWN]:
        if ord(m.group()[0]) < 0x100:
            code, what = "control-character", "a control character, no part of a text (a terminal would act on it)"
        else:
            code, what = "bidi-control", "a bidi control, which can make a reading display as another"
        found.append(Diagnostic(code, f"{_code_points(m.group())}: {what}", m.start(), m.end()))
    if len(runs) > _ODD_SHOWN:
        rest = runs[_ODD_SHOWN:]
        found.append(
            Diagnostic(
                "control-character",
                f"{len(rest)} more runs of bidi or control characters after this one",
                rest[0].start(),
                rest[0].end(),
            )
        )
    return tuple(found)


def _is_word(ch: str) -> bool:
    # Punctuation, spaces and controls are no text: the tokenizer makes no token of them.
    return unicodedata.category(ch)[0] not in "PZC"


def _no_text(witness: Witness) -> bool:
    """True if no text layer of ``witness`` holds a character of text (a readings file never does)."""
    if witness.sparse:
        return False
    return not any(
        s.layer.is_text and s.role is Role.TEXT and any(_is_word(ch) for ch in witness.text[s.start : s.end])
        for s in witness.spans
    )


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
    require_text: bool = True,
) -> Witness:
    """Read one witness file into a :class:`Witness` (see :func:`read_raw`).

    A file of whitespace only is an :class:`InputError`. A file whose layout finds no text in
    any text layer (only markup, headings) is one too, unless ``require_text`` is false: then
    it is read, with an error diagnostic saying so (``collate inspect`` shows why).
    """
    shown = display or str(path)
    decoded = read_text(path, shown, encoding)
    if not decoded.text.strip():
        raise InputError(
            "has no text: the file holds only whitespace", where=shown, hint="give a witness file with text in it"
        )
    reading = read_raw(decoded.text, layout=layout, container=container, gaiji_table=gaiji_table, path=shown)
    merged = reading.parsed
    odd = control_diagnostics(decoded.text)
    diagnostics = tuple(sorted(merged.diagnostics + odd, key=lambda d: d.start)) if odd else merged.diagnostics
    witness = Witness(
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
        diagnostics=diagnostics,
        metadata=merged.metadata,
        readings=merged.readings,
        unsettled=merged.unsettled,
        sparse=get_reader(reading.layout).sparse,
    )
    if not _no_text(witness):
        return witness
    message = f"has no text in any layer: read as {reading.container}/{reading.layout}, it holds only markup"
    message += ", headings or punctuation"
    if require_text:
        raise InputError(
            message,
            where=shown,
            hint=f"check how it is read with `collate inspect {shown}`, or name its `layout` in the project file",
        )
    empty = Diagnostic("no-text", message, 0, min(1, len(decoded.text)), Severity.ERROR)
    return replace(witness, diagnostics=(empty, *witness.diagnostics))


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
