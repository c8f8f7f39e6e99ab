"""The review's place and view: the locus on screen, the filter and search, moving, undo, the orphans.

:class:`ReviewBase` is the full-screen app without the keys that decide (those are
:class:`~collate.review.app.ReviewApp`'s): it keeps which locus is on screen among those the
filter lets through, draws it (:mod:`collate.review.app_view`) and makes the changes that are
not decisions at a locus: undo and redo, re-attaching or dropping an orphaned decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from collate.apparatus import Locus
from collate.decisions.history import Change
from collate.errors import CollateError
from collate.model.inert import inert
from collate.review.app_screens import ChoiceScreen, HelpScreen, OrphansScreen, PromptScreen
from collate.review.app_view import describe, render_keys, render_locus, render_status
from collate.review.filters import LocusFilter
from collate.review.look import Look
from collate.review.regularize import RuleChange
from collate.review.session import Refused, ReviewSession
from collate.review.texts import Lang, Words


class ReviewBase(App[None]):
    """The review's place and view: the locus on screen, the filter, moving, undo; drawing it all."""

    TITLE = "collate review"
    # The bindings are shown in the key bar (app_view.render_keys), not in textual's footer.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,j,down", "move(1)", show=False),
        Binding("p,up", "move(-1)", show=False),
        Binding("N", "next_undecided", show=False),
        Binding("g", "goto_page", show=False),
        Binding("f", "filter", show=False),
        Binding("slash", "search", show=False),
        Binding("e", "expand", show=False),
        Binding("u", "undo", show=False),
        Binding("ctrl+r,U", "redo", show=False),
        Binding("o", "orphans", show=False),
        Binding("question_mark", "help", show=False),
        Binding("q", "quit", show=False),
    ]
    DEFAULT_CSS = """
    #status { height: 1; background: $boost; }
    #message { height: auto; min-height: 1; color: $text-muted; }
    #keys { height: 1; dock: bottom; }
    """

    def __init__(self, session: ReviewSession, lang: Lang = "zh") -> None:
        super().__init__()
        self.session = session
        self.look = Look(Words(lang))
        self.words = self.look.words
        self.batch = False
        self.message = ""
        # The loci of graphs only (異體) are left out, as `collate diff` leaves them, unless the
        # review was asked for causes (`--cause variant`): then the editor chose what to see.
        self.view = LocusFilter(graphs=bool(session.causes))
        self.shown: tuple[int, ...] = session.matching(self.view)
        undecided = [k for k in self.shown if session.loci[k].decision is None]
        self.index = undecided[0] if undecided else (self.shown[0] if self.shown else 0)

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with VerticalScroll():
            yield Static(id="locus")
        yield Static(id="message")
        yield Static(id="keys")

    def on_mount(self) -> None:
        self.refresh_view()

    def on_resize(self, event: events.Resize) -> None:
        """Fit the key bar to the new width."""
        self.query_one("#keys", Static).update(render_keys(self.look, event.size.width))

    # --- What is on screen ------------------------------------------------------------

    @property
    def locus(self) -> Locus | None:
        """The locus on screen (None if there is nothing to review, or the filter shows nothing)."""
        loci = self.session.loci
        return loci[self.index] if loci and self.shown else None

    def say(self, message: str) -> None:
        """Show a one-line message under the locus."""
        self.message = message
        self.refresh_view()

    def refresh_view(self) -> None:
        """Draw the status line, the locus, the message and the keys."""
        status = render_status(
            self.session, self.index, self.batch, view=self.view, shown_at=self.shown, look=self.look
        )
        self.query_one("#status", Static).update(status)
        self.query_one("#locus", Static).update(self.render_locus())
        # A message can quote an error, and so a path or a reading: shown inert.
        self.query_one("#message", Static).update(Text(inert(self.message, keep="")))
        self.query_one("#keys", Static).update(render_keys(self.look, self.size.width))

    def render_locus(self) -> RenderableType:
        """The locus on screen: heading, each witness in context, notes, decisions."""
        return render_locus(self.session, self.locus, self.look)

    def changed(self, locus_id: str, near: Locus | None, advance: bool = False) -> None:
        """After a change: the loci shown again, the place kept on ``locus_id`` (or what replaced
        it), then on to the next locus shown if ``advance``."""
        self.shown = self.session.matching(self.view)
        k = self.session.index_of(locus_id, near)
        self.index = k if k is not None else 0
        if advance:
            later = [k for k in self.shown if k > self.index]
            if later:
                self.index = later[0]
            elif self.shown and self.index not in self.shown:
                self.index = self.shown[-1]

    def attempt(self, change: Callable[[], str]) -> None:
        """Make a change of the session and say what it did; say why not if it is refused or not saved."""
        try:
            said = change()
        except Refused as refused:
            said = self.words(refused.key, **refused.names)
        except CollateError as exc:
            said = self.words("not_saved", error=exc)
        self.say(said)

    # --- Moving -----------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        """To the next (``1``) or previous (``-1``) locus the filter shows."""
        ahead = [k for k in self.shown if (k > self.index if step > 0 else k < self.index)]
        if not ahead:
            self.say(self.words("last" if step > 0 else "first"))
            return
        self.index = ahead[0] if step > 0 else ahead[-1]
        self.say("")

    def action_next_undecided(self) -> None:
        """To the next locus shown without a decision (wrapping around)."""
        loci = self.session.loci
        order = [k for k in self.shown if k > self.index] + [k for k in self.shown if k <= self.index]
        k = next((k for k in order if loci[k].decision is None), None)
        if k is None:
            self.say(self.words("all_decided"))
        else:
            self.index = k
            self.say("")

    def action_goto_page(self) -> None:
        """Ask for a page of the base and go to its first locus."""

        def go(page: str | None) -> None:
            if not page:
                return
            k = self.session.find_page(page)
            # The first locus there the filter shows (not one of graphs only it leaves out).
            k = next((i for i in self.shown if i >= k), None) if k is not None else None
            if k is None:
                self.say(self.words("no_page", page=page))
            else:
                self.index = k
                self.say(self.words("page", page=page))

        self.push_screen(PromptScreen(self.words("ask_page"), words=self.words), go)

    def action_help(self) -> None:
        """Show the keys."""
        self.push_screen(HelpScreen(self.words))

    def action_expand(self) -> None:
        """Show long readings and whole units (or cut them again)."""
        self.look = replace(self.look, full=not self.look.full)
        self.say(self.words("expanded" if self.look.full else "collapsed"))

    # --- Filtering --------------------------------------------------------------------

    def use_filter(self, view: LocusFilter) -> None:
        """Walk the loci ``view`` lets through, from the locus on screen or the first after it."""
        shown = self.session.matching(view)
        if not shown:
            self.say(self.words("filter_none"))
            return
        self.view, self.shown = view, shown
        if self.index not in shown:
            self.index = next((k for k in shown if k > self.index), shown[0])
        self.say(self.words("filtered", n=len(shown)) if view.active else self.words("filter_off"))

    def action_search(self) -> None:
        """Ask for characters to find in any witness (empty: no search)."""

        def search(query: str | None) -> None:
            if query is not None:
                self.use_filter(replace(self.view, search=query))

        self.push_screen(PromptScreen(self.words("ask_search"), words=self.words), search)

    def action_filter(self) -> None:
        """Choose what to filter by: class, layer, witness, undecided only, with a note, graphs shown; or clear."""
        w, view = self.words, self.view

        def now(values: frozenset[str]) -> str:
            return " ".join(sorted(values)) if values else w("any")

        options = [
            Text(w("filter_class", now=now(frozenset(w.cls(c) for c in view.classes)))),
            Text(w("filter_layer", now=now(frozenset(w.layer(x) for x in view.layers)))),
            Text(w("filter_siglum", now=now(view.sigla))),
            Text(w("filter_undecided", now=w("on" if view.undecided else "off"))),
            Text(w("filter_noted", now=w("on" if view.noted else "off"))),
            Text(w("filter_graphs", now=w("shown" if view.graphs else "hidden"))),
            Text(w("filter_clear")),
        ]
        loci = self.session.loci
        classes = sorted({r.cls for x in loci for r in x.variants()}, key=lambda c: -c.rank)
        layers = list(dict.fromkeys(x.layer for x in loci))
        sigla = sorted({s for x in loci for r in x.variants() for s in r.sigla})
        # For each dimension: its values, their names, the filter with a set of them.
        dims: list[tuple[list[Any], list[str], Callable[[frozenset[Any]], LocusFilter]]] = [
            (list(classes), [w.cls(c) for c in classes], lambda chosen: replace(view, classes=chosen)),
            (list(layers), [w.layer(x) for x in layers], lambda chosen: replace(view, layers=chosen)),
            (list(sigla), list(sigla), lambda chosen: replace(view, sigla=chosen)),
        ]

        def picked(k: int | None) -> None:
            if k is not None and k < len(dims):
                values, names, with_ = dims[k]

                def then(i: int | None) -> None:
                    if i is not None:
                        self.use_filter(with_(frozenset(values[i - 1 : i]) if i else frozenset()))

                self.push_screen(ChoiceScreen(options[k].plain, [Text(w("any")), *map(Text, names)], w), then)
            elif k == 3:
                self.use_filter(replace(view, undecided=not view.undecided))
            elif k == 4:
                self.use_filter(replace(view, noted=not view.noted))
            elif k == 5:
                self.use_filter(replace(view, graphs=not view.graphs))
            elif k == 6:
                self.use_filter(LocusFilter())

        title = w("ask_filter") + (f"（{describe(view, w)}）" if view.active else "")
        self.push_screen(ChoiceScreen(title, options, w), picked)

    # --- Undo, redo, orphans ----------------------------------------------------------

    def _what(self, change: Change | RuleChange) -> str:
        return f"{self.words.what(change.what)} {change.locus}".strip()

    def action_undo(self) -> None:
        """Take back the latest decision (or merge, split, re-attachment, drop), and go back to its locus."""

        def undo() -> str:
            near = self.locus
            change = self.session.undo()
            if change is None:
                return self.words("nothing_undo")
            self.changed(change.locus or (near.id if near else ""), near)
            return self.words("undone", what=self._what(change))

        self.attempt(undo)

    def action_redo(self) -> None:
        """Make the latest undone change again."""

        def redo() -> str:
            near = self.locus
            change = self.session.redo()
            if change is None:
                return self.words("nothing_redo")
            self.changed(change.locus or (near.id if near else ""), near)
            return self.words("redone", what=self._what(change))

        self.attempt(redo)

    def action_orphans(self) -> None:
        """List the orphaned decisions, why each fits no more; re-attach one here, or drop it."""
        locus = self.locus
        orphans = self.session.orphans()
        if not orphans or locus is None:
            self.say(self.words("no_orphans"))
            return

        def done(answer: tuple[str, str] | None) -> None:
            if answer is None:
                return
            what, decision = answer
            if what == "drop":
                self.attempt(lambda: self._drop(decision, locus))
            else:
                self.attempt(lambda: self._reattach(decision, locus))

        self.push_screen(OrphansScreen(orphans, locus.id, self.words), done)

    def _drop(self, decision: str, locus: Locus) -> str:
        self.session.drop(decision, locus.id)
        self.changed(locus.id, locus)
        return self.words("dropped")

    def _reattach(self, decision: str, locus: Locus) -> str:
        self.session.reattach(decision, locus)
        self.changed(locus.id, locus)
        return self.words("reattached", locus=locus.id)
