"""The review's regularizations: a rule made at a locus, kept in the project's table, undone like a decision.

:class:`Regularizing` is the half of :class:`~collate.review.session.ReviewSession` that makes
regularization rules (key ``r`` in the app): it checks that the project can keep one, finds the
pair of characters at the locus (:func:`~collate.review.regularize.pair_at`), writes the rule to
the project's table and names the table in the project file (:mod:`collate.decisions.regularizations`),
then the session folds the loci the rule folds until the next run (:func:`~collate.review.regularize.fold_pending`).
Each rule is one entry of the session's history, with the decisions (undone and redone here, both
kinds alike), so ``u`` takes it out of the table again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

from collate.apparatus import Collation, Locus
from collate.decisions.anchors import new_id
from collate.decisions.history import Change, History
from collate.decisions.regularizations import change_regularizations, name_table, table_name
from collate.errors import CollateError
from collate.normalize.config import never_fold_of
from collate.normalize.regularizations import Regularization
from collate.normalize.tables import NeverFold, read_never_fold
from collate.project import Project
from collate.review.regularize import Mark, Pair, Pending, RuleChange, fold_pending, pair_at

# The shipped table of pairs that never fold, read once (a review asks at every r).
_shipped_never_fold = cache(read_never_fold)


class Refused(Exception):
    """A change the session will not make, and why: ``key`` names the words (:mod:`collate.review.texts`)."""

    def __init__(self, key: str, **names: str) -> None:
        super().__init__(key)
        self.key = key
        self.names = names


class Regularizing:
    """The rules a review makes, pending a run; mixed into the session, whose state it reads and refreshes."""

    project: Project | None
    raw: Collation
    editor: str
    clock: Callable[[], str]
    history: History[Change | RuleChange]
    pending: tuple[Pending, ...]
    marks: tuple[Mark, ...]

    def _refresh(self) -> None:
        raise NotImplementedError  # the session's: the loci again, with the pending rules folded

    def _commit(self, change: Change) -> None:
        raise NotImplementedError  # the session's: a change of the decisions file

    # The history holds both kinds of change: a decision's and a rule's are undone alike.

    def _apply(self, change: Change | RuleChange) -> None:
        if isinstance(change, RuleChange):
            self._commit_rules(change)
        else:
            self._commit(change)

    def undo(self) -> Change | RuleChange | None:
        """Take back the latest change not undone (the file is changed first); None if there is none.

        A regularization's undo takes its rule out of the table again.
        """
        if not self.history.done:
            return None
        change = self.history.done[-1]
        self._apply(change.inverse())
        self.history.undone.append(self.history.done.pop())
        return change

    def redo(self) -> Change | RuleChange | None:
        """Make the latest undone change again; None if there is none."""
        if not self.history.undone:
            return None
        change = self.history.undone[-1]
        self._apply(change)
        self.history.done.append(self.history.undone.pop())
        return change

    def rule_table(self) -> Path:
        """The project's regularization table (:func:`~collate.decisions.regularizations.table_name`)."""
        project = self._regularizing_project()
        return project.resolve(Path(table_name(project)))

    def _regularizing_project(self) -> Project:
        project = self.project
        if project is None or project.source is None:
            # Files given on the command line have no project file to name the table in.
            raise Refused("refused_no_project")
        section = project.sections.get("normalize")
        rules = section.get("rules") if isinstance(section, dict) else None
        if isinstance(rules, list) and "variant-graph" not in rules:
            # A regularization is the graphic rule's: with it switched off no run would apply one.
            raise Refused("refused_no_variant_rule")
        return project

    def pair(self, locus: Locus, siglum: str) -> Pair:
        """The characters a rule at ``locus`` for ``siglum``'s reading is made of (:class:`Refused` if none)."""
        if any(m.at(locus) and m.siglum == siglum for m in self.marks):
            raise Refused("refused_pending")
        found = pair_at(locus, siglum)
        if isinstance(found, str):
            raise Refused(found)
        a, b = found.standard.t, found.variant.t
        if any(p.key == frozenset((a, b)) for p in self._never_fold()):
            raise Refused("refused_never_fold", pair=f"{b}/{a}")
        return found

    def _never_fold(self) -> tuple[NeverFold, ...]:
        # The project's groups as its run read them (checked there), after the shipped table.
        section = self.project.sections.get("normalize") if self.project is not None else None
        where = str(self.project.source) if self.project is not None else ""
        own = never_fold_of(section, where) if isinstance(section, dict) else ()
        return (*_shipped_never_fold(), *own)

    def rule_at(self, locus: Locus, siglum: str, *, this_witness: bool = False, this_layer: bool = False) -> Pending:
        """The rule :meth:`regularize` would make (not saved), with its keys."""
        pair = self.pair(locus, siglum)
        rule = Regularization(
            id=new_id(),
            variant=pair.variant.t,
            standard=pair.standard.t,
            witnesses=(siglum,) if this_witness else (),
            layers=(locus.layer.value,) if this_layer else (),
            editor=self.editor,
            when=self.clock(),
            locus=locus.id,
        )
        return Pending(rule, pair.variant.n, pair.standard.n)

    def folded_by(self, rule: Pending) -> tuple[int, int]:
        """How many loci ``rule`` folds (turns a reading orthographic), and how many witnesses' readings,
        with the pending ones; made or not yet."""
        marks = self.marks if rule in self.pending else fold_pending(self.raw, (*self.pending, rule))[1]
        mine = [m for m in marks if rule.rule.id in m.rules]
        return len({(m.layer, m.col_start) for m in mine}), len(mine)

    def regularize(self, locus: Locus, siglum: str, *, this_witness: bool = False, this_layer: bool = False) -> Pending:
        """Read ``siglum``'s character at ``locus`` as the base's, in that witness or all, that layer or all.

        The rule is saved in the project's regularization table, and the table named in the project
        file's ``[normalize] variant_tables`` if it is not yet (:mod:`collate.decisions.regularizations`),
        before anything else changes; the loci it folds are then orthographic here, pending the next
        run (:func:`~collate.review.regularize.fold_pending`). :class:`Refused` where no rule can be
        made there; if a file cannot be written the error propagates and the session is as it was.
        """
        project = self._regularizing_project()
        made = self.rule_at(locus, siglum, this_witness=this_witness, this_layer=this_layer)
        change = RuleChange((made,), (), locus.id)
        self._commit_rules(change)
        name = table_name(project)
        assert project.source is not None
        try:
            name_table(project.source, name)
        except CollateError:
            # Unnamed, the table would hold a rule no run applies: it is taken out again.
            self._commit_rules(change.inverse())
            raise
        self.history.made(change)
        return made

    def _commit_rules(self, change: RuleChange) -> None:
        # Written first: if the write fails the error propagates and the session is as it was.
        change_regularizations(
            self.rule_table(),
            put=[p.rule for p in change.put],
            remove={p.rule.id for p in change.remove},
            title=self.raw.title,
        )
        gone = {p.rule.id for p in change.remove}
        self.pending = tuple(p for p in self.pending if p.rule.id not in gone) + change.put
        self._refresh()

    def pending_at(self, locus: Locus) -> tuple[tuple[str, Pending], ...]:
        """The pending rules that fold a reading at ``locus``: (the witness, the rule), in the order made."""
        by_id = {p.rule.id: p for p in self.pending}
        return tuple(
            dict.fromkeys((m.siglum, by_id[r]) for m in self.marks if m.at(locus) for r in m.rules if r in by_id)
        )
