"""The witnesses of the project file, checked beyond their types: what msgspec cannot say.

Every problem of a witness is said at the line of the key that holds it (``layout = …``), or at its
siglum's line where it has no key of its own: the reader looks for the witness there.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Iterable
from pathlib import Path

from collate.errors import ProjectError
from collate.project.positions import FileLines
from collate.project.records import WitnessConfig, is_siglum
from collate.project.tables import WitnessTable

# A variation selector may follow the character: the e-text's glyph is one character still.
_ONE_CHARACTER = re.compile(r"^.[\ufe00-\ufe0f\U000e0100-\U000e01ef]?$", re.DOTALL)


def check_witnesses(tables: tuple[WitnessTable, ...], lines: FileLines) -> tuple[WitnessConfig, ...]:
    """The ``[[witness]]`` tables as witnesses: sigla that are identifiers and unique, known readers."""
    if not tables:
        raise ProjectError("no witnesses", where=lines.shown, hint="add one or more [[witness]] tables")
    witnesses: list[WitnessConfig] = []
    seen: set[str] = set()
    for i, table in enumerate(tables):
        siglum = table.siglum
        where = lines.at("witness", i, "siglum")
        if not is_siglum(siglum):
            raise ProjectError(
                f"siglum {siglum!r} is not an ASCII identifier",
                where=where,
                hint="use letters, digits, - or _, starting with a letter (e.g. SK); put Chinese in `label`",
            )
        if siglum in seen:
            raise ProjectError(f"duplicate siglum {siglum!r}", where=where, hint="give each witness its own siglum")
        seen.add(siglum)
        _check_reading_names(table, lines, i)
        _check_encoding(table.encoding, siglum, table.path, lines.at("witness", i, "encoding"))
        _check_artifacts(table.artifacts, siglum, lines.at("witness", i, "artifacts"))
        _check_facs(table.facs, siglum, lines.at("witness", i, "facs"))
        if table.layers is not None:
            check_layers(table.layers, lines.at("witness", i, "layers"))
        witnesses.append(
            WitnessConfig(
                siglum=siglum,
                label=siglum if table.label is None else table.label,
                path=Path(table.path),
                layout=table.layout,
                container=table.container,
                encoding=table.encoding or None,
                notes=table.notes,
                bibl=table.bibl,
                artifacts=table.artifacts,
                layers=table.layers,
                quotes=table.quotes,
                facs=table.facs,
            )
        )
    return tuple(witnesses)


def _check_reading_names(table: WitnessTable, lines: FileLines, i: int) -> None:
    """The ``layout`` and ``container`` of the ``i``-th witness must name registered ones (or ``auto``)."""
    from collate.readers import CONTAINERS, LAYOUTS

    layout, container, siglum = table.layout, table.container, table.siglum
    # ``mandoku`` was a layout before containers and layouts were told apart: it names the container.
    if layout not in ("auto", "mandoku") and layout not in LAYOUTS:
        raise ProjectError(
            f"unknown layout {layout!r} for witness {siglum}",
            where=lines.at("witness", i, "layout"),
            hint="known layouts: " + ", ".join(sorted(LAYOUTS)) + ", or auto",
        )
    if container != "auto" and container not in CONTAINERS:
        raise ProjectError(
            f"unknown container {container!r} for witness {siglum}",
            where=lines.at("witness", i, "container"),
            hint="known containers: " + ", ".join(sorted(CONTAINERS)) + ", or auto",
        )


def _check_encoding(encoding: str | None, siglum: str, path: str, where: str) -> None:
    """A witness's ``encoding`` names a codec Python has."""
    if encoding is None:
        return
    if not encoding:
        raise ProjectError(
            f"`encoding` must be the name of an encoding, got {encoding!r}",
            where=where,
            hint='e.g. encoding = "gb18030"',
        )
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise ProjectError(
            f"unknown encoding {encoding!r} for witness {siglum} ({path})",
            where=where,
            hint="name a Python codec, e.g. gb18030, big5, utf-16; or leave `encoding` out to detect it",
        ) from None


def _check_artifacts(artifacts: Iterable[str], siglum: str, where: str) -> None:
    """Each artifact is one character: the artifact rule compares a token's one character with it."""
    for a in artifacts:
        if not _ONE_CHARACTER.match(a) or a.isspace():
            raise ProjectError(
                f"`artifacts` of witness {siglum}: {a!r} is not one character",
                where=where,
                hint="each entry is one character the e-text put for a lost glyph, "
                'e.g. artifacts = ["防"]; list several as ["防", "某"]',
            )


def _check_facs(pattern: str, siglum: str, where: str) -> None:
    """A page-image pattern names only the fields a page fills in (collate.model.facsimile)."""
    from collate.model.facsimile import FIELDS, unknown_fields

    unknown = unknown_fields(pattern)
    if unknown:
        raise ProjectError(
            f"`facs` of witness {siglum}: {', '.join(repr(u) for u in unknown)} is no field of a page",
            where=where,
            hint="use " + ", ".join(f"{{{f}}}" for f in FIELDS) + ', e.g. facs = "https://example.org/{id}.jpg"',
        )


def check_layers(layers: tuple[str, ...], where: str) -> None:
    """``layers`` (the project's or a witness's) names text layers only."""
    from collate.model import Layer

    text_layers = [x.value for x in Layer if x.is_text]
    if any(x not in text_layers for x in layers):
        raise ProjectError(
            f"`layers` must list text layers, got {list(layers)!r}",
            where=where,
            hint="choose from " + ", ".join(text_layers),
        )


def check_witness_layers(witnesses: Iterable[WitnessConfig], layers: tuple[str, ...], lines: FileLines) -> None:
    """A witness's own ``layers`` are some of the project's: otherwise it is collated nowhere.

    Such a witness would still be listed in the apparatus, as a witness that agrees everywhere.
    """
    for i, w in enumerate(witnesses):
        if w.layers is None:
            continue
        where = lines.at("witness", i, "layers")
        if not w.layers:
            raise ProjectError(
                f"`layers` of witness {w.siglum} is empty: it would be collated in no layer",
                where=where,
                hint='name the layers it has, e.g. layers = ["jing"], or leave `layers` out for all',
            )
        if not set(w.layers) & set(layers):
            raise ProjectError(
                f"`layers` of witness {w.siglum} ({', '.join(w.layers)}) names none of the layers the project "
                f"collates ({', '.join(layers)}): it would be collated nowhere",
                where=where,
                hint="add its layers to the project's `layers`, or correct the witness's",
            )


__all__ = ["check_layers", "check_witness_layers", "check_witnesses"]
