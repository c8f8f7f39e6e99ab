"""Undo and redo for a review: each change to the decisions file, and how to take it back.

A change puts decisions (new ones, or new versions of some by id) and removes others by id.
Undoing it puts back the versions it replaced or removed and removes the decisions it added;
both go through the file's locked read-merge-write like any change
(:func:`~collate.decisions.file.change_decisions`), so an undo takes back only this review's
change, never another writer's decisions made since.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from collate.decisions.anchors import Decision


@dataclass(frozen=True, slots=True)
class Change:
    """One change to the decisions file: ``put`` added or replaced by id, ``remove`` ids taken out.

    ``prior`` holds the versions the file had of the decisions it replaced or removed; ``locus``
    is the locus it was made at and ``what`` what it did (``keep``, ``merge``, ``drop`` …), so
    that an undo can go back there and say what it undid.
    """

    put: tuple[Decision, ...]
    remove: frozenset[str]
    prior: tuple[Decision, ...]
    locus: str
    what: str

    @classmethod
    def of(
        cls, held: Iterable[Decision], put: Iterable[Decision], remove: Iterable[str], locus: str, what: str
    ) -> Change:
        """The change that puts ``put`` and removes ``remove`` from a file holding ``held``."""
        put, remove = tuple(put), frozenset(remove)
        touched = {d.id for d in put} | remove
        return cls(put, remove, tuple(d for d in held if d.id in touched), locus, what)

    def inverse(self) -> Change:
        """The change that takes this one back."""
        before = {d.id for d in self.prior}
        added = frozenset(d.id for d in self.put if d.id not in before)
        return Change(self.prior, added, self.put, self.locus, self.what)


# What a history holds: a change of the decisions file, or (a review's) of another file it keeps.
Entry = TypeVar("Entry")


@dataclass(slots=True)
class History(Generic[Entry]):
    """The changes made, to undo from the latest, and those undone, to redo."""

    done: list[Entry] = field(default_factory=list)
    undone: list[Entry] = field(default_factory=list)

    def made(self, change: Entry) -> None:
        """A new change: it can be undone, and nothing undone before it can be redone any more."""
        self.done.append(change)
        self.undone.clear()
