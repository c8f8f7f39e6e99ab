"""Closed sets on the command line by name: layers, reading classes, causes — in English or in Chinese.

The option types, and the options ``diff`` and ``review`` take them by. Not in :mod:`~collate.cli.common`,
which every command imports: their help lists every member, so defining them loads :mod:`collate.model`,
which ``collate run --help`` has no need of.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import Enum
from typing import TYPE_CHECKING, Any

import click
from click.shell_completion import CompletionItem

from collate.model import Cause, Layer, ReadingClass

if TYPE_CHECKING:
    _ParamType = click.ParamType[Enum]
else:
    # Generic from click 8.4 on: subscripted at run time, it would fail on the older ones we allow.
    _ParamType = click.ParamType


class Named(_ParamType):
    """A member of a closed set, named in English or in Chinese (``jing`` or 經), or by the start of a name.

    An editor types what the apparatus shows her: the Chinese names are as good as the English
    ones. A start of a name (``sub``, 異) will do where it begins the names of one member alone;
    where it begins several, they are listed, as every valid name is for a name that is none.
    """

    def __init__(self, name: str, what: str, members: Iterable[Enum], names: Callable[[Any], tuple[str, ...]]) -> None:
        self.name = name
        self._what = what
        # The first two names of each member are shown (English, Chinese); any others are accepted too.
        self._shown = {m: " ".join(names(m)[:2]) for m in members}
        self._names = {_folded(n): m for m in self._shown for n in names(m)}

    @property
    def listing(self) -> str:
        """Every member by its two names, as help and errors list them: ``jing 經, zhu 注, …``."""
        return ", ".join(self._shown.values())

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Enum:
        """The member ``value`` names (or begins the names of, alone); else a usage error listing the candidates."""
        if isinstance(value, Enum) and value in self._shown:
            return value
        key = _folded(str(value))
        if key in self._names:
            return self._names[key]
        found = list(dict.fromkeys(m for n, m in self._names.items() if key and n.startswith(key)))
        if len(found) == 1:
            return found[0]
        if found:
            could = ", ".join(self._shown[m] for m in found[:-1]) + f" or {self._shown[found[-1]]}"
            self.fail(f"{value!r} is ambiguous: it could be {could}; type more of the name", param, ctx)
        self.fail(f"{value!r} is no {self._what}: choose from {self.listing}", param, ctx)

    def shell_complete(self, ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        """The names that begin with what is typed, both languages."""
        key = _folded(incomplete)
        return [CompletionItem(n) for n in self._names if n.startswith(key)]


def _folded(name: str) -> str:
    # `scribal error`, `scribal-error` and `Scribal_Error` are one name; Chinese has no case to fold.
    return re.sub(r"[\s_-]+", "_", name.strip()).casefold()


# The text layers by value (jing), Chinese name (經) and the name over the edition's section (諸家說).
LAYER = Named("layer", "text layer", (x for x in Layer if x.is_text), lambda x: (x.value, x.chinese, x.edition_name))
# Reading classes by value (scribal_error), Chinese name (訛誤) and the English interface's (score notation).
READING_CLASS = Named("class", "reading class", ReadingClass, lambda c: (c.value, c.chinese, c.english))
CAUSE = Named("cause", "cause", Cause, lambda c: (c.value, c.chinese))

# Readings of some classes, loci of some layers alone, in diff.
class_option = click.option(
    "--class",
    "classes",
    multiple=True,
    type=READING_CLASS,
    help=f"Show only readings of this class (repeatable; a name or its start): {READING_CLASS.listing}.",
)
layer_option = click.option(
    "--layer",
    "layers",
    multiple=True,
    type=LAYER,
    help=f"Show only this layer (repeatable; a name or its start): {LAYER.listing}.",
)
# Readings of one cause alone (look-alike: the graphic confusions, 形近), in diff and review.
cause_option = click.option(
    "--cause",
    "causes",
    multiple=True,
    type=CAUSE,
    help=f"Only the places with a reading of this cause (repeatable; a name or its start): {CAUSE.listing}.",
)
