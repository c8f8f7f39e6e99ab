"""Taboo forms (避諱): a Qing print writes 元 for 玄, 宏 for 弘, 歷 for 曆, 邱 for 丘.

The rule maps the taboo character to its substitute in every witness, so a print that avoids
the name and one that does not compare equal, and the change says which name was avoided.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from collate.errors import ProjectError
from collate.model import ChangeClass
from collate.normalize.tables import TabooForm

DEFAULT_ERAS = ("qing",)


class TabooRule:
    """Maps taboo characters of the chosen eras to their substitutes."""

    name = "taboo"
    cls = ChangeClass.TABOO
    description = "taboo characters (避諱) compare equal to the characters written in their place"

    def __init__(
        self,
        forms: Iterable[TabooForm],
        eras: Iterable[str] = DEFAULT_ERAS,
        image: Callable[[str], str] | None = None,
    ) -> None:
        forms = tuple(forms)
        known = sorted({f.era for f in forms})
        self.eras = tuple(eras)
        for era in self.eras:
            if era not in known:
                raise ProjectError(f"unknown taboo era {era!r}", hint="known eras: " + ", ".join(known))
        self.table = {f.taboo: (f.substitute, f"避諱 {f.name}") for f in forms if f.era in self.eras}
        if image is not None:
            # A simplified witness writes the taboo character simplified (烨 for 燁): that form
            # is avoided too.
            for taboo, (substitute, why) in list(self.table.items()):
                form = image(taboo)
                if len(form) == 1 and form != taboo and form not in self.table:
                    self.table[form] = (substitute, f"{why}, simplified {form}")
        self.source = f"collate/data/taboo.tsv (陳垣《史諱舉例》), eras: {', '.join(self.eras) or 'none'}"

    def apply(self, char: str) -> tuple[str, str] | None:
        """The substitute for a taboo character, with the name avoided; None otherwise."""
        return self.table.get(char)
