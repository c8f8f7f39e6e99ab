"""A project's regularizations: a witness's graph counted as the base's, in some witnesses and layers or in all.

An editor reviewing a locus may say "read 萹 as 篇 here and everywhere" (``collate review``, key
``r``), as the ITSEE Collation Editor's regularization rules say it. The rule is a variant table
of the project, named in ``[normalize] variant_tables`` as any table is, but written in TOML so
that each rule keeps who made it and when, and may hold only in some witnesses or some layers::

    version = 1

    [[regularization]]
    id = "4912ecdaea"         # random: two editors' tables merge without clashes
    variant = "萹"             # read as …
    standard = "篇"            # … this, from now on an orthographic difference (異體)
    witnesses = ["ZS"]         # optional: only in these witnesses (none: every witness)
    layers = ["jing"]          # optional: only in these layers (none: every layer)
    editor = "王"
    when = "2024-05-01T10:00:00+08:00"
    locus = "jing-00012"       # where it was made (information only)

A rule of every witness and every layer is a project variant pair like those of ``variants = {…}``
(its variant joins the standard's class, :class:`~collate.normalize.tables.VariantPair`); a rule
of some witnesses or layers is a :class:`ScopedPair`, which the normalizer applies to those
tokens alone (a class cannot hold for one witness only). Reading the table never guesses: a key it
does not know (``witness`` for ``witnesses`` would make a rule of one witness hold in all) or a
malformed value is a :class:`ProjectError` at ``file:line``.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from collate.errors import ProjectError
from collate.files import parse_toml, read_utf8
from collate.model import Layer
from collate.normalize.tables import PROJECT, VariantPair

REGULARIZATIONS_FILE = "regularizations.toml"
TABLE_KEY = "regularization"
VERSION_KEY = "version"
FORMAT_VERSION = 1
KEYS = ("id", "variant", "standard", "witnesses", "layers", "editor", "when", "locus", "comment")
UTF8_HINT = "TOML files are UTF-8: save the table as UTF-8"
_HEADER = re.compile(r"\s*\[\[\s*regularization\s*\]\]")
_TEXT_LAYERS = tuple(layer.value for layer in Layer if layer.is_text)


def is_regularization_table(name: str) -> bool:
    """Whether a table named in ``variant_tables`` is a regularization table (TOML), not a TSV one."""
    return name.lower().endswith(".toml")


@dataclass(frozen=True, slots=True)
class Regularization:
    """One rule: ``variant`` is read as ``standard`` in ``witnesses`` and ``layers`` (empty: all of them)."""

    id: str
    variant: str
    standard: str
    witnesses: tuple[str, ...] = ()
    layers: tuple[str, ...] = ()
    editor: str = ""
    when: str = ""
    locus: str = ""
    comment: str = ""

    @property
    def everywhere(self) -> bool:
        """True for a rule of every witness and every layer: a variant pair of the project."""
        return not self.witnesses and not self.layers

    def holds(self, siglum: str, layer: str) -> bool:
        """Whether the rule applies to a token of ``siglum``'s layer ``layer`` (its value: ``jing``)."""
        return in_scope(self.witnesses, self.layers, siglum, layer)


def in_scope(witnesses: Collection[str], layers: Collection[str], siglum: str, layer: str) -> bool:
    """Whether a rule of ``witnesses`` and ``layers`` (empty: all) applies to ``siglum``'s layer ``layer``."""
    return (not witnesses or siglum in witnesses) and (not layers or layer in layers)


@dataclass(frozen=True, slots=True)
class ScopedPair:
    """``variant`` is ``standard`` in the tokens of ``witnesses`` and ``layers`` only (empty: all).

    Applied by the normalizer token by token, before the variant classes: the token gets the
    standard's key and a ``variant-graph`` change naming ``source``.
    """

    variant: str
    standard: str
    source: str
    witnesses: frozenset[str] = frozenset()
    layers: frozenset[str] = frozenset()

    def holds(self, siglum: str, layer: str) -> bool:
        """Whether the pair applies to a token of ``siglum``'s layer ``layer``."""
        return in_scope(self.witnesses, self.layers, siglum, layer)


def as_pairs(rules: tuple[Regularization, ...], source: str) -> tuple[tuple[VariantPair, ...], tuple[ScopedPair, ...]]:
    """The rules as the normalizer takes them: variant pairs of the project, and scoped pairs."""
    pairs = tuple(VariantPair(r.variant, r.standard, source, "variant-graph", PROJECT) for r in rules if r.everywhere)
    scoped = tuple(
        ScopedPair(r.variant, r.standard, source, frozenset(r.witnesses), frozenset(r.layers))
        for r in rules
        if not r.everywhere
    )
    return pairs, scoped


