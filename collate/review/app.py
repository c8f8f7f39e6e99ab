"""``collate review``: a full-screen, keyboard-driven review of the variant loci.

The app draws one locus at a time (the base text around it, every witness's text and place,
the notes that judge it, the decisions taken) and turns keys into changes of a
:class:`~collate.review.session.ReviewSession`, which writes them to the decisions file before
the screen changes. :class:`ReviewApp` is :class:`~collate.review.app_walk.ReviewBase` (the
place, the filter, moving, undo, the orphans) with the keys that decide: keep, adopt,
reclassify, doubt, accept a suggestion, merge, split, and the key that makes a regularization
rule of the pair on screen (:mod:`collate.review.regularize`). After a decision the review goes on to
the next locus the filter shows, so a 卷 is worked through key after key; a merge or a split
stays on the locus it made, to be decided next. Pickers and prompts are modal screens that
return a value (:mod:`collate.review.app_screens`); what a locus looks like is
:mod:`collate.review.app_view`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from collate.apparatus import Locus, Reading, ReadingClass
from collate.decisions.anchors import EDITOR_CLASSES
from collate.model.annotations import DecisionAction
from collate.model.inert import inert
from collate.review.app_screens import ChoiceScreen, HelpScreen, OrphansScreen, PromptScreen, ScopeScreen
from collate.review.app_view import class_options, reading_option, rule_scope
from collate.review.app_walk import ReviewBase
from collate.review.look import shown
from collate.review.session import Refused, ReviewSession
from collate.review.texts import Lang
from collate.views.diff import CLASS_STYLE

# The app and the screens it opens (the tests look for the help screen by its class).
__all__ = ["ChoiceScreen", "HelpScreen", "OrphansScreen", "PromptScreen", "ReviewApp", "ScopeScreen", "run_review"]


class ReviewApp(ReviewBase):
    """The review: one locus on screen, keys to move, to filter and to decide."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "keep", show=False),
        Binding("a", "adopt", show=False),
        Binding("c", "reclassify", show=False),
        Binding("d", "doubt", show=False),
        Binding("y", "accept", show=False),
        Binding("b", "batch", show=False),
        Binding("m", "merge", show=False),
        Binding("s", "split", show=False),
        Binding("r", "regularize", show=False),
    ]

    def action_batch(self) -> None:
        """Arm (or disarm) batch mode for the next decision."""
        locus = self.locus
        if locus is None:
            return
        self.batch = not self.batch
        n = len(self.session.same_pair(locus))
        self.say(self.words("batch_on", n=n) if self.batch else self.words("batch_off"))

    def record(
        self,
        action: DecisionAction,
        *,
        reading: Reading | None = None,
        siglum: str | None = None,
        cls: ReadingClass | None = None,
        comment: str = "",
    ) -> None:
        """Record a decision at the locus on screen (or its whole pair, in batch mode), then go on."""
        locus = self.locus
        if locus is None:
            return
        batch, self.batch = self.batch, False

        def decide() -> str:
            made = self.session.decide(
                locus, action, reading=reading, siglum=siglum, cls=cls, comment=comment, batch=batch
            )
            self.changed(locus.id, locus, advance=True)
            where = self.words("loci_n", n=len(made)) if batch else locus.id
            return self.words("saved", what=self.words.action(action), where=where, file=self.session.path.name)

        self.attempt(decide)

    def action_keep(self) -> None:
        """Keep the base reading as the lemma."""
        self.record(DecisionAction.KEEP)

    def action_accept(self) -> None:
        """Decide as the notes on the locus suggest (shown under them), their words as the reason."""
        locus = self.locus
        found = self.session.suggestion(locus) if locus is not None else None
        if locus is None or found is None:
            self.say(self.words("no_suggestion"))
            return
        comment = f"{found.resp}{self.words.pick(('：', ': '))}{found.words}"
        self.record(found.action, reading=found.reading, siglum=found.siglum, comment=comment)

    def choose_witness(self, then: Callable[[Reading, str], None]) -> None:
        """Ask which witness's reading; call ``then(reading, siglum)``."""
        locus = self.locus
        if locus is None:
            return
        choices = [(r, w.siglum, w.text) for r in locus.variants() for w in r.witnesses]
        options = [
            Text.assemble(
                (inert(siglum), "bold"),
                " ",
                (self.look.cut(text), CLASS_STYLE.get(r.cls, "")),
                f"  {self.words.cls(r.cls)}",
            )
            for r, siglum, text in choices
        ]

        def picked(k: int | None) -> None:
            if k is not None:
                then(choices[k][0], choices[k][1])

        self.push_screen(ChoiceScreen(self.words("ask_adopt", locus=locus.id), options, self.words), picked)

    def ask_comment(self, question: str, then: Callable[[str], None], required: bool = False) -> None:
        """Ask why; call ``then(comment)`` unless cancelled (or empty when ``required``)."""

        def answered(comment: str | None) -> None:
            if comment is None:
                self.say(self.words("cancelled"))
            elif required and not comment:
                self.say(self.words("doubt_needs_why"))
            else:
                then(comment)

        hint = self.words("why_required" if required else "why_optional")
        self.push_screen(PromptScreen(question, hint, self.words), answered)

    def action_adopt(self) -> None:
        """Pick a witness's reading, say why, and make it the lemma."""

        def adopt(reading: Reading, siglum: str) -> None:
            self.ask_comment(
                self.words("ask_adopt_why", siglum=siglum, reading=self.look.cut(reading.text)),
                lambda comment: self.record(DecisionAction.ADOPT, reading=reading, siglum=siglum, comment=comment),
            )

        self.choose_witness(adopt)

    def action_reclassify(self) -> None:
        """Pick a reading (if there are several), then its class (any an editor may give), then say why."""
        locus = self.locus
        if locus is None:
            return
        readings = locus.variants()
        w = self.words

        def classify(reading: Reading) -> None:
            def picked(k: int | None) -> None:
                if k is None:
                    return
                cls = EDITOR_CLASSES[k]
                self.ask_comment(
                    w("ask_class_why", reading=self.look.cut(reading.text), cls=w.cls(cls)),
                    lambda comment: self.record(
                        DecisionAction.RECLASSIFY, reading=reading, siglum=reading.sigla[0], cls=cls, comment=comment
                    ),
                )

            title = w(
                "ask_class", sigla=" ".join(reading.sigla), reading=self.look.cut(reading.text), cls=w.cls(reading.cls)
            )
            self.push_screen(ChoiceScreen(title, class_options(self.look, EDITOR_CLASSES), w), picked)

        if len(readings) == 1:
            classify(readings[0])
            return
        options = [
            Text.assemble(
                (inert(" ".join(r.sigla)), "bold"),
                " ",
                (self.look.cut(r.text), CLASS_STYLE.get(r.cls, "")),
                f"  {w.cls(r.cls)}",
            )
            for r in readings
        ]

        def which(k: int | None) -> None:
            if k is not None:
                classify(readings[k])

        self.push_screen(ChoiceScreen(w("ask_which", locus=locus.id), options, w), which)

    def action_doubt(self) -> None:
        """Mark the locus doubtful (存疑), with a comment."""
        self.ask_comment(self.words("ask_doubt"), lambda c: self.record(DecisionAction.DOUBT, comment=c), True)

    # --- Cutting the loci anew -----------------------------------------------------------

    def _orphaned(self, before: int) -> str:
        n = len(self.session.report.orphans) - before
        return self.words("now_orphaned", n=n) if n > 0 else ""

    def action_merge(self) -> None:
        """Merge the locus on screen with the next one of its layer (in the same unit)."""
        locus = self.locus
        if locus is None:
            return
        before = len(self.session.report.orphans)

        def merge() -> str:
            self.session.merge(locus)
            self.changed(locus.id, locus)
            return self.words("merged", locus=locus.id) + self._orphaned(before)

        self.attempt(merge)

    def action_split(self) -> None:
        """Ask where to cut the base's text of the locus on screen, and split it there."""
        locus = self.locus
        if locus is None:
            return
        chars = [t.t for t in locus.lemma.tokens]
        if len(chars) < 2:
            self.say(self.words("refused_short"))
            return
        options = [Text(f"{shown(''.join(chars[:k]))}｜{shown(''.join(chars[k:]))}") for k in range(1, len(chars))]
        before = len(self.session.report.orphans)

        def split(at: int) -> str:
            self.session.split(locus, at)
            self.changed(locus.id, locus)
            parts = [
                x.id
                for x in self.session.loci
                if x.layer is locus.layer and locus.col_start <= x.col_start < locus.col_end
            ]
            return self.words("split_into", loci=" ".join(parts)) + self._orphaned(before)

        def picked(k: int | None) -> None:
            if k is not None:
                self.attempt(lambda: split(k + 1))

        self.push_screen(ChoiceScreen(self.words("ask_split", locus=locus.id), options, self.words), picked)

    # --- Regularizing ----------------------------------------------------------------------

    def action_regularize(self) -> None:
        """Read a witness's character here as the base's, in this witness or all, this layer or all.

        The witness is picked if several differ; the scope is asked (every witness, every layer
        unless switched); the rule is saved in the project's regularization table and the loci it
        folds are orthographic from then on (pending the next run). ``u`` takes it out again.
        """
        locus = self.locus
        if locus is None:
            return
        sigla = [w.siglum for r in locus.variants() for w in r.witnesses]
        if not sigla:
            self.say(self.words("refused_no_reading"))
            return

        def chosen(k: int | None) -> None:
            if k is not None:
                self.ask_scope(locus, sigla[k])

        if len(sigla) == 1:
            chosen(0)
            return
        options = []
        for siglum in sigla:
            reading = locus.reading_of(siglum)
            assert reading is not None
            own = next(w.text for w in reading.witnesses if w.siglum == siglum)
            options.append(reading_option(self.look, siglum, own, reading.cls))
        self.push_screen(ChoiceScreen(self.words("ask_rule", locus=locus.id), options, self.words), chosen)

    def ask_scope(self, locus: Locus, siglum: str) -> None:
        """Ask where the rule for ``siglum``'s reading at ``locus`` holds, then make it."""
        w = self.words
        try:
            self.session.rule_table()  # a project that can keep a rule, before the editor says where
            pair = self.session.pair(locus, siglum)
        except Refused as refused:
            self.say(w(refused.key, **refused.names))
            return
        variant, standard = pair.variant.t, pair.standard.t

        def count(this_witness: bool, this_layer: bool) -> tuple[int, int]:
            rule = self.session.rule_at(locus, siglum, this_witness=this_witness, this_layer=this_layer)
            return self.session.folded_by(rule)

        def scoped(answer: tuple[bool, bool] | None) -> None:
            if answer is None:
                self.say(w("cancelled"))
                return
            this_witness, this_layer = answer

            def regularize() -> str:
                made = self.session.regularize(locus, siglum, this_witness=this_witness, this_layer=this_layer)
                # A locus the rule leaves with graphs only is gone from the walk (as from
                # `collate diff`): on to the next one shown; one still differing stays, marked.
                self.changed(locus.id, locus)
                if self.index not in self.shown:
                    later = [k for k in self.shown if k > self.index]
                    self.index = later[0] if later else (self.shown[-1] if self.shown else 0)
                return w(
                    "regularized",
                    siglum=siglum,
                    variant=shown(variant),
                    standard=shown(standard),
                    scope=rule_scope(made.rule, w),
                    n=self.session.folded_by(made)[0],
                    file=self.session.rule_table().name,
                )

            self.attempt(regularize)

        title = w("rule_title", siglum=siglum, variant=shown(variant), standard=shown(standard))
        label = next((x.label for x in self.session.raw.witnesses if x.siglum == siglum), "")
        names = (f"{siglum} {label}".strip(), w.layer(locus.layer))
        self.push_screen(ScopeScreen(title, names, count, w), scoped)


def run_review(session: ReviewSession, lang: Lang = "zh") -> None:
    """Run the review full-screen until the editor quits."""
    ReviewApp(session, lang).run()
