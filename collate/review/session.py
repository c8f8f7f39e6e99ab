"""A review in progress: the collation as run, the decisions file, the editor — no screen.

The terminal app (:mod:`collate.review.app`) only reads keys and draws; everything it
decides goes through :meth:`ReviewSession.decide`, which writes the decisions file
atomically before the session's state changes, so what the screen shows is on disk.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from collate.apparatus import Collation, LayerResult, Locus, Reading, ReadingClass
from collate.errors import ProjectError
from collate.model import SourceLocation, Witness
from collate.project import Project
from collate.review.apply import ApplyReport, apply_decisions, reviewable
from collate.review.decisions import (
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
from collate.review.records import DecisionAction


@dataclass(frozen=True, slots=True)
class Context:
    """One witness at a locus with the text around it: ``before`` + ``text`` + ``after``.

    ``location`` is where ``text`` is in the witness's file (page and line if known);
    ``note`` says why there is no running text (a sparse witness, not extant).
    """

    siglum: str
    before: str
    text: str
    after: str
    location: SourceLocation | None = None
    note: str = ""


def default_editor(project: Project | None = None) -> str:
    """Who decides, when ``--editor`` is not given: the name the project declares, else the login name.

    A project names its editor in ``[review] editor = "王"``: that is the name the 校勘記 and the
    TEI print with each decision, not whoever happens to be logged in.
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
    return os.environ.get("USER") or os.environ.get("USERNAME") or "editor"


def pair_of(locus: Locus) -> tuple[str, tuple[str, ...]]:
    """What a batch decision matches on: the base's text and the texts of the variant readings."""
    return locus.lemma.text, tuple(sorted({r.text for r in locus.variants()}))


def witness_context(
    result: LayerResult,
    locus: Locus,
    siglum: str,
    width: int = 12,
    witnesses: Mapping[str, Witness] | None = None,
) -> Context:
    """``siglum``'s text at ``locus`` with up to ``width`` of its characters either side.

    The context comes from the alignment, so it is each witness's own text around the
    place, in its own characters; a sparse witness has only its reported reading. A witness
    that agrees with the base has no reading of its own to cite: its place is found through
    ``witnesses`` (the witnesses as read), if given.
    """
    alignment = result.alignment
    reading = locus.reading_of(siglum)
    if siglum not in alignment.sigla:
        if reading is None:
            return Context(siglum, "", locus.lemma.text, "", None, "silent here: reads as the base")
        first = reading.witnesses[0]
        return Context(siglum, "", first.text, "", first.location, reading.source or "reported reading")
    j = alignment.sigla.index(siglum)
    own = locus.lemma if siglum == alignment.sigla[0] else None
    if own is None:
        own = next((w for r in locus.readings for w in r.witnesses if w.siglum == siglum), None)
    if reading is not None and reading.cls is ReadingClass.NOT_EXTANT:
        return Context(siglum, "", "", "", None, "not extant here")
    # The witness's tokens, indexed once per layer: not a scan of the whole layer per locus shown.
    index = alignment.index(j)
    before = [tok.t for tok in index.before(locus.col_start, width)]
    after = [tok.t for tok in index.after(locus.col_end, width)]
    tokens = list(index.within(locus.col_start, locus.col_end))
    location = own.location if own is not None else None
    if location is None and tokens and witnesses and siglum in witnesses:
        location = witnesses[siglum].locate(min(t.start for t in tokens))
    return Context(siglum, "".join(before), "".join(t.t for t in tokens), "".join(after), location)


