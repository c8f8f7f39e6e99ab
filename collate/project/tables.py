"""The project file as it is written: one record per table, each key with its type.

msgspec converts the parsed TOML into these records and refuses what does not fit: a key no
stage reads (``forbid_unknown_fields``), a value of the wrong type. Each key says in its
``Meta`` what it must be and gives an example, for the message that refuses it. What a type
cannot say (a siglum's syntax, a file that exists, a layer's name) is checked on the records
afterwards (:mod:`collate.project.checks`).

A stage's table (``[normalize]``, ``[notes]`` …) is checked here for its shape only: the stage
reads its own settings from :attr:`Project.sections <collate.project.records.Project.sections>`.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from collate.project.records import DEFAULT_LAYERS


def _must(what: str, example: str) -> Meta:
    """What a key must be, as its message says it, and a line of TOML that is right."""
    return Meta(description=what, examples=[example])


_STRING = "a string"


# Each table is frozen and holds its fields only: a key no stage reads is refused, never dropped.
class WitnessTable(Struct, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A ``[[witness]]`` table: one file collated, and how it is read."""

    # kw_only: the keys keep the order they are documented in, the required `path` after `label`.
    siglum: Annotated[str, _must(_STRING, 'siglum = "SK"')]
    label: Annotated[str, _must(_STRING, 'label = "四庫全書本"')] | None = None
    path: Annotated[str, _must(_STRING, 'path = "siku/liji.txt"')]
    layout: Annotated[str, _must(_STRING, 'layout = "auto"')] = "auto"
    container: Annotated[str, _must(_STRING, 'container = "auto"')] = "auto"
    encoding: Annotated[str, _must("the name of an encoding", 'encoding = "gb18030"')] | None = None
    notes: Annotated[str, _must(_STRING, 'notes = "…"')] = ""
    bibl: Annotated[str, _must(_STRING, 'bibl = "…"')] = ""
    artifacts: Annotated[tuple[str, ...], _must("a list of characters", 'artifacts = ["防"]')] = ()
    layers: Annotated[tuple[str, ...], _must("a list of text layers", 'layers = ["jing"]')] | None = None
    quotes: Annotated[bool, _must("true or false", "quotes = true")] = False
    facs: Annotated[str, _must(_STRING, 'facs = "https://example.org/scans/{id}.jpg"')] = ""


# One character for another: a variant and its standard form, a loan and the character it stands for.
_Pairs = dict[str, Annotated[str, _must("a character", '"髙" = "高"')]]


class NormalizeTable(Struct, frozen=True, forbid_unknown_fields=True):
    """``[normalize]``: its keys are the normalizer's (``collate.normalize.config``); None: not written."""

    rules: Annotated[tuple[str, ...], _must("a list of rule names", 'rules = ["placeholder", "script"]')] | None = None
    semantic: Annotated[bool, _must("true or false", "semantic = true")] | None = None
    script: Annotated[str, _must("the name of a conversion", 'script = "t2s"')] | None = None
    taboo_eras: Annotated[tuple[str, ...], _must("a list of eras", 'taboo_eras = ["qing"]')] | None = None
    variants: Annotated[_Pairs, _must("a table of variant = standard", "[normalize.variants]")] | None = None
    variant_tables: Annotated[tuple[str, ...], _must("a list of files", 'variant_tables = ["v.tsv"]')] | None = None
    never_fold: Annotated[tuple[str, ...], _must("a list of groups", 'never_fold = ["己已巳"]')] | None = None
    loans: Annotated[_Pairs, _must("a table of loan = original", "[normalize.loans]")] | None = None


# A name of ``[notes.lexicon]``: the witness it names, several, or "" (a name known without a witness).
_Sigla = Annotated[str | tuple[str, ...], _must("a siglum or a list of sigla", '"大戴礼" = "DD"')]


class NotesTable(Struct, frozen=True, forbid_unknown_fields=True):
    """``[notes]``: the names the notes use, for the claims the notes stage checks."""

    lexicon: dict[str, _Sigla] | None = None
    authors: dict[str, Annotated[str, _must("a name", '"蕙田案" = "秦蕙田"')]] | None = None


class ReviewTable(Struct, frozen=True, forbid_unknown_fields=True):
    """``[review]``: who reviews, and where the decisions are kept."""

    editor: Annotated[str, _must("a name on one line", 'editor = "王"')] | None = None
    decisions: Annotated[str, _must("the path of a file", 'decisions = "decisions.toml"')] | None = None
    decisions_outside: Annotated[bool, _must("true or false", "decisions_outside = true")] = False


class LimitsTable(Struct, frozen=True, forbid_unknown_fields=True):
    """``[limits]``: how large a witness may be before a run refuses it."""

    characters: Annotated[int, Meta(gt=0), _must("a positive whole number", "characters = 5_000_000")] | None = None
    # A float, which takes a whole number too.
    ratio: Annotated[float, Meta(gt=0), _must("a positive number", "ratio = 50")] | None = None


class ProjectTable(Struct, frozen=True, forbid_unknown_fields=True):
    """The whole file: the settings, the witnesses, and the stages' tables."""

    title: Annotated[str, _must(_STRING, 'title = "投壺"')] = "collation"
    name: Annotated[str, _must(_STRING, 'name = "touhu"')] = "collation"
    base: Annotated[str, _must(_STRING, 'base = "SK"')] | None = None
    witness: Annotated[tuple[WitnessTable, ...], _must("a list of tables", "[[witness]]")] = ()
    gaiji_table: Annotated[str, _must(_STRING, 'gaiji_table = "charlist.org.txt"')] = ""
    layers: Annotated[tuple[str, ...], _must("a list of text layers", 'layers = ["jing", "zhu"]')] = DEFAULT_LAYERS
    work: Annotated[str | tuple[str, ...], _must("a work's name or a list of them", 'work = "禮記射義"')] = ""
    shelf: Annotated[str | tuple[str, ...], _must("a list of folder paths", 'shelf = ["editions/"]')] = ()
    normalize: NormalizeTable | None = None
    notes: NotesTable | None = None
    review: ReviewTable | None = None
    limits: LimitsTable | None = None


# --- Keys: every key of the project file is one a stage reads ---------------------------

# The stages' tables, each its record; the other keys of the file are the settings.
SECTIONS: dict[str, type[Struct]] = {
    "normalize": NormalizeTable,
    "notes": NotesTable,
    "review": ReviewTable,
    "limits": LimitsTable,
}
SETTINGS = tuple(key for key in ProjectTable.__struct_fields__ if key not in SECTIONS)
WITNESS_KEYS = WitnessTable.__struct_fields__
# The stages' tables and the keys each reads; None: the keys are the table's own data (names).
SECTION_KEYS: dict[str, tuple[str, ...] | None] = {
    "normalize": NormalizeTable.__struct_fields__,
    "notes": NotesTable.__struct_fields__,
    "notes.lexicon": None,
    "notes.authors": None,
    "review": ReviewTable.__struct_fields__,
    "limits": LimitsTable.__struct_fields__,
}

__all__ = [
    "SECTIONS",
    "SECTION_KEYS",
    "SETTINGS",
    "WITNESS_KEYS",
    "LimitsTable",
    "NormalizeTable",
    "NotesTable",
    "ProjectTable",
    "ReviewTable",
    "WitnessTable",
]
