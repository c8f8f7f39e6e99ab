"""The review's modal screens: a picker, a one-line prompt, a regularization's scope, the help table,
the orphaned decisions.

Each returns its value to the caller's callback (:meth:`~textual.app.App.push_screen`):
the picker the option chosen, the prompt the line typed, the scope where a rule holds, the
orphans screen what to do with which decision, ``None`` when cancelled. Their words are the review's
(:class:`~collate.review.texts.Words`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static

from collate.decisions.orphans import Orphan
from collate.model.inert import inert
from collate.review.texts import HELP, Words
from collate.views.diff import EMPTY


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

    def __init__(self, title: str, options: Sequence[Text], words: Words | None = None) -> None:
        super().__init__()
        self.title_text = title
        self.options = list(options)
        self.words = words or Words()

    def compose(self) -> ComposeResult:
        with Vertical():
            # The title quotes readings and sigla: shown inert.
            yield Static(Text(inert(self.title_text, keep=""), style="bold"))
            items = [Text.assemble((f"{k}  ", "bold"), option) for k, option in enumerate(self.options, 1)]
            yield OptionList(*items)
            yield Static(Text(self.words("choose_help"), style="dim"))

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

    def __init__(self, question: str, placeholder: str = "", words: Words | None = None) -> None:
        super().__init__()
        self.question = question
        self.placeholder = placeholder
        self.words = words or Words()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(inert(self.question, keep=""), style="bold"))
            yield Input(placeholder=self.placeholder)
            yield Static(Text(self.words("prompt_help"), style="dim"))

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: the answer."""
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        """Close without answering."""
        self.dismiss(None)


class ScopeScreen(ModalScreen[tuple[bool, bool] | None]):
    """Where a regularization holds: this witness or every witness, this layer or every layer.

    Both start at "every" (a graph an editor regularizes is the same graph everywhere, as a
    variant table has it); ``1`` and ``2`` switch them, and the screen says how many loci and
    witnesses' readings the rule folds so (``count(this_witness, this_layer)``). Enter answers
    ``(this_witness, this_layer)``, Escape cancels.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
        Binding("enter", "save", "save"),
        Binding("1", "switch('witness')", show=False),
        Binding("2", "switch('layer')", show=False),
    ]
    DEFAULT_CSS = """
    ScopeScreen { align: center middle; }
    ScopeScreen > Vertical { width: 80%; height: auto; border: round $accent; padding: 0 1; }
    """

    def __init__(
        self,
        title: str,
        names: tuple[str, str],
        count: Callable[[bool, bool], tuple[int, int]],
        words: Words | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.names = names
        self.count = count
        self.words = words or Words()
        self.this_witness = False
        self.this_layer = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(inert(self.title_text, keep=""), style="bold"))
            yield Static(id="scope")
            yield Static(Text(self.words("rule_help"), style="dim"))

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the two choices and what they fold."""
        w = self.words
        witness, layer = self.names
        witnesses = w("rule_only", name=witness) if self.this_witness else w("rule_all_witnesses")
        layers = w("rule_only", name=layer) if self.this_layer else w("rule_all_layers")
        n, readings = self.count(self.this_witness, self.this_layer)
        lines = Text.assemble(
            ("1  ", "bold"),
            inert(w("rule_witnesses", now=witnesses), keep=""),
            "\n",
            ("2  ", "bold"),
            inert(w("rule_layers", now=layers), keep=""),
            "\n",
            (w("rule_folds", n=n, readings=readings), "cyan"),
        )
        self.query_one("#scope", Static).update(lines)

    def action_switch(self, which: str) -> None:
        """Switch between this witness (layer) and every one."""
        if which == "witness":
            self.this_witness = not self.this_witness
        else:
            self.this_layer = not self.this_layer
        self.show()

    def action_save(self) -> None:
        """Enter: the scope chosen."""
        self.dismiss((self.this_witness, self.this_layer))

    def action_cancel(self) -> None:
        """Close without a rule."""
        self.dismiss(None)


class HelpScreen(ModalScreen[None]):
    """The keys, in a table; any key closes it."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: auto; max-width: 100%; height: auto; border: round $accent; padding: 0 1; }
    """

    def __init__(self, words: Words | None = None) -> None:
        super().__init__()
        self.words = words or Words()

    def compose(self) -> ComposeResult:
        table = Table(title=Text(self.words("help_title")), show_header=False, box=None)
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for keys, zh, en in HELP:
            table.add_row(Text(keys), Text(self.words.pick((zh, en))))
        yield Static(table)

    def on_key(self) -> None:
        self.dismiss(None)


class OrphansScreen(ModalScreen[tuple[str, str] | None]):
    """The orphaned decisions, each with why it fits no more: ``r`` re-attaches the one highlighted
    to the locus on screen, ``x`` drops it; the answer is ``("reattach" | "drop", decision id)``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "cancel"),
        Binding("r", "answer('reattach')", "re-attach"),
        Binding("x", "answer('drop')", "drop"),
    ]
    DEFAULT_CSS = """
    OrphansScreen { align: center middle; }
    OrphansScreen > Vertical { width: 90%; height: auto; max-height: 90%; border: round $warning; padding: 0 1; }
    OrphansScreen OptionList { height: auto; max-height: 24; }
    """

    def __init__(self, orphans: Sequence[Orphan], here: str, words: Words) -> None:
        super().__init__()
        self.orphans = list(orphans)
        self.here = here
        self.words = words

    def describe(self, orphan: Orphan) -> Text:
        """One orphan: what it decided, where it was (its anchor), and why it fits no more."""
        w, d, a = self.words, orphan.decision, orphan.decision.anchor
        what = w.action(d.action)
        if d.siglum or d.reading:
            what += f" {inert(d.siglum or '', keep='')} {inert(d.reading or '', keep='') or EMPTY}"
        if d.cls is not None:
            what += f" → {w.cls(d.cls)}"
        around = f"{inert(a.before)}〔{inert(a.lemma) or EMPTY}〕{inert(a.after)}"
        place = f"{w.layer(a.layer)} {inert(a.locus, keep='')}  {around}"
        reading = inert(d.reading or (a.readings[0] if a.readings else ""), keep="") or EMPTY
        why = w.why(
            orphan.why.value,
            lemma=inert(a.lemma, keep="") or EMPTY,
            reading=reading,
            n=orphan.candidates,
            best=orphan.best,
            wanted=orphan.wanted,
            now=orphan.now.id if orphan.now is not None else "",
            now_lemma=inert(orphan.now.lemma.text, keep="") if orphan.now is not None else "",
        )
        who = inert(f"{d.editor} {d.when}" + (f"：{d.comment}" if d.comment else ""), keep="")
        return Text.assemble((what, "bold"), f"  {place}\n", ("   " + why, "yellow"), (f"\n   {who}", "dim"))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(self.words("orphans_title", n=len(self.orphans)), style="bold"))
            yield OptionList(*(self.describe(o) for o in self.orphans))
            yield Static(Text(self.words("orphans_help", locus=inert(self.here, keep="")), style="dim"))

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def action_answer(self, what: str) -> None:
        """Re-attach or drop the highlighted orphan."""
        k = self.query_one(OptionList).highlighted
        if k is not None and 0 <= k < len(self.orphans):
            self.dismiss((what, self.orphans[k].decision.id))

    def action_cancel(self) -> None:
        """Close, changing nothing."""
        self.dismiss(None)
