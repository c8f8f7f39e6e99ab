"""A review in progress: the collation as run, the decisions file, the editor — no screen.

The terminal app (:mod:`collate.review.app`) only reads keys and draws; everything it
decides goes through the session (:meth:`ReviewSession.decide`, ``merge``, ``split``,
``undo`` …), which writes the decisions file atomically before the session's state changes,
so what the screen shows is on disk. Each change is one entry of the session's history, to
undo and redo (:mod:`collate.decisions.history`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass
from collate.decisions.apply import ApplyReport, apply_all, reviewable
from collate.decisions.file import (
    Decision,
    anchor_of,
    base_tokens,
    change_decisions,
    decisions_path,
    load_decisions,
    new_id,
    now,
    reading_key,
)
from collate.decisions.history import Change, History
from collate.decisions.orphans import Orphan, explain
from collate.decisions.regroup import Refusal, merge_refusal, next_locus, split_refusal
from collate.errors import ProjectError
from collate.model import Layer, SourceLocation, Witness
from collate.model.annotations import AttachedNote, DecisionAction
from collate.notes.records import Claim
from collate.project import Project
from collate.results import RunResult
from collate.review.context import Context, Glossed, Passage, Units
from collate.review.context import witness_context as witness_context
from collate.review.filters import LocusFilter, find_page
from collate.review.regularize import Mark, Pending, RuleChange, fold_pending
from collate.review.rules import Refused as Refused
from collate.review.rules import Regularizing
from collate.review.suggest import Suggestion, suggest

_NAMES_A_READING = (DecisionAction.ADOPT, DecisionAction.RECLASSIFY)


def default_editor(project: Project | None = None) -> str:
    """Who decides, when ``--editor`` is not given: the name the project declares, else no one ("").

    A project names its editor in ``[review] editor = "王"``: that is the name the 校勘記 and the
    TEI print with each decision, not whoever happens to be logged in. Where it names no one, a
    decision is recorded with no name: the login name is no name to publish.
    """
    section = project.sections.get("review") if project is not None else None
    declared = section.get("editor") if isinstance(section, dict) else None
    if declared is not None:
        if not isinstance(declared, str) or not declared.strip() or any(c < " " for c in declared):
            where = str(project.source or project.root) if project is not None else "project"
            raise ProjectError(
                f"[review] editor must be a name on one line, got {declared!r}", where=where, hint='e.g. editor = "王"'
            )
        return declared.strip()
    return ""


def pair_of(locus: Locus) -> tuple[str, tuple[str, ...]]:
    """What a batch decision matches on: the base's text and the texts of the variant readings."""
    return locus.lemma.text, tuple(sorted({r.text for r in locus.variants()}))


