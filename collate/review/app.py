"""``collate review``: a full-screen, keyboard-driven review of the variant loci.

The app draws one locus at a time (the base text around it, every witness's text and
place, the notes that judge it, the decisions taken) and turns keys into decisions of a
:class:`~collate.review.session.ReviewSession`, which writes them to the decisions file
before the screen changes. Pickers and prompts are modal screens that return a value
(:mod:`collate.review.app_screens`); what a locus looks like is :mod:`collate.review.app_view`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Footer, Static

from collate.apparatus import Locus, Reading, ReadingClass
from collate.errors import CollateError
from collate.review.app_screens import ChoiceScreen, HelpScreen, PromptScreen
from collate.review.app_view import ACTION_LABEL, render_locus, render_status, shown
from collate.review.decisions import EDITOR_CLASSES
from collate.review.records import DecisionAction
from collate.review.session import ReviewSession
from collate.views.diff import CLASS_STYLE
from collate.views.inert import inert

# The app and the screens it opens (the tests look for the help screen by its class).
__all__ = ["ChoiceScreen", "HelpScreen", "PromptScreen", "ReviewApp", "run_review"]


class ReviewApp(App[None]):
    """The review: one locus on screen, keys to move and to decide."""

    TITLE = "collate review"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,j,down", "move(1)", "next"),
        Binding("p,up", "move(-1)", "prev"),
        Binding("u", "next_undecided", "undecided"),
        Binding("g", "goto_page", "page"),
        Binding("k", "keep", "keep"),
        Binding("a", "adopt", "adopt"),
        Binding("c", "reclassify", "class"),
        Binding("d", "doubt", "存疑"),
        Binding("b", "batch", "batch"),
        Binding("question_mark", "help", "help"),
        Binding("q", "quit", "quit"),
    ]
    DEFAULT_CSS = """
    #status { height: 1; background: $boost; }
    #message { height: auto; min-height: 1; color: $text-muted; }
    """

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self.index = 0
        self.batch = False
        self.message = ""
        first = session.next_undecided(len(session.loci) - 1) if session.loci else None
        self.index = first or 0

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll():
            yield Static(id="locus")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_view()

    # --- What is on screen ------------------------------------------------------------

    @property
    def locus(self) -> Locus | None:
        """The locus on screen (None if there is nothing to review)."""
        loci = self.session.loci
        return loci[self.index] if loci else None

    def say(self, message: str) -> None:
        """Show a one-line message under the locus."""
        self.message = message
        self.refresh_view()

    def refresh_view(self) -> None:
        """Draw the status line, the locus and the message."""
        self.query_one("#status", Static).update(render_status(self.session, self.index, self.batch))
        self.query_one("#locus", Static).update(self.render_locus())
        # A message can quote an error, and so a path or a reading: shown inert.
        self.query_one("#message", Static).update(Text(inert(self.message, keep="")))

    def render_locus(self) -> RenderableType:
        """The locus on screen: heading, each witness in context, notes, decisions."""
        return render_locus(self.session, self.locus)

    # --- Moving -----------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        """To the next (``1``) or previous (``-1``) locus."""
        n = len(self.session.loci)
        if n:
            self.index = max(0, min(n - 1, self.index + step))
            self.say("")

    def action_next_undecided(self) -> None:
        """To the next locus without a decision (wrapping around)."""
        k = self.session.next_undecided(self.index) if self.session.loci else None
        if k is None:
            self.say("every locus is decided")
        else:
            self.index = k
            self.say("")

    def action_goto_page(self) -> None:
        """Ask for a page of the base and go to its first locus."""

        def go(page: str | None) -> None:
            if not page:
                return
            k = self.session.find_page(page)
            if k is None:
                self.say(f"no locus on or after page {page}")
            else:
                self.index = k
                self.say(f"page {page}")

        self.push_screen(PromptScreen("Go to page of the base (e.g. 3a):"), go)

    def action_help(self) -> None:
        """Show the keys."""
        self.push_screen(HelpScreen())

    def action_batch(self) -> None:
        """Arm (or disarm) batch mode for the next decision."""
        locus = self.locus
        if locus is None:
            return
        self.batch = not self.batch
        n = len(self.session.same_pair(locus))
        self.say(f"batch: the next decision applies to {n} loci" if self.batch else "batch off")

    # --- Deciding ---------------------------------------------------------------------

    def record(
        self,
        action: DecisionAction,
        *,
        reading: Reading | None = None,
        siglum: str | None = None,
        cls: ReadingClass | None = None,
        comment: str = "",
    ) -> None:
        """Record a decision at the locus on screen (or its whole pair, in batch mode), then redraw."""
        locus = self.locus
        if locus is None:
            return
        batch, self.batch = self.batch, False
        current = locus.id
        try:
            made = self.session.decide(
                locus, action, reading=reading, siglum=siglum, cls=cls, comment=comment, batch=batch
            )
        except CollateError as exc:
            self.say(f"NOT SAVED: {exc}")
            return
        # The loci are rebuilt with the decision: stay on the same one.
        self.index = next((k for k, x in enumerate(self.session.loci) if x.id == current), self.index)
        where = f"{len(made)} loci" if batch else current
        self.say(f"{ACTION_LABEL[action]}: {where} — saved to {self.session.path.name}")

    def action_keep(self) -> None:
        """Keep the base reading as the lemma."""
        self.record(DecisionAction.KEEP)

    def choose_witness(self, then: Callable[[Reading, str], None]) -> None:
        """Ask which witness's reading; call ``then(reading, siglum)``."""
        locus = self.locus
        if locus is None:
            return
        choices = [(r, w.siglum, w.text) for r in locus.variants() for w in r.witnesses]
        options = [
            Text.assemble((inert(siglum), "bold"), " ", (shown(text), CLASS_STYLE.get(r.cls, "")), f"  {r.cls.value}")
            for r, siglum, text in choices
        ]

        def picked(k: int | None) -> None:
            if k is not None:
                then(choices[k][0], choices[k][1])

        self.push_screen(ChoiceScreen(f"Adopt which reading as the lemma at {locus.id}?", options), picked)

    def ask_comment(self, question: str, then: Callable[[str], None], required: bool = False) -> None:
        """Ask why; call ``then(comment)`` unless cancelled (or empty when ``required``)."""

        def answered(comment: str | None) -> None:
            if comment is None:
                self.say("cancelled")
            elif required and not comment:
                self.say("not recorded: say why it is doubtful")
            else:
                then(comment)

        self.push_screen(PromptScreen(question, "why (Enter to skip)" if not required else "why"), answered)

    def action_adopt(self) -> None:
        """Pick a witness's reading, say why, and make it the lemma."""

        def adopt(reading: Reading, siglum: str) -> None:
            self.ask_comment(
                f"Adopt {siglum} {shown(reading.text)}: why?",
                lambda comment: self.record(DecisionAction.ADOPT, reading=reading, siglum=siglum, comment=comment),
            )

        self.choose_witness(adopt)

    def action_reclassify(self) -> None:
        """Pick a reading (if there are several), then its class, then say why."""
        locus = self.locus
        if locus is None:
            return
        readings = locus.variants()

        def classify(reading: Reading) -> None:
            options = [Text(c.value.replace("_", " "), style=CLASS_STYLE[c]) for c in EDITOR_CLASSES]

            def picked(k: int | None) -> None:
                if k is None:
                    return
                cls = EDITOR_CLASSES[k]
                self.ask_comment(
                    f"{shown(reading.text)} as {cls.value.replace('_', ' ')}: why?",
                    lambda comment: self.record(
                        DecisionAction.RECLASSIFY, reading=reading, siglum=reading.sigla[0], cls=cls, comment=comment
                    ),
                )

            title = f"Class of {' '.join(reading.sigla)} {shown(reading.text)} (now {reading.cls.value}):"
            self.push_screen(ChoiceScreen(title, options), picked)

        if len(readings) == 1:
            classify(readings[0])
            return
        options = [
            Text.assemble(
                (inert(" ".join(r.sigla)), "bold"), " ", (shown(r.text), CLASS_STYLE.get(r.cls, "")), f"  {r.cls.value}"
            )
            for r in readings
        ]

        def which(k: int | None) -> None:
            if k is not None:
                classify(readings[k])

        self.push_screen(ChoiceScreen(f"Reclassify which reading at {locus.id}?", options), which)

    def action_doubt(self) -> None:
        """Mark the locus doubtful (存疑), with a comment."""
        self.ask_comment(
            "存疑: why is this place doubtful?", lambda c: self.record(DecisionAction.DOUBT, comment=c), True
        )


def run_review(session: ReviewSession) -> None:
    """Run the review full-screen until the editor quits."""
    ReviewApp(session).run()
