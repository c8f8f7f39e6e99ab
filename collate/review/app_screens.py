"""The review's modal screens: a picker, a one-line prompt, and the help table of keys.

Each returns its value to the caller's callback (:meth:`~textual.app.App.push_screen`):
the picker the option chosen, the prompt the line typed, ``None`` when cancelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from collate.views.inert import inert

# The help table: what the app's bindings (ReviewApp.BINDINGS) do, in an editor's words; keep the two in step.
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
            # The title quotes readings and sigla: shown inert.
            yield Static(Text(inert(self.title_text, keep=""), style="bold"))
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
            yield Static(Text(inert(self.question, keep=""), style="bold"))
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
