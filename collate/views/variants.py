"""Variant readings as the terminal views write them: which are shown, and in what marks.

``collate diff`` (:mod:`collate.views.diff`), its ``--list`` (:mod:`collate.views.loci`) and the
review app write a reading alike: each class in its colour (:data:`CLASS_STYLE`) and with its
mark (:data:`CLASS_MARK`), an empty reading as ``∅``, an addition as ``+算``, a place as editors
cite it, the editor's decision as a sign. :class:`DiffFilter` chooses the readings shown; asked
to (``fold``), it folds the loci where witnesses differ only in graphs (異體) into a count, so that
the readings come first. A reading that differs only by script (賓/宾) is never shown, as on the
HTML page (:func:`~collate.apparatus.is_script_only`).
Witness text is always wrapped in ``Text`` (never markup), its control characters escaped
(:func:`~collate.model.inert.inert`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rich.text import Text

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass, is_script_only
from collate.model import Layer, SourceLocation
from collate.model.annotations import DecisionAction
from collate.model.citation import TERMINAL
from collate.model.inert import inert

# One colour per reading class (the review app uses the same, so an editor learns them once).
CLASS_STYLE: dict[ReadingClass, str] = {
    ReadingClass.SUBSTANTIVE: "bold red",
    ReadingClass.TRANSPOSITION: "bold magenta",
    ReadingClass.OMISSION: "bold yellow",
    ReadingClass.ADDITION: "bold green",
    ReadingClass.SCRIBAL_ERROR: "bold bright_red",
    ReadingClass.LOAN: "bold blue",
    ReadingClass.NOTATION: "magenta",
    ReadingClass.PLACEHOLDER: "bright_black",
    ReadingClass.ORTHOGRAPHIC: "cyan",
    ReadingClass.NOT_EXTANT: "dim",
}
# One character per class, the word a 校勘記 uses for it, after each reading: the class without
# colour (piped, NO_COLOR, a colour-blind reader). Every class has one, the commonest too, so a
# bracket without a mark is never read as one class or another, and grep finds each by its mark.
# Each class's one-character mark (文 倒 脫 衍 …), from the model's table of class names.
CLASS_MARK: dict[ReadingClass, str] = {c: c.mark for c in ReadingClass}
EMPTY = "∅"  # an empty reading: the witness lacks the text (or the base does, at an addition)


@dataclass(frozen=True, slots=True)
class DiffFilter:
    """Which readings to show: of these witnesses, classes and layers (empty: all).

    Readings of witnesses not extant at a place are not variants: they are shown only
    when ``not_extant`` is asked for by class. With ``fold``, and no class or cause asked for,
    a locus whose readings are all orthographic (異體: 爲/為) is left out (:meth:`folded` says
    which, for the count the views give instead); a locus with a reading of substance shows
    its orthographic readings too, since they are part of what the witnesses have there.
    """

    sigla: tuple[str, ...] = ()
    classes: tuple[ReadingClass, ...] = ()
    layers: tuple[Layer, ...] = ()
    causes: tuple[str, ...] = ()  # e.g. look-alike (形近), habit: only readings of these causes
    fold: bool = False

    def readings(self, locus: Locus) -> tuple[Reading, ...]:
        """The readings of ``locus`` this filter shows (each limited to the witnesses asked for).

        Where the base is not extant (text beyond a fragmentary base, a passage a quoting base
        skips) there is no variant to show, unless ``not_extant`` is asked for. A folded locus
        shows none.
        """
        out = self._selected(locus)
        return () if self._folds(out) else out

    def folded(self, locus: Locus) -> bool:
        """True if the filter folds ``locus`` into the count of orthographic loci instead of showing it."""
        return self._folds(self._selected(locus))

    def _folds(self, readings: tuple[Reading, ...]) -> bool:
        # Asked for a class or a cause (a taboo form is orthographic), the user chose what to see.
        if not self.fold or self.classes or self.causes:
            return False
        return bool(readings) and all(r.cls is ReadingClass.ORTHOGRAPHIC for r in readings)

    def _selected(self, locus: Locus) -> tuple[Reading, ...]:
        base_absent = locus.cls is ReadingClass.NOT_EXTANT
        if base_absent and ReadingClass.NOT_EXTANT not in self.classes:
            return ()
        out = []
        for r in locus.readings:
            if self.classes and r.cls not in self.classes and not base_absent:
                continue
            if not self.classes and r.cls is ReadingClass.NOT_EXTANT:
                continue
            if self.causes and (r.cause or "") not in self.causes:
                continue
            if is_script_only(r):
                continue
            if self.sigla:
                ws = tuple(w for w in r.witnesses if w.siglum in self.sigla)
                if not ws:
                    continue
                r = Reading(r.norm, r.cls, ws, r.cause, r.rules, r.source, r.derived)
            out.append(r)
        return tuple(out)

    def shows_layer(self, layer: Layer) -> bool:
        """True if the layer is asked for."""
        return not self.layers or layer in self.layers

    @property
    def narrows(self) -> bool:
        """True if it asks for some witnesses, classes, layers or causes: then only their loci are of interest."""
        return bool(self.sigla or self.classes or self.layers or self.causes)


def cite(loc: SourceLocation | None) -> str:
    """A place as editors cite it: printed page and line (``3b.1``) if known, else the file's ``line:col``."""
    return TERMINAL.cite(loc)


def shown_reading(text: str, addition: bool) -> str:
    """A reading as the views write it: ``+算`` at an addition, ``∅`` for an empty one (inert)."""
    return inert(f"+{text}" if addition and text else (text or EMPTY))


def reading_text(reading: Reading, addition: bool, *, mark: bool = True) -> Text:
    """``ZS 盤 異`` / ``DD +算 衍`` / ``ZS ∅ 脫``: the witnesses, the reading in its class's colour,
    and the class's mark (unless ``mark`` is False: a table gives the class a column of its own)."""
    style = CLASS_STYLE.get(reading.cls, "")
    out = Text.assemble((inert(" ".join(reading.sigla)), "bold"), " ", (shown_reading(reading.text, addition), style))
    if mark:
        out.append(f" {CLASS_MARK[reading.cls]}", style=style)
    return out


def decision_mark(locus: Locus) -> Text:
    """What the editor decided, after the brackets: ✓ kept, →DD adopted, ✎ reclassified, 存疑 doubtful."""
    d = locus.decision
    out = Text()
    if d is None:
        return out
    if d.adopted is not None and d.siglum:
        out.append(f"→{inert(d.siglum, keep='')}", style="bold green")
    elif DecisionAction.KEEP in d.actions:
        out.append("✓", style="bold green")
    if d.reclassified:
        out.append("✎", style="bold green")
    if d.doubtful:
        out.append("存疑", style="bold yellow")
    return out


def shown_layers(collation: Collation, view: DiffFilter) -> Iterator[LayerResult]:
    """The layers of the collation the filter asks for, in order."""
    return (r for r in collation.layers if view.shows_layer(r.layer))
