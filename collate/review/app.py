"""``collate review``: a full-screen, keyboard-driven review of the variant loci.

The app draws one locus at a time (the base text around it, every witness's text and
place, the notes that judge it, the decisions taken) and turns keys into decisions of a
:class:`~collate.review.session.ReviewSession`, which writes them to the decisions file
before the screen changes. Pickers and prompts are modal screens that return a value.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, OptionList, Static

from collate.apparatus import Locus, Reading, ReadingClass
from collate.errors import CollateError
from collate.review.decisions import EDITOR_CLASSES
from collate.review.records import DecisionAction
from collate.review.session import ReviewSession, pair_of
from collate.views.diff import CLASS_STYLE, EMPTY, cite

ACTION_LABEL = {
    DecisionAction.KEEP: "keep the base reading",
    DecisionAction.ADOPT: "adopt",
    DecisionAction.RECLASSIFY: "reclassify",
    DecisionAction.DOUBT: "存疑 doubtful",
}
KEYS = (
    ("n  j  ↓", "next locus"),
    ("p  ↑", "previous locus"),
    ("u", "next undecided locus"),
    ("g", "go to a page of the base (e.g. 3a)"),
    ("k", "keep the base reading as the lemma"),
    ("a", "adopt a witness's reading as the lemma (pick it, then say why)"),
    ("c", "reclassify a reading: substantive, orthographic, scribal error"),
    ("d", "mark doubtful (存疑), with a comment"),
    ("b", "batch: the next decision applies to every locus with the same pair of readings"),
    ("?", "this help"),
    ("q", "quit (every decision is already saved)"),
)
CONTEXT_WIDTH = 14


def shown(text: str) -> str:
    """A reading as the screen shows it: an empty reading (omission, insertion point) as ∅."""
    return text or EMPTY


class ChoiceScreen(ModalScreen[int | None]):
    """Pick one of a few options: digits pick directly, arrows and Enter too, Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
        *(Binding(str(k), f"pick({k - 1})", show=False) for k in range(1, 10)),
    ]
    DEFAULT_CSS = """
    ChoiceScreen { align: center middle; }
    ChoiceScreen > Vertical { width: 80%; height: auto; max-height: 80%; border: round $accent; padding: 0 1; }
    ChoiceScreen OptionList { height: auto; max-height: 20; }
    """

    def __init__(self, title: str, options: Sequence[Text]) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            items = [Text.assemble((f"{k}  ", "bold"), option) for k, option in enumerate(self.options, 1)]
            yield OptionList(*items)
            yield Static(Text("1–9 or ↑↓ Enter: choose · Esc: cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def action_pick(self, k: int) -> None:
        """Choose option ``k`` (0-based), if there is one."""
        if 0 <= k < len(self.options):
            self.dismiss(k)

    def action_cancel(self) -> None:
        """Close without choosing."""
        self.dismiss(None)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter on the highlighted option."""
        self.dismiss(event.option_index)


class PromptScreen(ModalScreen[str | None]):
    """Ask for one line of text: Enter answers (possibly empty), Escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "cancel")]
    DEFAULT_CSS = """
    PromptScreen { align: center middle; }
    PromptScreen > Vertical { width: 80%; height: auto; border: round $accent; padding: 0 1; }
    """

    def __init__(self, question: str, placeholder: str = "") -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.question, style="bold"))
            yield Input(placeholder=self.placeholder)
            yield Static(Text("Enter: done · Esc: cancel", style="dim"))

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: the answer."""
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        """Close without answering."""
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """The keys, in a table; any key closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: auto; height: auto; border: round $accent; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        table = Table(title=Text("collate review: keys"), show_header=False, box=None)
        table.add_column(style="bold")
        table.add_column()
        for keys, what in KEYS:
            table.add_row(Text(keys), Text(what))
        yield Static(table)

    def on_key(self) -> None:
        self.dismiss(None)


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
        s = self.session
        report = s.report
        status = Text.assemble(
            (f" {s.raw.title} ", "bold"),
            f"· {self.index + 1 if s.loci else 0}/{len(s.loci)} · decided {len(report.decided)}",
            f" · undecided {len(report.undecided)}",
            (f" · orphaned {len(report.orphans)}", "yellow" if report.orphans else ""),
            f" · editor {s.editor}",
            (" · BATCH", "bold reverse") if self.batch else "",
        )
        self.query_one("#status", Static).update(status)
        self.query_one("#locus", Static).update(self.render_locus())
        self.query_one("#message", Static).update(Text(self.message))

    def render_locus(self) -> RenderableType:
        """The locus on screen: heading, each witness in context, notes, decisions."""
        locus = self.locus
        if locus is None:
            return Text("No variant loci to review.")
        s = self.session
        style = CLASS_STYLE.get(locus.cls, "")
        heading = Text.assemble(
            (f"{locus.layer.chinese} {locus.layer.value}", "bold"),
            f"  {locus.id}  ",
            (locus.cls.value.replace("_", " "), style),
            f"  {s.raw.base} {cite(locus.lemma.location)}",
        )
        table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
        for name in ("siglum", "text at this place", "class", "place"):
            table.add_column(name, no_wrap=name != "text at this place")
        labels = {w.siglum: w.label for w in s.raw.witnesses}
        for siglum in locus.sigla:
            reading = locus.reading_of(siglum)
            ctx = s.context(locus, siglum, CONTEXT_WIDTH)
            cls = reading.cls if reading is not None else None
            mark = CLASS_STYLE.get(cls, "") if cls else "bold"
            text = Text.assemble((ctx.before, "dim"), ("〔", "dim"), (shown(ctx.text), mark), ("〕", "dim"))
            text.append(ctx.after, style="dim")
            if ctx.note:
                text.append(f"  ({ctx.note})", style="italic dim")
            what = "= base" if reading is None else reading.cls.value.replace("_", " ")
            if reading is not None and reading.cause:
                what += f" ({reading.cause})"
            name = f"{siglum} {labels.get(siglum, '')}".strip()
            table.add_row(Text(name, style="bold"), text, Text(what, style=mark), Text(cite(ctx.location)))
        parts: list[RenderableType] = [heading, Text(""), table]
        for note in locus.notes:
            parts.append(Text(""))
            parts.append(Text.assemble((f"{note.resp}: ", "bold"), note.text, (f"  {cite(note.location)}", "dim")))
            parts.extend(Text(f"  · {claim}", style="italic") for claim in note.claims)
        parts.append(Text(""))
        parts.append(self.render_decision(locus))
        same = s.same_pair(locus)
        if len(same) > 1:
            lemma, texts = pair_of(locus)
            pair = f"{shown(lemma)}/{'/'.join(shown(t) for t in texts)}"
            parts.append(Text(f"{len(same)} loci read {pair}: b applies the next decision to all.", style="dim"))
        return Group(*parts)

    def render_decision(self, locus: Locus) -> Text:
        """The decision in force at ``locus`` and the decisions behind it."""
        decision = locus.decision
        if decision is None:
            return Text("undecided", style="bold yellow")
        lemma = f"lemma {shown(decision.lemma)}" + (f" ({decision.siglum})" if decision.siglum else " (base)")
        out = Text.assemble(("decided: ", "bold green"), lemma)
        if decision.doubtful:
            out.append("  存疑", style="bold yellow")
        for d in self.session.decisions_at(locus):
            what = ACTION_LABEL[d.action]
            if d.action is DecisionAction.ADOPT:
                what += f" {d.siglum} {shown(d.reading or '')}"
            elif d.action is DecisionAction.RECLASSIFY and d.cls is not None:
                what += f" {shown(d.reading or '')} as {d.cls.value.replace('_', ' ')}"
            line = f"\n  {d.when} {d.editor}: {what}" + (f": {d.comment}" if d.comment else "")
            out.append(line, style="dim")
        return out

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
            Text.assemble((siglum, "bold"), " ", (shown(text), CLASS_STYLE.get(r.cls, "")), f"  {r.cls.value}")
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
                (" ".join(r.sigla), "bold"), " ", (shown(r.text), CLASS_STYLE.get(r.cls, "")), f"  {r.cls.value}"
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