class ReviewSession:
    """The collation under review, with the decisions applied, and the means to add decisions.

    ``raw`` is the collation as run; ``collation`` the same with the decisions applied;
    ``loci`` the loci to review (with a real variant), in layer and base order;
    ``witnesses`` the witnesses as read, to cite the place of every witness's text.
    """

    def __init__(
        self,
        raw: Collation,
        path: Path,
        editor: str,
        decisions: Sequence[Decision] | None = None,
        clock: Callable[[], str] = now,
        witnesses: Mapping[str, Witness] | None = None,
    ) -> None:
        self.raw = raw
        self.witnesses: Mapping[str, Witness] = witnesses or {}
        self.path = path
        self.editor = editor
        self.clock = clock
        self.decisions: tuple[Decision, ...] = tuple(load_decisions(path) if decisions is None else decisions)
        self.collation: Collation = raw
        self.report: ApplyReport = ApplyReport((), (), (), ())
        self.loci: tuple[Locus, ...] = ()
        self._refresh()

    def _refresh(self) -> None:
        self.collation, self.report = apply_decisions(self.raw, self.decisions)
        self.loci = tuple(x for x in self.collation.loci() if reviewable(x))

    def layer_of(self, locus: Locus) -> LayerResult:
        """The layer result ``locus`` belongs to (with decisions applied)."""
        result = self.collation.layer(locus.layer)
        assert result is not None, "every locus comes from a layer of the collation"
        return result

    def context(self, locus: Locus, siglum: str, width: int = 12) -> Context:
        """One witness's text at ``locus`` and around it (:func:`witness_context`)."""
        return witness_context(self.layer_of(locus), locus, siglum, width, self.witnesses)

    def same_pair(self, locus: Locus) -> tuple[Locus, ...]:
        """Every locus to review with the same base text and variant texts (e.g. all 筭/算)."""
        key = pair_of(locus)
        return tuple(x for x in self.loci if pair_of(x) == key)

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
        (:func:`~collate.review.decisions.change_decisions`) before anything else changes, and the
        session then has every decision the file holds, another review's and hand-written ones
        too. If writing fails the error propagates and the session is as it was.
        """
        if action in (DecisionAction.ADOPT, DecisionAction.RECLASSIFY) and reading is None:
            raise ValueError(f"{action.value} needs the reading it concerns")
        if action is DecisionAction.RECLASSIFY and cls is None:
            raise ValueError("reclassify needs a class")
        targets = self.same_pair(locus) if batch else (locus,)
        batch_id = new_id() if batch and len(targets) > 1 else None
        when = self.clock()
        made = []
        for target in targets:
            raw = self.raw.locus(target.id)
            if raw is None:
                continue
            chosen = None
            if reading is not None:
                # In another locus of the pair the reading is the one with the same text.
                chosen = next((r for r in raw.variants() if r.text == reading.text), None)
                if chosen is None:
                    continue
            result = self.raw.layer(raw.layer)
            assert result is not None
            who = siglum if chosen is not None and siglum in chosen.sigla else (chosen.sigla[0] if chosen else None)
            made.append(
                Decision(
                    id=new_id(),
                    action=action,
                    anchor=anchor_of(raw, base_tokens(result)),
                    editor=self.editor,
                    when=when,
                    comment=comment,
                    siglum=who,
                    reading=chosen.text if chosen else None,
                    norm=reading_key(chosen) if chosen else None,
                    cls=cls,
                    batch=batch_id,
                )
            )
        self.decisions = change_decisions(self.path, put=made, title=self.raw.title)
        self._refresh()
        return tuple(made)

    def decisions_at(self, locus: Locus) -> tuple[Decision, ...]:
        """The decisions that apply to ``locus``, in the order made."""
        return self.report.decisions_at(locus.id)

    def next_undecided(self, after: int) -> int | None:
        """The index in ``loci`` of the next undecided locus after ``after`` (wrapping), if any."""
        n = len(self.loci)
        for step in range(1, n + 1):
            k = (after + step) % n
            if self.loci[k].decision is None:
                return k
        return None

    def find_page(self, page: str) -> int | None:
        """The index of the first locus on base page ``page`` (e.g. ``3a``), else the first after it."""
        wanted = page.strip()
        if not wanted:
            return None
        for k, x in enumerate(self.loci):
            loc = x.lemma.location
            if loc is not None and loc.page == wanted:
                return k
        order = _page_order(wanted)
        if order is None:
            return None
        for k, x in enumerate(self.loci):
            loc = x.lemma.location
            if loc is not None and loc.page is not None and (o := _page_order(loc.page)) is not None and o >= order:
                return k
        return None


def _page_order(page: str) -> tuple[int, str] | None:
    """A printed page label (``12``, ``3a``, ``12-7a``) as a sortable key, or None if it is not one."""
    tail = page.rsplit("-", 1)[-1]
    digits = "".join(c for c in tail if c.isdigit())
    return (int(digits), tail[len(digits) :]) if digits and tail.startswith(digits) else None


def open_review(project: Project, editor: str, progress: Callable[[str], None] | None = None) -> ReviewSession:
    """Collate ``project`` (the editorial notes attached to the loci they judge) and open its decisions."""
    from collate.pipeline import collate_project

    # No decisions applied: the session loads and applies them itself, as the editor makes them.
    run = collate_project(project, progress)
    return ReviewSession(run.collation, decisions_path(project), editor, witnesses=run.read.by_siglum())