def read_regularizations(path: Path, shown: str | None = None) -> tuple[Regularization, ...]:
    """The rules of the table at ``path``; a missing or malformed table is a :class:`ProjectError`."""
    where = shown or str(path)
    try:
        text = read_utf8(path, where, hint=UTF8_HINT)
    except FileNotFoundError:
        raise ProjectError("table not found", where=where) from None
    except OSError as exc:
        raise ProjectError(f"table cannot be read: {exc.strerror or exc}", where=where) from None
    return parse_regularizations(text, where)


def parse_regularizations(text: str, where: str) -> tuple[Regularization, ...]:
    """The rules of a regularization table's text (an empty text, or comments only, holds none)."""
    data = parse_toml(text, where, hint=UTF8_HINT)
    check_table(data, where)
    entries = data.get(TABLE_KEY, [])
    lines = [i + 1 for i, line in enumerate(text.splitlines()) if _HEADER.match(line)]
    out = []
    for k, entry in enumerate(entries):
        out.append(_rule(entry, f"{where}:{lines[k]}" if k < len(lines) else where))
    return tuple(out)


def check_table(data: Mapping[str, Any], where: str) -> None:
    """Refuse what is not a regularization table this collate reads: other keys, no or a newer version."""
    others = [key for key in data if key not in (VERSION_KEY, TABLE_KEY)]
    if others:
        raise ProjectError(
            "not a regularization table: it has " + ", ".join(f"`{k}`" for k in others),
            where=where,
            hint=f"a regularization table has `{VERSION_KEY} = {FORMAT_VERSION}` and [[{TABLE_KEY}]] tables only",
        )
    if not data:
        return
    version = data.get(VERSION_KEY)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ProjectError(
            f"`{VERSION_KEY}` must be a whole number from 1, not {version!r}",
            where=where,
            hint=f"collate writes `{VERSION_KEY} = {FORMAT_VERSION}` at the top of the table",
        )
    if version > FORMAT_VERSION:
        raise ProjectError(
            f"regularization table version {version} is newer than this collate knows ({FORMAT_VERSION})",
            where=where,
            hint="upgrade collate",
        )
    entries = data.get(TABLE_KEY, [])
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise ProjectError(f"`{TABLE_KEY}` must be an array of tables ([[{TABLE_KEY}]])", where=where)


def _rule(entry: Mapping[str, Any], where: str) -> Regularization:
    unknown = [key for key in entry if key not in KEYS]
    if unknown:
        raise ProjectError(
            "unknown key " + ", ".join(f"`{k}`" for k in unknown),
            where=where,
            hint="known keys: " + ", ".join(KEYS),
        )
    variant, standard = _text(entry, "variant", where), _text(entry, "standard", where)
    if len(variant) != 1 or len(standard) != 1 or variant == standard:
        raise ProjectError(
            f"{variant!r} → {standard!r} is not one character read as another",
            where=where,
            hint="a regularization maps one character to another",
        )
    layers = _names(entry, "layers", where)
    for layer in layers:
        if layer not in _TEXT_LAYERS:
            raise ProjectError(f"unknown layer {layer!r}", where=where, hint="text layers: " + ", ".join(_TEXT_LAYERS))
    return Regularization(
        id=_text(entry, "id", where, required=False),
        variant=variant,
        standard=standard,
        witnesses=_names(entry, "witnesses", where),
        layers=layers,
        editor=_text(entry, "editor", where, required=False),
        when=_text(entry, "when", where, required=False),
        locus=_text(entry, "locus", where, required=False),
        comment=_text(entry, "comment", where, required=False),
    )


def _text(entry: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> str:
    value = entry.get(key)
    if value is None:
        if required:
            raise ProjectError(f"`{key}` is missing", where=where)
        return ""
    if not isinstance(value, str):
        raise ProjectError(f"`{key}` must be a string, not {type(value).__name__}", where=where)
    return value


def _names(entry: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ProjectError(f"`{key}` must be a list of names", where=where, hint=f'e.g. {key} = ["…"]')
    return tuple(value)


__all__ = [
    "FORMAT_VERSION",
    "REGULARIZATIONS_FILE",
    "TABLE_KEY",
    "Regularization",
    "ScopedPair",
    "as_pairs",
    "is_regularization_table",
    "parse_regularizations",
    "read_regularizations",
]