class ReviewSession(Regularizing):
    """The collation under review, with the decisions applied, and the means to change them.

    ``raw`` is the collation as run; ``shaped`` its loci as the editor merged and split them;
    ``collation`` that with every decision applied; ``loci`` the loci to review (with a real
    variant), in layer and base order; ``witnesses`` the witnesses as read, to cite the place
    of every witness's text; ``claims`` each note's claims (by note id), to word them and to
    suggest a decision from them. ``causes``, if any, keeps to review only the loci with a
    reading of one of them (``look-alike``: the graphic confusions, 形近).
    """

    def __init__(
        self,
        raw: Collation,
        path: Path,
        editor: str,
        decisions: Sequence[Decision] | None = None,
        clock: Callable[[], str] = now,
        witnesses: Mapping[str, Witness] | None = None,
        claims: Mapping[str, Sequence[Claim]] | None = None,
        causes: frozenset[str] = frozenset(),
        project: Project | None = None,
    ) -> None:
        self.raw = raw
        self.causes = causes
        # The project the run is of: where a regularization is kept (none: the review makes none).
        self.project = project
        self.witnesses: Mapping[str, Witness] = witnesses or {}
        self.claims: Mapping[str, Sequence[Claim]] = claims or {}
        self.path = path
        self.editor = editor
        self.clock = clock
        self.decisions: tuple[Decision, ...] = tuple(load_decisions(path) if decisions is None else decisions)
        self.history: History[Change | RuleChange] = History()
        # The regularizations made here, which the run has not seen, and the readings they fold.
        self.pending: tuple[Pending, ...] = ()
        self.marks: tuple[Mark, ...] = ()
        self.shaped: Collation = raw
        self.collation: Collation = raw
        self.report: ApplyReport = ApplyReport((), (), (), ())
        self.loci: tuple[Locus, ...] = ()
        # Indexed once per layer: the alignments never change, however the loci are cut.
        self._units: dict[Layer, Units] = {}
        self._glossed: Glossed | None = None
        self._refresh()

    def _locate(self, siglum: str, offset: int) -> SourceLocation | None:
        witness = self.witnesses.get(siglum)
        return witness.locate(offset) if witness is not None else None

    def _refresh(self) -> None:
        # The pending rules fold their readings first: the decisions then meet them as a run with
        # the rules would give them.
        folded, self.marks = fold_pending(self.raw, self.pending)
        self.shaped, self.collation, self.report = apply_all(folded, self.decisions, self._locate)
        self.loci = tuple(
            x
            for x in self.collation.loci()
            if reviewable(x) and (not self.causes or any(r.cause in self.causes for r in x.variants()))
        )

    # --- What a locus shows -------------------------------------------------------------

    def layer_of(self, locus: Locus) -> LayerResult:
        """The layer result ``locus`` belongs to (with decisions applied)."""
        result = self.collation.layer(locus.layer)
        assert result is not None, "every locus comes from a layer of the collation"
        return result

    def context(self, locus: Locus, siglum: str, width: int | None = 12) -> Context:
        """One witness's text at ``locus`` and around it, within the base's unit (None: the whole unit)."""
        result = self.layer_of(locus)
        units = self._units.get(locus.layer)
        if units is None:
            units = self._units[locus.layer] = Units.of(result)
        return witness_context(result, locus, siglum, width, self.witnesses, units)

    def glossed(self, locus: Locus) -> Passage | None:
        """The 經 passage a 注, 疏 or 釋文 locus explains (None for a locus of 經 itself)."""
        if self._glossed is None:
            self._glossed = Glossed(self.raw.layer(Layer.JING), self.witnesses)
        return self._glossed.of(self.layer_of(locus), locus)

    def claims_of(self, note: AttachedNote) -> Sequence[Claim]:
        """Every claim of ``note``, in its order (none if the notes stage was not at hand)."""
        return self.claims.get(note.id, ())

    def suggestion(self, locus: Locus) -> Suggestion | None:
        """The decision the notes on ``locus`` suggest, if any (:func:`~collate.review.suggest.suggest`)."""
        return suggest(locus, self.claims_of)

    def same_pair(self, locus: Locus) -> tuple[Locus, ...]:
        """Every locus to review with the same base text and variant texts (e.g. all 筭/算)."""
        key = pair_of(locus)
        return tuple(x for x in self.loci if pair_of(x) == key)

    def decisions_at(self, locus: Locus) -> tuple[Decision, ...]:
        """The decisions that apply to ``locus``, in the order made."""
        return self.report.decisions_at(locus.id)

    def orphans(self) -> tuple[Orphan, ...]:
        """Every orphaned decision, with why it fits no locus now."""
        return explain(self.shaped, self.report.orphans)

    # --- Finding loci -------------------------------------------------------------------

    def matching(self, view: LocusFilter) -> tuple[int, ...]:
        """The indices in ``loci`` of the loci ``view`` lets through."""
        return tuple(k for k, x in enumerate(self.loci) if view.matches(x, self._contexts))

    def hidden_graphs(self, view: LocusFilter) -> int:
        """How many loci ``view`` leaves out for differing only in graphs (異體) that it would show otherwise."""
        if view.graphs or view.classes:
            return 0
        shown = view.shown_graphs
        return sum(1 for x in self.loci if view.hides_graphs(x) and shown.matches(x, self._contexts))

    def _contexts(self, locus: Locus, width: int) -> list[Context]:
        return [self.context(locus, s, width) for s in locus.sigla]

    def next_undecided(self, after: int) -> int | None:
        """The index in ``loci`` of the next undecided locus after ``after`` (wrapping), if any."""
        n = len(self.loci)
        return next((k for step in range(1, n + 1) if self.loci[k := (after + step) % n].decision is None), None)

    def find_page(self, page: str) -> int | None:
        """The index of the first locus on base page ``page`` (e.g. ``3a``), else the first after it."""
        return find_page(self.loci, page)

    def index_of(self, locus_id: str, near: Locus | None = None) -> int | None:
        """The index of the locus ``locus_id``; if it is gone (merged, split), of the locus of
        ``near``'s layer that now holds its place (the first that ends after it starts)."""
        k = next((k for k, x in enumerate(self.loci) if x.id == locus_id), None)
        if k is None and near is not None:
            layer = [k for k, x in enumerate(self.loci) if x.layer is near.layer]
            later = [k for k in layer if self.loci[k].col_end > near.col_start]
            k = later[0] if later else (layer[-1] if layer else None)
        return k

    # --- Changing the decisions ---------------------------------------------------------

    def _commit(self, change: Change) -> None:
        # Written first: if the write fails the error propagates and the session is as it was.
        self.decisions = change_decisions(self.path, put=change.put, remove=change.remove, title=self.raw.title)
        self._refresh()

    def _change(self, put: Sequence[Decision], remove: Collection[str], locus: str, what: str) -> None:
        change = Change.of(self.decisions, put, remove, locus, what)
        self._commit(change)
        self.history.made(change)

    def decide(
        self,
        locus: Locus,
        action: DecisionAction,
        *,
        reading: Reading | None = None,
        siglum: str | None = None,
        cls: ReadingClass | None = None,
        comment: str = "",
        batch: bool = False,
    ) -> tuple[Decision, ...]:
        """Record a decision at ``locus`` (or, with ``batch``, at every locus of the same pair).

        ``reading`` is the reading adopted or reclassified (and ``siglum`` the witness chosen
        among its witnesses). The decisions are merged into the decisions file as it is now
        (:func:`~collate.decisions.file.change_decisions`) before anything else changes, and the
        session then has every decision the file holds, another review's and hand-written ones
        too. If writing fails the error propagates and the session is as it was. One undo takes
        back the whole batch.
        """
        if action in _NAMES_A_READING and reading is None:
            raise ValueError(f"{action.value} needs the reading it concerns")
        if action is DecisionAction.RECLASSIFY and cls is None:
            raise ValueError("reclassify needs a class")
        if action in (DecisionAction.MERGE, DecisionAction.SPLIT):
            raise ValueError(f"{action.value}: use merge() or split()")
        targets = self.same_pair(locus) if batch else (locus,)
        batch_id = new_id() if batch and len(targets) > 1 else None
        when = self.clock()
        made = []
        for target in targets:
            decision = self._decision_at(target, action, reading, siglum, cls, comment, when, batch_id)
            if decision is not None:
                made.append(decision)
        if made:
            self._change(made, (), locus.id, action.value)
        return tuple(made)

    def _decision_at(
        self,
        target: Locus,
        action: DecisionAction,
        reading: Reading | None,
        siglum: str | None,
        cls: ReadingClass | None,
        comment: str,
        when: str,
        batch_id: str | None,
    ) -> Decision | None:
        """The decision :meth:`decide` makes at ``target``; None where the loci as cut have no such
        locus, or it no reading of the same text."""
        # Anchored on the loci as cut, without the other decisions: as re-application finds them.
        shaped = self.shaped.locus(target.id)
        if shaped is None:
            return None
        chosen = None
        if reading is not None:
            # In another locus of the pair the reading is the one with the same text.
            chosen = next((r for r in shaped.variants() if r.text == reading.text), None)
            if chosen is None:
                return None
        result = self.shaped.layer(shaped.layer)
        assert result is not None
        who = siglum if chosen is not None and siglum in chosen.sigla else (chosen.sigla[0] if chosen else None)
        return Decision(
            id=new_id(),
            action=action,
            anchor=anchor_of(shaped, base_tokens(result)),
            editor=self.editor,
            when=when,
            comment=comment,
            siglum=who,
            reading=chosen.text if chosen else None,
            norm=reading_key(chosen) if chosen else None,
            cls=cls,
            batch=batch_id,
        )

    def accept(self, locus: Locus, comment: str) -> tuple[Decision, ...] | None:
        """Decide as the notes suggest at ``locus`` (:meth:`suggestion`), with ``comment``; None if they do not."""
        found = self.suggestion(locus)
        if found is None:
            return None
        return self.decide(locus, found.action, reading=found.reading, siglum=found.siglum, comment=comment)

    def _shaped(self, locus: Locus) -> tuple[LayerResult, Locus]:
        result = self.shaped.layer(locus.layer)
        found = result.locus(locus.id) if result is not None else None
        assert result is not None and found is not None, "every locus to review is one of the loci as cut"
        return result, found

    def merge(self, locus: Locus) -> Decision:
        """Merge ``locus`` with the next locus of its layer, as a decision (:class:`Refused` if they cannot be)."""
        result, first = self._shaped(locus)
        second = next_locus(result, first)
        refusal = merge_refusal(result, first, second)
        if refusal is not None or second is None:
            raise Refused(f"refused_{(refusal or Refusal.NO_NEXT).value}")
        tokens = base_tokens(result)
        anchor, until = anchor_of(first, tokens), anchor_of(second, tokens)
        made = Decision(new_id(), DecisionAction.MERGE, anchor, self.editor, self.clock(), until=until)
        self._change([made], (), locus.id, DecisionAction.MERGE.value)
        return made

    def split(self, locus: Locus, at: int) -> Decision:
        """Split ``locus`` before its base's character ``at`` (from 1), as a decision (:class:`Refused` if not)."""
        result, target = self._shaped(locus)
        refusal = split_refusal(target, at)
        if refusal is not None:
            raise Refused(f"refused_{refusal.value}")
        anchor = anchor_of(target, base_tokens(result))
        made = Decision(new_id(), DecisionAction.SPLIT, anchor, self.editor, self.clock(), at=at)
        self._change([made], (), locus.id, DecisionAction.SPLIT.value)
        return made

    def reattach(self, decision_id: str, locus: Locus) -> Decision:
        """Give an orphaned decision ``locus`` as its place: a new anchor, the rest as it was.

        A decision that names a reading needs the same reading there (:class:`Refused` if not);
        the decision keeps its id, so the file's block is changed in place.
        """
        old = next(d for d in self.report.orphans if d.id == decision_id)
        result, target = self._shaped(locus)
        tokens = base_tokens(result)
        new = replace(old, anchor=anchor_of(target, tokens))
        if old.action in _NAMES_A_READING:
            variants = target.variants()
            chosen = next((r for r in variants if reading_key(r) == old.norm), None)
            chosen = chosen or next((r for r in variants if r.text == old.reading), None)
            if chosen is None:
                raise Refused("cannot_reattach", reading=old.reading or "")
            siglum = old.siglum if old.siglum in chosen.sigla else chosen.sigla[0]
            new = replace(new, reading=chosen.text, norm=reading_key(chosen), siglum=siglum)
        elif old.action is DecisionAction.MERGE:
            second = next_locus(result, target)
            refusal = merge_refusal(result, target, second)
            if refusal is not None or second is None:
                raise Refused(f"refused_{(refusal or Refusal.NO_NEXT).value}")
            new = replace(new, until=anchor_of(second, tokens))
        elif old.action is DecisionAction.SPLIT and (refusal := split_refusal(target, old.at or 0)):
            raise Refused(f"refused_{refusal.value}")
        self._change([new], (), locus.id, "reattach")
        return new

    def drop(self, decision_id: str, locus: str = "") -> None:
        """Take a decision out of the file (an orphan the editor no longer wants); undo puts it back."""
        self._change((), {decision_id}, locus, "drop")


def open_review(
    run: RunResult, editor: str, causes: frozenset[str] = frozenset(), project: Project | None = None
) -> ReviewSession:
    """A review of ``run`` (loaded before the editor's decisions, its notes on the loci they judge) and
    of ``project``'s decisions file (default: the run's project's); ``causes``: review only the loci
    with a reading of one of them.

    The run is the saved one (:func:`collate.runs.saved.last_run`): the review never collates. It
    loads the decisions and applies them itself, as the editor makes them.
    """
    run = run.without_decisions()
    project = project or run.read.project
    notes = run.notes
    claims = {n.id: notes.claims_of(n) for n in notes.notes} if notes is not None else {}
    return ReviewSession(
        run.collation,
        decisions_path(project),
        editor,
        witnesses=run.read.by_siglum(),
        claims=claims,
        causes=causes,
        project=project,
    )
